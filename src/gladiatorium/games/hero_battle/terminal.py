"""Hero Battle at the terminal: the Battle in text as the seat knows it, the notation,
and the moderator's console (``gladiatorium hero-battle moderate|post``)."""

from __future__ import annotations

from collections.abc import Mapping

from gladiatorium.core import Seat, State, TerminalPresenter
from gladiatorium.games.hero_battle.options import HeroBattleOptions
from gladiatorium.games.hero_battle.render import battle_text

NOTATION = """\
Every round each living player assigns 2 hits and 1 heal on different heroes
(or abstains), and may send one private identity guess. Hero names are typed in full
(any letter case); hits and heals may be listed in any order.
  hit Captain Comet, Night Heron heal Miss Mirage   your move (edit it by moving again)
  abstain                                           no move: the moderator deals one
                                                    random hit from you (never on you)
  guess Doctor Paradox=4                            private: Doctor Paradox is player 4
                                                    (or give the player's name)
  guess Doctor Paradox=random                       ... is Random Player's hero
  hit Glass Golem                                   a Zombie's move: one hit
Send your guess before your move: the round closes when the last player moves.
The moderator seat: 'close' closes the round at the deadline (who has not moved abstains)."""


class HeroBattleTerminal(TerminalPresenter):
    """Hero Battle at the terminal."""

    def commands(self) -> Mapping[str, object]:
        """``gladiatorium hero-battle moderate|post``: the moderator's console."""
        from gladiatorium.games.hero_battle import commands

        return {"hero-battle": commands.app}

    def render(self, state: State[HeroBattleOptions], seat: Seat | None) -> str:
        return battle_text(state.view(seat), seat)

    def notation_help(self) -> str:
        return NOTATION

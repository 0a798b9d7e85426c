"""Electron Gladiators: the rules (info, options, a match, bots); shown by ``terminal.py``
and ``web.py``."""

from __future__ import annotations

from collections.abc import Mapping

from gladiatorium.core import (
    BotFactory,
    Game,
    GameInfo,
    Seat,
    State,
    standing,
)
from gladiatorium.games.electron_gladiators.actions import ACTION_TYPES
from gladiatorium.games.electron_gladiators.board import FACINGS
from gladiatorium.games.electron_gladiators.options import (
    ElectronGladiatorsOptions,
)
from gladiatorium.games.electron_gladiators.setups import SetupError, parse_setup
from gladiatorium.games.electron_gladiators.state import ElectronGladiatorsState
from gladiatorium.games.electron_gladiators.terminal import ElectronGladiatorsTerminal
from gladiatorium.games.electron_gladiators.web import ElectronGladiatorsWeb


class ElectronGladiators(Game[ElectronGladiatorsOptions]):
    info = GameInfo(
        slug="electron-gladiators",
        name="Electron Gladiators",
        summary="Virtual tank battle on a 21x21 arena: armour, arcs, parabolic fire, flyers.",
        min_players=2,
        max_players=2,
        default_players=2,
        hidden_information=False,
        simultaneous=False,
        version="4",
    )
    options_type = ElectronGladiatorsOptions
    action_types = ACTION_TYPES
    terminal_presenter = ElectronGladiatorsTerminal
    web_presenter = ElectronGladiatorsWeb

    def new_state(
        self, options: ElectronGladiatorsOptions, players: int, seed: int
    ) -> ElectronGladiatorsState:
        return ElectronGladiatorsState(options, players, seed)

    def load_position(
        self, options: ElectronGladiatorsOptions, players: int, seed: int, text: str, source: str
    ) -> ElectronGladiatorsState:
        """A position is a set-up (with facings) and, optionally, the turn, the seat to
        move and where the turn stands (docs/rules/electron-gladiators.md, "Positions");
        it becomes the match's ``setup`` option, so its record replays alone. Its next
        dice, if it names them, are rolled before the seed's."""
        parse_setup(text, source)
        try:
            return ElectronGladiatorsState(
                options.model_copy(update={"setup": text}), players, seed
            )
        except SetupError as err:  # found with the arena built (a dodge with no square)
            raise SetupError(str(err).replace("setup line", f"{source} line", 1)) from None

    def write_position(
        self, state: State[ElectronGladiatorsOptions], seat: Seat | None = None
    ) -> str:
        """The match at any decision point. Everything on the arena is open to both
        seats; a seat's position leaves out only the next dice, which no seat knows."""
        assert isinstance(state, ElectronGladiatorsState)
        return state.position_text(dice=seat is None)

    def evaluate(self, state: State[ElectronGladiatorsOptions]) -> dict[Seat, float]:
        """Each side's position as the tactician weighs it (material, the threats both
        ways, the distance its guns still have to close), against the other side's:
        material alone let a search wander until the quiet-turn draw."""
        from gladiatorium.games.electron_gladiators.bots import _evaluate

        assert isinstance(state, ElectronGladiatorsState)
        worth = {s: _evaluate(state.arena, s, state.options) for s in state.seats}
        return standing(worth, 20.0)

    def bots(self) -> Mapping[str, BotFactory]:
        from gladiatorium.games.electron_gladiators.bots import Tactician

        return {"tactician": Tactician}


__all__ = ["FACINGS", "ElectronGladiators"]

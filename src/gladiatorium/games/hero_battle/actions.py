"""Actions: a move (hits and heals), an abstention, a private guess, the moderator's close.

Notation (hero names may hold spaces; commas separate them):
  ``hit Captain Comet, Night Heron heal Miss Mirage``   a move
  ``abstain``                                            no move (a random hit is dealt)
  ``guess Captain Comet=4``                              private: Captain Comet is player 4
  ``guess Captain Comet=random``                         ... is Random Player's hero
  ``close``                                              moderator: close the round now
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gladiatorium.core import Action

#: the pseudo-player who owns Random Player's hero
RANDOM_PLAYER = "random"
#: the moderator's seat
MODERATOR = "moderator"


@dataclass(frozen=True)
class Move(Action):
    """Hits and heals for this round (targets in canonical hero order)."""

    type_name: ClassVar[str] = "move"
    hits: tuple[str, ...] = ()
    heals: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"hit {', '.join(self.hits)}" if self.hits else ""
        if self.heals:
            text = f"{text} heal {', '.join(self.heals)}".strip()
        return text


@dataclass(frozen=True)
class Abstain(Action):
    """No move this round; the moderator assigns one random hit from this player."""

    type_name: ClassVar[str] = "abstain"

    def __str__(self) -> str:
        return "abstain"


@dataclass(frozen=True)
class Guess(Action):
    """A private message to the moderator: ``hero`` belongs to ``player``."""

    type_name: ClassVar[str] = "guess"
    hero: str = ""
    player: str = ""

    def __str__(self) -> str:
        return f"guess {self.hero}={self.player}"


@dataclass(frozen=True)
class Close(Action):
    """The moderator closes the round (the deadline passed); who has not moved abstains."""

    type_name: ClassVar[str] = "close"

    def __str__(self) -> str:
        return "close"


ACTION_TYPES: tuple[type[Action], ...] = (Move, Abstain, Guess, Close)

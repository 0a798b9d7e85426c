"""Actions and their notation (docs/rules/gladiator-chess.md, "Notation").

queen: C h1-h4                 the Queen's commander moves her Champion
king: F a2xb3                  'x' when the square entered is occupied
kings-knight: SQ b9-b10=BK     a promotion names the piece that returns
king overrides queen: BK e1-f3 the King overrides the Queen's move
let queen                      the King lets the Queen's commander move
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from gladiatorium.core import Action


@dataclass(frozen=True)
class Move(Action):
    """``commander`` moves (or, with ``override``, the King in place of that
    commander moves) ``piece`` from ``origin`` to ``target``. ``takes`` marks an
    occupied target; ``promote`` names the returning piece of a promotion."""

    type_name: ClassVar[str] = "move"
    commander: str
    piece: str
    origin: str
    target: str
    takes: bool = False
    promote: str = ""
    override: str = ""

    def __str__(self) -> str:
        return self.notation

    @cached_property
    def notation(self) -> str:
        """The move as written (made once: moves are shared, see state.shared_move)."""
        who = f"king overrides {self.override}" if self.override else self.commander
        sep = "x" if self.takes else "-"
        tail = f"={self.promote}" if self.promote else ""
        return f"{who}: {self.piece} {self.origin}{sep}{self.target}{tail}"


@dataclass(frozen=True)
class Let(Action):
    """The King declines to override ``commander``, who now moves."""

    type_name: ClassVar[str] = "let"
    commander: str

    def __str__(self) -> str:
        return f"let {self.commander}"


ACTION_TYPES: tuple[type[Action], ...] = (Move, Let)

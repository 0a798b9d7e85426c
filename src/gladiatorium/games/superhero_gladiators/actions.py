"""Actions of Superhero Gladiators and their notation.

Heroes are named by id (``1A``: team 1's first hero), squares as ``c4``, powers by
name. The acting hero is always the one whose turn it is, so actions do not name it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gladiatorium.core import Action


@dataclass(frozen=True)
class Place(Action):
    """Set-up: put the hero being placed on a start square."""

    type_name: ClassVar[str] = "place"
    square: str

    def __str__(self) -> str:
        return f"place {self.square}"


@dataclass(frozen=True)
class Move(Action):
    """Move to ``square`` at ``altitude`` using the named movement powers (none:
    walking on the ground)."""

    type_name: ClassVar[str] = "move"
    square: str
    altitude: int = 0
    powers: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"move {self.square}"
        if self.altitude:
            text += f" up {self.altitude}"
        if self.powers:
            text += " with " + " + ".join(self.powers)
        return text


@dataclass(frozen=True)
class Attack(Action):
    """Attack hero ``target`` (or its power ``gizmo``'s gizmo) with ``power``;
    ``copied`` uses the attack copied by copy power."""

    type_name: ClassVar[str] = "attack"
    target: str
    power: str
    gizmo: str = ""
    copied: bool = False

    def __str__(self) -> str:
        what = f"{self.target} gizmo {self.gizmo}" if self.gizmo else self.target
        how = f"copied {self.power}" if self.copied else self.power
        return f"attack {what} with {how}"


@dataclass(frozen=True)
class Heal(Action):
    type_name: ClassVar[str] = "heal"
    target: str
    power: str

    def __str__(self) -> str:
        return f"heal {self.target} with {self.power}"


@dataclass(frozen=True)
class Notice(Action):
    """Try to notice a hidden gizmo of ``target``: a used one named by its power, or
    ``unused`` (the owner picks which when there are several)."""

    type_name: ClassVar[str] = "notice"
    target: str
    power: str

    def __str__(self) -> str:
        return f"notice {self.target} {self.power}"


@dataclass(frozen=True)
class Escape(Action):
    """Try to escape entanglement, optionally helped by a slippery power."""

    type_name: ClassVar[str] = "escape"
    power: str = ""

    def __str__(self) -> str:
        return f"escape with {self.power}" if self.power else "escape"


@dataclass(frozen=True)
class Pass(Action):
    type_name: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Defend(Action):
    """Reaction of a hit hero: ``take`` the hit, or use a defensive power (``use``),
    or copy the attack with copy power (``copy``)."""

    type_name: ClassVar[str] = "defend"
    how: str
    power: str = ""

    def __str__(self) -> str:
        if self.how == "take":
            return "take hit"
        return f"{self.how} {self.power}"


@dataclass(frozen=True)
class Reveal(Action):
    """Reaction: the owner picks which unused hidden gizmo was noticed."""

    type_name: ClassVar[str] = "reveal"
    power: str

    def __str__(self) -> str:
        return f"reveal {self.power}"


ACTION_TYPES: tuple[type[Action], ...] = (
    Place,
    Move,
    Attack,
    Heal,
    Notice,
    Escape,
    Pass,
    Defend,
    Reveal,
)

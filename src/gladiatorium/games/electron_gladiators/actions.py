"""Actions: the small steps a turn is made of, each with its notation.

A turn is one move action (steps of one vehicle) and at most one attack, before
or after the move, never in the middle::

    C1 fwd 2          forward two squares          C1 rev 1      reverse one
    C1 turn r45       turn 45 degrees right        C1 turn 180   turn about
    A1 fly SE 3       a flyer flies three squares south-east
    fire G1 at G9     attack                       fire G1 at G9 with K1   with a second gun
    end               end the move (and the turn, unless an attack is still to come)
    dodge H8          a Scout that was missed dodges to H8 (its owner chooses)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gladiatorium.core import Action


@dataclass(frozen=True)
class Drive(Action):
    """A ground vehicle drives ``squares`` straight forward (``fwd``) or back (``rev``)."""

    type_name: ClassVar[str] = "drive"
    at: str
    direction: str  # "fwd" or "rev"
    squares: int

    def __str__(self) -> str:
        return f"{self.at} {self.direction} {self.squares}"


@dataclass(frozen=True)
class Turn(Action):
    """A ground vehicle turns in place: ``l45`` .. ``l135``, ``r45`` .. ``r135`` or ``180``."""

    type_name: ClassVar[str] = "turn"
    at: str
    turn: str

    def __str__(self) -> str:
        return f"{self.at} turn {self.turn}"

    @property
    def eighths(self) -> int:
        """The turn in 45-degree steps, clockwise positive."""
        if self.turn == "180":
            return 4
        sign = 1 if self.turn[0] == "r" else -1
        return sign * int(self.turn[1:]) // 45


@dataclass(frozen=True)
class Fly(Action):
    """A flyer flies ``squares`` straight in a compass direction, whatever it faces."""

    type_name: ClassVar[str] = "fly"
    at: str
    heading: str
    squares: int

    def __str__(self) -> str:
        return f"{self.at} fly {self.heading} {self.squares}"


@dataclass(frozen=True)
class Fire(Action):
    """An attack by the vehicle at ``at`` on ``target``, optionally with a second gun."""

    type_name: ClassVar[str] = "fire"
    at: str
    target: str
    helper: str = ""

    def __str__(self) -> str:
        extra = f" with {self.helper}" if self.helper else ""
        return f"fire {self.at} at {self.target}{extra}"


@dataclass(frozen=True)
class EndMove(Action):
    """End the move action here (the attack, if not made yet, may still follow)."""

    type_name: ClassVar[str] = "end"

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True)
class Dodge(Action):
    """The owner of a missed Scout moves it one space forward or 45 degrees aside."""

    type_name: ClassVar[str] = "dodge"
    to: str

    def __str__(self) -> str:
        return f"dodge {self.to}"


ACTION_TYPES: tuple[type[Action], ...] = (Drive, Turn, Fly, Fire, EndMove, Dodge)

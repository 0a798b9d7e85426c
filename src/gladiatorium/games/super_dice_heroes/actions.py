"""The actions of Super Dice Heroes and their notation.

Locations are written by number (1 City Hall ... 6 Church), dice by the number they
show now, boxes by their number in the location (see the rendered sheet).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gladiatorium.core import Action

#: the superpowers by the number rolled for them at set-up
POWERS: dict[int, str] = {
    1: "shrink",
    2: "teleport",
    3: "ice",
    4: "fire",
    5: "shapeshift",
    6: "grow",
}
POWER_NUMBERS = {name: number for number, name in POWERS.items()}

#: what each superpower does, in one line (the web pages' legend and tips)
POWER_LINES: dict[str, str] = {
    "shrink": "a die of this round becomes 1",
    "teleport": "spend any die of this round to go to any location",
    "ice": "a die of this round goes down one (not a 1)",
    "fire": "a die of this round goes up one (not a 6)",
    "shapeshift": "a die of this round becomes the number of another die rolled this round",
    "grow": "a die of this round becomes 6",
}

#: powers that change one die's number (teleport spends a die instead)
CHANGING_POWERS = ("shrink", "ice", "fire", "shapeshift", "grow")


@dataclass(frozen=True)
class ChoosePower(Action):
    """Set-up: keep one of the two superpowers rolled for this hero."""

    type_name: ClassVar[str] = "choose"
    power: str

    def __str__(self) -> str:
        return f"choose {self.power}"


@dataclass(frozen=True)
class Move(Action):
    """Spend a die to move to ``location``."""

    type_name: ClassVar[str] = "move"
    location: int
    die: int

    def __str__(self) -> str:
        return f"move {self.location} with {self.die}"


@dataclass(frozen=True)
class Help(Action):
    """Spend a die to fill ``box`` of the current location with it."""

    type_name: ClassVar[str] = "help"
    die: int
    box: int

    def __str__(self) -> str:
        return f"help {self.die} at {self.box}"


@dataclass(frozen=True)
class Defeat(Action):
    """Spend a die of any number to defeat a robot minion at the current location."""

    type_name: ClassVar[str] = "defeat"
    die: int

    def __str__(self) -> str:
        return f"defeat minion with {self.die}"


@dataclass(frozen=True)
class WildMove(Action):
    """Spend a wild die to move to ``location``."""

    type_name: ClassVar[str] = "wild-move"
    location: int

    def __str__(self) -> str:
        return f"wild move {self.location}"


@dataclass(frozen=True)
class WildHelp(Action):
    """Spend a wild die, as the number ``die``, to fill ``box`` of the current location."""

    type_name: ClassVar[str] = "wild-help"
    die: int
    box: int

    def __str__(self) -> str:
        return f"wild help {self.die} at {self.box}"


@dataclass(frozen=True)
class WildDefeat(Action):
    """Spend a wild die to defeat a robot minion at the current location."""

    type_name: ClassVar[str] = "wild-defeat"

    def __str__(self) -> str:
        return "wild defeat minion"


@dataclass(frozen=True)
class ChangeDie(Action):
    """Use a superpower (shrink, ice, fire, shapeshift, grow) on a die showing ``die``;
    ``to`` is the number it shows afterwards."""

    type_name: ClassVar[str] = "power"
    power: str
    die: int
    to: int

    def __str__(self) -> str:
        if self.power == "shapeshift":
            return f"shapeshift {self.die} to {self.to}"
        return f"{self.power} {self.die}"


@dataclass(frozen=True)
class Teleport(Action):
    """Use the teleport superpower: spend a die of any number to go to ``location``."""

    type_name: ClassVar[str] = "teleport"
    location: int
    die: int

    def __str__(self) -> str:
        return f"teleport {self.location} with {self.die}"


@dataclass(frozen=True)
class Done(Action):
    """This hero has finished with this round's dice: all spent (R6), or, with the
    house rule ``may_waste_dice``, the ones left are lost."""

    type_name: ClassVar[str] = "done"

    def __str__(self) -> str:
        return "done"


ACTION_TYPES: tuple[type[Action], ...] = (
    ChoosePower,
    Move,
    Help,
    Defeat,
    WildMove,
    WildHelp,
    WildDefeat,
    ChangeDie,
    Teleport,
    Done,
)

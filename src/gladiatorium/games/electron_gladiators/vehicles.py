"""The eight vehicle types and their table values (speed, armour, gun, ranges)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class VehicleType:
    """One row of the vehicle table.

    ``armour`` is front, sides, rear. ``parabolic`` is the (min, max) band of a
    parabolic gun or None. ``direct`` is the direct-attack range (0: none).
    ``telemetry`` is how far it spots; flyers spot all round (a radius).
    """

    code: str
    name: str
    speed: int
    armour: tuple[int, int, int]
    gun: int
    parabolic: tuple[int, int] | None
    direct: int
    telemetry: int
    flyer: bool = False
    tank: bool = False
    scout: bool = False
    #: how it moves: ``flyer``, ``scout`` or ``tank`` (vehicles that move alike have
    #: the same steps from the same square)
    mobility: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        mobility = "flyer" if self.flyer else "scout" if self.scout else "tank"
        object.__setattr__(self, "mobility", mobility)

    def armour_on(self, side: str) -> int:
        return self.armour[("front", "sides", "rear").index(side)]


TYPES: dict[str, VehicleType] = {
    t.code: t
    for t in (
        VehicleType("INV", "Inverter", 4, (3, 3, 3), 0, None, 0, 10, flyer=True),
        VehicleType("HT2", "Heavy Tank-2", 3, (4, 3, 2), 5, (2, 7), 9, 9, tank=True),
        VehicleType("HT1", "Heavy Tank-1", 3, (4, 3, 2), 4, (2, 7), 9, 9, tank=True),
        VehicleType("MT2", "Medium Tank-2", 4, (3, 2, 1), 4, (2, 5), 7, 7, tank=True),
        VehicleType("MT1", "Medium Tank-1", 4, (3, 2, 1), 3, (2, 5), 7, 7, tank=True),
        VehicleType("LT", "Light Tank", 5, (2, 1, 1), 2, None, 5, 5, tank=True),
        VehicleType("SC", "Scout/Mine Layer", 7, (0, 0, 0), 1, None, 5, 5, scout=True),
        VehicleType("MQ", "Mosquito", 5, (0, 0, 0), 1, (2, 8), 8, 8, flyer=True),
    )
}

#: what sets a type apart beyond its table values (the web pages' legend and tips)
ROLES = {
    "INV": "its field is its attack: it destroys the first enemy it passes over or lands on",
    "SC": "fires straight ahead only, never reverses, turns 45 or 90 degrees free; hit "
    "only on a die roll, by an attacker that has not moved",
    "MQ": "fires all round; alone it attacks only Scouts; hit only on a die roll, by a "
    "parabolic gun that has not moved",
}


def type_line(kind: VehicleType) -> str:
    """One line of what a vehicle type does: how it moves, its table values, its role."""
    how = "flyer (no facing)" if kind.flyer else "scout" if kind.scout else "tank"
    front, sides, rear = kind.armour
    band = f"{kind.parabolic[0]}-{kind.parabolic[1]}" if kind.parabolic else "none"
    line = (
        f"{how}; speed {kind.speed}, armour {front}-{sides}-{rear} (front-sides-rear), "
        f"gun {kind.gun or 'none'}, direct range {kind.direct or 'none'}, parabolic band "
        f"{band}, telemetry {kind.telemetry}"
    )
    role = ROLES.get(kind.code)
    return f"{line}; {role}" if role else line


#: rough worth of each type, for bots and tie-breaks (not a rule)
VALUE = {"INV": 6, "HT2": 7, "HT1": 6, "MT2": 5, "MT1": 4, "LT": 3, "SC": 2, "MQ": 3}


@dataclass(slots=True)
class Vehicle:
    """A vehicle on the arena. ``facing`` is None for flyers (they ignore it)."""

    ident: int
    seat: str
    code: str
    square: tuple[int, int]
    facing: int | None
    #: the type's table row (looked up once: it is read at every step and shot)
    kind: VehicleType = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.kind = TYPES[self.code]

    def copy(self) -> Vehicle:
        return Vehicle(self.ident, self.seat, self.code, self.square, self.facing)

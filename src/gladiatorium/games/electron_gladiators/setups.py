"""Set-ups: the arena's obstacles and the starting vehicles, in a small text format.

The format (docs/rules/electron-gladiators.md, "Set-up files")::

    ; a comment
    name Basic Set Up 1
    map
        ABCDEFGHIJKLMNOPQRSTU
     1  .....................
     ...                        (21 rows, row 1 first)
    21  .....................
    vehicle 1 HT1 G1 S          (seat, type, square, facing; flyers write -)
    turn 7                      (optional, for a position: the turn being played)
    to-move 2                   (optional: the seat to move; default 1)

Map characters: ``.`` open ground, ``O`` an obstacle, ``X`` a 3D obstacle.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from gladiatorium.core import GladiatoriumError, OptionsError
from gladiatorium.games.electron_gladiators.board import (
    COLUMNS,
    FACINGS,
    SIZE,
    Square,
    parse_facing,
    parse_square,
    square_name,
)
from gladiatorium.games.electron_gladiators.vehicles import TYPES

SHIPPED = {
    "basic-1": "basic-1.txt",
    "basic-2": "basic-2.txt",
    "deluxe-1": "deluxe-1.txt",
    "deluxe-2": "deluxe-2.txt",
}
SEATS = ("1", "2")


class SetupError(OptionsError):
    """A set-up that does not parse; names the line and what is wrong."""


@dataclass(frozen=True)
class Placement:
    seat: str
    code: str
    square: Square
    facing: int | None


@dataclass(frozen=True)
class Setup:
    name: str
    obstacles: frozenset[Square]
    walls: frozenset[Square]  # 3D obstacles (X)
    vehicles: tuple[Placement, ...]
    to_move: str = "1"
    turn: int = 1


def shipped_text(name: str) -> str:
    """The text of a shipped set-up (``basic-1``, ``basic-2``, ``deluxe-1``, ``deluxe-2``)."""
    folder = resources.files("gladiatorium.games.electron_gladiators") / "data"
    return (folder / SHIPPED[name]).read_text(encoding="utf-8")


def setup_text(value: str) -> str:
    """The set-up text an option value stands for: a shipped name or inline text."""
    if value in SHIPPED:
        return shipped_text(value)
    if "\n" in value:
        return value
    known = ", ".join(SHIPPED)
    raise SetupError(
        f"setup {value!r}: not a shipped set-up ({known}) nor set-up text "
        "(use --setup FILE to load a file)"
    )


def parse_setup(text: str, source: str = "setup") -> Setup:
    """Read a set-up; every error names ``source``, the line and the problem."""
    name = ""
    rows: list[str] = []
    vehicles: list[tuple[str, Placement]] = []  # (where it was given, placement)
    map_where = ""
    to_move, turn = "1", 1
    lines = text.splitlines()
    index = 0
    in_map = False
    while index < len(lines):
        number = index + 1
        raw = lines[index].split(";", 1)[0].strip()
        index += 1
        if not raw:
            continue
        where = f"{source} line {number}"
        words = raw.split()
        if in_map and len(rows) < SIZE:
            if words == [COLUMNS]:
                continue
            rows.append(_map_row(words, len(rows) + 1, where))
            continue
        in_map = False
        if words[0] == "name":
            name = raw[4:].strip()
        elif words == ["map"]:
            if map_where:
                raise SetupError(f"{where}: a second map (the first is on {map_where})")
            in_map, map_where = True, f"line {number}"
        elif words[0] == "vehicle":
            vehicles.append((where, _vehicle(words[1:], where)))
        elif words[0] == "to-move":
            to_move = _seat(words[1:], where)
        elif words[0] == "turn":
            turn = _turn(words[1:], where)
        else:
            raise SetupError(
                f"{where}: expected 'name', 'map', 'vehicle', 'turn' or 'to-move', got {raw!r}"
            )
    if not map_where:
        raise SetupError(f"{source}: no 'map' line (the map of {SIZE} rows follows one)")
    if len(rows) != SIZE:
        raise SetupError(
            f"{source} {map_where}: the map needs {SIZE} rows, the file ends after {len(rows)}"
        )
    obstacles = frozenset(
        (c, r) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "O"
    )
    walls = frozenset((c, r) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X")
    _check_vehicles(vehicles, obstacles, walls, source)
    placed = tuple(v for _, v in vehicles)
    return Setup(name or source, obstacles, walls, placed, to_move, turn)


def _seat(words: list[str], where: str) -> str:
    if len(words) != 1 or words[0] not in SEATS:
        raise SetupError(f"{where}: to-move: expected seat 1 or 2")
    return words[0]


def _turn(words: list[str], where: str) -> int:
    if len(words) != 1 or not words[0].isdigit() or int(words[0]) < 1:
        raise SetupError(f"{where}: turn: expected a whole number of at least 1")
    return int(words[0])


def _map_row(words: list[str], expected: int, where: str) -> str:
    if len(words) != 2 or words[0] != str(expected):
        raise SetupError(f"{where}: expected map row {expected} as '{expected} <21 characters>'")
    row = words[1].upper()
    if len(row) != SIZE or set(row) - set(".OX"):
        raise SetupError(
            f"{where}: map row {expected} must be {SIZE} characters of '.', 'O' or 'X' "
            f"(found {len(row)}: {row!r})"
        )
    return row


def _vehicle(words: list[str], where: str) -> Placement:
    if len(words) not in (3, 4):
        raise SetupError(f"{where}: expected 'vehicle SEAT TYPE SQUARE FACING'")
    seat, code, square_text = words[0], words[1].upper(), words[2]
    if seat not in SEATS:
        raise SetupError(f"{where}: seat {seat!r} is not 1 or 2")
    if code not in TYPES:
        raise SetupError(f"{where}: unknown vehicle type {code!r}; types: {', '.join(TYPES)}")
    try:
        square = parse_square(square_text)
        facing_text = words[3] if len(words) == 4 else "-"
        if TYPES[code].flyer:
            facing = None
        elif facing_text == "-":
            raise SetupError(f"{where}: a {code} needs a facing ({', '.join(FACINGS)})")
        else:
            facing = parse_facing(facing_text)
    except SetupError:
        raise
    except GladiatoriumError as err:
        raise SetupError(f"{where}: {err}") from err
    return Placement(seat, code, square, facing)


def _check_vehicles(
    vehicles: list[tuple[str, Placement]],
    obstacles: frozenset[Square],
    walls: frozenset[Square],
    source: str,
) -> None:
    """One vehicle a square, none on a 3D obstacle, only flyers on a regular one
    (they may stop there in play, R3), at least one a seat."""
    seen: dict[Square, str] = {}
    for where, v in vehicles:
        name = square_name(v.square)
        if v.square in seen:
            first = seen[v.square].removeprefix(f"{source} ")
            raise SetupError(f"{where}: a second vehicle on {name} (the first is on {first})")
        if v.square in walls:
            raise SetupError(f"{where}: the {v.code} on {name} stands on a 3D obstacle")
        if v.square in obstacles and not TYPES[v.code].flyer:
            raise SetupError(
                f"{where}: the {v.code} on {name} stands on an obstacle (only flyers may)"
            )
        seen[v.square] = where
    for seat in SEATS:
        if not any(v.seat == seat for _, v in vehicles):
            raise SetupError(f"{source}: seat {seat} has no vehicle")


def format_setup(setup: Setup) -> str:
    """The text form of a set-up (what :func:`parse_setup` reads)."""
    lines = [f"name {setup.name}", "map", f"    {COLUMNS}"]
    for r in range(SIZE):
        cells = "".join(
            "X" if (c, r) in setup.walls else "O" if (c, r) in setup.obstacles else "."
            for c in range(SIZE)
        )
        lines.append(f"{r + 1:>2}  {cells}")
    for v in setup.vehicles:
        facing = "-" if v.facing is None else FACINGS[v.facing]
        lines.append(f"vehicle {v.seat} {v.code} {square_name(v.square)} {facing}")
    if setup.turn != 1 or setup.to_move != "1":
        lines += [f"turn {setup.turn}", f"to-move {setup.to_move}"]
    return "\n".join(lines) + "\n"

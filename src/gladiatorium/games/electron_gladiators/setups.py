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
    quiet 12                    (a position: turns in a row without a loss before this one)
    lost-this-turn              (a vehicle was lost this turn)
    mover K12                   (the vehicle making this turn's move)
    spent 2                     (the speed points it has spent)
    free-turn last              (a Scout made a free turn this move; 'last': its last step)
    move-over                   (the move action is over)
    attacked                    (the turn's attack is made)
    dodge C5                    (the Scout on C5 was missed and may dodge)
    dice: 3 6                   (the next dice, rolled before the seed's)
    result 1 knockout           (the match is over; or 'result draw ENDING')

Map characters: ``.`` open ground, ``O`` an obstacle, ``X`` a 3D obstacle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
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
#: the ways a match ends, as a 'result' line writes them: a seat's win, or a draw's
KNOCKOUT, FELL_TOGETHER, QUIET_TURNS, TURN_LIMIT = (
    "knockout",
    "fell-together",
    "quiet-turns",
    ("turn-limit"),
)
DRAWS = (FELL_TOGETHER, QUIET_TURNS, TURN_LIMIT)


class SetupError(OptionsError):
    """A set-up that does not parse; names the line and what is wrong."""


@dataclass(frozen=True)
class Placement:
    seat: str
    code: str
    square: Square
    facing: int | None


@dataclass(frozen=True)
class Standing:
    """Where a position stands in its turn beyond the turn and the seat to move: the
    lines a set-up leaves out (every one at its start-of-turn value by default)."""

    quiet: int = 0  # turns in a row without a loss before this one
    lost: bool = False  # a vehicle was lost this turn
    mover: Square | None = None  # the vehicle making the move, where it stands
    spent: int = 0  # speed points it has spent
    free_turn: bool = False  # a Scout made a free turn this move
    free_turn_last: bool = False  # ... as its last step (the next step may not be one)
    move_over: bool = False
    attacked: bool = False
    dodge: Square | None = None  # a missed Scout offered its dodge
    dice: tuple[int, ...] = ()  # the next dice, rolled before the seed's
    #: the match is over: (the winning seat, or None for a draw; the ending)
    result: tuple[str | None, str] | None = None
    #: where each line was given ("SOURCE line N", by field), for errors found later
    where: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)

    def at(self, what: str) -> str:
        """The source and line of field ``what`` (as errors name them)."""
        return self.where.get(what, "position")


@dataclass(frozen=True)
class Setup:
    name: str
    obstacles: frozenset[Square]
    walls: frozenset[Square]  # 3D obstacles (X)
    vehicles: tuple[Placement, ...]
    to_move: str = "1"
    turn: int = 1
    standing: Standing = Standing()


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
    standing, lines_of = Standing(), dict[str, str]()  # lines_of: where each line was
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
        elif words[0].lower() in SAYINGS:
            head = words[0].lower().rstrip(":")
            standing = SAYINGS[words[0].lower()](standing, words[1:], f"{where}: {head}")
            lines_of[head] = where
        else:
            raise SetupError(
                f"{where}: expected 'name', 'map', 'vehicle', 'turn', 'to-move' or a "
                f"position's line ({', '.join(LINES)}), got {raw!r}"
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
    _check_vehicles(vehicles, obstacles, walls, source, _emptied(standing))
    placed = tuple(v for _, v in vehicles)
    standing = replace(standing, where=lines_of)
    _check_standing(standing, placed, to_move)
    return Setup(name or source, obstacles, walls, placed, to_move, turn, standing)


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
    emptied: tuple[str, ...] = (),
) -> None:
    """One vehicle a square, none on a 3D obstacle, only flyers on a regular one
    (they may stop there in play, R3), at least one a seat (but a side the match's
    result says has lost them all)."""
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
        has = any(v.seat == seat for _, v in vehicles)
        if not has and seat not in emptied:
            raise SetupError(f"{source}: seat {seat} has no vehicle")
        if has and seat in emptied:
            raise SetupError(f"{source}: seat {seat} has vehicles, yet the result says it lost all")


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
    return "\n".join([*lines, *standing_lines(setup.standing)]) + "\n"


# ----- a position's lines: where the turn stands ---------------------------------------
def _no_more(words: list[str], what: str) -> None:
    if words:
        raise SetupError(f"{what}: takes nothing more, has {' '.join(words)!r}")


def _count(words: list[str], what: str) -> int:
    if len(words) != 1 or not words[0].isdigit():
        raise SetupError(f"{what}: expected a whole number of at least 0")
    return int(words[0])


def _place(words: list[str], what: str) -> Square:
    if len(words) != 1:
        raise SetupError(f"{what}: expected one square (e.g. K12)")
    try:
        return parse_square(words[0])
    except GladiatoriumError as err:
        raise SetupError(f"{what}: {err}") from err


def _quiet(standing: Standing, words: list[str], what: str) -> Standing:
    """``quiet 12``: turns in a row without a loss before this one (R6)."""
    return replace(standing, quiet=_count(words, what))


def _lost(standing: Standing, words: list[str], what: str) -> Standing:
    """``lost-this-turn``: a vehicle was lost this turn (the quiet count starts again)."""
    _no_more(words, what)
    return replace(standing, lost=True)


def _mover(standing: Standing, words: list[str], what: str) -> Standing:
    """``mover K12``: the vehicle on K12 makes this turn's move."""
    return replace(standing, mover=_place(words, what))


def _spent(standing: Standing, words: list[str], what: str) -> Standing:
    """``spent 2``: the speed points the move has spent."""
    return replace(standing, spent=_count(words, what))


def _free_turn(standing: Standing, words: list[str], what: str) -> Standing:
    """``free-turn`` or ``free-turn last``: the moving Scout made a free turn this move
    ('last': as its last step, so the next step may not be one, R11)."""
    if words not in ([], ["last"]):
        raise SetupError(f"{what}: write 'free-turn' or 'free-turn last'")
    return replace(standing, free_turn=True, free_turn_last=bool(words))


def _move_over(standing: Standing, words: list[str], what: str) -> Standing:
    """``move-over``: the move action is over."""
    _no_more(words, what)
    return replace(standing, move_over=True)


def _attacked(standing: Standing, words: list[str], what: str) -> Standing:
    """``attacked``: the turn's one attack is made."""
    _no_more(words, what)
    return replace(standing, attacked=True)


def _dodge(standing: Standing, words: list[str], what: str) -> Standing:
    """``dodge C5``: the attack missed the Scout on C5, which chooses where to dodge."""
    return replace(standing, dodge=_place(words, what), attacked=True)


def _dice(standing: Standing, words: list[str], what: str) -> Standing:
    """``dice: 3 6``: the next dice, rolled before the seed's (also ``dice [3, 6]``)."""
    found = " ".join(words).replace(",", " ").replace("[", " ").replace("]", " ").split()
    if not found or not all(w.isdigit() and 1 <= int(w) <= 6 for w in found):
        raise SetupError(f"{what}: {' '.join(found) or 'nothing'!r} are not dice of 1 to 6")
    return replace(standing, dice=tuple(int(w) for w in found))


def _result(standing: Standing, words: list[str], what: str) -> Standing:
    """``result SEAT knockout`` or ``result draw ENDING`` (fell-together, quiet-turns,
    turn-limit): the match is over."""
    said = [w.lower() for w in words]
    if said[:1] == ["draw"] and len(said) == 2 and said[1] in DRAWS:
        return replace(standing, result=(None, said[1]))
    if len(said) == 2 and said[0] in SEATS and said[1] == KNOCKOUT:
        return replace(standing, result=(said[0], KNOCKOUT))
    raise SetupError(f"{what}: write 'result SEAT {KNOCKOUT}' or 'result draw {'|'.join(DRAWS)}'")


#: a position's lines by their first word
SAYINGS: dict[str, Callable[[Standing, list[str], str], Standing]] = {
    "quiet": _quiet,
    "lost-this-turn": _lost,
    "mover": _mover,
    "spent": _spent,
    "free-turn": _free_turn,
    "move-over": _move_over,
    "attacked": _attacked,
    "dodge": _dodge,
    "dice:": _dice,
    "dice": _dice,
    "result": _result,
}
LINES = tuple(head for head in SAYINGS if head != "dice:")


def _emptied(standing: Standing) -> tuple[str, ...]:
    """The seats the match's result says have lost every vehicle."""
    if standing.result is None:
        return ()
    winner, ending = standing.result
    if ending == KNOCKOUT:
        return tuple(s for s in SEATS if s != winner)
    return SEATS if ending == FELL_TOGETHER else ()


def _check_standing(standing: Standing, vehicles: tuple[Placement, ...], to_move: str) -> None:
    """The turn's lines agree with the vehicles: the mover is the seat to move's, spent
    no more than its speed; a free turn is a Scout's; the Scout that dodges is the
    other seat's; a match over has no dodge pending."""
    on = {v.square: v for v in vehicles}
    mover = on.get(standing.mover) if standing.mover is not None else None
    if standing.mover is not None and (mover is None or mover.seat != to_move):
        name = square_name(standing.mover)
        raise SetupError(f"{standing.at('mover')}: mover: no vehicle of seat {to_move} on {name}")
    if mover is not None and standing.spent > TYPES[mover.code].speed:
        raise SetupError(
            f"{standing.at('spent')}: spent: {standing.spent} is more than the {mover.code}'s "
            f"speed {TYPES[mover.code].speed}"
        )
    if standing.spent and mover is None and not standing.move_over:
        raise SetupError(f"{standing.at('spent')}: spent: name the 'mover' or write 'move-over'")
    if standing.free_turn and (mover is None or not TYPES[mover.code].scout):
        raise SetupError(f"{standing.at('free-turn')}: free-turn: the mover is no Scout")
    if standing.dodge is not None:
        scout = on.get(standing.dodge)
        if scout is None or scout.code != "SC" or scout.seat == to_move:
            name = square_name(standing.dodge)
            raise SetupError(
                f"{standing.at('dodge')}: dodge: no Scout of the seat not to move on {name}"
            )
        if standing.result is not None:
            raise SetupError(f"{standing.at('dodge')}: dodge: the match is over (see 'result')")


def standing_lines(standing: Standing) -> list[str]:
    """The lines of a position that say where its turn stands (none at a turn's start)."""
    s = standing
    lines = [f"quiet {s.quiet}"] if s.quiet else []
    lines += ["lost-this-turn"] if s.lost else []
    lines += [f"mover {square_name(s.mover)}"] if s.mover is not None else []
    lines += [f"spent {s.spent}"] if s.spent else []
    lines += [f"free-turn{' last' if s.free_turn_last else ''}"] if s.free_turn else []
    lines += ["move-over"] if s.move_over else []
    lines += ["attacked"] if s.attacked else []
    lines += [f"dodge {square_name(s.dodge)}"] if s.dodge is not None else []
    lines += [f"dice: {' '.join(map(str, s.dice))}"] if s.dice else []
    if s.result is not None:
        lines.append(f"result {s.result[0] or 'draw'} {s.result[1]}")
    return lines

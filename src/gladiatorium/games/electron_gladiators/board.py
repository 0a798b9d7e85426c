"""The arena: 21x21 squares (columns A-U, rows 1-21), facings and lines of sight.

A square is ``(col, row)`` counted from 0: ``A1`` is ``(0, 0)``, ``U21`` is ``(20, 20)``.
Row 1 is drawn at the top; "north" points toward row 1.
"""

from __future__ import annotations

from gladiatorium.core import IllegalAction, is_number
from gladiatorium.core.kept import cached

Square = tuple[int, int]

SIZE = 21
COLUMNS = "ABCDEFGHIJKLMNOPQRSTU"

#: the eight facings in 45-degree steps, clockwise from north
FACINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
STEPS: tuple[Square, ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


#: every square of the arena by its name, and the reverse (names are looked up at every
#: step a vehicle is offered or makes)
NAMES: dict[Square, str] = {
    (col, row): f"{COLUMNS[col]}{row + 1}" for col in range(SIZE) for row in range(SIZE)
}
SQUARES: dict[str, Square] = {name: square for square, name in NAMES.items()}


def square_name(square: Square) -> str:
    """``(2, 0)`` -> ``C1``."""
    name = NAMES.get(square)
    return f"{COLUMNS[square[0]]}{square[1] + 1}" if name is None else name


def parse_square(text: str) -> Square:
    """``C1`` -> ``(2, 0)``; a clear error for anything off the arena."""
    found = SQUARES.get(text)
    if found is not None:
        return found
    name = text.strip().upper()
    if len(name) < 2 or name[0] not in COLUMNS or not is_number(name[1:]):
        raise IllegalAction(f"{text!r} is not a square (columns A-U, rows 1-21, e.g. K11)")
    row = int(name[1:])
    if not 1 <= row <= SIZE:
        raise IllegalAction(f"{text!r} is off the arena (rows 1-21)")
    return (COLUMNS.index(name[0]), row - 1)


def parse_facing(text: str) -> int:
    name = text.strip().upper()
    if name not in FACINGS:
        raise IllegalAction(f"{text!r} is not a facing; facings: {', '.join(FACINGS)}")
    return FACINGS.index(name)


def on_arena(square: Square) -> bool:
    return 0 <= square[0] < SIZE and 0 <= square[1] < SIZE


def step(square: Square, facing: int, count: int = 1) -> Square:
    dx, dy = STEPS[facing % 8]
    return (square[0] + dx * count, square[1] + dy * count)


def distance(a: Square, b: Square) -> int:
    """Spaces between two squares, counting a diagonal step as one (ruling R4)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def in_arc(origin: Square, facing: int, target: Square) -> bool:
    """The 90-degree arc: ``target`` lies at most 45 degrees left or right of the
    facing. Facing a flat side, the diagonals bound it; facing a corner, the row
    and column through the vehicle bound it (both boundaries included)."""
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    ux, uy = STEPS[facing % 8]
    dot = dx * ux + dy * uy
    if dot <= 0:
        return False
    return 2 * dot * dot >= (dx * dx + dy * dy) * (ux * ux + uy * uy)


def straight_ahead(origin: Square, facing: int, target: Square) -> bool:
    """A gun with a 0-degree attack angle (the Scout's, ruling R27) fires only along
    its facing: the same column or row facing a flat side, the exact diagonal facing
    a corner."""
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    ux, uy = STEPS[facing % 8]
    return dx * uy - dy * ux == 0 and dx * ux + dy * uy > 0


def side_hit(target: Square, facing: int | None, attacker: Square) -> str:
    """Which armour faces the attacker: ``front`` when it is strictly less than 45
    degrees off the target's front, ``rear`` strictly less than 45 degrees off its
    rear, else ``sides`` (exact diagonals are sides: ruling R9). Flyers have no
    facing and count as ``front``."""
    if facing is None:
        return "front"
    dx, dy = attacker[0] - target[0], attacker[1] - target[1]
    ux, uy = STEPS[facing % 8]
    dot = dx * ux + dy * uy
    squared = (dx * dx + dy * dy) * (ux * ux + uy * uy)
    if 2 * dot * dot > squared:
        return "front" if dot > 0 else "rear"
    return "sides"


@cached(
    "electron_gladiators.board.line_offsets",
    "electron-gladiators",
    None,
    "the squares of straight lines",
)
def line_offsets(dx: int, dy: int) -> tuple[tuple[Square, ...], tuple[tuple[Square, Square], ...]]:
    """The squares a straight line from one centre to another (offset ``dx, dy``)
    crosses, and the diagonal gaps it slips through.

    Returns ``(crossed, gaps)``: ``crossed`` are offsets whose inside the line
    passes (endpoints excluded); ``gaps`` are pairs of squares the line only
    touches at their shared corner (it passes between them diagonally).
    """
    crossed: list[Square] = []
    corners: dict[Square, list[Square]] = {}
    reach = abs(dx) + abs(dy)
    for i in range(min(0, dx), max(0, dx) + 1):
        for j in range(min(0, dy), max(0, dy) + 1):
            if (i, j) in ((0, 0), (dx, dy)):
                continue
            # twice the signed distance from the line, against the square's half-width
            off = abs(2 * (i * dy - j * dx))
            if off < reach:
                crossed.append((i, j))
            elif off == reach:
                for cx in (2 * i - 1, 2 * i + 1):
                    for cy in (2 * j - 1, 2 * j + 1):
                        if cx * dy - cy * dx == 0:
                            corners.setdefault((cx, cy), []).append((i, j))
    crossed.sort(key=lambda s: max(abs(s[0]), abs(s[1])))
    gaps = tuple((pair[0], pair[1]) for _, pair in sorted(corners.items()) if len(pair) == 2)
    return tuple(crossed), gaps

"""The arena map: squares, terrain, distances and line of sight.

A map is plain text, one character per square; the edge is an implied wall. Legend:

``.`` floor, ``#`` wall (blocks movement and sight; wall-walkers may climb it and cling
to it), ``~`` bottomless pit (no one walks in; flyers pass over it, line-of-sight
movement jumps it), ``%`` cloud of fire (only line-of-sight movement crosses it),
``1``-``9`` floor where that team's heroes may be placed. Blank lines at the ends are
ignored; short lines are padded with floor.

Geometry (A1): squares; a step goes to any of the eight neighbours; distance is the
larger of the column, row and altitude differences (so "adjacent" includes diagonals
and one level up or down). Line of sight is the straight line between square centres;
a wall square strictly between the two blocks it. No I/O here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final

from gladiatorium.core.action import is_number
from gladiatorium.core.errors import OptionsError
from gladiatorium.core.kept import cached

FLOOR: Final = "."
WALL: Final = "#"
PIT: Final = "~"
FIRE: Final = "%"
TEAM_MARKS: Final = "123456789"
LEGEND: Final = {
    FLOOR: "floor",
    WALL: "wall (blocks movement and sight; wall-walkers climb it)",
    PIT: "bottomless pit (flyers pass over it, line-of-sight movement jumps it)",
    FIRE: "cloud of fire (only line-of-sight movement crosses it)",
    "1-9": "floor where that team's heroes may be placed",
}
COLUMNS: Final = "abcdefghijklmnopqrstuvwxyz"
#: the most rows a map may have (squares are named a1 to z99)
MAX_ROWS: Final = 99

Square = tuple[int, int]  # (column, row), both from 0


def square_name(square: Square) -> str:
    """``c4``: column letter, row number from 1 (top row is 1)."""
    col, row = square
    return f"{COLUMNS[col]}{row + 1}"


def parse_square(text: str) -> Square | None:
    """The square named by ``c4``, or None when the text is not a square name."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in COLUMNS or not is_number(text[1:]):
        return None
    return (COLUMNS.index(text[0]), int(text[1:]) - 1)


def distance(a: Square, b: Square, alt_a: int = 0, alt_b: int = 0) -> int:
    """Squares between two places: the largest of the column, row and altitude gaps."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(alt_a - alt_b))


def line_between(a: Square, b: Square) -> list[Square]:
    """The squares strictly between ``a`` and ``b`` on the straight line joining
    their centres (sampled finely; corners touched exactly are not counted)."""
    steps = 4 * max(abs(a[0] - b[0]), abs(a[1] - b[1]))
    found: list[Square] = []
    for i in range(1, steps):
        x = a[0] + (b[0] - a[0]) * i / steps
        y = a[1] + (b[1] - a[1]) * i / steps
        square = (round(x), round(y))
        if square not in (a, b) and square not in found:
            found.append(square)
    return found


@dataclass(frozen=True)
class Arena:
    """A parsed map."""

    rows: tuple[str, ...]
    name: str = "arena"

    def __deepcopy__(self, memo: dict[int, object]) -> Arena:
        """A map never changes (its caches only fill in): copies of a match share it."""
        return self

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        """Pickled as its text and read back through :func:`parse_arena`'s table: every
        match unpickled in a process (the server's snapshots) shares one arena and the
        tables kept by its identity, instead of filling them again for each copy."""
        return parse_arena, ("\n".join(self.rows), self.name)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def on_map(self, square: Square) -> bool:
        col, row = square
        return 0 <= col < self.width and 0 <= row < self.height

    def terrain(self, square: Square) -> str:
        """The map character at ``square``; off the map is wall (the implied edge)."""
        return self._terrain.get(square, WALL)

    def is_floor(self, square: Square) -> bool:
        return square in self.floor

    def is_wall(self, square: Square) -> bool:
        """A wall inside the map (the edge cannot be climbed onto)."""
        return square in self.walls

    def squares(self) -> Iterator[Square]:
        for row in range(self.height):
            for col in range(self.width):
                yield (col, row)

    def neighbours(self, square: Square) -> tuple[Square, ...]:
        """The up to eight squares next to ``square`` on the map."""
        return self._neighbours.get(square, ())

    @cached_property
    def _neighbours(self) -> dict[Square, tuple[Square, ...]]:
        table = {}
        for col, row in self.squares():
            table[(col, row)] = tuple(
                (col + dc, row + dr)
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if (dc or dr) and self.on_map((col + dc, row + dr))
            )
        return table

    @cached_property
    def all_squares(self) -> frozenset[Square]:
        """Every square of the map."""
        return frozenset(self.squares())

    @cached_property
    def floor(self) -> frozenset[Square]:
        """The floor squares (start squares included)."""
        return frozenset(s for s in self.squares() if self.terrain(s) == FLOOR)

    @cached_property
    def walls(self) -> frozenset[Square]:
        """The wall squares inside the map (those a wall-walker may climb)."""
        return frozenset(s for s in self.squares() if self.terrain(s) == WALL)

    @cached_property
    def open_air(self) -> frozenset[Square]:
        """Squares a flyer may pass over: floor and pits."""
        return frozenset(s for s in self.squares() if self.terrain(s) in (FLOOR, PIT))

    @cached_property
    def _terrain(self) -> dict[Square, str]:
        return {
            (c, r): FLOOR if mark in TEAM_MARKS else mark
            for r, line in enumerate(self.rows)
            for c, mark in enumerate(line)
        }

    @cached_property
    def starts(self) -> dict[str, tuple[Square, ...]]:
        """Start squares by team digit, in reading order."""
        found: dict[str, list[Square]] = {}
        for col, row in self.squares():
            mark = self.rows[row][col]
            if mark in TEAM_MARKS:
                found.setdefault(mark, []).append((col, row))
        return {team: tuple(squares) for team, squares in sorted(found.items())}

    def sees(self, a: Square, b: Square) -> bool:
        """Line of sight from ``a`` to ``b``: no wall strictly between them."""
        key = (a, b) if a <= b else (b, a)
        known = self._sight.get(key)
        if known is None:
            known = all(self.terrain(s) != WALL for s in line_between(a, b))
            self._sight[key] = known
        return known

    @cached_property
    def _sight(self) -> dict[tuple[Square, Square], bool]:
        return {}

    def within(self, centre: Square, radius: int) -> Iterator[Square]:
        """Squares on the map within ``radius`` of ``centre`` (centre included)."""
        for row in range(centre[1] - radius, centre[1] + radius + 1):
            for col in range(centre[0] - radius, centre[0] + radius + 1):
                if self.on_map((col, row)):
                    yield (col, row)

    def steps_from(
        self, start: Square, limit: int, passable: Iterable[Square] | None = None
    ) -> dict[Square, int]:
        """Breadth-first step counts from ``start`` over ``passable`` squares (all
        squares when None), up to ``limit`` steps."""
        if passable is None:
            allowed: AbstractSet[Square] = self.all_squares
        else:
            allowed = passable if isinstance(passable, AbstractSet) else set(passable)
        neighbours = self._neighbours
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            steps = seen[here]
            if steps >= limit:
                continue
            for nxt in neighbours.get(here, ()):
                if nxt not in seen and nxt in allowed:
                    seen[nxt] = steps + 1
                    queue.append(nxt)
        return seen

    # ----- squares as bits: bit ``row * (width + 1) + col`` (a spare column between
    # rows keeps a step off the side of the map from wrapping onto the next row)
    def bit(self, square: Square) -> int:
        """The bit of one square of the map."""
        return 1 << (square[1] * (self.width + 1) + square[0])

    def bits(self, squares: Iterable[Square]) -> int:
        """The bits of the map's squares among ``squares``."""
        found = 0
        for square in squares:
            if self.on_map(square):
                found |= self.bit(square)
        return found

    @cached_property
    def all_bits(self) -> int:
        return self.bits(self.squares())

    @cached_property
    def floor_bits(self) -> int:
        return self.bits(self.floor)

    @cached_property
    def wall_bits(self) -> int:
        return self.bits(self.walls)

    @cached_property
    def open_air_bits(self) -> int:
        return self.bits(self.open_air)

    @cached_property
    def _square_of_bit(self) -> dict[int, Square]:
        return {(self.bit(s)).bit_length() - 1: s for s in self.squares()}

    def steps_over(self, start: Square, limit: int, passable: int) -> dict[Square, int]:
        """:meth:`steps_from` over the squares whose bits are set in ``passable``: the
        same step counts, found a whole ring of squares at a time."""
        span = self.width + 1
        inside = self.all_bits & passable
        reached = frontier = self.bit(start)
        rings = []
        for _ in range(limit):
            grown = frontier | frontier << 1 | frontier >> 1
            grown |= grown << span | grown >> span
            frontier = grown & inside & ~reached
            if not frontier:
                break
            rings.append(frontier)
            reached |= frontier
        square_of = self._square_of_bit
        seen = {start: 0}
        for steps, ring in enumerate(rings, start=1):
            while ring:
                low = ring & -ring
                seen[square_of[low.bit_length() - 1]] = steps
                ring ^= low
        return seen

    def text(self) -> str:
        return "\n".join(self.rows)


@cached("superhero_gladiators.arena.parse_arena", "superhero-gladiators", 64, "maps read")
def parse_arena(text: str, name: str = "arena") -> Arena:
    """Read a map; every problem names the line and column (``line 3, column 5``).
    A map is a value: the same text read again gives the same arena (and its tables)."""
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        raise OptionsError(f"map {name}: the map is empty")
    if len(lines) > MAX_ROWS:
        raise OptionsError(f"map {name}: {len(lines)} rows; at most {MAX_ROWS}")
    width = max(len(line.rstrip()) for line in lines)
    if width > len(COLUMNS):
        raise OptionsError(f"map {name}: {width} columns; at most {len(COLUMNS)}")
    rows = []
    for number, line in enumerate(lines, start=1):
        line = line.rstrip()
        for col, mark in enumerate(line, start=1):
            if mark not in FLOOR + WALL + PIT + FIRE + TEAM_MARKS:
                where = square_name((col - 1, number - 1))
                raise OptionsError(
                    f"map {name}: line {number}, column {col} ({where}): "
                    f"unknown map character {mark!r}; use . # ~ % or 1-9"
                )
        rows.append(line.ljust(width, FLOOR))
    arena = Arena(tuple(rows), name)
    if not arena.starts:
        raise OptionsError(f"map {name}: no start squares (digits 1-9 mark each team's squares)")
    return arena

"""Lines of sight and fire as masks of squares: what a vehicle placed so sees and how
its gun reaches every square, found with a few whole-arena operations instead of a
line walked for each square.

A mask is an int with one bit per square of a grid wider than the arena by the
longest range of any vehicle (:data:`RANGE`) on every side, so that a table of
offsets made once (the squares a Heavy Tank facing north sees on an empty arena)
moves to any square by a shift: the bit of ``origin + offset`` is
``offset_bit(offset) + shift(origin)``. What the terrain closes is found per square
from the obstacles near it: each obstacle casts the shadow of the lines that cross it
(tabled once by offset, from :func:`~board.line_offsets`), each pair of blocked squares
touching at a corner the shadow of the lines that slip between them.

Pure rules (no I/O); the rules themselves are those of ``Arena.line_clear``, ``Arena._sees``
and ``Arena._aim``, which the tests compare square by square.
"""

from __future__ import annotations

from collections.abc import Iterable

from gladiatorium.core.kept import cached
from gladiatorium.games.electron_gladiators.board import (
    NAMES,
    SIZE,
    Square,
    in_arc,
    line_offsets,
    straight_ahead,
)
from gladiatorium.games.electron_gladiators.vehicles import TYPES

#: the longest reach of any vehicle (telemetry, direct range, parabolic band): lines
#: are tabled up to it
RANGE = max(
    max(kind.telemetry, kind.direct, kind.parabolic[1] if kind.parabolic else 0)
    for kind in TYPES.values()
)
#: the grid's width: an arena column with RANGE squares to spare either side
WIDTH = SIZE + 2 * RANGE
#: every offset within RANGE (Chebyshev distance), the origin's own included
OFFSETS: tuple[Square, ...] = tuple(
    (dx, dy) for dx in range(-RANGE, RANGE + 1) for dy in range(-RANGE, RANGE + 1)
)


def offset_bit(dx: int, dy: int) -> int:
    """The bit of the offset ``(dx, dy)`` from the square (0, 0), A1."""
    return (dx + RANGE) * WIDTH + dy + RANGE


def shift(square: Square) -> int:
    """How far a mask of offsets moves to stand on ``square``."""
    return square[0] * WIDTH + square[1]


#: the mask of each square of the arena alone (its one bit): ``mask & MASK[square]``
#: says whether a mask holds it
MASK: dict[Square, int] = {square: 1 << offset_bit(*square) for square in NAMES}


def mask_of(offsets: Iterable[Square]) -> int:
    """The mask of some offsets from (0, 0), A1 (or of the squares they lead to)."""
    mask = 0
    for dx, dy in offsets:
        mask |= 1 << offset_bit(dx, dy)
    return mask


#: every offset within RANGE
WITHIN = mask_of(OFFSETS)

#: a pair of squares touching at a corner, in order
Corner = tuple[Square, Square]


@cached(
    "electron_gladiators.sightlines.shadows", "electron-gladiators", None, "the shadows of offsets"
)
def shadows() -> tuple[dict[Square, int], dict[Corner, int]]:
    """For each offset, the mask of the offsets within RANGE whose line from the origin
    crosses it; for each pair of offsets touching at a corner, the mask of those whose
    line slips between them (see :func:`~board.line_offsets`)."""
    crossing: dict[Square, int] = {}
    slipping: dict[Corner, int] = {}
    for dx, dy in OFFSETS:
        crossed, gaps = line_offsets(dx, dy)
        bit = 1 << offset_bit(dx, dy)
        for square in crossed:
            crossing[square] = crossing.get(square, 0) | bit
        for first, second in gaps:
            pair = (min(first, second), max(first, second))
            slipping[pair] = slipping.get(pair, 0) | bit
    return crossing, slipping


def clear_lines(origin: Square, blocked: frozenset[Square], through_gaps: bool) -> int:
    """The mask of the squares within RANGE of ``origin`` to which the straight line
    passes no ``blocked`` square (nor, unless ``through_gaps``, between two that touch
    at a corner): ``Arena.line_clear`` for every such square at once."""
    crossing, slipping = shadows()
    ox, oy = origin
    shade = 0
    for x, y in blocked:
        offset = (x - ox, y - oy)
        if -RANGE <= offset[0] <= RANGE and -RANGE <= offset[1] <= RANGE:
            shade |= crossing.get(offset, 0)
            if not through_gaps:  # the corners it shares with a blocked square beyond
                for other in ((x + 1, y - 1), (x + 1, y + 1)):
                    if other in blocked:
                        pair = (offset, (other[0] - ox, other[1] - oy))
                        shade |= slipping.get(pair, 0)
    return (WITHIN & ~shade) << shift(origin)


@cached(
    "electron_gladiators.sightlines.sight_offsets",
    "electron-gladiators",
    None,
    "what a vehicle spots",
)
def sight_offsets(code: str, facing: int | None) -> int:
    """The offsets a vehicle of type ``code`` facing ``facing`` spots on an empty
    arena: within its telemetry, all round for a flyer, inside its arc for a ground
    vehicle."""
    kind = TYPES[code]
    return mask_of(
        (dx, dy)
        for dx, dy in OFFSETS
        if max(abs(dx), abs(dy)) <= kind.telemetry
        and (kind.flyer or (facing is not None and in_arc((0, 0), facing, (dx, dy))))
    )


@cached(
    "electron_gladiators.sightlines.aim_offsets",
    "electron-gladiators",
    None,
    "what a vehicle aims at",
)
def aim_offsets(
    code: str, facing: int | None, scout_angle: int, tank_min_flyer: int
) -> tuple[tuple[int, int], tuple[int, int]]:
    """The offsets a gun of type ``code`` facing ``facing`` aims at on an empty arena,
    for a ground target and for a flyer: (within its direct range, within its
    parabolic band), both inside its attack angle and, for a tank on a flyer, at least
    ``tank_min_flyer`` away (R23)."""
    return (
        _aim_offsets(code, facing, False, scout_angle, tank_min_flyer),
        _aim_offsets(code, facing, True, scout_angle, tank_min_flyer),
    )


def _aim_offsets(
    code: str, facing: int | None, flyer_target: bool, scout_angle: int, tank_min_flyer: int
) -> tuple[int, int]:
    kind = TYPES[code]
    direct = band = 0
    for dx, dy in OFFSETS:
        offset = (dx, dy)
        if not kind.flyer:
            assert facing is not None
            if kind.scout and scout_angle == 0:
                if not straight_ahead((0, 0), facing, offset):
                    continue
            elif not in_arc((0, 0), facing, offset):
                continue
        gap = max(abs(dx), abs(dy))
        if kind.tank and flyer_target and gap < tank_min_flyer:
            continue
        bit = 1 << offset_bit(dx, dy)
        if gap <= kind.direct:
            direct |= bit
        if kind.parabolic is not None and kind.parabolic[0] <= gap <= kind.parabolic[1]:
            band |= bit
    return direct, band

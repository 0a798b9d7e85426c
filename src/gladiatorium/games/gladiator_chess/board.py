"""The 12 x 10 board: square names and precomputed move geometry.

Squares are numbered ``rank * 12 + file`` with file a-l = 0-11 and rank 1-10 = 0-9.
White starts on ranks 1-2, Black on ranks 10-9. Tables are built once at import so
move generation and check tests only walk lists.
"""

from __future__ import annotations

from gladiatorium.core.action import is_number

FILES = "abcdefghijkl"
WIDTH = 12
HEIGHT = 10
SQUARES = WIDTH * HEIGHT

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def square(file: int, rank: int) -> int:
    return rank * WIDTH + file


def file_of(sq: int) -> int:
    return sq % WIDTH


def rank_of(sq: int) -> int:
    return sq // WIDTH


def on_board(file: int, rank: int) -> bool:
    return 0 <= file < WIDTH and 0 <= rank < HEIGHT


def name(sq: int) -> str:
    """``0`` -> ``a1``; ``119`` -> ``l10``."""
    return f"{FILES[file_of(sq)]}{rank_of(sq) + 1}"


def parse_square(text: str) -> int:
    """``e4`` -> its number; a bad name raises ValueError naming it."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in FILES or not is_number(text[1:]):
        raise ValueError(f"no square {text!r} (files a-l, ranks 1-10)")
    rank = int(text[1:]) - 1
    if not 0 <= rank < HEIGHT:
        raise ValueError(f"no square {text!r} (files a-l, ranks 1-10)")
    return square(FILES.index(text[0]), rank)


def chebyshev(a: int, b: int) -> int:
    return max(abs(file_of(a) - file_of(b)), abs(rank_of(a) - rank_of(b)))


def _ray(sq: int, step: tuple[int, int]) -> tuple[int, ...]:
    f, r = file_of(sq), rank_of(sq)
    out = []
    f, r = f + step[0], r + step[1]
    while on_board(f, r):
        out.append(square(f, r))
        f, r = f + step[0], r + step[1]
    return tuple(out)


def _leaps(sq: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    f, r = file_of(sq), rank_of(sq)
    return tuple(square(f + a, r + b) for a, b in steps if on_board(f + a, r + b))


#: ORTHO_RAYS[sq] / DIAG_RAYS[sq]: the squares outward from sq, one tuple per direction
ORTHO_RAYS = tuple(tuple(_ray(s, d) for d in ORTHOGONAL) for s in range(SQUARES))
DIAG_RAYS = tuple(tuple(_ray(s, d) for d in DIAGONAL) for s in range(SQUARES))
KNIGHT_TARGETS = tuple(_leaps(s, KNIGHT_STEPS) for s in range(SQUARES))
KING_TARGETS = tuple(_leaps(s, ORTHOGONAL + DIAGONAL) for s in range(SQUARES))


def _champion_paths(sq: int) -> dict[int, tuple[tuple[int, ...], ...]]:
    """The Champion's moves from ``sq``: 3 or 5 squares forward, back or across with
    at most one 90-degree change of direction. Maps each destination to the tuples
    of squares passed over on the way (one per distinct path)."""
    out: dict[int, list[tuple[int, ...]]] = {}
    for length in (3, 5):
        for first in ORTHOGONAL:
            turns = [t for t in ORTHOGONAL if t[0] * first[0] + t[1] * first[1] == 0]
            for before_turn in range(1, length + 1):
                for second in turns if before_turn < length else [first]:
                    f, r = file_of(sq), rank_of(sq)
                    path = []
                    for i in range(length):
                        step = first if i < before_turn else second
                        f, r = f + step[0], r + step[1]
                        if not on_board(f, r):
                            break
                        path.append(square(f, r))
                    else:
                        between = tuple(path[:-1])
                        paths = out.setdefault(path[-1], [])
                        if between not in paths:
                            paths.append(between)
    return {dest: tuple(paths) for dest, paths in sorted(out.items())}


#: CHAMPION_PATHS[sq][dest]: the squares passed over on each path from sq to dest
CHAMPION_PATHS = tuple(_champion_paths(s) for s in range(SQUARES))

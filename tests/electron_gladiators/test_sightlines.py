"""The masks of sight and fire (sightlines.py, Sight) say what the rules say walked
along each line: Arena.line_clear for every square within reach of every square, and
what each type of vehicle, facing each way, sees and aims at, on the shipped terrains
and on crowded made-up ones full of corners touching."""

from __future__ import annotations

import pytest

from gladiatorium.core import Rng
from gladiatorium.games.electron_gladiators.arena import Arena, forget_oldest
from gladiatorium.games.electron_gladiators.board import NAMES, SIZE, Square, distance
from gladiatorium.games.electron_gladiators.options import ElectronGladiatorsOptions
from gladiatorium.games.electron_gladiators.setups import SHIPPED, parse_setup, setup_text
from gladiatorium.games.electron_gladiators.sightlines import MASK, RANGE
from gladiatorium.games.electron_gladiators.vehicles import TYPES, Vehicle

SQUARES = sorted(NAMES)


def crowded_arena(seed: int, share: int) -> Arena:
    """An arena with about one square in ``share`` an obstacle and a third of those 3D."""
    rng = Rng(seed)
    obstacles, walls = set(), set()
    for square in SQUARES:
        if rng.randint(1, share) == 1:
            (walls if rng.randint(1, 3) == 1 else obstacles).add(square)
    return Arena(frozenset(obstacles), frozenset(walls))


def shipped_arena(name: str) -> Arena:
    return Arena.from_setup(parse_setup(setup_text(name), name))


ARENAS = {
    "crowded-1": lambda: crowded_arena(1, 4),
    "crowded-2": lambda: crowded_arena(2, 3),
    **{name: lambda name=name: shipped_arena(name) for name in SHIPPED},
}


def near(origin: Square) -> list[Square]:
    return [square for square in SQUARES if distance(origin, square) <= RANGE]


@pytest.mark.parametrize("name", ["crowded-1", "crowded-2", "deluxe-1"])
def test_clear_lines_are_line_clear_for_every_square_within_reach(name: str) -> None:
    arena = ARENAS[name]()
    for flyer, through_gaps in ((True, False), (False, False), (False, True)):
        blocks = arena.is_wall if flyer else arena.is_obstacle
        for origin in SQUARES:
            mask = arena.sight.clear_lines(origin, flyer, through_gaps)
            got = [bool(mask & MASK[t]) for t in near(origin)]
            assert got == [arena.line_clear(origin, t, blocks, through_gaps) for t in near(origin)]


def placements(rng: Rng, count: int) -> list[tuple[str, Square, int | None]]:
    """``count`` random placements of every type, every facing of a ground vehicle."""
    out = []
    for code, kind in TYPES.items():
        for facing in [None] if kind.flyer else list(range(8)):
            for _ in range(count):
                square = (rng.randint(0, SIZE - 1), rng.randint(0, SIZE - 1))
                out.append((code, square, facing))
    return out


@pytest.mark.parametrize("name", list(ARENAS))
def test_sight_and_aims_are_the_rules_walked_along_each_line(name: str) -> None:
    arena = ARENAS[name]()
    options = [
        ElectronGladiatorsOptions(),
        ElectronGladiatorsOptions(scout_attack_angle=90, tank_min_flyer_distance=4),
    ]
    seen = reached = 0
    for code, square, facing in placements(Rng(7), 3):
        vehicle = Vehicle(1, "1", code, square, facing)
        assert [arena.sees(vehicle, t) for t in SQUARES] == [
            arena.sees_along(vehicle, t) for t in SQUARES
        ]
        seen += sum(arena.sees(vehicle, t) for t in SQUARES)
        for target_code, target_facing in (("HT1", 0), ("MQ", None)):
            for rules in options:
                targets = [Vehicle(2, "2", target_code, t, target_facing) for t in near(square)]
                aims = [arena.terrain_aim(vehicle, t, rules) for t in targets]
                assert aims == [arena.aim_along(vehicle, t, rules) for t in targets]
                reached += sum(aim is not None for aim in aims)
    assert seen > 1000 and reached > 1000  # the comparisons cover real sight and fire


def test_a_full_table_forgets_its_oldest_entry_first() -> None:
    table = {n: str(n) for n in range(3)}
    forget_oldest(table, 3)
    assert list(table) == [1, 2]
    forget_oldest(table, 3)
    assert list(table) == [1, 2]

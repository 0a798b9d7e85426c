"""Where a hero may move this segment, with which movement powers (M1-M9).

Walking: up to Movement squares, one step to any of the eight neighbours, over free
floor. Speedy adds its level. Wall-walking lets steps go onto wall squares and end
there (clinging). Flight moves in the air: each step sideways or one level up or down
is a square, it passes over pits (not fire) and may end in the air. Line-of-sight
movement jumps to any free square the hero sees within reach, ignoring pits, fire and
heroes in between. A move using wall-walking, line-of-sight or flight covers at most
min(level, Movement with speedy) squares for each such power used (M3).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from itertools import combinations
from operator import is_
from typing import Any, Final, NamedTuple

from gladiatorium.core.kept import Table
from gladiatorium.games.superhero_gladiators.arena import FLOOR, Arena, Square
from gladiatorium.games.superhero_gladiators.fighters import Fighter
from gladiatorium.games.superhero_gladiators.heroes import Power, PowerType, Style

SLOWING = (Style.WALL_WALKING, Style.LINE_OF_SIGHT, Style.FLIGHT)


class MoveOption(NamedTuple):
    """One destination and how it is reached. ``falls`` is the oomph lost falling
    first (a flyer or clinger that moves without its power), ``start`` where it lands."""

    square: Square
    altitude: int
    powers: tuple[str, ...]
    falls: int
    start: Square


def movement_powers(fighter: Fighter) -> list[str]:
    """Movement powers usable this segment: uses left, gizmo intact, and (unreliable
    or wild) the die rolled at the start of the hero's action worked (M7)."""
    return [
        n
        for n in fighter.of_type(PowerType.MOVEMENT)
        if not fighter.powers[n].flaws or n in fighter.working_moves
    ]


def budget(fighter: Fighter, powers: Iterable[str], speedy_raises_cap: bool = True) -> int:
    """Squares this move may cover: Movement plus speedy levels (M2), capped by each
    slowing power used at min(its level, Movement): Movement with speedy added, as
    speedy adds to the trait (M3), or the bare trait with ``speedy_raises_cap`` off."""
    chosen = [fighter.powers[n] for n in powers]
    reach = fighter.movement + sum(p.level for p in chosen if Style.SPEEDY in p.styles)
    trait = reach if speedy_raises_cap else fighter.movement
    for power in chosen:
        if any(s in power.styles for s in SLOWING):
            reach = min(reach, power.level, trait)
    return reach


def _start(
    fighter: Fighter, arena: Arena, styles: set[Style], free: AbstractSet[Square]
) -> tuple[Square, int] | None:
    """Where the move begins and the oomph lost falling first, or None if it cannot
    begin without the power (M5, M6)."""
    assert fighter.square is not None
    if fighter.altitude > 0 and Style.FLIGHT not in styles:
        if arena.terrain(fighter.square) != FLOOR:
            return None
        return fighter.square, fighter.flight_level
    if fighter.clinging and Style.WALL_WALKING not in styles:
        for square in arena.neighbours(fighter.square):
            if arena.is_floor(square) and square in free:
                return square, fighter.cling_level
        return None
    return fighter.square, 0


#: the options of a hero that cannot move (one list, so that the moves kept per list
#: serve every such situation)
NO_MOVES: Final[list[MoveOption]] = []

#: move options found before, by everything they depend on: the map, the hero's place,
#: height and hold, its Movement and the movement powers it may use, the squares taken
#: (the map and the powers by identity: each entry holds them, so the ids stay theirs)
MAX_FOUND: Final = 4096
_FOUND: Table[tuple[Any, ...], tuple[Arena, tuple[Power, ...], list[MoveOption]]] = Table(
    "superhero_gladiators.movement.found", "superhero-gladiators", MAX_FOUND, "move options found"
)


def options(
    fighter: Fighter, arena: Arena, occupied: set[Square], speedy_raises_cap: bool = True
) -> list[MoveOption]:
    """Every destination, each reached with the fewest powers (ties: card order). The
    list is shared with every later call in the same situation: read it, never edit it."""
    if fighter.entangled or fighter.square is None:
        return NO_MOVES
    names = movement_powers(fighter)
    powers = tuple([fighter.powers[n] for n in names])
    key = (
        id(arena),
        fighter.square,
        fighter.altitude,
        fighter.flight_level,
        fighter.clinging,
        fighter.cling_level,
        fighter.movement,
        tuple(names),
        tuple(map(id, powers)),
        frozenset(occupied),
        speedy_raises_cap,
    )
    known = _FOUND.get(key)
    if known is not None and known[0] is arena and all(map(is_, known[1], powers)):
        return known[2]
    found = _options(fighter, arena, occupied, names, speedy_raises_cap)
    _FOUND.keep(key, (arena, powers, found))
    return found


def _options(
    fighter: Fighter,
    arena: Arena,
    occupied: set[Square],
    names: list[str],
    speedy_raises_cap: bool,
) -> list[MoveOption]:
    assert fighter.square is not None
    free = arena.all_squares - occupied
    free_bits = arena.all_bits & ~arena.bits(occupied)
    found: dict[tuple[Square, int], MoveOption] = {}
    for size in range(len(names) + 1):
        for chosen in combinations(names, size):
            styles = {s for n in chosen for s in fighter.powers[n].styles}
            begin = _start(fighter, arena, styles, free | {fighter.square})
            if begin is None:
                continue
            start, falls = begin
            reach = budget(fighter, chosen, speedy_raises_cap)
            here = (fighter.square, fighter.altitude)
            stays = not (fighter.altitude > 0 and start == fighter.square)  # M5: may hover
            passable = free_bits | arena.bit(start)
            for place in _destinations(fighter, arena, passable, start, reach, chosen):
                if place in found or (stays and place == here):
                    continue
                found[place] = MoveOption(place[0], place[1], chosen, falls, start)
    return sorted(found.values(), key=lambda o: (o.square[1], o.square[0], o.altitude))


def _destinations(
    fighter: Fighter,
    arena: Arena,
    free: int,
    start: Square,
    reach: int,
    chosen: tuple[str, ...],
) -> set[tuple[Square, int]]:
    """Places a move can end, by walking, flight and line-of-sight movement; ``free``
    holds the bits of the squares no other hero stands on."""
    styles = {s for n in chosen for s in fighter.powers[n].styles}
    walls = Style.WALL_WALKING in styles
    ground = free & (arena.floor_bits | arena.wall_bits if walls else arena.floor_bits)
    found = {(s, 0) for s in arena.steps_over(start, reach, ground)}
    if Style.FLIGHT in styles:
        ceiling = max(
            fighter.powers[n].level for n in chosen if Style.FLIGHT in fighter.powers[n].styles
        )
        found |= _flights(fighter, arena, free, start, reach, ceiling, walls)
    if Style.LINE_OF_SIGHT in styles:
        found |= {
            (s, 0)
            for s in arena.within(start, reach)
            if ground & arena.bit(s) and arena.sees(start, s)
        }
    return found


def _flights(
    fighter: Fighter,
    arena: Arena,
    free: int,
    start: Square,
    reach: int,
    ceiling: int,
    walls: bool,
) -> set[tuple[Square, int]]:
    """Flight: sideways steps over floor and pits, up or down a level per square,
    never higher than the flight level used (M4)."""
    height = fighter.altitude if start == fighter.square else 0
    air = free & (arena.open_air_bits | arena.wall_bits if walls else arena.open_air_bits)
    found: set[tuple[Square, int]] = set()
    for square, steps in arena.steps_over(start, reach, air).items():
        for alt in range(0, ceiling + 1):
            if steps + abs(alt - height) > reach:
                continue
            if alt == 0 and not (arena.is_floor(square) or (walls and arena.is_wall(square))):
                continue
            found.add((square, alt))
    return found

"""The arena in play: obstacles, vehicles, and what blocks moves, fire and sight.

Pure rules (no I/O). Rulings cited as R<n> are rows of the table in
docs/rules/electron-gladiators.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from gladiatorium.core.kept import Table
from gladiatorium.games.electron_gladiators.board import (
    Square,
    distance,
    in_arc,
    line_offsets,
    on_arena,
    step,
    straight_ahead,
)
from gladiatorium.games.electron_gladiators.options import ElectronGladiatorsOptions
from gladiatorium.games.electron_gladiators.setups import Setup
from gladiatorium.games.electron_gladiators.sightlines import (
    MASK,
    aim_offsets,
    clear_lines,
    shift,
    sight_offsets,
)
from gladiatorium.games.electron_gladiators.vehicles import Vehicle

Blocker = Callable[[Square], bool]


#: placements whose reaches a Sight table keeps before it forgets the oldest
REACH_PLACEMENTS = 100_000

#: how a gun stands towards a target square before other vehicles are considered:
#: (its direct line, see NO_DIRECT below; the square is in its parabolic band), or None
#: when it cannot reach the square at all
Aim = tuple[int, bool] | None


#: a square a ground vehicle drives onto, and for a diagonal step of a vehicle other
#: than the Scout, the squares beside the corner it slips past that no obstacle fills
#: (None: a straight step, or the Scout's, which slips past any corner): the step is
#: closed when every one of them holds a vehicle (R10)
GroundStep = tuple[Square, tuple[Square, ...] | None]


# How a gun stands towards a target square (Arena._aim): the direct line is ...
NO_DIRECT = 0  # ... out of range or closed by terrain
DIRECT = 1  # ... open whatever the vehicles (a flyer's gun: only 3D obstacles block it)
DIRECT_IF_NO_VEHICLE = 2  # ... open unless a ground vehicle closes it (R12)

#: the aim on a square in the band whose direct line is closed or out of range
BAND_ONLY = (NO_DIRECT, True)


class GunAims(NamedTuple):
    """How a gun, where it stands, aims at every square before other vehicles are
    considered: for ground targets and for flyers, the mask of the squares its direct
    fire reaches past the terrain and the mask of those in its parabolic band."""

    ground: tuple[int, int]
    flyer: tuple[int, int]
    #: the aim on a square its direct fire reaches, outside and inside the band
    direct: tuple[int, bool]
    direct_in_band: tuple[int, bool]

    @classmethod
    def of(cls, ground: tuple[int, int], flyer: tuple[int, int], direct: int) -> GunAims:
        """Aims whose direct line is ``direct`` (DIRECT or DIRECT_IF_NO_VEHICLE)."""
        return cls(ground, flyer, (direct, False), (direct, True))

    def at(self, square: Square, flyer: bool) -> Aim:
        """The gun's aim on ``square`` (a flyer there or a ground vehicle)."""
        direct, band = self.flyer if flyer else self.ground
        one = MASK[square]
        if direct & one:
            return self.direct_in_band if band & one else self.direct
        return BAND_ONLY if band & one else None


class Sight:
    """What the fixed terrain alone decides, worked out once and shared by every arena
    on the same obstacles (copies of a match included: it is never copied): the lines
    of sight and fire from each square past the obstacles (as masks, see
    :mod:`sightlines`; vehicles do not block sight, R14), and the straight lines a
    vehicle may drive or fly from a square before other vehicles are considered."""

    __slots__ = ("blocked", "clear", "flights", "grounds", "obstacles", "reaches", "walls")

    def __init__(self, obstacles: frozenset[Square], walls: frozenset[Square]) -> None:
        self.obstacles = obstacles
        self.walls = walls
        #: what closes a line: for a flyer, 3D obstacles; for a ground vehicle, any
        self.blocked = (walls, obstacles | walls)
        #: (square, for a flyer, through gaps) -> the mask of the squares within
        #: sightlines.RANGE the straight line reaches past the terrain (Arena.line_clear)
        self.clear: dict[tuple[Square, bool, bool], int] = {}
        #: (square, facing, scout) -> the ground steps straight along facing
        self.grounds: dict[tuple[Square, int, bool], tuple[GroundStep, ...]] = {}
        #: (square, heading) -> the squares a flyer passes flying straight along heading
        self.flights: dict[tuple[Square, int], tuple[Square, ...]] = {}
        #: (square, facing, mobility, points) -> the ways a vehicle so placed may drive
        #: or fly with those points (a Reach, worked out by the match); the oldest are
        #: forgotten beyond REACH_PLACEMENTS
        self.reaches: dict[tuple[Square, int | None, str, int], Any] = {}

    def __copy__(self) -> Sight:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Sight:
        return self

    def __reduce__(self) -> tuple[object, ...]:
        """A pickle names the terrain: unpickled, it is that terrain's shared table."""
        return sight_for, (self.obstacles, self.walls)

    def clear_lines(self, square: Square, flyer: bool, through_gaps: bool) -> int:
        """The squares within sightlines.RANGE of ``square`` that a straight line
        reaches past the terrain: for a flyer, past 3D obstacles; for a ground vehicle,
        past any obstacle; never between two that touch at a corner unless
        ``through_gaps`` (a mask, worked out once per square)."""
        key = (square, flyer, through_gaps)
        mask = self.clear.get(key)
        if mask is None:
            blocked = self.blocked[0 if flyer else 1]
            mask = self.clear[key] = clear_lines(square, blocked, through_gaps)
        return mask

    def sight(self, spotter: Vehicle) -> int:
        """The squares ``spotter`` sees where it stands (a mask, see Arena.sees)."""
        kind = spotter.kind
        clear = self.clear_lines(spotter.square, kind.flyer, kind.scout and not kind.flyer)
        return (sight_offsets(spotter.code, spotter.facing) << shift(spotter.square)) & clear

    def gun_aims(self, gun: Vehicle, options: ElectronGladiatorsOptions) -> GunAims:
        """How ``gun``, where it stands, aims at every square (see Arena._aim): a
        flyer's gun only past no 3D obstacle; a ground gun's direct fire past no
        obstacle, its parabolic fire over them."""
        kind, square = gun.kind, gun.square
        moved = shift(square)
        clear = self.clear_lines(square, kind.flyer, kind.scout)
        offsets = aim_offsets(
            gun.code, gun.facing, options.scout_attack_angle, options.tank_min_flyer_distance
        )
        (ground_direct, ground_band), (flyer_direct, flyer_band) = offsets
        if kind.flyer:  # its gun fires past no 3D obstacle, direct or parabolic
            return GunAims.of(
                ((ground_direct << moved) & clear, (ground_band << moved) & clear),
                ((flyer_direct << moved) & clear, (flyer_band << moved) & clear),
                DIRECT,
            )
        return GunAims.of(  # a ground gun's shells fly over obstacles
            ((ground_direct << moved) & clear, ground_band << moved),
            ((flyer_direct << moved) & clear, flyer_band << moved),
            DIRECT_IF_NO_VEHICLE,
        )

    def ground_line(self, square: Square, facing: int, scout: bool) -> tuple[GroundStep, ...]:
        """The steps a ground vehicle on ``square`` may drive along ``facing`` on the
        empty arena: onto open squares, never diagonally between two obstacles that
        touch at a corner unless it is the Scout (R10)."""
        key = (square, facing, scout)
        line = self.grounds.get(key)
        if line is None:
            line = self.grounds[key] = tuple(self._ground_line(square, facing, scout))
        return line

    def _ground_line(self, square: Square, facing: int, scout: bool) -> Iterator[GroundStep]:
        def blocked(square: Square) -> bool:
            return square in self.obstacles or square in self.walls

        here = square
        while on_arena(nxt := step(here, facing)) and not blocked(nxt):
            gate = None
            if not scout and nxt[0] != here[0] and nxt[1] != here[1]:
                gate = tuple(s for s in ((nxt[0], here[1]), (here[0], nxt[1])) if not blocked(s))
                if not gate:
                    return
            yield nxt, gate
            here = nxt

    def flight_line(self, square: Square, heading: int) -> tuple[Square, ...]:
        """The squares a flyer on ``square`` passes flying along ``heading`` on the
        empty arena: over regular obstacles, never into or diagonally between 3D
        obstacles (R3)."""
        key = (square, heading)
        line = self.flights.get(key)
        if line is None:
            line = self.flights[key] = tuple(self._flight_line(square, heading))
        return line

    def _flight_line(self, square: Square, heading: int) -> Iterator[Square]:
        here, walls = square, self.walls
        while on_arena(nxt := step(here, heading)) and nxt not in walls:
            diagonal = nxt[0] != here[0] and nxt[1] != here[1]
            if diagonal and (nxt[0], here[1]) in walls and (here[0], nxt[1]) in walls:
                return
            yield nxt
            here = nxt


#: the Sight tables of the terrains met, the most recent last
#: terrains whose tables are kept before the oldest is forgotten
TERRAINS = 64
_SIGHTS: Table[tuple[frozenset[Square], frozenset[Square]], Sight] = Table(
    "electron_gladiators.arena.sights",
    "electron-gladiators",
    TERRAINS,
    "the lines of sight of terrains",
    oldest_out=True,
)


def sight_for(obstacles: frozenset[Square], walls: frozenset[Square]) -> Sight:
    """The shared Sight table of a terrain."""
    key = (obstacles, walls)
    table = _SIGHTS.get(key)
    if table is None:
        table = _SIGHTS.keep(key, Sight(obstacles, walls))
    return table


def forget_oldest(table: dict[Any, Any], limit: int) -> None:
    """Make room in ``table`` for one more entry: past ``limit`` entries the oldest goes
    (a dict keeps the order in which its keys came)."""
    if len(table) >= limit:
        del table[next(iter(table))]


class GunsInReach:
    """For each vehicle, the enemy guns the terrain lets reach it where both stand
    (:meth:`Arena.terrain_aim` is not None), with that aim: kept up to date by looking
    again only at the vehicles that moved, turned or were lost since, as the arena
    tells it (:meth:`Arena.move_to`, :meth:`Arena.face`, :meth:`Arena.remove`): an
    attack list then weighs the few pairs in reach instead of every gun against every
    enemy."""

    __slots__ = ("aims", "by_target", "options", "stale")

    def __init__(self, arena: Arena, options: ElectronGladiatorsOptions) -> None:
        self.options = options
        #: target ident -> gun ident -> the terrain's aim of that gun on it (only the
        #: targets some gun reaches)
        self.by_target: dict[int, dict[int, tuple[int, bool]]] = {}
        #: gun ident -> its aims from where it stands (Sight.gun_aims)
        self.aims: dict[int, GunAims] = {}
        #: ident -> whether it moved (else it only turned) since it was looked at
        self.stale: dict[int, bool] = dict.fromkeys(arena.vehicles, True)

    def update(self, arena: Arena) -> None:
        by_target, vehicles, sight = self.by_target, arena.vehicles, arena.sight
        for ident in self.stale:  # first where each gun stands now, then who reaches whom
            vehicle = vehicles.get(ident)
            if vehicle is None:
                self.aims.pop(ident, None)
            elif vehicle.kind.gun > 0:
                self.aims[ident] = sight.gun_aims(vehicle, self.options)
        for ident, moved in self.stale.items():
            vehicle = vehicles.get(ident)
            if vehicle is not None:
                self._look_again(arena, vehicle, moved)
                continue
            by_target.pop(ident, None)  # lost
            for target, guns in list(by_target.items()):
                if guns.pop(ident, None) is not None and not guns:
                    del by_target[target]
        self.stale.clear()

    def note(self, ident: int, moved: bool) -> None:
        self.stale[ident] = moved or self.stale.get(ident, False)

    def _look_again(self, arena: Arena, vehicle: Vehicle, moved: bool) -> None:
        """``vehicle`` turned or (``moved``) stands somewhere new: what it reaches and,
        if it moved, the guns that reach it (a gun's aim on a square does not depend
        on how the target faces). The aims are read from the masks as GunAims.at
        reads them, written out: this runs after every step."""
        by_target, aims, seat = self.by_target, self.aims, vehicle.seat
        enemies = [other for other in arena.vehicles.values() if other.seat != seat]
        if moved:  # the guns that reach it are looked for afresh
            guns: dict[int, tuple[int, bool]] = {}
            one, flyer = MASK[vehicle.square], vehicle.kind.flyer
            for other in enemies:
                if other.kind.gun > 0:
                    gun = aims[other.ident]
                    direct, band = gun.flyer if flyer else gun.ground
                    if direct & one:
                        guns[other.ident] = gun.direct_in_band if band & one else gun.direct
                    elif band & one:
                        guns[other.ident] = BAND_ONLY
            if guns:
                by_target[vehicle.ident] = guns
            else:
                by_target.pop(vehicle.ident, None)
        own = aims.get(vehicle.ident)
        if own is None:
            return
        ident = vehicle.ident
        for other in enemies:
            one = MASK[other.square]
            direct, band = own.flyer if other.kind.flyer else own.ground
            if direct & one:
                by_target.setdefault(other.ident, {})[ident] = (
                    own.direct_in_band if band & one else own.direct
                )
            elif band & one:
                by_target.setdefault(other.ident, {})[ident] = BAND_ONLY
            else:
                reaching = by_target.get(other.ident)
                if reaching is not None and ident in reaching:
                    del reaching[ident]
                    if not reaching:
                        del by_target[other.ident]


@dataclass
class Arena:
    """Obstacles (fixed for the match) and the vehicles on the board."""

    obstacles: frozenset[Square]
    walls: frozenset[Square]  # 3D obstacles
    vehicles: dict[int, Vehicle] = field(default_factory=dict)  # in ident order (place)
    at: dict[Square, int] = field(default_factory=dict)
    #: the squares that hold a vehicle, as a mask (sightlines.MASK)
    occupied: int = field(default=0, init=False, repr=False, compare=False)
    sight: Sight = field(init=False, repr=False, compare=False)
    _reach: GunsInReach | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.sight = sight_for(self.obstacles, self.walls)

    def guns_in_reach(
        self, options: ElectronGladiatorsOptions
    ) -> dict[int, dict[int, tuple[int, bool]]]:
        """Target ident -> the enemy guns (ident -> aim) the terrain lets reach it now
        (see GunsInReach); read it, never edit it."""
        reach = self._reach
        if reach is None or reach.options is not options:
            reach = self._reach = GunsInReach(self, options)
        if reach.stale:
            reach.update(self)
        return reach.by_target

    def __deepcopy__(self, memo: dict[int, object]) -> Arena:
        twin = self.copy()
        memo[id(self)] = twin
        return twin

    def __getstate__(self) -> dict[str, object]:
        """Pickles leave the guns in reach behind (worked out again when asked)."""
        return {**self.__dict__, "_reach": None}

    @classmethod
    def from_setup(cls, setup: Setup) -> Arena:
        arena = cls(setup.obstacles, setup.walls)
        for ident, p in enumerate(setup.vehicles, start=1):
            arena.place(Vehicle(ident, p.seat, p.code, p.square, p.facing))
        return arena

    def copy(self) -> Arena:
        """A cheap copy for look-ahead: the terrain and its sight table are shared,
        the vehicles copied."""
        twin = Arena.__new__(Arena)
        twin.obstacles, twin.walls, twin.sight = self.obstacles, self.walls, self.sight
        twin.vehicles = {ident: v.copy() for ident, v in self.vehicles.items()}
        twin.at = dict(self.at)
        twin.occupied = self.occupied
        twin._reach = None  # worked out again when asked
        return twin

    # ----- vehicles ------------------------------------------------------------------
    def place(self, vehicle: Vehicle) -> None:
        """Put ``vehicle`` on the arena. The vehicles are kept in ident order, the order
        in which the rules list them (steps, attacks)."""
        self.vehicles[vehicle.ident] = vehicle
        self.at[vehicle.square] = vehicle.ident
        self.occupied |= MASK[vehicle.square]
        if any(ident > vehicle.ident for ident in self.vehicles):
            self.vehicles = dict(sorted(self.vehicles.items()))
        self._changed(vehicle, moved=True)

    def remove(self, vehicle: Vehicle) -> None:
        del self.vehicles[vehicle.ident]
        del self.at[vehicle.square]
        self.occupied &= ~MASK[vehicle.square]
        self._changed(vehicle, moved=True)

    def move_to(self, vehicle: Vehicle, square: Square) -> None:
        del self.at[vehicle.square]
        self.occupied ^= MASK[vehicle.square] | MASK[square]
        vehicle.square = square
        self.at[square] = vehicle.ident
        self._changed(vehicle, moved=True)

    def face(self, vehicle: Vehicle, facing: int | None) -> None:
        """Turn a ground vehicle to ``facing`` (vehicles on the arena turn only so)."""
        vehicle.facing = facing
        self._changed(vehicle, moved=False)

    def _changed(self, vehicle: Vehicle, moved: bool) -> None:
        if self._reach is not None:
            self._reach.note(vehicle.ident, moved)

    def vehicle_at(self, square: Square) -> Vehicle | None:
        ident = self.at.get(square)
        return None if ident is None else self.vehicles[ident]

    def side(self, seat: str) -> list[Vehicle]:
        return [v for v in self.vehicles.values() if v.seat == seat]

    def enemies(self, seat: str) -> list[Vehicle]:
        return [v for v in self.vehicles.values() if v.seat != seat]

    # ----- what blocks ---------------------------------------------------------------
    def is_obstacle(self, square: Square) -> bool:
        """Regular or 3D obstacle: blocks ground movement, direct fire and ground sight."""
        return square in self.obstacles or square in self.walls

    def is_wall(self, square: Square) -> bool:
        """A 3D obstacle (X): also blocks flyers' movement, sight and attacks."""
        return square in self.walls

    def blocks_direct_fire(self, square: Square) -> bool:
        """Obstacles and ground vehicles block a direct attack; flyers do not (R12)."""
        if self.is_obstacle(square):
            return True
        other = self.vehicle_at(square)
        return other is not None and not other.kind.flyer

    def line_clear(self, a: Square, b: Square, blocks: Blocker, through_gaps: bool) -> bool:
        """No blocking square on the straight line between two centres. A line
        passing exactly between two diagonally touching blocked squares is closed
        unless ``through_gaps`` (the Scout sees and fires through such gaps)."""
        crossed, gaps = line_offsets(b[0] - a[0], b[1] - a[1])
        for dx, dy in crossed:
            if blocks((a[0] + dx, a[1] + dy)):
                return False
        if through_gaps:
            return True
        for (x1, y1), (x2, y2) in gaps:
            if blocks((a[0] + x1, a[1] + y1)) and blocks((a[0] + x2, a[1] + y2)):
                return False
        return True

    def squares_on_line(self, a: Square, b: Square) -> Iterator[Square]:
        crossed, _ = line_offsets(b[0] - a[0], b[1] - a[1])
        for dx, dy in crossed:
            yield (a[0] + dx, a[1] + dy)

    # ----- movement ------------------------------------------------------------------
    def ground_can_enter(self, vehicle: Vehicle, origin: Square, square: Square) -> bool:
        """A ground vehicle moves onto an open, empty square; only the Scout slips
        diagonally between two blocked squares that touch at a corner (R10)."""
        if not on_arena(square) or self.is_obstacle(square) or square in self.at:
            return False
        if vehicle.kind.scout or origin[0] == square[0] or origin[1] == square[1]:
            return True
        side_a, side_b = (square[0], origin[1]), (origin[0], square[1])
        return not (self._ground_blocked(side_a) and self._ground_blocked(side_b))

    def _ground_blocked(self, square: Square) -> bool:
        return self.is_obstacle(square) or square in self.at

    def drive_path(self, vehicle: Vehicle, facing: int, squares: int) -> list[Square] | None:
        """The squares a ground vehicle passes driving straight along ``facing``,
        or None if anything blocks it."""
        path, here = [], vehicle.square
        for _ in range(squares):
            nxt = step(here, facing)
            if not self.ground_can_enter(vehicle, here, nxt):
                return None
            path.append(nxt)
            here = nxt
        return path

    def drive_reach(self, vehicle: Vehicle, facing: int, points: int) -> int:
        """How many squares (at most ``points``) a ground vehicle can drive straight
        along ``facing``: :meth:`drive_path` succeeds for 1 to that many. The terrain's
        line is tabled (Sight.ground_line); only the vehicles on it are looked at."""
        at, count = self.at, 0
        for square, gate in self.sight.ground_line(vehicle.square, facing, vehicle.kind.scout):
            if count == points or square in at:
                break
            if gate is not None and gate[0] in at and gate[-1] in at:
                break  # a corner closed by vehicles (or a vehicle and an obstacle)
            count += 1
        return count

    def flight_stops(
        self, vehicle: Vehicle, heading: int, points: int, pass_over: bool, kills: int | None
    ) -> list[int]:
        """The flight lengths from 1 to ``points`` along ``heading`` for which
        :meth:`fly_path` (with ``pass_over`` and ``kills``) succeeds, found in one
        walk along the terrain's tabled line: the path to each length is the path to
        the one before plus a square."""
        at, left = self.at, kills
        out: list[int] = []
        for count, square in enumerate(self.sight.flight_line(vehicle.square, heading)[:points], 1):
            ident = at.get(square)
            if ident is None:
                out.append(count)
            elif self.field_strikes(vehicle, self.vehicles[ident], left):
                out.append(count)
                left = None if left is None else left - 1
            elif not pass_over:
                break
            # else it may pass over, never stop on another vehicle
        return out

    def fly_path(
        self,
        vehicle: Vehicle,
        heading: int,
        squares: int,
        *,
        pass_over: bool = True,
        kills: int | None = 1,
    ) -> list[Square] | None:
        """The squares a flyer passes flying straight, or None if it cannot: over
        regular obstacles, never into or diagonally between 3D obstacles; over other
        vehicles when ``pass_over`` (R3), stopping only on an empty square. An
        Inverter's field destroys the first ``kills`` enemies on the way (None: all,
        R33); it may also stop on the square of one it destroys."""
        path, here, left = [], vehicle.square, kills
        for count in range(1, squares + 1):
            nxt = step(here, heading)
            if not on_arena(nxt) or self.is_wall(nxt):
                return None
            diagonal = nxt[0] != here[0] and nxt[1] != here[1]
            if diagonal and self.is_wall((nxt[0], here[1])) and self.is_wall((here[0], nxt[1])):
                return None
            other = self.vehicle_at(nxt)
            if other is not None:
                if self.field_strikes(vehicle, other, left):
                    left = None if left is None else left - 1
                elif not pass_over or count == squares:
                    return None
            path.append(nxt)
            here = nxt
        return path

    @staticmethod
    def field_strikes(inverter: Vehicle, other: Vehicle, kills: int | None) -> bool:
        """Whether an Inverter's field destroys ``other`` as it passes (``kills``: how
        many it may still destroy, None: any number)."""
        return (
            inverter.code == "INV" and other.seat != inverter.seat and (kills is None or kills > 0)
        )

    # ----- sight and fire ------------------------------------------------------------
    def sees(self, spotter: Vehicle, target: Square) -> bool:
        """Telemetry: a flyer spots all round within its radius unless a 3D obstacle
        is in the way; a ground vehicle spots within its range, inside its
        90-degree arc, past no obstacle (vehicles do not block sight, R14)."""
        return bool(self.sight.sight(spotter) & MASK[target])

    def sees_along(self, spotter: Vehicle, target: Square) -> bool:
        """:meth:`sees` walked along the one line to ``target`` (the rule as written;
        the sight table gives the same for every square at once)."""
        kind = spotter.kind
        if distance(spotter.square, target) > kind.telemetry:
            return False
        if kind.flyer:
            return self.line_clear(spotter.square, target, self.is_wall, False)
        assert spotter.facing is not None
        if not in_arc(spotter.square, spotter.facing, target):
            return False
        return self.line_clear(spotter.square, target, self.is_obstacle, kind.scout)

    def spotters(self, seat: str, target: Square) -> list[Vehicle]:
        return [v for v in self.side(seat) if self.sees(v, target)]

    def gun_faces(
        self, attacker: Vehicle, target: Square, options: ElectronGladiatorsOptions
    ) -> bool:
        """The gun's attack angle: a tank's turret turns 45 degrees either side of
        its front (90 degrees); the Scout's gun fires straight ahead (0 degrees, R27,
        option ``scout_attack_angle``); the Mosquito pivots all round (360)."""
        kind = attacker.kind
        if kind.flyer:
            return True
        assert attacker.facing is not None
        if kind.scout and options.scout_attack_angle == 0:
            return straight_ahead(attacker.square, attacker.facing, target)
        return in_arc(attacker.square, attacker.facing, target)

    def gun_mode(
        self,
        attacker: Vehicle,
        target: Vehicle,
        spotters: list[Vehicle],
        options: ElectronGladiatorsOptions,
    ) -> str | None:
        """``direct``, ``parabolic`` or None: can this gun reach the target now?

        Direct: inside the gun's attack angle, within direct range, clear line.
        Parabolic: inside the attack angle, within the parabolic band, and a
        friendly spotter sees the target. Tanks cannot aim at a flyer nearer than
        2 spaces (R23). A flyer's gun never fires past a 3D obstacle (R28).
        """
        aim = self.gun_aim(attacker, target, options)
        if aim is None:
            return None
        direct, in_band = aim
        if direct:
            return "direct"
        if in_band and any(s.ident != attacker.ident or options.self_spotting for s in spotters):
            return "parabolic"
        return None

    def gun_aim(
        self, attacker: Vehicle, target: Vehicle, options: ElectronGladiatorsOptions
    ) -> tuple[bool, bool] | None:
        """:meth:`gun_mode` before the spotters: None if the gun cannot reach the
        target at all, else (its direct fire reaches it, it is in the parabolic band)."""
        if attacker.kind.gun <= 0:
            return None
        return self.settle_aim(attacker, target, self.terrain_aim(attacker, target, options))

    def terrain_aim(
        self, attacker: Vehicle, target: Vehicle, options: ElectronGladiatorsOptions
    ) -> Aim:
        """How the gun stands towards the target before other vehicles are considered
        (Sight.gun_aims): what :meth:`_aim` says, from the terrain's lines."""
        return self.sight.gun_aims(attacker, options).at(target.square, target.kind.flyer)

    def settle_aim(self, attacker: Vehicle, target: Vehicle, aim: Aim) -> tuple[bool, bool] | None:
        """:meth:`gun_aim` from the terrain's ``aim``: a direct line the terrain leaves
        open is closed by a ground vehicle on it (R12)."""
        if aim is None:
            return None
        direct, in_band = aim
        if direct == DIRECT_IF_NO_VEHICLE:
            a, t = attacker.square, target.square
            return self.line_clear(a, t, self.blocks_direct_fire, attacker.kind.scout), in_band
        return direct == DIRECT, in_band

    def aim_along(
        self, attacker: Vehicle, target: Vehicle, options: ElectronGladiatorsOptions
    ) -> Aim:
        """:meth:`terrain_aim` walked along the one line to the target (the rule as
        written, see gun_mode; the sight table gives the same for every square at
        once)."""
        kind = attacker.kind
        a, t = attacker.square, target.square
        if not self.gun_faces(attacker, t, options):
            return None
        gap = distance(a, t)
        if kind.tank and target.kind.flyer and gap < options.tank_min_flyer_distance:
            return None
        if kind.flyer and not self.line_clear(a, t, self.is_wall, False):
            return None
        direct = NO_DIRECT
        if gap <= kind.direct:
            if kind.flyer:
                direct = DIRECT if self.line_clear(a, t, self.is_wall, False) else NO_DIRECT
            elif self.line_clear(a, t, self.is_obstacle, kind.scout):
                # obstacles alone leave it open; ground vehicles may still close it
                direct = DIRECT_IF_NO_VEHICLE
        band = kind.parabolic
        in_band = band is not None and band[0] <= gap <= band[1]
        return (direct, in_band) if direct or in_band else None

    def friendly_flyers_in_path(
        self, attacker: Vehicle, target: Square, options: ElectronGladiatorsOptions
    ) -> list[Vehicle]:
        """Friendly flyers a parabolic shot passes more than 2 spaces from the gun:
        they are destroyed by friendly fire (R15)."""
        hit = []
        for square in self.squares_on_line(attacker.square, target):
            other = self.vehicle_at(square)
            if (
                other is not None
                and other.kind.flyer
                and other.seat == attacker.seat
                and distance(attacker.square, square) > options.parabolic_safe_flyer_distance
            ):
                hit.append(other)
        return hit

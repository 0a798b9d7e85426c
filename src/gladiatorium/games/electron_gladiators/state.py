"""The match: turns made of one move action and at most one attack.

Rulings cited as R<n> are rows of the table in docs/rules/electron-gladiators.md.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from gladiatorium.core import (
    Action,
    Copying,
    Ending,
    GameOver,
    IllegalAction,
    NotYourTurn,
    Outcome,
    Seat,
    State,
    Termination,
)
from gladiatorium.core.kept import WRITING, cached
from gladiatorium.games.electron_gladiators import setups
from gladiatorium.games.electron_gladiators.actions import (
    Dodge,
    Drive,
    EndMove,
    Fire,
    Fly,
    Turn,
)
from gladiatorium.games.electron_gladiators.arena import REACH_PLACEMENTS, Arena, forget_oldest
from gladiatorium.games.electron_gladiators.attacks import attack_choices, evasive
from gladiatorium.games.electron_gladiators.board import (
    FACINGS,
    NAMES,
    Square,
    distance,
    parse_square,
    side_hit,
    square_name,
    step,
)
from gladiatorium.games.electron_gladiators.explain import why_not
from gladiatorium.games.electron_gladiators.options import ElectronGladiatorsOptions
from gladiatorium.games.electron_gladiators.setups import (
    Placement,
    Setup,
    SetupError,
    Standing,
    format_setup,
    parse_setup,
    setup_text,
)
from gladiatorium.games.electron_gladiators.sightlines import mask_of
from gladiatorium.games.electron_gladiators.vehicles import TYPES, Vehicle

SEATS: tuple[Seat, ...] = ("1", "2")
TANK_TURNS = ("l45", "l90", "l135", "r45", "r90", "r135", "180")
SCOUT_TURNS = ("l45", "l90", "r45", "r90", "180")
#: each turn in 45-degree steps (as Turn.eighths)
EIGHTHS = {turn: Turn("", turn).eighths for turn in TANK_TURNS}
#: what each turn costs a tank (see turn_cost)
TANK_TURN_COSTS = tuple((turn, abs(EIGHTHS[turn])) for turn in TANK_TURNS)

#: the longest step of any vehicle: the tables below hold steps up to it
TOP_SPEED = max(kind.speed for kind in TYPES.values())

# Actions are immutable values, so the steps offered from a square are built once and
# shared by every match (a square is named by its notation; there are 441).


@cached("electron_gladiators.state.drives", "electron-gladiators", None, "drives by square")
def drives(name: str, direction: str) -> tuple[Action, ...]:
    """The drives from square ``name`` in ``direction``, by length from 1."""
    return tuple(Drive(name, direction, n) for n in range(1, TOP_SPEED + 1))


@cached("electron_gladiators.state.flights", "electron-gladiators", None, "flights by square")
def flights(name: str, heading: str) -> tuple[Action, ...]:
    """The flights from square ``name`` along ``heading``, by length from 1."""
    return tuple(Fly(name, heading, n) for n in range(1, TOP_SPEED + 1))


@cached(
    "electron_gladiators.state.tank_turns", "electron-gladiators", None, "tanks' turns by square"
)
def tank_turns(name: str, points: int) -> tuple[Action, ...]:
    """The turns a tank on ``name`` with ``points`` speed points left can pay for."""
    return tuple(Turn(name, turn) for turn, cost in TANK_TURN_COSTS if cost <= points)


@cached(
    "electron_gladiators.state.scout_turns", "electron-gladiators", None, "Scouts' turns by square"
)
def scout_turns(name: str) -> tuple[Turn, ...]:
    """Every turn of a Scout on ``name`` (what each costs depends on the move so far)."""
    return tuple(Turn(name, turn) for turn in SCOUT_TURNS)


@cached("electron_gladiators.state.fire", "electron-gladiators", None, "attacks by squares")
def fire(lead: str, target: str, helper: str) -> Action:
    """The attack on ``target`` led by the gun on ``lead`` (with ``helper``'s, if named)."""
    return Fire(lead, target, helper)


@cached("electron_gladiators.state.load_setup", "electron-gladiators", 32, "set-ups read")
def load_setup(value: str) -> Setup:
    return parse_setup(setup_text(value), "setup")


class Way(NamedTuple):
    """A straight line a vehicle may drive or fly from where it stands."""

    direction: str  # fwd, rev, or a flyer's heading
    facing: int  # the facing it runs along
    #: the squares it enters or slips past, as far as the points and the terrain allow
    #: (a mask, sightlines.MASK)
    passes: int
    #: the steps along it when no vehicle stands on any of those squares
    open_steps: tuple[Action, ...]


class Reach(NamedTuple):
    """A vehicle's ways from where it stands with the points it has."""

    ways: tuple[Way, ...]
    passes: int  # every square any of them passes (a mask)
    #: its drives or flights when no vehicle stands on any of those squares, and a
    #: tank's turns
    open_steps: tuple[Action, ...]


#: the ways a match ends
QUIET_TURNS = Ending(Termination.QUIET_TURNS, "{turns} turns in a row without a loss")
TURN_LIMIT = Ending(Termination.TURN_LIMIT, "turn limit of {limit} reached")
KNOCKOUT = Ending(Termination.KNOCKOUT, "the other side has no vehicles left")
FELL_TOGETHER = Ending(Termination.FELL_TOGETHER, "both sides lost their last vehicles at once")


class ElectronGladiatorsState(State[ElectronGladiatorsOptions]):
    #: a copy shares the set-up's name and the plain values, copies the terrain with the
    #: vehicles on it (the sight table is shared, see Arena.copy) and starts without the
    #: lists worked out for one version of the match
    COPYING = Copying(
        shared=(
            *("setup_name", "to_move", "turn", "quiet_turns", "lost_this_turn", "mover"),
            *("spent", "move_over", "attacked", "free_turn_last", "turned_free"),
            *("pending_dodge", "result", "_version", "_layout"),
        ),
        copied={"arena": Arena.copy},
        caches={"_legal": lambda: None, "_steps": lambda: None, "_attacks": lambda: None},
    )

    def __init__(self, options: ElectronGladiatorsOptions, players: int, seed: int) -> None:
        super().__init__(options, players, seed)
        setup = load_setup(options.setup)
        self.setup_name = setup.name
        self.arena = Arena.from_setup(setup)
        self.to_move: Seat = setup.to_move
        self.turn = setup.turn
        self.quiet_turns = 0
        self.lost_this_turn = False
        self.mover: int | None = None  # the vehicle making this turn's move action
        self.spent = 0
        self.move_over = False
        self.attacked = False
        self.free_turn_last = False
        self.turned_free = False  # the mover made a free Scout turn this move
        self.pending_dodge: tuple[int, tuple[str, ...]] | None = None
        self.result: Outcome | None = None
        self._stand(setup.standing)
        #: bumped whenever the match changes; the caches below hold for one version
        self._version = 0
        self._legal: tuple[int, tuple[Action, ...]] | None = None
        self._steps: tuple[int, list[Action]] | None = None
        #: bumped whenever a vehicle moves, turns or is lost (not when a move or turn
        #: ends): the attacks open to a seat hold while it and the mover are the same
        self._layout = 0
        self._attacks: tuple[tuple[int, Seat, int | None], list[Action]] | None = None

    # ----- positions -----------------------------------------------------------------
    def _stand(self, standing: Standing) -> None:
        """Take up a position's place in its turn (a set-up's defaults: a turn's start);
        its next dice are drawn before the seed's. Draws nothing."""
        ident = self.arena.at.get
        self.quiet_turns, self.lost_this_turn = standing.quiet, standing.lost
        self.mover = None if standing.mover is None else ident(standing.mover)
        self.spent, self.move_over, self.attacked = (
            standing.spent,
            standing.move_over,
            standing.attacked,
        )
        self.turned_free, self.free_turn_last = standing.free_turn, standing.free_turn_last
        if standing.dodge is not None:
            scout = self.arena.vehicles[self.arena.at[standing.dodge]]
            squares = self.dodge_squares(scout)
            if not squares:
                where = standing.at("dodge")
                raise SetupError(
                    f"{where}: dodge: the Scout on {square_name(scout.square)} has nowhere to dodge"
                )
            self.pending_dodge = (scout.ident, tuple(squares))
        if standing.result is not None:
            self.result = self._written_result(*standing.result)
        self.rng.queue(standing.dice)

    def _written_result(self, winner: Seat | None, ending: str) -> Outcome:
        if winner is not None:
            return Outcome.win([winner], KNOCKOUT())
        if ending == setups.QUIET_TURNS:
            return Outcome.drawn(QUIET_TURNS(turns=self.quiet_turns))
        if ending == setups.TURN_LIMIT:
            return Outcome.drawn(TURN_LIMIT(limit=self.options.max_turns))
        return Outcome.drawn(FELL_TOGETHER())

    def standing(self) -> Standing:
        """Where the match stands in its turn, as a position writes it."""
        mover = self.arena.vehicles.get(self.mover) if self.mover is not None else None
        dodge = self.pending_dodge
        return Standing(
            quiet=self.quiet_turns,
            lost=self.lost_this_turn,
            mover=None if mover is None else mover.square,
            spent=self.spent,
            free_turn=self.turned_free,
            free_turn_last=self.free_turn_last,
            move_over=self.move_over,
            attacked=self.attacked,
            dodge=None if dodge is None else self.arena.vehicles[dodge[0]].square,
            dice=tuple(self.rng.next_dice()),
            result=None if self.result is None else self._result_words(self.result),
        )

    @staticmethod
    def _result_words(result: Outcome) -> tuple[Seat | None, str]:
        """A match's outcome as a position's 'result' line says it."""
        if result.winners:
            return (result.winners[0], setups.KNOCKOUT)
        words = {
            Termination.QUIET_TURNS: setups.QUIET_TURNS,
            Termination.TURN_LIMIT: setups.TURN_LIMIT,
        }
        return (None, words.get(result.termination, setups.FELL_TOGETHER))

    def position_text(self, dice: bool = True) -> str:
        """The match at this decision point as a position (what ``parse_setup`` reads
        back): the arena, the vehicles in the order the rules list them, the turn and
        where it stands; with ``dice`` False, without the next dice."""
        vehicles = tuple(
            Placement(v.seat, v.code, v.square, v.facing) for v in self.arena.vehicles.values()
        )
        standing = self.standing()
        if not dice:
            standing = replace(standing, dice=())
        arena = self.arena
        setup = Setup(self.setup_name, arena.obstacles, arena.walls, vehicles, self.to_move)
        return format_setup(replace(setup, turn=self.turn, standing=standing))

    # ----- contract ------------------------------------------------------------------
    @property
    def seats(self) -> tuple[Seat, ...]:
        return SEATS

    def _awaiting(self) -> tuple[Seat, ...]:
        if self.pending_dodge is not None:
            return (self.arena.vehicles[self.pending_dodge[0]].seat,)
        return (self.to_move,)

    def outcome(self) -> Outcome | None:
        return self.result

    def legal_actions(self, seat: Seat) -> list[Action]:
        return list(self._legal_list(seat))

    def _legal_list(self, seat: Seat) -> tuple[Action, ...]:
        """:meth:`legal_actions` kept for this version of the match (handed to
        ``legal_now`` as it is)."""
        if self.result is not None or seat not in self._awaiting():
            return ()
        if self._legal is None or self._legal[0] != self._version:
            self._legal = (self._version, tuple(self._compute_legal()))
        return self._legal[1]

    def parse(self, seat: Seat, text: str) -> Action:
        """The legal action typed as ``text``; a refusal says why in the game's words."""
        try:
            return super().parse(seat, text)
        except (NotYourTurn, GameOver):
            raise
        except IllegalAction as err:
            reason = why_not(self, seat, text)
            if reason is None:
                raise
            raise IllegalAction(f"{text.strip()!r}: {reason}") from err

    def illegal_reason(self, seat: Seat, action: Action) -> str | None:
        legal = self.legal_actions(seat)
        for choice in legal:  # an action taken from the legal list: found by identity
            if choice is action:
                return None
        if action in legal:
            return None
        reason = why_not(self, seat, str(action))
        return f"{action}: {reason or f'not a legal action for seat {seat} now'}"

    def _compute_legal(self) -> list[Action]:
        if self.pending_dodge is not None:
            return [Dodge(to) for to in self.pending_dodge[1]]
        steps = self._kept_steps()
        actions: list[Action] = list(steps)
        if self.may_attack():
            actions.extend(self._attack_list(self.to_move))
        if self.move_made or not steps:
            actions.append(EndMove())
        return actions

    # ----- the move action -----------------------------------------------------------
    @property
    def move_made(self) -> bool:
        """The move action is made: a speed point spent, or (option
        ``scout_free_turn_is_a_move``, R32) a free Scout turn."""
        return self.spent > 0 or (self.options.scout_free_turn_is_a_move and self.turned_free)

    def field_kills_left(self) -> int | None:
        """How many enemies an Inverter's field may still destroy this turn: the field
        is the turn's one attack (R33); None: any number (option off)."""
        if not self.options.inverter_field_is_attack:
            return None
        return 0 if self.attacked else 1

    def flight(self, vehicle: Vehicle, heading: int, squares: int) -> list[Square] | None:
        """The squares a flyer passes on a straight flight now, or None (R3, R33)."""
        return self.arena.fly_path(
            vehicle,
            heading,
            squares,
            pass_over=self.options.flyers_pass_vehicles,
            kills=self.field_kills_left(),
        )

    def remaining(self, vehicle: Vehicle) -> int:
        return vehicle.kind.speed - (self.spent if vehicle.ident == self.mover else 0)

    def move_steps(self) -> list[Action]:
        """Steps open to the seat to move: any vehicle before the move starts, then
        only the moving one, until its points run out or the move is over."""
        return list(self._kept_steps())

    def _kept_steps(self) -> list[Action]:
        """:meth:`move_steps`, kept for this version of the match (read it, never edit it)."""
        if self._steps is None or self._steps[0] != self._version:
            self._steps = (self._version, self._move_steps())
        return self._steps[1]

    def _move_steps(self) -> list[Action]:
        if self.move_over:
            return []
        steps: list[Action] = []
        if self.mover is not None:
            mover = self.arena.vehicles[self.mover]
            self._add_steps(steps, mover, self.remaining(mover))
            return steps
        for vehicle in self.arena.vehicles.values():  # in ident order
            if vehicle.seat == self.to_move:  # before the move, every vehicle at full speed
                self._add_steps(steps, vehicle, vehicle.kind.speed)
        return steps

    def steps_for(self, vehicle: Vehicle) -> list[Action]:
        """The drives, flights and turns open to ``vehicle`` now."""
        out: list[Action] = []
        self._add_steps(out, vehicle, self.remaining(vehicle))
        return out

    def _add_steps(self, out: list[Action], vehicle: Vehicle, points: int) -> None:
        occupied = self.arena.occupied
        kind = vehicle.kind
        reach = self.arena.sight.reaches.get(
            (vehicle.square, vehicle.facing, kind.mobility, points)
        )
        if reach is None:
            reach = self._reach(vehicle, points)
        if not occupied & reach.passes:
            out.extend(reach.open_steps)  # no vehicle on any of its ways
        else:
            for way in reach.ways:
                if occupied & way.passes:
                    out.extend(self._steps_along(vehicle, way, points))
                else:
                    out.extend(way.open_steps)
            if kind.tank:
                out.extend(tank_turns(NAMES[vehicle.square], points))
        if kind.scout:
            out.extend(self._scout_turns(vehicle, points))

    def _scout_turns(self, vehicle: Vehicle, points: int) -> tuple[Turn, ...]:
        """The turns a Scout with ``points`` left may make now: the four of 45 and 90
        degrees cost the same (turn_cost), then the turn about."""
        turns = scout_turns(NAMES[vehicle.square])
        slight, about = self.turn_cost(vehicle, "l45"), self.turn_cost(vehicle, "180")
        affordable = slight is not None and slight <= points
        if about is not None and about <= points:
            return turns if affordable else turns[4:]
        return turns[:4] if affordable else ()

    def _reach(self, vehicle: Vehicle, points: int) -> Reach:
        """The straight lines ``vehicle`` may drive or fly with ``points`` (forward and,
        but for the Scout, in reverse; a flyer's eight headings), tabled per placement
        with the terrain's sight table (by how the vehicle moves: every tank alike)."""
        kind = vehicle.kind
        key = (vehicle.square, vehicle.facing, kind.mobility, points)
        memo = self.arena.sight.reaches
        reach: Reach | None = memo.get(key)
        if reach is None:
            ways = tuple(self._work_out_ways(vehicle, points))
            steps = [step for way in ways for step in way.open_steps]
            if kind.tank:  # a tank's turns: a point per 45 degrees
                steps.extend(tank_turns(NAMES[vehicle.square], points))
            passes = 0
            for way in ways:
                passes |= way.passes
            reach = Reach(ways, passes, tuple(steps))
            with WRITING:  # the sight tables are shared by the server's threads
                forget_oldest(memo, REACH_PLACEMENTS)
                memo[key] = reach
        return reach

    def _work_out_ways(self, vehicle: Vehicle, points: int) -> Iterator[Way]:
        sight, square, name = self.arena.sight, vehicle.square, NAMES[vehicle.square]
        if vehicle.kind.flyer:
            for heading, label in enumerate(FACINGS):
                line = sight.flight_line(square, heading)[:points]
                if line:
                    yield Way(label, heading, mask_of(line), flights(name, label)[: len(line)])
            return
        assert vehicle.facing is not None
        directions = ("fwd",) if vehicle.kind.scout else ("fwd", "rev")
        for direction in directions:
            facing = vehicle.facing if direction == "fwd" else (vehicle.facing + 4) % 8
            steps = sight.ground_line(square, facing, vehicle.kind.scout)[:points]
            if steps:
                passes = mask_of(s for entered, gate in steps for s in (entered, *(gate or ())))
                yield Way(direction, facing, passes, drives(name, direction)[: len(steps)])

    def _steps_along(self, vehicle: Vehicle, way: Way, points: int) -> Sequence[Action]:
        """The steps along ``way`` with vehicles on it: as far as they let a ground
        vehicle drive; the flights that pass them or (an Inverter's field) strike them."""
        arena = self.arena
        if not vehicle.kind.flyer:
            return way.open_steps[: arena.drive_reach(vehicle, way.facing, points)]
        kills = self.field_kills_left()
        stops = arena.flight_stops(
            vehicle, way.facing, points, self.options.flyers_pass_vehicles, kills
        )
        return [way.open_steps[n - 1] for n in stops]

    def turn_cost(self, vehicle: Vehicle, turn: str) -> int | None:
        """Tanks pay a point per 45 degrees. A Scout turns 45 or 90 degrees without
        penalty (never twice in a row, R11) and pays one point to turn about."""
        eighths = abs(EIGHTHS[turn])
        if not vehicle.kind.scout:
            return eighths
        if turn == "180":
            return 1
        if not self.options.scout_free_turns:
            return 1
        if self.free_turn_last and vehicle.ident == self.mover:
            return None
        return 0

    def _begin_step(self, vehicle: Vehicle) -> None:
        self.mover = vehicle.ident

    def _spend(self, vehicle: Vehicle, points: int) -> None:
        self.spent += points
        if self.spent >= vehicle.kind.speed:
            self.move_over = True

    def _apply_drive(self, vehicle: Vehicle, action: Drive) -> None:
        assert vehicle.facing is not None
        facing = vehicle.facing if action.direction == "fwd" else (vehicle.facing + 4) % 8
        path = self.arena.drive_path(vehicle, facing, action.squares)
        assert path is not None
        self.arena.move_to(vehicle, path[-1])
        word = "forward" if action.direction == "fwd" else "in reverse"
        self._moved(vehicle, action.at, f"drives {word}", path[-1], action.squares)

    def _moved(self, vehicle: Vehicle, start: str, how: str, end: Square, points: int) -> None:
        """Announce a drive or flight that ended on ``end`` and spend its points."""
        self.emit(
            "move",
            f"{self.to_move}: {vehicle.code} {start} {how} to {square_name(end)}",
            seat=self.to_move,
            vehicle=vehicle.code,
            start=start,
            end=square_name(end),
        )
        self.free_turn_last = False
        self._spend(vehicle, points)

    def _apply_turn(self, vehicle: Vehicle, action: Turn) -> None:
        assert vehicle.facing is not None
        cost = self.turn_cost(vehicle, action.turn)
        assert cost is not None
        self.arena.face(vehicle, (vehicle.facing + action.eighths) % 8)
        self.emit(
            "turn",
            f"{self.to_move}: {vehicle.code} {action.at} turns {action.turn} to face "
            f"{FACINGS[vehicle.facing]}",
            seat=self.to_move,
            vehicle=vehicle.code,
            square=action.at,
            facing=FACINGS[vehicle.facing],
        )
        self.free_turn_last = cost == 0
        self.turned_free = self.turned_free or cost == 0
        self._spend(vehicle, cost)

    def _apply_fly(self, vehicle: Vehicle, action: Fly) -> None:
        """Fly straight; an Inverter's field destroys the enemies its path allows
        (R33: the first one, as the turn's attack)."""
        path = self.flight(vehicle, FACINGS.index(action.heading), action.squares)
        assert path is not None
        for square in path:
            victim = self.arena.vehicle_at(square)
            if victim is not None and self.arena.field_strikes(
                vehicle, victim, self.field_kills_left()
            ):
                self._disintegrate(victim, square)
        self.arena.move_to(vehicle, path[-1])
        self._moved(vehicle, action.at, f"flies {action.heading}", path[-1], action.squares)

    def _disintegrate(self, victim: Vehicle, square: Square) -> None:
        self.emit(
            "disintegrate",
            f"{self.to_move}: the Inverter disintegrates the {victim.code} on "
            f"{square_name(square)}",
            seat=self.to_move,
            victim=victim.code,
            square=square_name(square),
        )
        self._destroy(victim)
        if self.options.inverter_field_is_attack:
            self.attacked = True  # the field was the turn's attack (R33)

    # ----- attacks -------------------------------------------------------------------
    def may_attack(self) -> bool:
        """One attack a turn, before or after the move, never in its middle."""
        return not self.attacked and (self.mover is None or self.move_made)

    def attack_actions(self, seat: Seat) -> list[Action]:
        """Every legal attack: a lead gun on a target, alone or with a second gun."""
        return list(self._attack_list(seat))

    def _attack_list(self, seat: Seat) -> list[Action]:
        """:meth:`attack_actions`, kept while no vehicle moves, turns or is lost and the
        mover is the same (read it, never edit it)."""
        key = (self._layout, seat, self.mover)
        known = self._attacks
        if known is None or known[0] != key:
            known = self._attacks = (key, self._attack_actions(seat))
        return known[1]

    def _attack_actions(self, seat: Seat) -> list[Action]:
        return [
            fire(
                NAMES[lead.square],
                NAMES[target.square],
                "" if helper is None else NAMES[helper.square],
            )
            for lead, target, helper in attack_choices(self.arena, seat, self.mover, self.options)
        ]

    def _apply_fire(self, action: Fire) -> None:
        seat = self.to_move
        lead = self._vehicle(action.at)
        target = self._vehicle(action.target)
        helper = self._vehicle(action.helper) if action.helper else None
        spotters = self.arena.spotters(seat, target.square)
        guns = [g for g in (lead, helper) if g is not None]
        modes = [self.arena.gun_mode(g, target, spotters, self.options) for g in guns]
        self.attacked = True
        if self.mover is not None and self.move_made:
            self.move_over = True
        names = " with ".join(
            f"{g.code} {square_name(g.square)} ({m})" for g, m in zip(guns, modes, strict=True)
        )
        self.emit(
            "attack",
            f"{seat}: {names} fires at the {target.code} on {action.target}",
            seat=seat,
            guns=[g.code for g in guns],
            target=target.code,
            square=action.target,
            modes=list(modes),
        )
        for gun, mode in zip(guns, modes, strict=True):
            if mode == "parabolic":
                for flyer in self.arena.friendly_flyers_in_path(gun, target.square, self.options):
                    self.emit(
                        "friendly-fire",
                        f"{seat}: the shell destroys its own {flyer.code} on "
                        f"{square_name(flyer.square)}",
                        seat=seat,
                        victim=flyer.code,
                        square=square_name(flyer.square),
                    )
                    self._destroy(flyer)
        if evasive(target):
            self._attack_evasive(lead, target)
        else:
            self._attack_armour(guns, target)

    def _attack_evasive(self, lead: Vehicle, target: Vehicle) -> None:
        """One d6: it hits if at least the distance; a missed Scout dodges."""
        gap = distance(lead.square, target.square)
        roll = self.rng.d(6)
        hit = roll >= gap
        self.emit(
            "roll",
            f"{self.to_move} rolls {roll} against distance {gap}: {'hit' if hit else 'missed'}",
            seat=self.to_move,
            roll=roll,
            distance=gap,
            hit=hit,
        )
        if hit:
            self._destroy(target)
        elif target.code == "SC":
            self._offer_dodge(target)

    def _attack_armour(self, guns: list[Vehicle], target: Vehicle) -> None:
        """The gun total overcomes the armour of the side facing the lead gun (R8)."""
        side = side_hit(target.square, target.facing, guns[0].square)
        armour = target.kind.armour_on(side)
        total = sum(g.kind.gun for g in guns)
        destroyed = total > armour or (
            self.options.overcome == "greater-or-equal" and total == armour
        )
        self.emit(
            "armour",
            f"gun {total} against {side} armour {armour}: "
            f"{'destroyed' if destroyed else 'the armour holds'}",
            gun=total,
            side=side,
            armour=armour,
            destroyed=destroyed,
        )
        if destroyed:
            self._destroy(target)

    def dodge_squares(self, scout: Vehicle) -> list[str]:
        """Forward, or 45 degrees left or right of forward, onto an open square."""
        assert scout.facing is not None
        out = []
        for turn in (0, -1, 1):
            square = step(scout.square, scout.facing + turn)
            if self.arena.ground_can_enter(scout, scout.square, square):
                out.append(square_name(square))
        return out

    def _offer_dodge(self, scout: Vehicle) -> None:
        options = self.dodge_squares(scout)
        if len(options) == 1:
            self._dodge(scout, options[0])
        elif options:
            self.pending_dodge = (scout.ident, tuple(options))
        else:
            self.emit("dodge", f"the Scout on {square_name(scout.square)} has nowhere to dodge")

    def _dodge(self, scout: Vehicle, to: str) -> None:
        assert scout.facing is not None
        square = parse_square(to)
        start = square_name(scout.square)
        heading = next(f for f in range(8) if step(scout.square, f) == square)
        self.arena.move_to(scout, square)
        self.arena.face(scout, heading)
        self.emit(
            "dodge",
            f"{scout.seat}: the Scout dodges from {start} to {to}",
            seat=scout.seat,
            start=start,
            end=to,
        )

    # ----- applying ------------------------------------------------------------------
    def _vehicle(self, name: str) -> Vehicle:
        found = self.arena.vehicle_at(parse_square(name))
        assert found is not None
        return found

    def _apply(self, seat: Seat, action: Action) -> None:
        self._version += 1
        if not isinstance(action, EndMove):
            self._layout += 1  # a vehicle may move, turn or be lost
        if isinstance(action, Dodge):
            ident = self.pending_dodge[0] if self.pending_dodge else 0
            self.pending_dodge = None
            self._dodge(self.arena.vehicles[ident], action.to)
        elif isinstance(action, Fire):
            self._apply_fire(action)
        elif isinstance(action, EndMove):
            if self.move_over or not self.move_made or self.attacked:
                self._finish_turn()  # the attack, if still open, is passed up
                return
            self.move_over = True
        else:
            vehicle = self._vehicle(action.at)  # type: ignore[attr-defined]
            self._begin_step(vehicle)
            if isinstance(action, Drive):
                self._apply_drive(vehicle, action)
            elif isinstance(action, Turn):
                self._apply_turn(vehicle, action)
            elif isinstance(action, Fly):
                self._apply_fly(vehicle, action)
        if self.lost_this_turn:  # vehicles are only ever lost (both sides start with some)
            self._check_end()
        if self.result is None and self.pending_dodge is None:
            self._maybe_finish_turn()

    def _maybe_finish_turn(self) -> None:
        """The turn ends by itself once the move is made (or no vehicle can move at
        all) and the attack is made or no attack is possible."""
        move_done = (self.move_made and self.move_over) or (
            not self.move_made and not self._kept_steps()
        )
        if not move_done:
            return
        if self.may_attack() and not self._attack_list(self.to_move):
            self.emit(
                "no-attack",
                f"no attack is possible for seat {self.to_move} (no gun reaches an enemy): "
                "the turn ends",
                seat=self.to_move,
            )
            self._finish_turn()
        elif not self.may_attack():
            self._finish_turn()

    def _finish_turn(self) -> None:
        self._version += 1  # what was worked out for the turn's end no longer holds
        self.quiet_turns = 0 if self.lost_this_turn else self.quiet_turns + 1
        if self.quiet_turns >= self.options.draw_after_quiet_turns:
            self.result = Outcome.drawn(QUIET_TURNS(turns=self.quiet_turns))
        elif self.turn >= self.options.max_turns:
            self.result = Outcome.drawn(TURN_LIMIT(limit=self.options.max_turns))
        self.to_move = "2" if self.to_move == "1" else "1"
        self.turn += 1
        self.lost_this_turn = False
        self.mover = None
        self.spent = 0
        self.move_over = False
        self.attacked = False
        self.free_turn_last = False
        self.turned_free = False
        self.pending_dodge = None
        if self.result is None:
            self.emit(
                "turn-start",
                f"turn {self.turn}: seat {self.to_move} to move",
                seat=self.to_move,
                turn=self.turn,
            )

    def _destroy(self, vehicle: Vehicle) -> None:
        self.arena.remove(vehicle)
        self.lost_this_turn = True
        self.emit(
            "destroyed",
            f"the {vehicle.code} of seat {vehicle.seat} on {square_name(vehicle.square)} "
            "is destroyed",
            seat=vehicle.seat,
            vehicle=vehicle.code,
            square=square_name(vehicle.square),
        )

    def _check_end(self) -> None:
        """Victory when the other side has no vehicles left (R6)."""
        alive = {v.seat for v in self.arena.vehicles.values()}
        if len(alive) == 2:
            return
        if alive:
            winner = next(iter(alive))
            self.result = Outcome.win([winner], KNOCKOUT())
        else:
            self.result = Outcome.drawn(FELL_TOGETHER())

    # ----- views ---------------------------------------------------------------------
    def view(self, seat: Seat | None) -> dict[str, Any]:
        """Everything is open information."""
        vehicles = [
            {
                "seat": v.seat,
                "type": v.code,
                "square": square_name(v.square),
                "facing": None if v.facing is None else FACINGS[v.facing],
            }
            for v in sorted(self.arena.vehicles.values(), key=lambda v: v.ident)
        ]
        dodge = None
        if self.pending_dodge is not None:
            scout = self.arena.vehicles[self.pending_dodge[0]]
            dodge = {"scout": square_name(scout.square), "squares": list(self.pending_dodge[1])}
        mover = self.arena.vehicles.get(self.mover) if self.mover is not None else None
        return {
            "setup": self.setup_name,
            "obstacles": sorted(square_name(s) for s in self.arena.obstacles),
            "walls": sorted(square_name(s) for s in self.arena.walls),
            "vehicles": vehicles,
            "to_move": self.to_move,
            "turn": self.turn,
            "quiet_turns": self.quiet_turns,
            "mover": None if mover is None else square_name(mover.square),
            "points_left": None if mover is None else mover.kind.speed - self.spent,
            "move_over": self.move_over,
            "attacked": self.attacked,
            "pending_dodge": dodge,
        }

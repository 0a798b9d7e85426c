"""The tactician: plans a whole turn (attack, move, attack) and plays it step by step.

It weighs, for each candidate turn: vehicles expected to be destroyed on each side,
the worst attack the enemy could make next turn (so armour faces the threats and
vehicles stay out of reach), whether an enemy tank could move and then destroy the
vehicle it moved (direct fire), the attacks it sets up for itself (combined guns to beat
armour, spotters for parabolic shots) and how close its guns come to the enemy.
It reads only the open board (no dice): every chance is computed, never drawn.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gladiatorium.core import Action, Observation, Rng, Seat
from gladiatorium.games.electron_gladiators.actions import Dodge, EndMove, Fire
from gladiatorium.games.electron_gladiators.arena import Arena
from gladiatorium.games.electron_gladiators.attacks import (
    AttackOption,
    attack_options,
    evasive,
    kill_chance,
)
from gladiatorium.games.electron_gladiators.board import (
    FACINGS,
    distance,
    parse_square,
    square_name,
    step,
)
from gladiatorium.games.electron_gladiators.options import ElectronGladiatorsOptions
from gladiatorium.games.electron_gladiators.state import ElectronGladiatorsState
from gladiatorium.games.electron_gladiators.vehicles import VALUE, Vehicle

#: how many cheaply ranked endings of each vehicle get the full evaluation
PER_VEHICLE = 3
#: weight of what an enemy tank could take by moving, then firing at the vehicle moved
MOVED_EXPOSURE = 0.4


@dataclass(frozen=True)
class Ending:
    """Where a vehicle can end its move, and the single steps that take it there."""

    square: tuple[int, int]
    facing: int | None
    steps: tuple[str, ...]  # "fwd", "rev", "turn l45", "fly SE" ...


def endings(
    arena: Arena, vehicle: Vehicle, options: ElectronGladiatorsOptions, kills: int | None = 0
) -> list[Ending]:
    """Every place (and facing) the vehicle can reach this turn, by the shortest path;
    an Inverter's field may destroy ``kills`` enemies on the way (None: any number)."""
    if vehicle.kind.flyer:
        return list(_flight_endings(arena, vehicle, kills))
    return list(_ground_endings(arena, vehicle, options))


def field_kills(options: ElectronGladiatorsOptions, attack_left: bool) -> int | None:
    """How many enemies an Inverter's field may destroy this turn (R33)."""
    if not options.inverter_field_is_attack:
        return None
    return 1 if attack_left else 0


def _ground_endings(
    arena: Arena, vehicle: Vehicle, options: ElectronGladiatorsOptions
) -> Iterator[Ending]:
    assert vehicle.facing is not None
    start = (vehicle.square, vehicle.facing, False)
    best: dict[tuple[Any, ...], tuple[int, tuple[str, ...]]] = {start: (0, ())}
    queue = deque([start])
    scout = vehicle.kind.scout
    while queue:
        state = queue.popleft()
        square, facing, free_last = state
        cost, path = best[state]
        moves: list[tuple[str, tuple[int, int], int, int, bool]] = []
        directions = ((0, "fwd"),) if scout else ((0, "fwd"), (4, "rev"))
        for offset, word in directions:
            nxt = step(square, facing + offset)
            if arena.ground_can_enter(vehicle, square, nxt):
                moves.append((word, nxt, facing, 1, False))
        if scout:
            moves.append(("turn 180", square, (facing + 4) % 8, 1, False))
            if not free_last or not options.scout_free_turns:
                price = 0 if options.scout_free_turns else 1
                for word, turn in (("l45", -1), ("l90", -2), ("r45", 1), ("r90", 2)):
                    moves.append((f"turn {word}", square, (facing + turn) % 8, price, price == 0))
        else:
            moves.append(("turn l45", square, (facing - 1) % 8, 1, False))
            moves.append(("turn r45", square, (facing + 1) % 8, 1, False))
        for word, nxt, new_facing, price, free in moves:
            total = cost + price
            if total > vehicle.kind.speed:
                continue
            key = (nxt, new_facing, free)
            if key not in best or best[key][0] > total:
                best[key] = (total, (*path, word))
                queue.append(key)
    seen: set[tuple[Any, ...]] = set()
    for (square, facing, _), (cost, path) in best.items():
        if cost >= 1 and (square, facing) not in seen:
            seen.add((square, facing))
            yield Ending(square, facing, path)


def _flight_endings(arena: Arena, vehicle: Vehicle, kills: int | None) -> Iterator[Ending]:
    """Flights of single steps (the bot does not fly over vehicles); the key keeps
    how many field kills are left, so a path never counts more than ``kills``."""
    start = (vehicle.square, kills)
    best: dict[tuple[tuple[int, int], int | None], tuple[str, ...]] = {start: ()}
    queue = deque([start])
    probe = Vehicle(vehicle.ident, vehicle.seat, vehicle.code, vehicle.square, None)
    while queue:
        square, left = key = queue.popleft()
        path = best[key]
        if len(path) >= vehicle.kind.speed:
            continue
        probe.square = square
        for heading, name in enumerate(FACINGS):
            nxt = step(square, heading)
            if arena.fly_path(probe, heading, 1, kills=left) is None:
                continue
            victim = arena.vehicle_at(nxt)
            after = left if victim is None or left is None else left - 1
            if (nxt, after) in best:
                continue
            best[(nxt, after)] = (*path, f"fly {name}")
            queue.append((nxt, after))
    for (square, _), path in best.items():
        if path:
            yield Ending(square, None, path)


def _walk(arena: Arena, vehicle: Vehicle, ending: Ending) -> list[Vehicle]:
    """Move ``vehicle`` (a copy's own) along ``ending``; the enemies its Inverter
    field passes over are removed and returned (the ending's single steps only
    reach enemies the field may destroy)."""
    killed = []
    square = vehicle.square
    for word in ending.steps:
        if word.startswith("fly"):
            square = step(square, FACINGS.index(word.split()[1]))
            victim = arena.vehicle_at(square)
            if victim is not None:
                killed.append(victim)
                arena.remove(victim)
            arena.move_to(vehicle, square)
    if ending.facing is not None or not vehicle.kind.flyer:
        if ending.square != vehicle.square:
            arena.move_to(vehicle, ending.square)
        arena.face(vehicle, ending.facing)
    return killed


def _notation(vehicle_square: tuple[int, int], vehicle: Vehicle, ending: Ending) -> list[str]:
    """The single-step actions (as text) that carry out ``ending``."""
    out, square, facing = [], vehicle_square, vehicle.facing
    for word in ending.steps:
        out.append(
            f"{square_name(square)} {word}"
            + (" 1" if word.split()[0] in ("fwd", "rev", "fly") else "")
        )
        kind = word.split()
        if kind[0] == "fly":
            square = step(square, FACINGS.index(kind[1]))
        elif kind[0] == "fwd":
            assert facing is not None
            square = step(square, facing)
        elif kind[0] == "rev":
            assert facing is not None
            square = step(square, facing + 4)
        else:
            assert facing is not None
            turn = kind[1]
            eighths = 4 if turn == "180" else (1 if turn[0] == "r" else -1) * int(turn[1:]) // 45
            facing = (facing + eighths) % 8
    return out


class Tactician:
    """A one-turn planner with a threat-aware evaluation (see the module docstring)."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.plan: list[str] = []
        self.plan_key: tuple[int, int] | None = None

    # ----- the controller ------------------------------------------------------------
    def choose(self, observation: Observation) -> Action:
        state, seat = observation.world(), observation.seat
        assert isinstance(state, ElectronGladiatorsState)
        legal = state.legal_actions(seat)
        if isinstance(legal[0], Dodge):
            return self._dodge(state, seat, legal)
        key = (state.turn, len(state.history))
        if self.plan_key != key or not self.plan:
            self.plan = self._plan_turn(state, seat)
        by_text = {str(a): a for a in legal}
        while self.plan:
            text = self.plan.pop(0)
            if text in by_text:
                self.plan_key = (state.turn, len(state.history) + 1)
                return by_text[text]
        # the plan ran out (or the board changed under it): finish sensibly
        fires = [a for a in legal if isinstance(a, Fire)]
        if fires:
            options = {
                (
                    square_name(o.lead.square),
                    square_name(o.target.square),
                    square_name(o.helper.square) if o.helper else "",
                ): o
                for o in attack_options(state.arena, seat, state.mover, state.options)
            }
            best = max(fires, key=lambda f: _attack_gain(options.get((f.at, f.target, f.helper))))
            if _attack_gain(options.get((best.at, best.target, best.helper))) > 0:
                return best
        for action in legal:
            if isinstance(action, EndMove):
                return action
        return legal[0]

    def _dodge(self, state: ElectronGladiatorsState, seat: Seat, legal: list[Action]) -> Action:
        def danger(action: Action) -> float:
            arena = state.arena.copy()
            assert state.pending_dodge is not None
            scout = arena.vehicles[state.pending_dodge[0]]
            assert isinstance(action, Dodge)
            arena.move_to(scout, parse_square(action.to))
            return _threat(arena, seat, state.options)

        return min(legal, key=danger)

    # ----- planning ------------------------------------------------------------------
    def _plan_turn(self, state: ElectronGladiatorsState, seat: Seat) -> list[str]:
        options = state.options
        arena = state.arena
        best_score = float("-inf")
        best_plan: list[str] = []
        # (a) move, then the best attack after it (or none)
        if state.mover is None and not state.move_over:
            score, plan = self._best_move(arena, seat, options, attack_left=not state.attacked)
            if score > best_score:
                best_score, best_plan = score, plan
        # (b) the best attacks now, then the best move after
        if state.may_attack():
            attacks = sorted(
                attack_options(arena, seat, state.mover, options), key=_attack_gain, reverse=True
            )
            for option in attacks[:2]:
                after = arena.copy()
                gain = _resolve(after, option)
                fire = _fire_text(option)
                if state.mover is None and not state.move_over:
                    score, plan = self._best_move(after, seat, options, attack_left=False)
                    score += gain
                    plan = [fire, *plan]
                else:
                    score = gain + _evaluate(after, seat, options)
                    plan = [fire, "end"]
                if score > best_score:
                    best_score, best_plan = score, plan
        if not best_plan:
            best_plan = ["end"]
        return best_plan

    def _best_move(
        self, arena: Arena, seat: Seat, options: ElectronGladiatorsOptions, attack_left: bool
    ) -> tuple[float, list[str]]:
        """The best single-vehicle move (and attack after it, if one is left)."""
        enemies = arena.enemies(seat)
        lurking = _repositionings(arena, enemies, options)
        shortlist: list[tuple[Vehicle, Ending]] = []
        kills = field_kills(options, attack_left)
        for vehicle in sorted(arena.side(seat), key=lambda v: v.ident):
            ranked = sorted(
                endings(arena, vehicle, options, kills),
                key=lambda e: -_quick(arena, vehicle, e, enemies, options),
            )
            shortlist.extend((vehicle, e) for e in ranked[:PER_VEHICLE])
        best_score, best_plan = float("-inf"), ["end"]
        for vehicle, ending in shortlist:
            after = arena.copy()
            moved = after.vehicles[vehicle.ident]
            killed = _walk(after, moved, ending)
            score = sum(VALUE[k.code] for k in killed) * 10.0
            score -= MOVED_EXPOSURE * _exposure(after, moved, lurking, options)
            steps = _notation(vehicle.square, vehicle, ending)
            plan = [*steps, "end"]
            fired = bool(killed) and options.inverter_field_is_attack  # R33
            if attack_left and not fired and after.enemies(seat):
                attacks = attack_options(after, seat, vehicle.ident, options)
                good = [a for a in attacks if _attack_gain(a) > 0]
                if good:
                    top = sorted(good, key=_attack_gain, reverse=True)[:3]
                    best_after, fire_plan = float("-inf"), plan
                    for option in top:
                        resolved = after.copy()
                        gain = _resolve(resolved, option)
                        value = gain + _evaluate(resolved, seat, options)
                        if value > best_after:
                            best_after, fire_plan = value, [*steps, _fire_text(option)]
                    quiet = _evaluate(after, seat, options)
                    if best_after > quiet:
                        score += best_after
                        plan = fire_plan
                    else:
                        score += quiet
                else:
                    score += _evaluate(after, seat, options)
            else:
                score += _evaluate(after, seat, options)
            if score > best_score:
                best_score, best_plan = score, plan
        return best_score, best_plan


def _repositionings(
    arena: Arena, enemies: list[Vehicle], options: ElectronGladiatorsOptions
) -> list[Vehicle]:
    """Every place and facing each enemy tank can reach next turn, as probes (the
    guns that could move and then fire)."""
    out = []
    for enemy in enemies:
        if enemy.kind.tank:
            for ending in endings(arena, enemy, options):
                out.append(
                    Vehicle(enemy.ident, enemy.seat, enemy.code, ending.square, ending.facing)
                )
    return out


def _exposure(
    arena: Arena, vehicle: Vehicle, lurking: list[Vehicle], options: ElectronGladiatorsOptions
) -> float:
    """The most a tank of the enemy could take by moving and then firing at the
    vehicle just moved (direct fire alone; only armour: a Scout or Mosquito cannot
    be attacked by the vehicle that moved)."""
    if evasive(vehicle) or vehicle.ident not in arena.vehicles:
        return 0.0
    worst = 0.0
    for probe in lurking:
        if probe.ident not in arena.vehicles or probe.kind.gun <= vehicle.kind.armour[2]:
            continue
        if distance(probe.square, vehicle.square) > probe.kind.direct:
            continue
        if not arena.gun_faces(probe, vehicle.square, options):
            continue
        if kill_chance(probe, vehicle, None, options) <= 0:
            continue
        if arena.line_clear(probe.square, vehicle.square, arena.blocks_direct_fire, False):
            worst = max(worst, VALUE[vehicle.code] * 10.0)
    return worst


def _fire_text(option: AttackOption) -> str:
    return str(
        Fire(
            square_name(option.lead.square),
            square_name(option.target.square),
            square_name(option.helper.square) if option.helper else "",
        )
    )


def _attack_gain(option: AttackOption | None) -> float:
    if option is None:
        return 0.0
    return option.chance * VALUE[option.target.code] * 10.0


def _resolve(arena: Arena, option: AttackOption) -> float:
    """Apply an attack's expected result to a copy: the target counts as gone when
    it is more likely destroyed than not. Returns the expected material gain."""
    gain = _attack_gain(option)
    if option.chance >= 0.5:
        target = arena.vehicles.get(option.target.ident)
        if target is not None:
            arena.remove(target)
    return gain


def _quick(
    arena: Arena,
    vehicle: Vehicle,
    ending: Ending,
    enemies: list[Vehicle],
    options: ElectronGladiatorsOptions,
) -> float:
    """A cheap first ranking: Inverter kills on the way, own shots from the new
    place, and closing the distance."""
    score = 0.0
    if vehicle.code == "INV":
        after = arena.copy()
        killed = _walk(after, after.vehicles[vehicle.ident], ending)
        score += sum(VALUE[k.code] for k in killed) * 10.0
    probe = Vehicle(vehicle.ident, vehicle.seat, vehicle.code, ending.square, ending.facing)
    if enemies:
        near = min(distance(ending.square, e.square) for e in enemies)
        score -= 0.3 * near
        if probe.kind.gun and not probe.kind.flyer:
            for enemy in enemies:
                if arena.gun_faces(probe, enemy.square, options):
                    gap = distance(ending.square, enemy.square)
                    if gap <= probe.kind.direct:
                        score += 2.0 + VALUE[enemy.code] * 0.3
    return score + (vehicle.ident % 7) * 0.001


def _threat(arena: Arena, seat: Seat, options: ElectronGladiatorsOptions) -> float:
    """What the enemy can take next turn: its best attack from where it stands, and
    its Inverters' reach."""
    enemy = "2" if seat == "1" else "1"
    gains = sorted(
        (_attack_gain(o) for o in attack_options(arena, enemy, None, options)), reverse=True
    )
    worst = gains[0] if gains else 0.0
    for inverter in (v for v in arena.side(enemy) if v.code == "INV"):
        for mine in arena.side(seat):
            if distance(inverter.square, mine.square) <= inverter.kind.speed:
                worst = max(worst, VALUE[mine.code] * 10.0 * 0.8)
    return worst


def _evaluate(arena: Arena, seat: Seat, options: ElectronGladiatorsOptions) -> float:
    """Material, minus most of the enemy's best next attack, plus part of our own
    best next attack, minus the distance our guns still have to close."""
    enemy = "2" if seat == "1" else "1"
    mine, theirs = arena.side(seat), arena.side(enemy)
    if not theirs:
        return 10_000.0
    material = sum(VALUE[v.code] for v in mine) - sum(VALUE[v.code] for v in theirs)
    threat = _threat(arena, seat, options)
    ours = max((_attack_gain(o) for o in attack_options(arena, seat, None, options)), default=0.0)
    closing = sum(
        min(distance(v.square, e.square) for e in theirs)
        for v in mine
        if v.kind.gun or v.code == "INV"
    )
    return material * 10.0 - 0.7 * threat + 0.4 * ours - 0.3 * closing

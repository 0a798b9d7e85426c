"""Why a typed action is not legal now: a sharp reason for a person at the terminal.

The legal-action list decides legality; this module only explains a refusal in the
game's words (whose vehicle, how many points, what blocks the way, why a gun does
not reach). It returns None when it has nothing sharper than the generic message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gladiatorium.core import GladiatoriumError, Seat, is_number
from gladiatorium.games.electron_gladiators.arena import Arena
from gladiatorium.games.electron_gladiators.attacks import evasive, lead_refusal
from gladiatorium.games.electron_gladiators.board import (
    FACINGS,
    distance,
    on_arena,
    parse_square,
    square_name,
    step,
)
from gladiatorium.games.electron_gladiators.vehicles import Vehicle

if TYPE_CHECKING:
    from gladiatorium.games.electron_gladiators.state import ElectronGladiatorsState

STEP_WORDS = ("fwd", "rev", "turn", "fly")
FIRE_FORM = "write 'fire G1 at G9' or, with a second gun, 'fire G1 at G9 with K1'"


class Refusal(GladiatoriumError):
    """Carries a reason out of a nested check."""


def why_not(state: ElectronGladiatorsState, seat: Seat, text: str) -> str | None:
    """The reason ``text`` is refused for ``seat`` now, or None if there is none sharper."""
    words = text.lower().split()
    try:
        if state.pending_dodge is not None:
            return _dodge_pending(state, words)
        if words[:1] == ["dodge"]:
            return "no Scout is waiting to dodge (a Scout dodges when an attack on it misses)"
        if words == ["end"]:
            return "the move needs at least one speed point first (drive, turn or fly a vehicle)"
        if words[:1] == ["fire"]:
            return _fire(state, seat, words)
        if len(words) >= 2 and words[1] in STEP_WORDS:
            return _step(state, seat, words)
        if len(words) == 1 and words[0][:1].isalpha() and is_number(words[0][1:]):
            return _vehicle_actions(state, seat, words[0])
    except Refusal as refusal:
        return str(refusal)
    return None


def _dodge_pending(state: ElectronGladiatorsState, words: list[str]) -> str:
    assert state.pending_dodge is not None
    scout = state.arena.vehicles[state.pending_dodge[0]]
    choices = " or ".join(f"'dodge {s}'" for s in state.pending_dodge[1])
    if words[:1] == ["dodge"]:
        return f"the Scout on {square_name(scout.square)} dodges to {choices}"
    return f"the Scout on {square_name(scout.square)} must dodge first: {choices}"


# ----- vehicles named by their squares ---------------------------------------------------
def _vehicle(state: ElectronGladiatorsState, word: str) -> Vehicle:
    try:
        square = parse_square(word.upper())
    except GladiatoriumError as err:
        raise Refusal(str(err)) from err
    found = state.arena.vehicle_at(square)
    if found is None:
        raise Refusal(f"no vehicle on {square_name(square)}")
    return found


def _own(state: ElectronGladiatorsState, seat: Seat, word: str) -> Vehicle:
    vehicle = _vehicle(state, word)
    if vehicle.seat != seat:
        raise Refusal(f"{_name(vehicle)} belongs to seat {vehicle.seat}")
    return vehicle


def _name(vehicle: Vehicle) -> str:
    return f"the {vehicle.kind.name} on {square_name(vehicle.square)}"


def _vehicle_actions(state: ElectronGladiatorsState, seat: Seat, word: str) -> str:
    """A vehicle named alone: what it may do now, its attacks first."""
    vehicle = _own(state, seat, word)
    name = square_name(vehicle.square)
    legal = [str(a) for a in state.legal_actions(seat)]
    fires = [a for a in legal if a.split()[:2] == ["fire", name]]
    mine = fires + [a for a in legal if a.split()[0] == name]
    if not mine:
        return f"{_name(vehicle)} can do nothing more this turn"
    shown = ", ".join(mine[:10]) + (" ..." if len(mine) > 10 else "")
    return f"what should {_name(vehicle)} do? e.g. {shown}"


# ----- the move ------------------------------------------------------------------------
def _step(state: ElectronGladiatorsState, seat: Seat, words: list[str]) -> str | None:
    vehicle = _own(state, seat, words[0])
    _check_may_move(state, vehicle)
    verb, kind = words[1], vehicle.kind
    if kind.flyer and verb != "fly":
        return f"{_name(vehicle)} is a flyer: it flies, e.g. '{words[0].upper()} fly S 2'"
    if not kind.flyer and verb == "fly":
        return f"{_name(vehicle)} drives ('fwd', 'rev') and turns; only flyers fly"
    if verb == "rev" and kind.scout:
        return "the Scout cannot move in reverse"
    if verb == "turn":
        return _turn(state, vehicle, words[2:])
    return _drive_or_fly(state, vehicle, words)


def _check_may_move(state: ElectronGladiatorsState, vehicle: Vehicle) -> None:
    if state.move_over:
        raise Refusal("this turn's move action is over (one move action a turn)")
    if state.mover is not None and state.mover != vehicle.ident:
        mover = state.arena.vehicles[state.mover]
        raise Refusal(f"{_name(mover)} is making this turn's move; only one vehicle moves a turn")


def _turn(state: ElectronGladiatorsState, vehicle: Vehicle, rest: list[str]) -> str | None:
    from gladiatorium.games.electron_gladiators.state import SCOUT_TURNS, TANK_TURNS

    turns = SCOUT_TURNS if vehicle.kind.scout else TANK_TURNS
    if len(rest) != 1 or rest[0] not in turns:
        return f"turn how much? {' '.join(turns)}"
    cost = state.turn_cost(vehicle, rest[0])
    if cost is None:
        return (
            "a Scout's free 45/90-degree turns may not follow each other: drive first, "
            "or turn 180 (1 point)"
        )
    points = state.remaining(vehicle)
    if cost > points:
        return f"turning {rest[0]} costs {cost} points; {_name(vehicle)} has {points} left"
    return None


def _drive_or_fly(state: ElectronGladiatorsState, vehicle: Vehicle, words: list[str]) -> str | None:
    flying = words[1] == "fly"
    form = f"'{words[0].upper()} fly SE 3'" if flying else f"'{words[0].upper()} {words[1]} 2'"
    if len(words) != (4 if flying else 3) or not is_number(words[-1]):
        return f"write {form}"
    if flying and words[2].upper() not in FACINGS:
        return f"fly which way? {' '.join(FACINGS)}"
    squares, points = int(words[-1]), state.remaining(vehicle)
    if squares < 1:
        return "move at least one square"
    if squares > points:
        return f"{_name(vehicle)} has {points} speed points left, not {squares}"
    assert vehicle.facing is not None or flying
    heading = FACINGS.index(words[2].upper()) if flying else vehicle.facing
    assert heading is not None
    if words[1] == "rev":
        heading = (heading + 4) % 8
    return _blocked(state, vehicle, heading, squares)


def _blocked(
    state: ElectronGladiatorsState, vehicle: Vehicle, heading: int, squares: int
) -> str | None:
    """What stops the vehicle on its way (the first step it cannot take); a flyer
    passing over vehicles (R3) is stopped only by one where it would land."""
    arena = state.arena
    flyer = vehicle.kind.flyer
    mover = state.flight if flyer else arena.drive_path
    passes = flyer and state.options.flyers_pass_vehicles
    for count in range(1, squares + 1):
        if mover(vehicle, heading, count) is None:
            here = step(vehicle.square, heading, count - 1)
            there = step(here, heading)
            if passes and count < squares and arena.vehicle_at(there) is not None:
                continue
            after = f" after {count - 1} square{'s' * (count > 2)}" if count > 1 else ""
            other = arena.vehicle_at(there)
            if passes and other is not None:
                return f"it flies over vehicles but cannot stop on {_name(other)} (R3)"
            return f"the way is blocked{after}: {_blocker(arena, here, there)}"
    return None


def _blocker(arena: Arena, here: tuple[int, int], there: tuple[int, int]) -> str:
    if not on_arena(there):
        return f"the arena ends at {square_name(here)}"
    name = square_name(there)
    if arena.is_wall(there):
        return f"{name} is a 3D obstacle"
    other = arena.vehicle_at(there)
    if other is not None:
        return f"{_name(other)} (seat {other.seat}) is in the way"
    if arena.is_obstacle(there):
        return f"{name} is an obstacle"
    corners = f"{square_name((there[0], here[1]))} and {square_name((here[0], there[1]))}"
    return f"it cannot slip diagonally between {corners}, which touch at a corner"


# ----- the attack ----------------------------------------------------------------------
def _fire(state: ElectronGladiatorsState, seat: Seat, words: list[str]) -> str | None:
    if len(words) not in (4, 6) or words[2] != "at" or words[4:5] not in ([], ["with"]):
        return FIRE_FORM
    if state.attacked:
        return "one attack a turn: this turn's attack is made"
    if not state.may_attack():
        return "no attack in the middle of a move: finish the Scout's move first"
    lead, target = _own(state, seat, words[1]), _vehicle(state, words[3])
    if target.seat == seat:
        return f"{_name(target)} is your own"
    refusal = _gun_refusal(state, lead, target) or lead_refusal(
        lead, target, state.mover, state.options
    )
    if refusal or len(words) == 4:
        return refusal
    helper = _own(state, seat, words[5])
    if evasive(target):
        return f"no second gun against a {target.kind.name}: one die roll decides"
    if helper.ident == lead.ident:
        return "the second gun must be another vehicle"
    return _gun_refusal(state, helper, target)


def _gun_refusal(state: ElectronGladiatorsState, gun: Vehicle, target: Vehicle) -> str | None:
    """Why ``gun`` does not reach ``target`` now (None: it does)."""
    arena, options, kind = state.arena, state.options, gun.kind
    spotters = arena.spotters(gun.seat, target.square)
    if arena.gun_mode(gun, target, spotters, options) is not None:
        return None
    who, where = _name(gun), square_name(target.square)
    if kind.gun <= 0:
        return f"{who} has no gun; it destroys what it flies over"
    if not arena.gun_faces(gun, target.square, options):
        if kind.scout and options.scout_attack_angle == 0:
            return f"{who} fires only straight ahead (attack angle 0); turn it to face {where}"
        return f"{where} is outside the 90-degree arc of {who}; turn it first"
    gap = distance(gun.square, target.square)
    if kind.tank and target.kind.flyer and gap < options.tank_min_flyer_distance:
        return f"a tank cannot fire at a flyer nearer than {options.tank_min_flyer_distance} spaces"
    if kind.flyer and not arena.line_clear(gun.square, target.square, arena.is_wall, False):
        return f"a 3D obstacle stands between {who} and {where}"
    direct = (
        f"{where} is {gap} spaces away, beyond its direct range of {kind.direct}"
        if gap > kind.direct
        else f"its direct line to {where} is blocked"
    )
    band = kind.parabolic
    if band is None:
        return f"{direct}, and {who} has no parabolic gun"
    if not band[0] <= gap <= band[1]:
        return f"{direct}, and outside its parabolic band of {band[0]}-{band[1]} spaces"
    return f"{direct}, and no friendly spotter sees {where} for a parabolic shot"

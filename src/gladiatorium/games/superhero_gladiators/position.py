"""Positions: a fight in progress, written by hand in YAML, so that a match (a puzzle,
a lesson, a test) can start mid-way (``--position FILE``). The teams and the map are
the match's own (``--team``, ``--map``); the position says where everyone stands:

    turn: 3
    segment: 5                # the first hero acting on it acts first
    heroes:                   # every hero, by id
      1A: {square: c2, oomph: 20, uses: {Six-shooter: 2}, used: [Six-shooter]}
      2A: {square: f1, altitude: 2, entangled: 3, destroyed: [Winged sandals]}
    noticed: {"1": ["2A:Harpe"]}   # hidden gizmos each team has noticed

A hero's fields: ``square`` (none: fainted), ``altitude`` (needs flight), ``clinging``
(on a wall, needs wall-walking), ``oomph`` (default: its maximum), ``uses`` (uses left,
default: all), ``used`` and ``destroyed`` (power names), ``entangled`` (level) and
``grappler`` (the hero holding it). Errors name the file, the line and the field.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gladiatorium.core import OptionsError
from gladiatorium.core.files import FileRefused, parse_yaml
from gladiatorium.games.superhero_gladiators.arena import PIT, parse_square, square_name
from gladiatorium.games.superhero_gladiators.combat import Hit
from gladiatorium.games.superhero_gladiators.fighters import Fighter
from gladiatorium.games.superhero_gladiators.hero_files import _line_marks, _line_of
from gladiatorium.games.superhero_gladiators.heroes import Gizmo, Power, Style, initiative_order

if TYPE_CHECKING:
    from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState


class _HeroAt(BaseModel):
    model_config = ConfigDict(extra="forbid")
    square: str | None = None
    altitude: int = Field(0, ge=0)
    clinging: bool = False
    oomph: int | None = None
    uses: dict[str, int] = {}
    used: list[str] = []
    destroyed: list[str] = []
    entangled: int = Field(0, ge=0, le=8)
    grappler: str = ""
    flight_level: int | None = Field(None, ge=0)
    cling_level: int | None = Field(None, ge=0)
    copied: str | None = None
    working: list[str] = []


class _HitAt(BaseModel):
    """A hit waiting for its defence: who hit whom with what, and the roll."""

    model_config = ConfigDict(extra="forbid")
    attacker: str
    target: str
    power: str
    copied: str | None = None
    roll: int = Field(ge=1, le=20)
    needs: int
    damage: int = Field(ge=0)
    double: bool = False
    full: bool = True
    entangle: int = Field(0, ge=0)
    grappling: bool = False


class _PositionFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    turn: int = Field(1, ge=1)
    segment: int = Field(1, ge=1, le=6)
    order: list[str] | None = None
    placing: list[str] | None = None
    actor: str | None = None
    acted: list[str] = []
    airborne: bool = False
    flew: bool = False
    pending: list[_HitAt] = Field([], max_length=40)
    reveal: tuple[str, str] | None = None
    exposed: list[str] = []
    over: bool = False
    heroes: dict[str, _HeroAt]
    noticed: dict[str, list[str]] = {}
    dice: list[int] = Field([], max_length=200)


class _Errors:
    """Errors in the position's words: ``file:line: field: message``."""

    def __init__(self, text: str, source: str) -> None:
        self.marks = _line_marks(text)
        self.source = source

    def __call__(self, field: str, message: str) -> OptionsError:
        line = _line_of(field, self.marks)
        where = f"{self.source}:{line}" if line else self.source
        return OptionsError(f"{where}: {field or 'the position'}: {message}")


def read_position(text: str, source: str) -> tuple[_PositionFile, _Errors]:
    """The position as written, checked field by field (not yet against the match)."""
    fail = _Errors(text, source)
    try:  # the safe reader's limits: no aliases, numbers of at most a few digits
        data: Any = parse_yaml(text, source)
    except FileRefused as err:
        raise OptionsError(str(err)) from err
    if not isinstance(data, dict):
        raise OptionsError(f"{source}: a position is a YAML mapping (turn, segment, heroes)")
    try:
        parsed = _PositionFile.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        raise fail(field, first["msg"].removeprefix("Value error, ")) from err
    for value in parsed.dice:
        if not 1 <= value <= 20:
            raise fail("dice", f"the dice are d20s: 1 to 20, not {value}")
    return parsed, fail


def written_order(text: str) -> tuple[list[str], list[str]] | None:
    """The initiative order and the heroes still to place a position gives (so that
    no tie is rolled again while it loads), or None when it gives no order."""
    parsed, _fail = read_position(text, "position")
    if parsed.order is None:
        return None
    return list(parsed.order), list(parsed.placing or ())


def apply_position(state: SuperheroGladiatorsState, text: str, source: str) -> str:
    """Put a match that is still being set up where the position says. Returns what
    is left to do: ``"begin"`` (the first hero acting on the segment begins its action,
    rolling for its unreliable movement), or ``"placing"``, ``"acting"`` or ``"over"``
    (the position says where the match stands: nothing is rolled)."""
    parsed, fail = read_position(text, source)
    limit = state.options.turn_limit
    if parsed.turn > limit + parsed.over:
        raise fail("turn", f"past the turn limit ({limit})")
    for fid in parsed.heroes:
        if fid not in state.fighters:
            raise fail(f"heroes.{fid}", f"no hero {fid}; heroes: {', '.join(state.fighters)}")
    missing = [fid for fid in state.fighters if fid not in parsed.heroes]
    if missing:
        raise fail("heroes", f"every hero needs a place; missing: {', '.join(missing)}")
    placing = parsed.placing or []
    for fid, at in parsed.heroes.items():
        _stand(state, state.fighters[fid], at, f"heroes.{fid}", fail, fid in placing)
    for fid, at in parsed.heroes.items():
        _hold(state, state.fighters[fid], at, f"heroes.{fid}", fail)
    _notice(state, parsed.noticed, fail)
    _check_order(state, parsed, fail)
    state.rng.queue(parsed.dice)
    state.emit(
        "position",
        f"the match starts from a position: turn {parsed.turn}, segment {parsed.segment}",
    )
    state.turn, state.segment = parsed.turn, parsed.segment
    if parsed.placing:
        state.to_place = list(parsed.placing)
        return "placing"
    state.to_place = []
    state.phase = "fight"
    for key in parsed.exposed:
        state.exposed.append(_gizmo_key(state, key, "exposed", fail))
    if parsed.over:
        return "over"
    if parsed.actor is None:
        return "begin"
    _acting(state, parsed, fail)
    return "acting"


def _check_order(state: SuperheroGladiatorsState, parsed: _PositionFile, fail: _Errors) -> None:
    """The order and the heroes to place name every hero once (the order), or heroes
    not yet on the map (to place)."""
    if parsed.order is not None and sorted(parsed.order) != sorted(state.fighters):
        raise fail("order", f"every hero once: {', '.join(state.fighters)}")
    start = 0
    for group in state._groups(initiative_order) if parsed.order is not None else ():
        ahead = parsed.order[start : start + len(group)] if parsed.order else []
        if sorted(ahead) != sorted(group):
            tied = ", ".join(" = ".join(g) for g in state._groups(initiative_order))
            raise fail("order", f"the initiative order, only ties in either order: {tied}")
        start += len(group)
    if parsed.placing is not None and parsed.order is None:
        raise fail("placing", "the heroes to place need the order (order:)")
    for fid in parsed.placing or ():
        if fid not in state.fighters or state.fighters[fid].square is not None:
            raise fail("placing", f"{fid!r} is no hero waiting to be placed")


def _acting(state: SuperheroGladiatorsState, parsed: _PositionFile, fail: _Errors) -> None:
    """The hero acting on the segment, who acted before it, and the hits waiting for
    their defences or the gizmo a hero is choosing to reveal."""
    actor = parsed.actor or ""
    if actor not in state.fighters or not state.fighters[actor].alive:
        raise fail("actor", f"{actor!r} is no hero on the map")
    if actor not in parsed.acted or any(fid not in state.fighters for fid in parsed.acted):
        raise fail("acted", "the heroes that acted on the segment, the actor among them")
    state.actor, state.acted = actor, list(parsed.acted)
    state.was_airborne, state.flew = parsed.airborne, parsed.flew
    for index, hit in enumerate(parsed.pending):
        state.pending.append(_hit(state, hit, f"pending[{index}]", fail))
    if parsed.reveal is not None:
        gid, team = parsed.reveal
        if gid not in state.fighters or team not in state.noticed:
            raise fail("reveal", "a hero choosing which hidden gizmo a team noticed: [HERO, TEAM]")
        state.reveal_for = (gid, team)


def _hit(state: SuperheroGladiatorsState, hit: _HitAt, where: str, fail: _Errors) -> Hit:
    attacker, target = state.fighters.get(hit.attacker), state.fighters.get(hit.target)
    if attacker is None or target is None:
        raise fail(where, "attacker and target are heroes of the match")
    if hit.copied is not None:
        power = _power_at(state, hit.copied, f"{where}.copied", fail)
    elif hit.power in attacker.powers:
        power = attacker.powers[hit.power]
    else:
        raise fail(f"{where}.power", f"{attacker.label} has no power {hit.power!r}")
    return Hit(
        attacker.id,
        target.id,
        power,
        hit.power,
        hit.roll,
        hit.needs,
        hit.damage,
        hit.double,
        hit.full,
        hit.entangle,
        hit.grappling,
    )


def _power_at(state: SuperheroGladiatorsState, key: str, where: str, fail: _Errors) -> Power:
    """The power written ``HERO:Power`` (the one a copy power copied)."""
    gid, _, name = key.partition(":")
    g = state.fighters.get(gid)
    if g is None or name not in g.powers:
        raise fail(where, f"{key!r} is no hero's power (HERO:Power)")
    return g.powers[name]


def _gizmo_key(state: SuperheroGladiatorsState, key: str, where: str, fail: _Errors) -> str:
    gid, _, name = key.partition(":")
    g = state.fighters.get(gid)
    if g is None or name not in g.powers or g.powers[name].gizmo is not Gizmo.HIDDEN:
        raise fail(where, f"{key!r} is no hero's hidden gizmo (HERO:Power)")
    return key


def _stand(
    state: SuperheroGladiatorsState,
    f: Fighter,
    at: _HeroAt,
    where: str,
    fail: _Errors,
    placing: bool = False,
) -> None:
    """Square, height, oomph and powers of one hero (``placing``: not on the map yet)."""
    for field, names in (("uses", list(at.uses)), ("used", at.used), ("destroyed", at.destroyed)):
        unknown = [n for n in names if n not in f.powers]
        if unknown:
            powers = ", ".join(f.powers)
            raise fail(f"{where}.{field}", f"{f.label} has no power {unknown[0]!r}; {powers}")
    for name, left in at.uses.items():
        most = f.uses[name]
        if most is None or not 0 <= left <= most:
            raise fail(f"{where}.uses.{name}", f"0 to {most} uses" if most else "infinite uses")
        f.uses[name] = left
    for name in at.destroyed:
        if f.powers[name].gizmo not in (Gizmo.VULNERABLE, Gizmo.HIDDEN):
            raise fail(f"{where}.destroyed", f"{name}'s gizmo cannot be destroyed")
    f.used = list(dict.fromkeys(at.used))
    f.destroyed = list(at.destroyed)
    f.forget_usable()
    f.oomph = f.max_oomph if at.oomph is None else at.oomph
    f.working_moves = list(at.working)
    if at.copied is not None:
        f.copied = _power_at(state, at.copied, f"{where}.copied", fail)
    if at.square is None and placing:
        return
    if at.square is None:
        f.fainted, f.oomph = True, min(f.oomph, 0)
        return
    if f.oomph <= 0 or f.oomph > f.max_oomph:
        raise fail(f"{where}.oomph", f"1 to {f.max_oomph} for a hero on the map")
    square = parse_square(at.square)
    arena = state.arena
    if square is None or not arena.on_map(square):
        raise fail(f"{where}.square", f"{at.square!r} is not a square of {arena.name}")
    if square in state.occupied():
        raise fail(f"{where}.square", f"{at.square} is taken")
    over_pit = at.altitude > 0 and arena.terrain(square) == PIT
    if not (arena.is_wall(square) if at.clinging else arena.is_floor(square) or over_pit):
        raise fail(f"{where}.square", "a hero stands on floor, clings to a wall or flies")
    f.square, f.altitude, f.clinging = square, at.altitude, at.clinging
    f.flight_level = _level(f, Style.FLIGHT, at.altitude > 0, f"{where}.altitude", fail)
    f.cling_level = _level(f, Style.WALL_WALKING, at.clinging, f"{where}.clinging", fail)
    if at.flight_level is not None:  # the level of the flight last used, written
        f.flight_level = at.flight_level
    if at.cling_level is not None:
        f.cling_level = at.cling_level
    if at.altitude > f.flight_level:
        raise fail(f"{where}.altitude", f"at most its flight level ({f.flight_level})")


def _level(f: Fighter, style: Style, needed: bool, where: str, fail: _Errors) -> int:
    """The highest level of the hero's powers with ``style`` (needed: it must have one)."""
    levels = [p.level for p in f.powers.values() if style in p.styles]
    if needed and not levels:
        raise fail(where, f"{f.label} has no {style.value} power")
    return max(levels) if needed else 0


def _hold(
    state: SuperheroGladiatorsState, f: Fighter, at: _HeroAt, where: str, fail: _Errors
) -> None:
    """Entanglement and grapples (after every hero stands)."""
    if not at.entangled and not at.grappler:
        return
    if not f.alive or not at.entangled:
        raise fail(f"{where}.entangled", "only a hero on the map can be held, at a level")
    f.entangled = at.entangled
    if at.grappler:
        g = state.fighters.get(at.grappler)
        if g is None or not g.alive or g.team == f.team or state.gap(f, g) > 1:
            raise fail(f"{where}.grappler", "a foe on the map, next to the hero")
        f.grappler = g.id


def _notice(state: SuperheroGladiatorsState, noticed: dict[str, list[str]], fail: _Errors) -> None:
    for team, keys in noticed.items():
        if team not in state.noticed:
            raise fail(f"noticed.{team}", f"no team {team}")
        for key in keys:
            gid, _, name = key.partition(":")
            g = state.fighters.get(gid)
            ok = g is not None and g.team != team and name in g.powers
            if not ok or g is None or g.powers[name].gizmo is not Gizmo.HIDDEN:
                raise fail(f"noticed.{team}", f"{key!r} is no foe's hidden gizmo (HERO:Power)")
            state.noticed[team].append(key)


# ----- writing ---------------------------------------------------------------------------
def write_position(state: SuperheroGladiatorsState, seat: str | None = None) -> str:
    """The match at its decision as a position: the order, where the turn stands (the
    heroes to place, the hero acting and who acted, the hits waiting for a defence, a
    gizmo being revealed, or the match over), every hero, what each team noticed and
    the next dice. With a seat, only what it may know: the hidden gizmos others noticed
    that it does not know are left out."""
    lines = [
        '# Superhero Gladiators position (docs/rules/superhero-gladiators.md, "Positions")',
        f"turn: {state.turn}",
        f"segment: {state.segment}",
        f"order: {_flow(state.order)}",
    ]
    if state.phase == "place":
        lines.append(f"placing: {_flow(state.to_place)}")
    elif state.result is not None:
        lines.append("over: true")
    else:
        lines += _acting_lines(state, seat)
    if state.exposed and state.phase != "place":
        lines.append(f"exposed: {_flow(state.exposed)}")
    lines.append("heroes:")
    lines += [f"  {f.id}: {_hero_flow(state, f)}" for f in state.fighters.values()]
    noticed = {
        team: [k for k in keys if seat is None or state._key_known(seat, k)]
        for team, keys in state.noticed.items()
    }
    if any(noticed.values()):
        lines.append(f"noticed: {json.dumps({t: k for t, k in noticed.items() if k})}")
    dice = state.rng.next_dice()
    if dice:
        lines.append(f"dice: {_flow(dice)}")
    return "\n".join(lines) + "\n"


def _acting_lines(state: SuperheroGladiatorsState, seat: str | None) -> list[str]:
    lines = [f"actor: {state.actor}", f"acted: {_flow(state.acted)}"]
    if state.was_airborne:
        lines.append("airborne: true")
    if state.flew:
        lines.append("flew: true")
    if state.pending:
        lines.append("pending:")
        lines += [f"  - {_hit_flow(state, hit)}" for hit in state.pending]
    gid, team = state.reveal_for
    if gid and (seat is None or seat in state._revealing()):
        lines.append(f"reveal: {_flow([gid, team])}")
    return lines


def _hit_flow(state: SuperheroGladiatorsState, hit: Hit) -> str:
    fields: dict[str, Any] = {"attacker": hit.attacker, "target": hit.target}
    fields["power"] = hit.power_name
    if state.fighters[hit.attacker].powers.get(hit.power_name) != hit.power:
        fields["copied"] = _power_key(state, hit.power)
    fields |= {"roll": hit.roll, "needs": hit.number, "damage": hit.damage}
    fields |= {"double": hit.double, "full": hit.full, "entangle": hit.entangle}
    fields["grappling"] = hit.grappling
    return json.dumps(fields)


def _hero_flow(state: SuperheroGladiatorsState, f: Fighter) -> str:
    """One hero's line: where it is and what it has left (a YAML flow mapping)."""
    fields: dict[str, Any] = {}
    if f.square is not None:
        fields["square"] = square_name(f.square)
    if f.altitude:
        fields |= {"altitude": f.altitude, "flight_level": f.flight_level}
    if f.clinging:
        fields |= {"clinging": True, "cling_level": f.cling_level}
    fields["oomph"] = f.oomph
    uses = {name: left for name, left in f.uses.items() if left is not None}
    if uses:
        fields["uses"] = uses
    for name, values in (("used", f.used), ("destroyed", f.destroyed)):
        if values:
            fields[name] = list(values)
    if f.entangled:
        fields["entangled"] = f.entangled
    if f.grappler:
        fields["grappler"] = f.grappler
    if f.copied is not None:
        fields["copied"] = _power_key(state, f.copied)
    if f.working_moves:
        fields["working"] = list(f.working_moves)
    return json.dumps(fields)


def _power_key(state: SuperheroGladiatorsState, power: Power) -> str:
    """``HERO:Power`` of the hero's power that is ``power`` (a copied one's origin)."""
    for g in state.fighters.values():
        for name, own in g.powers.items():
            if own == power:
                return f"{g.id}:{name}"
    raise ValueError(f"no hero has the power {power.name!r}")


def _flow(values: list[Any]) -> str:
    """A YAML flow list (JSON is YAML)."""
    return json.dumps(values)

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

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gladiatorium.core import OptionsError
from gladiatorium.core.files import FileRefused, parse_yaml
from gladiatorium.games.superhero_gladiators.arena import PIT, parse_square
from gladiatorium.games.superhero_gladiators.fighters import Fighter
from gladiatorium.games.superhero_gladiators.hero_files import _line_marks, _line_of
from gladiatorium.games.superhero_gladiators.heroes import Gizmo, Style

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


class _PositionFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    turn: int = Field(1, ge=1)
    segment: int = Field(1, ge=1, le=6)
    heroes: dict[str, _HeroAt]
    noticed: dict[str, list[str]] = {}


class _Errors:
    """Errors in the position's words: ``file:line: field: message``."""

    def __init__(self, text: str, source: str) -> None:
        self.marks = _line_marks(text)
        self.source = source

    def __call__(self, field: str, message: str) -> OptionsError:
        line = _line_of(field, self.marks)
        where = f"{self.source}:{line}" if line else self.source
        return OptionsError(f"{where}: {field or 'the position'}: {message}")


def apply_position(state: SuperheroGladiatorsState, text: str, source: str) -> None:
    """Put a match that is still being set up where the position says, ready for the
    first hero to act on its segment."""
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
    if parsed.turn > state.options.turn_limit:
        raise fail("turn", f"past the turn limit ({state.options.turn_limit})")
    for fid in parsed.heroes:
        if fid not in state.fighters:
            raise fail(f"heroes.{fid}", f"no hero {fid}; heroes: {', '.join(state.fighters)}")
    missing = [fid for fid in state.fighters if fid not in parsed.heroes]
    if missing:
        raise fail("heroes", f"every hero needs a place; missing: {', '.join(missing)}")
    for fid, at in parsed.heroes.items():
        _stand(state, state.fighters[fid], at, f"heroes.{fid}", fail)
    for fid, at in parsed.heroes.items():
        _hold(state, state.fighters[fid], at, f"heroes.{fid}", fail)
    _notice(state, parsed.noticed, fail)
    state.to_place = []
    state.phase = "fight"
    state.turn, state.segment = parsed.turn, parsed.segment
    state.emit(
        "position",
        f"the match starts from a position: turn {parsed.turn}, segment {parsed.segment}",
    )


def _stand(
    state: SuperheroGladiatorsState, f: Fighter, at: _HeroAt, where: str, fail: _Errors
) -> None:
    """Square, height, oomph and powers of one hero."""
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
    f.used = list(dict.fromkeys([*at.used, *at.destroyed]))
    f.destroyed = list(at.destroyed)
    f.forget_usable()
    f.oomph = f.max_oomph if at.oomph is None else at.oomph
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

"""Hero cards as terminal text (rich) and as plain data for ``--json``."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from gladiatorium.games.superhero_gladiators.hero_files import HeroFile, PowerEntry
from gladiatorium.games.superhero_gladiators.heroes import (
    FLAW_WORKS_ON,
    SEGMENT_SPEED,
    Attribute,
    Hero,
    Power,
    PowerType,
    Style,
    attack_range,
    blast_radius,
    damage,
    points,
    price,
    splash_damage,
    traits,
)


def number_text(value: Fraction) -> str:
    """A multiplier as an exact decimal (every table value has a finite one)."""
    if value.denominator == 1:
        return str(value.numerator)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return format(exact.normalize(), "f")


def price_line(power: Power) -> str:
    """How a power's cost is reached: base x each multiplier = exact -> rounded."""
    p = price(power)
    if p.base is None:
        return f"no price: level {power.level} with {power.uses} uses is off the cost table"
    if p.multiplier is None:
        return f"base {p.base}; no price: a style or flaw is not allowed for this power"
    factors = "".join(f" x {f.label} {number_text(f.value)}" for f in p.factors)
    exact = number_text(p.base * p.multiplier)
    return f"base {p.base}{factors} = {exact} -> {p.cost}"


def uses_text(power: Power) -> str:
    return "infinite uses" if power.uses == "infinite" else f"{power.uses} uses"


def effect_text(power: Power) -> str:
    """What the power does in play, in card shorthand."""
    hit = damage(power)
    parts: list[str] = []
    if power.entangles:
        parts.append(f"entangles (level {power.level}), no direct damage")
    elif hit is not None:
        parts.append(f"damage {hit}")
    splash = splash_damage(power)
    radius = blast_radius(power)
    if splash is not None and radius is not None:
        parts.append(f"{splash} to all within {radius}")
    reach = attack_range(power)
    if reach is not None:
        parts.append(f"range {reach}")
    elif power.is_attack:
        parts.append("adjacent")
    parts += [_style_effect(s, power.level) for s in power.styles if s in _STYLE_EFFECTS]
    if power.type is PowerType.HEALING:
        parts.append(f"restores {power.level} oomph")
    parts += [f"works on {FLAW_WORKS_ON[f]} or less" for f in power.flaws if f in FLAW_WORKS_ON]
    return ", ".join(parts)


_STYLE_EFFECTS = {
    Style.TOUGHNESS: "ignores direct damage of {quad} or less",
    Style.MISSILE_DEFLECTION: "stops missile attacks of level {level} or less",
    Style.SLIPPERY: "+{level} to dodge entangling, -{level} on escape rolls",
    Style.COPY_POWER: "copies an attack of level {level} or less that hit",
    Style.SPEEDY: "+{level} movement",
    Style.WALL_WALKING: "walls, up to {level} squares",
    Style.LINE_OF_SIGHT: "ignores terrain, up to {level} squares",
    Style.FLIGHT: "flies, up to {level} squares",
}


def _style_effect(style: Style, level: int) -> str:
    return _STYLE_EFFECTS[style].format(level=level, quad=4 * level)


def kind_text(power: Power, gizmo: bool = True) -> str:
    """Type, styles, flaws and (unless ``gizmo`` is false) gizmo:
    ``distance: entangling, missile, unreliable, hidden gizmo``."""
    words = [s.value for s in power.styles] + [f.value for f in power.flaws]
    if power.gizmo is not None and gizmo:
        words.append("no gizmo" if power.gizmo.value == "none" else f"{power.gizmo.value} gizmo")
    return f"{power.type.value}: {', '.join(words)}" if words else power.type.value


def segments_text(acting: tuple[int, ...]) -> str:
    """The six segments, those the hero acts on shown by number, others as dots."""
    return " ".join(str(n) if n in acting else "." for n in SEGMENT_SPEED)


def attributes_text(hero: Hero, sep: str = "   ") -> str:
    parts = []
    for a in Attribute:
        total, extra = hero.effective[a], hero.bought[a]
        parts.append(
            f"{a.value.title()} {total}" + (f" ({hero.attributes[a]}+{extra})" if extra else "")
        )
    return sep.join(parts)


def power_lines(entry: PowerEntry) -> Text:
    """One power in three lines: what it is, what it does in play, what it costs."""
    p = entry.power
    if p is None:
        return Text(f"{entry.name or '?'} ({entry.type or 'no type'}): not understood", "red")
    lines = Text()
    lines.append(p.name, style="bold")
    lines.append(f"  ({kind_text(p)}; level {p.level}, {uses_text(p)})")
    if not entry.complete:
        lines.append("\n    not understood: no price", style="red")
        return lines
    effect = effect_text(p)
    if effect:
        lines.append(f"\n    {effect}")
    lines.append(f"\n    cost: {price_line(p)}")
    return lines


def hero_panel(result: HeroFile) -> Panel:
    """A card-like summary of a checked hero file, with every error."""
    parts: list[RenderableType] = []
    hero = result.hero
    if hero is not None:
        t = traits(hero)
        spent = points(hero)
        parts.append(Text(attributes_text(hero)))
        parts.append(
            Text(
                f"Combat {t.combat}   Max oomph {t.max_oomph}   Speed {t.speed}   "
                f"Movement {t.movement}   Segments {segments_text(t.segments)}"
            )
        )
        parts.append(
            Text(
                f"Points: {spent.attributes} on attributes + {spent.powers} on powers = "
                f"{spent.total} of {spent.budget} ({spent.left} left)"
            )
        )
        parts += [power_lines(e) for e in result.entries]
    for error in result.errors:
        parts.append(Text(f"{result.path}: {error}", style="red"))
    verdict = "valid" if result.valid else "unreadable" if not result.readable else "invalid"
    colour = "green" if result.valid else "red"
    name = hero.name if hero and hero.name else result.path.name
    title = Text.assemble(name, "  ", (verdict, colour))
    parts.insert(0, Text(f"file: {result.path}", style="dim"))
    return Panel(Group(*parts), title=title, title_align="left")


# --------------------------------------------------------------------------- JSON


def _power_report(entry: PowerEntry) -> dict[str, Any]:
    p = entry.power
    if p is None:
        return {
            "name": entry.name,
            "type": entry.type or None,
            "base_cost": None,
            "multiplier": None,
            "cost": None,
            "damage": None,
            "range": None,
        }
    cost = price(p)
    known = entry.complete
    return {
        "name": p.name,
        "type": p.type.value,
        "styles": [s.value for s in p.styles],
        "flaws": [f.value for f in p.flaws],
        "gizmo": p.gizmo.value if p.gizmo is not None else None,
        "level": p.level,
        "uses": p.uses,
        "base_cost": cost.base,
        "multiplier": float(cost.multiplier) if known and cost.multiplier is not None else None,
        "cost": cost.cost if known else None,
        "damage": damage(p) if known else None,
        "range": attack_range(p),
        "entangles": Style.ENTANGLING in p.styles and p.is_attack,
    }


def report(result: HeroFile) -> dict[str, Any]:
    """One file's check as plain data; what can be computed is filled in even for an
    invalid hero, the rest is ``None``."""
    hero = result.hero
    out: dict[str, Any] = {
        "file": str(result.path),
        "name": hero.name if hero is not None else None,
        "valid": result.valid,
        "errors": [{"field": e.field, "message": e.message, "line": e.line} for e in result.errors],
        "attributes": None,
        "traits": None,
        "points": None,
        "powers": [_power_report(e) for e in result.entries],
    }
    if hero is None:
        return out
    t = traits(hero)
    spent = points(hero)
    out["attributes"] = {a.value: hero.effective[a] for a in Attribute}
    out["bought"] = {a.value: hero.bought[a] for a in Attribute}
    out["traits"] = {
        "combat": t.combat,
        "max_oomph": t.max_oomph,
        "speed": t.speed,
        "segments": list(t.segments),
        "movement": t.movement,
    }
    out["points"] = {
        "budget": spent.budget,
        "attributes": spent.attributes,
        "powers": spent.powers,
        "total": spent.total,
        "left": spent.left,
    }
    return out

"""Superhero Gladiators hero design: attributes, traits, powers and what they cost.

Everything here is a pure function of a hero; no I/O. Rulings are numbered as in
``docs/rules/superhero-gladiators.md`` (``R1`` ...).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import cached_property
from math import floor, prod
from typing import Final, Literal

# --------------------------------------------------------------------------- vocabulary


class Attribute(StrEnum):
    """The four attributes every hero is built from."""

    STRENGTH = "strength"
    DEXTERITY = "dexterity"
    SIZE = "size"
    PERCEPTION = "perception"


class PowerType(StrEnum):
    """The five kinds of superpower."""

    DISTANCE = "distance"
    CLOSE = "close"
    DEFENSE = "defense"
    MOVEMENT = "movement"
    HEALING = "healing"


class Style(StrEnum):
    """A style layered onto a power (attack styles, the defenses, the movements)."""

    SUPERAREA = "superarea"
    AREA = "area"
    PIERCING = "piercing"
    ENTANGLING = "entangling"
    MISSILE = "missile"
    GRAPPLING = "grappling"
    TOUGHNESS = "toughness"
    MISSILE_DEFLECTION = "missile-deflection"
    SLIPPERY = "slippery"
    COPY_POWER = "copy-power"
    SPEEDY = "speedy"
    WALL_WALKING = "wall-walking"
    LINE_OF_SIGHT = "line-of-sight"
    FLIGHT = "flight"


class Flaw(StrEnum):
    """A flaw that makes a power cheaper: it fails on a d20 roll or can be noticed."""

    UNRELIABLE = "unreliable"
    WILD = "wild"
    FOIBLISH = "foiblish"


class Gizmo(StrEnum):
    """What the power comes from. ``none`` (no gizmo) is priced like invulnerable (R5)."""

    VULNERABLE = "vulnerable"
    HIDDEN = "hidden"
    INVULNERABLE = "invulnerable"
    NONE = "none"


INFINITE: Final = "infinite"
Uses = int | Literal["infinite"]

ATTACKS: Final = frozenset({PowerType.DISTANCE, PowerType.CLOSE})

# --------------------------------------------------------------------------- the tables

#: Power levels the cost table prices.
LEVELS: Final = tuple(range(1, 9))
#: The uses-per-game columns of the cost table.
USES_COLUMNS: Final[tuple[Uses, ...]] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 25, INFINITE)

#: Base cost of a power by level (row) and uses per game (column, as USES_COLUMNS).
#: Every entry equals the rulebook's formula rounded normally (R3, checked by a test).
COST_TABLE: Final[Mapping[int, tuple[int, ...]]] = {
    1: (1, 4, 6, 8, 10, 12, 14, 15, 17, 18, 22, 25, 27, 30),
    2: (2, 6, 9, 13, 16, 18, 21, 23, 25, 27, 34, 38, 40, 45),
    3: (3, 9, 14, 19, 23, 27, 31, 34, 37, 40, 50, 57, 61, 67),
    4: (5, 13, 21, 28, 35, 41, 46, 51, 56, 60, 75, 85, 90, 100),
    5: (7, 20, 32, 42, 52, 61, 69, 76, 83, 89, 112, 126, 135, 150),
    6: (10, 30, 47, 63, 78, 91, 103, 114, 124, 133, 168, 189, 202, 224),
    7: (15, 44, 71, 95, 116, 136, 154, 171, 186, 199, 251, 282, 302, 335),
    8: (23, 66, 106, 141, 174, 204, 231, 255, 277, 298, 375, 422, 452, 500),
}

#: Segment n (1-6) of a turn is one the hero acts on if its Speed is at least this (R4).
SEGMENT_SPEED: Final[Mapping[int, int]] = {1: 1, 2: 26, 3: 6, 4: 21, 5: 11, 6: 16}

F = Fraction

#: Cost multiplier of each style, by power type (the power tables' first column).
STYLE_COST: Final[Mapping[PowerType, Mapping[Style, Fraction]]] = {
    PowerType.DISTANCE: {
        Style.SUPERAREA: F(3),
        Style.AREA: F(2),
        Style.PIERCING: F(8, 5),
        Style.ENTANGLING: F(7, 5),
        Style.MISSILE: F(3, 5),
    },
    PowerType.CLOSE: {
        Style.SUPERAREA: F(13, 5),
        Style.AREA: F(2),
        Style.PIERCING: F(7, 5),
        Style.ENTANGLING: F(1),
        Style.GRAPPLING: F(4, 5),
    },
    PowerType.DEFENSE: {
        Style.TOUGHNESS: F(1),
        Style.MISSILE_DEFLECTION: F(1),
        Style.SLIPPERY: F(1),
        Style.COPY_POWER: F(1),
    },
    PowerType.MOVEMENT: {
        Style.SPEEDY: F(1),
        Style.WALL_WALKING: F(8, 5),
        Style.LINE_OF_SIGHT: F(2),
        Style.FLIGHT: F(3),
    },
    PowerType.HEALING: {},
}

#: Damage multiplier of each attack style; entangling deals no direct damage (R9).
STYLE_DAMAGE: Final[Mapping[PowerType, Mapping[Style, Fraction]]] = {
    PowerType.DISTANCE: {
        Style.SUPERAREA: F(6, 5),
        Style.AREA: F(1),
        Style.PIERCING: F(1),
        Style.MISSILE: F(1),
    },
    PowerType.CLOSE: {
        Style.SUPERAREA: F(6, 5),
        Style.AREA: F(1),
        Style.PIERCING: F(2),
        Style.GRAPPLING: F(1),
    },
}

_FLAWS: Final = {Flaw.UNRELIABLE: F(4, 5), Flaw.WILD: F(3, 5), Flaw.FOIBLISH: F(7, 10)}

#: Cost multiplier of each flaw a power type may take (movement cannot be foiblish,
#: healing takes none: R6, R7).
FLAW_COST: Final[Mapping[PowerType, Mapping[Flaw, Fraction]]] = {
    PowerType.DISTANCE: _FLAWS,
    PowerType.CLOSE: _FLAWS,
    PowerType.DEFENSE: _FLAWS,
    PowerType.MOVEMENT: {Flaw.UNRELIABLE: F(4, 5), Flaw.WILD: F(3, 5)},
    PowerType.HEALING: {},
}

#: Cost multiplier of each kind of gizmo (healing takes none: R7).
GIZMO_COST: Final[Mapping[Gizmo, Fraction]] = {
    Gizmo.VULNERABLE: F(1),
    Gizmo.HIDDEN: F(7, 5),
    Gizmo.INVULNERABLE: F(2),
    Gizmo.NONE: F(2),
}

#: What each style, flaw and gizmo does, in one line (the designer's legend and tips;
#: what each does to the cost comes from the tables above).
CHOICE_LINES: Final[Mapping[str, str]] = {
    Style.SUPERAREA: "full damage on the target square, half within two squares",
    Style.AREA: "full damage on the target square, half to those adjacent",
    Style.PIERCING: "toughness never stops it",
    Style.ENTANGLING: "holds the target instead of hurting it",
    Style.MISSILE: "arrows, bullets: easier to block (distance attacks only)",
    Style.GRAPPLING: "an entangling hold that ends when the attacker steps away",
    Style.TOUGHNESS: "a defense: ignores any hit of at most 4 x level damage (not entangling)",
    Style.MISSILE_DEFLECTION: "a defense: stops missile attacks of its level or lower",
    Style.SLIPPERY: "a defense: its level is a bonus to dodging and escaping entangling",
    Style.COPY_POWER: "a defense: after being hit, use that attack once (if not above this level)",
    Style.SPEEDY: "a movement: adds its level to Movement",
    Style.WALL_WALKING: "a movement: walks up walls, at most its level in squares",
    Style.LINE_OF_SIGHT: "a movement: ignores terrain, at most its level in squares",
    Style.FLIGHT: "a movement: flies, at most its level in squares",
    Flaw.UNRELIABLE: "the power works on a d20 roll of 15 or less",
    Flaw.WILD: "the power works on a d20 roll of 10 or less",
    Flaw.FOIBLISH: "a clever target can avoid it: its to-hit is reduced by the target's "
    "Perception (attacks and defenses only)",
    Gizmo.VULNERABLE: "the power comes from a gizmo that can be attacked and broken (the standard)",
    Gizmo.HIDDEN: "the power comes from a gizmo that must be noticed before it is attacked",
    Gizmo.INVULNERABLE: "the power comes from a gizmo that cannot be targeted",
    Gizmo.NONE: "no gizmo: the power cannot be targeted, priced as invulnerable",
}

#: Oomph lost to a standard hit, per level of the attack.
DAMAGE_PER_LEVEL: Final[Mapping[PowerType, int]] = {PowerType.DISTANCE: 2, PowerType.CLOSE: 3}
#: Maximum range of a distance attack, per level.
RANGE_PER_LEVEL: Final = 3
#: Die roll (d20, or less) a flawed power needs to work.
FLAW_WORKS_ON: Final[Mapping[Flaw, int]] = {Flaw.UNRELIABLE: 15, Flaw.WILD: 10}


@dataclass(frozen=True)
class DesignRules:
    """Every tunable number of hero design; defaults are the rulebook plus our rulings.

    ``area_radius``: ``prose`` (area = the target square and adjacent ones, superarea =
    up to two squares away) or ``table`` (radius two and three): ruling R10.
    """

    attribute_points: int = 15
    attribute_minimum: int = 1
    power_points: int = 200
    attribute_price: int = 30
    area_radius: Literal["prose", "table"] = "prose"


RULES: Final = DesignRules()

# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Attributes:
    """Strength, Dexterity, Size and Perception."""

    strength: int = 0
    dexterity: int = 0
    size: int = 0
    perception: int = 0

    def __getitem__(self, attribute: Attribute) -> int:
        value: int = getattr(self, attribute.value)
        return value

    @property
    def total(self) -> int:
        return self.strength + self.dexterity + self.size + self.perception

    def __add__(self, other: Attributes) -> Attributes:
        return Attributes(*(self[a] + other[a] for a in Attribute))


@dataclass(frozen=True)
class Power:
    """One superpower as written on the card.

    ``gizmo`` is ``None`` only for healing, which has no gizmo (R7); other powers
    default to the standard vulnerable gizmo (R5).
    """

    name: str
    type: PowerType
    level: int
    uses: Uses
    styles: tuple[Style, ...] = ()
    flaws: tuple[Flaw, ...] = ()
    gizmo: Gizmo | None = Gizmo.VULNERABLE
    look: str = ""

    def __deepcopy__(self, memo: dict[int, object]) -> Power:
        return self  # a card never changes: copies of a match share it

    # a card never changes, so what follows from it is worked out once per power
    @cached_property
    def is_attack(self) -> bool:
        return self.type in ATTACKS

    @cached_property
    def entangles(self) -> bool:
        """An entangling attack holds its target instead of doing direct damage."""
        return self.is_attack and Style.ENTANGLING in self.styles

    @cached_property
    def damage(self) -> int | None:
        """Oomph a hit takes off (see :func:`damage`)."""
        return _damage(self)


@dataclass(frozen=True)
class Hero:
    """A superhero card: starting attributes (15 points), attributes bought with power
    points, and powers."""

    name: str
    attributes: Attributes
    bought: Attributes = field(default_factory=Attributes)
    powers: tuple[Power, ...] = ()

    def __deepcopy__(self, memo: dict[int, object]) -> Hero:
        return self  # a card never changes: copies of a match share it

    @cached_property
    def effective(self) -> Attributes:
        """The attributes the hero plays with: starting plus bought (R11)."""
        return self.attributes + self.bought

    @cached_property
    def traits(self) -> Traits:
        """The hero's traits (worked out once: a card never changes in play)."""
        return traits(self)


# --------------------------------------------------------------------------- traits


def round_half_up(value: Fraction) -> int:
    """Round to whole points, halves up ("round normally"; R2). Exact, no floats."""
    return floor(value + F(1, 2))


def combat(a: Attributes) -> int:
    """Combat = 2 x Dexterity + Strength."""
    return 2 * a.dexterity + a.strength


def max_oomph(a: Attributes) -> int:
    """Maximum Oomph = Strength x Size x 3."""
    return a.strength * a.size * 3


def speed(a: Attributes) -> int:
    """Speed = Dexterity x Size."""
    return a.dexterity * a.size


def segments(hero_speed: int) -> tuple[int, ...]:
    """The turn segments (1-6) a hero of this Speed acts on (R4)."""
    return tuple(n for n, least in SEGMENT_SPEED.items() if hero_speed >= least)


def movement(hero_speed: int) -> int:
    """Movement = Speed / number of segments acted on, rounded halves up (R2).
    Speedy is a power and is not included (R12). 0 for a hero that never acts."""
    acting = len(segments(hero_speed))
    return round_half_up(F(hero_speed, acting)) if acting else 0


@dataclass(frozen=True)
class Traits:
    """The four traits derived from the attributes."""

    combat: int
    max_oomph: int
    speed: int
    segments: tuple[int, ...]
    movement: int


def traits(hero: Hero) -> Traits:
    """Traits from the hero's attributes, starting plus bought (R11)."""
    a = hero.effective
    hero_speed = speed(a)
    return Traits(combat(a), max_oomph(a), hero_speed, segments(hero_speed), movement(hero_speed))


# --------------------------------------------------------------------------- cost


def base_cost(level: int, uses: Uses) -> int | None:
    """The cost table's value for (level, uses); ``None`` off the table."""
    if level not in COST_TABLE or uses not in USES_COLUMNS or isinstance(uses, bool):
        return None
    return COST_TABLE[level][USES_COLUMNS.index(uses)]


def formula_cost(level: int, uses: Uses) -> float:
    """The rulebook's formula behind the table (R3): 10 x 1.4948^(level-1) x
    (3 - 3.15 x 1.1^-uses), the bracket being 3 for infinite uses. For checking only."""
    decay = 0.0 if uses == INFINITE else 3.15 * 1.1 ** -int(uses)
    return float(10 * 1.4948 ** (level - 1) * (3 - decay))


@dataclass(frozen=True)
class Factor:
    """One multiplier in a power's price, with the card's name for it."""

    label: str
    value: Fraction


def cost_factors(power: Power) -> tuple[Factor, ...] | None:
    """The style, flaw and gizmo multipliers of a power; ``None`` when one of them is
    not allowed for its type (the power is invalid and has no price)."""
    styles = STYLE_COST[power.type]
    flaws = FLAW_COST[power.type]
    if any(s not in styles for s in power.styles) or any(f not in flaws for f in power.flaws):
        return None
    factors = [Factor(s.value, styles[s]) for s in power.styles]
    factors += [Factor(f.value, flaws[f]) for f in power.flaws]
    if power.gizmo is not None:
        factors.append(Factor(_gizmo_label(power.gizmo), GIZMO_COST[power.gizmo]))
    return tuple(factors)


def _gizmo_label(gizmo: Gizmo) -> str:
    return "no gizmo" if gizmo is Gizmo.NONE else f"{gizmo.value} gizmo"


def cost_multiplier(power: Power) -> Fraction | None:
    """Product of the power's style, flaw and gizmo multipliers."""
    factors = cost_factors(power)
    return None if factors is None else prod((f.value for f in factors), start=F(1))


@dataclass(frozen=True)
class Price:
    """A power's price: table base x multiplier, rounded halves up (R2)."""

    base: int | None
    multiplier: Fraction | None
    cost: int | None
    factors: tuple[Factor, ...] = ()


def price(power: Power) -> Price:
    """What a power costs in power points; parts that cannot be known are ``None``."""
    base = base_cost(power.level, power.uses)
    factors = cost_factors(power)
    multiplier = cost_multiplier(power)
    cost = None if base is None or multiplier is None else round_half_up(base * multiplier)
    return Price(base, multiplier, cost, factors or ())


@dataclass(frozen=True)
class Points:
    """Power points: the budget, spent on attributes and on powers, and what is left.
    ``powers`` counts only the powers that have a price."""

    budget: int
    attributes: int
    powers: int
    total: int
    left: int


def points(hero: Hero, rules: DesignRules = RULES) -> Points:
    """Power points spent: 30 per attribute point bought plus each power's cost."""
    on_attributes = rules.attribute_price * hero.bought.total
    on_powers = sum(price(p).cost or 0 for p in hero.powers)
    total = on_attributes + on_powers
    return Points(rules.power_points, on_attributes, on_powers, total, rules.power_points - total)


# --------------------------------------------------------------------------- attacks


def damage(power: Power) -> int | None:
    """Oomph a hit takes off: 2 x level (distance) or 3 x level (close) times the
    product of the damage multipliers, rounded halves up. Entangling attacks do no
    direct damage (0). ``None`` for powers that are not attacks."""
    return power.damage


def _damage(power: Power) -> int | None:
    if not power.is_attack:
        return None
    if power.entangles:
        return 0
    multipliers = STYLE_DAMAGE[power.type]
    factor = prod((multipliers.get(s, F(1)) for s in power.styles), start=F(1))
    return round_half_up(DAMAGE_PER_LEVEL[power.type] * power.level * factor)


def splash_damage(power: Power) -> int | None:
    """Half damage (rounded halves up, R2) to those around the target square of an
    area or superarea attack; ``None`` for other powers."""
    hit = damage(power)
    if hit is None or not {Style.AREA, Style.SUPERAREA} & set(power.styles):
        return None
    return round_half_up(F(hit, 2))


def attack_range(power: Power) -> int | None:
    """Maximum range of a distance attack: 3 x level. ``None`` for other powers
    (close attacks reach adjacent squares)."""
    return RANGE_PER_LEVEL * power.level if power.type is PowerType.DISTANCE else None


def blast_radius(power: Power, rules: DesignRules = RULES) -> int | None:
    """How far from the target square (or, for close attacks, from the hero) an area
    attack reaches (R10). ``None`` for powers without area."""
    if not power.is_attack:
        return None
    extra = 1 if rules.area_radius == "table" else 0
    if Style.SUPERAREA in power.styles:
        return 2 + extra
    if Style.AREA in power.styles:
        return 1 + extra
    return None


def entangle_level(power: Power) -> int | None:
    """The level an entangled target must beat to escape; ``None`` if not entangling."""
    return power.level if power.entangles else None


# --------------------------------------------------------------------------- validation


@dataclass(frozen=True)
class RuleError:
    """A broken design rule: the field it is about (``powers[1].uses``) and why."""

    field: str
    message: str

    def under(self, prefix: str) -> RuleError:
        """The same error with its field placed under ``prefix``."""
        return RuleError(f"{prefix}.{self.field}" if self.field else prefix, self.message)


def _choices(values: Iterable[object]) -> str:
    return ", ".join(str(v) for v in values)


def attribute_errors(hero: Hero, rules: DesignRules = RULES) -> list[RuleError]:
    """Starting attributes total 15, each at least 1; bought points are not negative."""
    errors = [
        RuleError(f"attributes.{a.value}", f"must be at least {rules.attribute_minimum}")
        for a in Attribute
        if hero.attributes[a] < rules.attribute_minimum
    ]
    if hero.attributes.total != rules.attribute_points:
        errors.append(
            RuleError(
                "attributes",
                f"the four attributes must total {rules.attribute_points}, "
                f"not {hero.attributes.total}",
            )
        )
    errors += [
        RuleError(f"bought.{a.value}", "cannot buy a negative number of points")
        for a in Attribute
        if hero.bought[a] < 0
    ]
    return errors


def _style_errors(power: Power) -> list[RuleError]:
    allowed = STYLE_COST[power.type]
    errors = [
        RuleError(
            "styles",
            f"{s.value} is not a {power.type.value} style"
            + (f" (choose from {_choices(allowed)})" if allowed else " (it takes no styles)"),
        )
        for s in power.styles
        if s not in allowed
    ]
    if len(set(power.styles)) != len(power.styles):
        errors.append(RuleError("styles", "a style is listed twice"))
    return errors + _style_combination_errors(power)


def _style_combination_errors(power: Power) -> list[RuleError]:
    styles = set(power.styles)
    errors = []
    if power.type is PowerType.DEFENSE and len(styles) != 1:
        errors.append(
            RuleError(
                "styles", "a defense is exactly one of " + _choices(STYLE_COST[PowerType.DEFENSE])
            )
        )
    if power.type is PowerType.MOVEMENT and not styles:
        errors.append(
            RuleError(
                "styles",
                "a movement power needs at least one of "
                + _choices(STYLE_COST[PowerType.MOVEMENT]),
            )
        )
    if Style.GRAPPLING in styles and Style.ENTANGLING not in styles:
        errors.append(
            RuleError("styles", "grappling is a kind of entangling attack: add entangling")
        )
    if {Style.AREA, Style.SUPERAREA} <= styles:
        errors.append(RuleError("styles", "an attack is area or superarea, not both (R8)"))
    return errors


def _flaw_errors(power: Power) -> list[RuleError]:
    allowed = FLAW_COST[power.type]
    errors = []
    for f in power.flaws:
        if f not in allowed:
            why = (
                "healing takes no flaws"
                if not allowed
                else f"a {power.type.value} power cannot be {f.value}"
            )
            errors.append(RuleError("flaws", why))
    if len(set(power.flaws)) != len(power.flaws):
        errors.append(RuleError("flaws", "a flaw is listed twice"))
    if {Flaw.UNRELIABLE, Flaw.WILD} <= set(power.flaws):
        errors.append(RuleError("flaws", "a power cannot be both unreliable and wild"))
    return errors


def _gizmo_errors(power: Power) -> list[RuleError]:
    if power.type is PowerType.HEALING and power.gizmo is not None:
        return [RuleError("gizmo", "healing has no gizmo (R7)")]
    if power.type is not PowerType.HEALING and power.gizmo is None:
        return [RuleError("gizmo", "choose " + _choices(Gizmo))]
    return []


def power_errors(power: Power) -> list[RuleError]:
    """Every design rule a single power breaks; fields are relative to the power."""
    errors = []
    if not power.name.strip():
        errors.append(RuleError("name", "a power needs a name"))
    if power.level not in LEVELS:
        errors.append(RuleError("level", f"level must be {LEVELS[0]} to {LEVELS[-1]}"))
    if power.uses not in USES_COLUMNS or isinstance(power.uses, bool):
        errors.append(RuleError("uses", f"uses per game must be one of {_choices(USES_COLUMNS)}"))
    return errors + _style_errors(power) + _flaw_errors(power) + _gizmo_errors(power)


def hero_errors(hero: Hero, rules: DesignRules = RULES) -> list[RuleError]:
    """Every design rule the hero breaks, all at once."""
    errors = [] if hero.name.strip() else [RuleError("name", "a hero needs a name")]
    errors += attribute_errors(hero, rules)
    for index, power in enumerate(hero.powers):
        errors += [e.under(f"powers[{index}]") for e in power_errors(power)]
    return errors + budget_errors(hero, rules)


def budget_errors(hero: Hero, rules: DesignRules = RULES) -> list[RuleError]:
    """Bought attributes and powers together cost at most the power-point budget."""
    spent = points(hero, rules)
    if spent.total <= rules.power_points:
        return []
    return [
        RuleError(
            "powers",
            f"{spent.total} power points spent ({spent.attributes} on attributes, "
            f"{spent.powers} on powers): the budget is {rules.power_points}",
        )
    ]


# --------------------------------------------------------------------------- orders


def _grouped(
    heroes: Sequence[Hero], key: Callable[[Hero], tuple[int, ...]]
) -> list[tuple[Hero, ...]]:
    ordered = sorted(heroes, key=key)
    return [tuple(group) for _, group in itertools.groupby(ordered, key=key)]


def initiative_order(heroes: Sequence[Hero]) -> list[tuple[Hero, ...]]:
    """Who acts soonest in a segment: highest Dexterity first; ties go to the higher
    Perception, then the larger Size (R13). Heroes still tied form one group that
    rolls a die (lowest goes first)."""

    def key(h: Hero) -> tuple[int, ...]:
        a = h.effective
        return (-a.dexterity, -a.perception, -a.size)

    return _grouped(heroes, key)


def placement_order(heroes: Sequence[Hero]) -> list[tuple[Hero, ...]]:
    """Who is placed on the map first: lowest Perception, ties lowest Strength. Heroes
    still tied form one group that rolls a die (lowest is placed first)."""

    def key(h: Hero) -> tuple[int, ...]:
        a = h.effective
        return (a.perception, a.strength)

    return _grouped(heroes, key)


def placed_by_next_player(hero: Hero) -> bool:
    """A hero with Perception 1 is placed by the next player, not its owner."""
    return hero.effective.perception == 1

"""Hero design rules: traits, the cost table, every multiplier, damage, range, validation
and the two orders of play. Each test names the rule (and ruling) it checks."""

from __future__ import annotations

from fractions import Fraction

import pytest
from sg_helpers import hero, power

from gladiatorium.games.superhero_gladiators.heroes import (
    COST_TABLE,
    INFINITE,
    LEVELS,
    USES_COLUMNS,
    Attributes,
    DesignRules,
    Hero,
    Power,
    Uses,
    attack_range,
    base_cost,
    blast_radius,
    combat,
    cost_multiplier,
    damage,
    entangle_level,
    formula_cost,
    hero_errors,
    initiative_order,
    max_oomph,
    movement,
    placed_by_next_player,
    placement_order,
    points,
    price,
    round_half_up,
    segments,
    speed,
    splash_damage,
    traits,
)

# --------------------------------------------------------------------------- traits


def test_combat_is_twice_dexterity_plus_strength() -> None:
    assert combat(Attributes(strength=4, dexterity=3, size=5, perception=3)) == 10


def test_max_oomph_is_strength_times_size_times_three() -> None:
    assert max_oomph(Attributes(strength=4, dexterity=3, size=5, perception=3)) == 60


def test_speed_is_dexterity_times_size() -> None:
    assert speed(Attributes(strength=4, dexterity=3, size=5, perception=3)) == 15


@pytest.mark.parametrize(
    ("hero_speed", "acting"),
    [
        (0, ()),
        (1, (1,)),
        (5, (1,)),
        (6, (1, 3)),
        (10, (1, 3)),
        (11, (1, 3, 5)),
        (15, (1, 3, 5)),
        (16, (1, 3, 5, 6)),
        (20, (1, 3, 5, 6)),  # the rulebook's own example
        (21, (1, 3, 4, 5, 6)),
        (25, (1, 3, 4, 5, 6)),
        (26, (1, 2, 3, 4, 5, 6)),
        (49, (1, 2, 3, 4, 5, 6)),
    ],
)
def test_segment_table_thresholds_r4(hero_speed: int, acting: tuple[int, ...]) -> None:
    """R4: segments 1-6 need Speed 1, 26, 6, 21, 11, 16."""
    assert segments(hero_speed) == acting


@pytest.mark.parametrize(
    ("hero_speed", "expected"),
    [
        (20, 5),  # rulebook example: 20 / 4
        (21, 4),  # 21 / 5 = 4.2
        (18, 5),  # 18 / 4 = 4.5, halves up (R2)
        (9, 5),  # 9 / 2 = 4.5
        (6, 3),  # 6 / 2
        (30, 5),  # 30 / 6
        (5, 5),  # 5 / 1
        (0, 0),  # never acts
    ],
)
def test_movement_is_speed_over_segments_rounded_half_up_r2(hero_speed: int, expected: int) -> None:
    assert movement(hero_speed) == expected


def test_traits_use_starting_plus_bought_attributes_r11() -> None:
    h = hero(4, 3, 5, 3, bought=Attributes(size=1, dexterity=1))
    t = traits(h)
    assert (t.combat, t.max_oomph, t.speed, t.segments, t.movement) == (
        12,
        72,
        24,
        (1, 3, 4, 5, 6),
        5,
    )


def test_speedy_is_not_part_of_the_movement_trait_r12() -> None:
    plain = hero(4, 4, 4, 3)
    fast = hero(4, 4, 4, 3, power("movement", "speedy", level=3))
    assert traits(fast).movement == traits(plain).movement == 4


# --------------------------------------------------------------------------- cost table

EXPECTED_TABLE = {  # retyped from the rulebook's chart, uses 1..10, 15, 20, 25, infinite
    1: [1, 4, 6, 8, 10, 12, 14, 15, 17, 18, 22, 25, 27, 30],
    2: [2, 6, 9, 13, 16, 18, 21, 23, 25, 27, 34, 38, 40, 45],
    3: [3, 9, 14, 19, 23, 27, 31, 34, 37, 40, 50, 57, 61, 67],
    4: [5, 13, 21, 28, 35, 41, 46, 51, 56, 60, 75, 85, 90, 100],
    5: [7, 20, 32, 42, 52, 61, 69, 76, 83, 89, 112, 126, 135, 150],
    6: [10, 30, 47, 63, 78, 91, 103, 114, 124, 133, 168, 189, 202, 224],
    7: [15, 44, 71, 95, 116, 136, 154, 171, 186, 199, 251, 282, 302, 335],
    8: [23, 66, 106, 141, 174, 204, 231, 255, 277, 298, 375, 422, 452, 500],
}


@pytest.mark.parametrize("level", LEVELS)
def test_cost_table_row(level: int) -> None:
    """The base cost of every (level, uses) cell of the chart."""
    assert [base_cost(level, uses) for uses in USES_COLUMNS] == EXPECTED_TABLE[level]


@pytest.mark.parametrize("level", LEVELS)
def test_cost_table_row_matches_the_formula_r3(level: int) -> None:
    """R3: each entry is 10 x 1.4948^(level-1) x (3 - 3.15 x 1.1^-uses), rounded."""
    assert [round(formula_cost(level, u)) for u in USES_COLUMNS] == list(COST_TABLE[level])


@pytest.mark.parametrize(("level", "uses"), [(0, 1), (9, 1), (1, 11), (1, 0), (3, 30), (1, True)])
def test_off_the_table_has_no_base_cost_r22(level: int, uses: Uses) -> None:
    assert base_cost(level, uses) is None


# --------------------------------------------------------------------------- multipliers

F = Fraction


@pytest.mark.parametrize(
    ("kind", "style", "multiplier"),
    [
        ("distance", "superarea", F(3)),
        ("distance", "area", F(2)),
        ("distance", "piercing", F("1.6")),
        ("distance", "entangling", F("1.4")),
        ("distance", "missile", F("0.6")),
        ("close", "superarea", F("2.6")),
        ("close", "area", F(2)),
        ("close", "piercing", F("1.4")),
        ("close", "entangling", F(1)),
        ("defense", "toughness", F(1)),
        ("defense", "missile-deflection", F(1)),
        ("defense", "slippery", F(1)),
        ("defense", "copy-power", F(1)),
        ("movement", "speedy", F(1)),
        ("movement", "wall-walking", F("1.6")),
        ("movement", "line-of-sight", F(2)),
        ("movement", "flight", F(3)),
    ],
)
def test_style_cost_multiplier(kind: str, style: str, multiplier: Fraction) -> None:
    """Each power table's style cost multiplier, on a base-100 power (level 4, infinite)."""
    p = power(kind, style)
    assert cost_multiplier(p) == multiplier
    assert price(p).cost == round_half_up(100 * multiplier)


def test_grappling_cost_multiplier_is_0_8_on_top_of_entangling() -> None:
    assert cost_multiplier(power("close", "entangling", "grappling")) == F("0.8")


@pytest.mark.parametrize("kind", ["distance", "close", "defense", "movement"])
@pytest.mark.parametrize(("flaw", "multiplier"), [("unreliable", F("0.8")), ("wild", F("0.6"))])
def test_unreliable_and_wild_multipliers(kind: str, flaw: str, multiplier: Fraction) -> None:
    style = {"defense": ("toughness",), "movement": ("speedy",)}.get(kind, ())
    assert cost_multiplier(power(kind, *style, flaws=(flaw,))) == multiplier


@pytest.mark.parametrize("kind", ["distance", "close", "defense"])
def test_foiblish_multiplier_is_0_7(kind: str) -> None:
    style = ("toughness",) if kind == "defense" else ()
    assert cost_multiplier(power(kind, *style, flaws=("foiblish",))) == F("0.7")


@pytest.mark.parametrize(
    ("gizmo", "multiplier"),
    [("vulnerable", F(1)), ("hidden", F("1.4")), ("invulnerable", F(2)), ("none", F(2))],
)
def test_gizmo_multipliers_r5(gizmo: str, multiplier: Fraction) -> None:
    """R5: no gizmo is priced like an invulnerable one."""
    assert cost_multiplier(power("distance", gizmo=gizmo)) == multiplier


def test_healing_costs_the_base_r7() -> None:
    assert price(power("healing", gizmo=None, level=3, uses=3)).cost == 14


def test_multipliers_multiply_and_round_once_r1() -> None:
    """Rubber cement arrows: 89 x 1.4 x 0.6 x 0.8 = 59.808 -> 60."""
    p = power("distance", "entangling", "missile", flaws=("unreliable",), level=5, uses=10)
    assert (price(p).base, price(p).multiplier, price(p).cost) == (89, F("0.672"), 60)


@pytest.mark.parametrize(
    ("p", "exact", "cost"),
    [
        (power("close", flaws=("foiblish",), level=4, uses=5), F("24.5"), 25),  # half: up
        (power("distance", "missile", level=4, uses=6), F("24.6"), 25),
        (
            power("distance", "superarea", flaws=("wild",), gizmo="hidden", level=3, uses=3),
            F("35.28"),
            35,
        ),
        (power("distance", "entangling", flaws=("foiblish",), level=2, uses=3), F("8.82"), 9),
    ],
)
def test_power_cost_rounds_halves_up_exactly_r2(p: Power, exact: Fraction, cost: int) -> None:
    pr = price(p)
    assert pr.base is not None and pr.multiplier is not None
    assert (pr.base * pr.multiplier, pr.cost) == (exact, cost)


def test_points_count_30_per_bought_attribute_and_every_power() -> None:
    h = hero(4, 4, 4, 3, power("distance", level=3, uses=10), bought=Attributes(size=2))
    assert points(h) == points(h).__class__(
        budget=200, attributes=60, powers=40, total=100, left=100
    )


# --------------------------------------------------------------------------- attacks


@pytest.mark.parametrize(
    ("p", "hit"),
    [
        (power("distance", level=3), 6),  # standard shot: 2 x level
        (power("close", level=3), 9),  # standard smash: 3 x level
        (power("distance", "superarea", level=4), 10),  # 8 x 1.2 = 9.6
        (power("close", "superarea", level=3), 11),  # 9 x 1.2 = 10.8
        (power("distance", "area", level=3), 6),
        (power("close", "area", level=3), 9),
        (power("distance", "piercing", level=3), 6),  # distance piercing x1
        (power("close", "piercing", level=3), 18),  # close piercing x2 (R15)
        (power("distance", "missile", flaws=("foiblish",), level=3), 6),
        (power("close", "piercing", "superarea", level=2), 14),  # 6 x 2 x 1.2 = 14.4
        (power("distance", "entangling", level=5), 0),  # no direct damage (R9)
        (power("distance", "entangling", "superarea", level=5), 0),
        (power("close", "entangling", "grappling", level=5), 0),
        (power("defense", "toughness"), None),
        (power("healing", gizmo=None), None),
    ],
)
def test_damage(p: Power, hit: int | None) -> None:
    assert damage(p) == hit


def test_splash_is_half_damage_rounded_half_up_r17() -> None:
    assert splash_damage(power("close", "superarea", level=3)) == 6  # 11 / 2 = 5.5
    assert splash_damage(power("distance", "area", level=3)) == 3
    assert splash_damage(power("distance", level=3)) is None


def test_distance_range_is_three_times_level() -> None:
    assert [attack_range(power("distance", level=n)) for n in (1, 4, 8)] == [3, 12, 24]
    assert attack_range(power("close", level=4)) is None
    assert attack_range(power("movement", "flight", level=4)) is None


def test_blast_radius_prose_and_table_readings_r10() -> None:
    area, superarea = power("distance", "area"), power("close", "superarea")
    assert (blast_radius(area), blast_radius(superarea)) == (1, 2)
    table = DesignRules(area_radius="table")
    assert (blast_radius(area, table), blast_radius(superarea, table)) == (2, 3)
    assert blast_radius(power("distance", "piercing")) is None


def test_entangle_level_is_the_power_level_r9() -> None:
    assert entangle_level(power("distance", "entangling", level=3)) == 3
    assert entangle_level(power("distance", level=3)) is None


# --------------------------------------------------------------------------- validation


def fields(h: Hero) -> list[str]:
    return [e.field for e in hero_errors(h)]


def test_a_legal_hero_has_no_errors() -> None:
    assert hero_errors(hero(4, 4, 4, 3, power("distance", "missile"))) == []


def test_attributes_must_total_15() -> None:
    assert fields(hero(4, 4, 4, 4)) == ["attributes"]


def test_each_attribute_at_least_1() -> None:
    assert fields(hero(0, 5, 5, 5)) == ["attributes.strength"]


def test_bought_points_cannot_be_negative() -> None:
    assert "bought.size" in fields(hero(4, 4, 4, 3, bought=Attributes(size=-1)))


def test_hero_needs_a_name() -> None:
    assert fields(hero(name="  ")) == ["name"]


@pytest.mark.parametrize("level", [0, 9])
def test_level_is_1_to_8(level: int) -> None:
    assert fields(hero(4, 4, 4, 3, power("distance", level=level))) == ["powers[0].level"]


@pytest.mark.parametrize("uses", [0, 11, 30])
def test_uses_must_be_a_table_column_r22(uses: int) -> None:
    assert fields(hero(4, 4, 4, 3, power("distance", uses=uses))) == ["powers[0].uses"]


@pytest.mark.parametrize(
    ("kind", "styles"),
    [
        ("close", ("missile",)),
        ("distance", ("grappling", "entangling")),
        ("distance", ("toughness",)),
        ("defense", ("toughness", "flight")),
        ("movement", ("piercing", "flight")),
        ("healing", ("area",)),
    ],
)
def test_styles_must_belong_to_the_power_type(kind: str, styles: tuple[str, ...]) -> None:
    gizmo = None if kind == "healing" else "vulnerable"
    assert "powers[0].styles" in fields(hero(4, 4, 4, 3, power(kind, *styles, gizmo=gizmo)))


def test_a_style_cannot_be_listed_twice() -> None:
    assert fields(hero(4, 4, 4, 3, power("distance", "area", "area", level=1))) == [
        "powers[0].styles"
    ]


@pytest.mark.parametrize("styles", [(), ("toughness", "slippery")])
def test_defense_is_exactly_one_style_r16(styles: tuple[str, ...]) -> None:
    assert fields(hero(4, 4, 4, 3, power("defense", *styles, level=1))) == ["powers[0].styles"]


def test_movement_needs_a_style() -> None:
    assert fields(hero(4, 4, 4, 3, power("movement", level=1))) == ["powers[0].styles"]


def test_movement_styles_combine() -> None:
    assert fields(hero(4, 4, 4, 3, power("movement", "flight", "speedy", level=1))) == []


def test_grappling_needs_entangling_r14() -> None:
    assert fields(hero(4, 4, 4, 3, power("close", "grappling", level=1))) == ["powers[0].styles"]


def test_area_and_superarea_exclude_each_other_r8() -> None:
    assert fields(hero(4, 4, 4, 3, power("distance", "area", "superarea", level=1))) == [
        "powers[0].styles"
    ]


def test_not_both_unreliable_and_wild() -> None:
    p = power("distance", flaws=("unreliable", "wild"), level=1)
    assert fields(hero(4, 4, 4, 3, p)) == ["powers[0].flaws"]


def test_movement_cannot_be_foiblish_r6() -> None:
    p = power("movement", "flight", flaws=("foiblish",), level=1)
    assert fields(hero(4, 4, 4, 3, p)) == ["powers[0].flaws"]


def test_healing_takes_no_flaws_or_gizmo_r7() -> None:
    p = power("healing", flaws=("wild",), gizmo="hidden", level=1)
    assert fields(hero(4, 4, 4, 3, p)) == ["powers[0].flaws", "powers[0].gizmo"]


def test_other_powers_need_a_gizmo_kind_r5() -> None:
    assert fields(hero(4, 4, 4, 3, power("close", gizmo=None, level=1))) == ["powers[0].gizmo"]


def test_budget_is_at_most_200_with_attributes_r21() -> None:
    at_limit = hero(4, 4, 4, 3, power("distance", level=4), bought=Attributes(size=2))
    assert points(at_limit).total == 160 and fields(at_limit) == []
    over = hero(4, 4, 4, 3, power("distance", level=4), bought=Attributes(size=4))
    assert points(over).total == 220 and fields(over) == ["powers"]


def test_all_errors_are_reported_at_once() -> None:
    bad = hero(
        0,
        5,
        5,
        5,
        power("distance", level=1),
        power("close", "grappling", flaws=("unreliable", "wild"), level=9, uses=11),
        name="",
    )
    assert fields(bad) == [
        "name",
        "attributes.strength",
        "powers[1].level",
        "powers[1].uses",
        "powers[1].styles",
        "powers[1].flaws",
    ]


# --------------------------------------------------------------------------- orders


def names(groups: list[tuple[Hero, ...]]) -> list[list[str]]:
    return [[h.name for h in g] for g in groups]


def test_initiative_by_dexterity_then_perception_then_size_r13() -> None:
    quick = hero(3, 6, 3, 3, name="quick")
    sharp = hero(3, 5, 3, 4, name="sharp")  # Dex 5, Per 4
    big = hero(3, 5, 4, 3, name="big")  # Dex 5, Per 3, Size 4
    small = hero(4, 5, 3, 3, name="small")  # Dex 5, Per 3, Size 3
    twin = hero(4, 5, 3, 3, name="twin")  # tied with small on all three: a die
    assert names(initiative_order([twin, small, big, sharp, quick])) == [
        ["quick"],
        ["sharp"],
        ["big"],
        ["twin", "small"],
    ]


def test_placement_by_lowest_perception_then_lowest_strength() -> None:
    a = hero(5, 5, 4, 1, name="a")
    b = hero(4, 5, 5, 1, name="b")
    c = hero(5, 4, 4, 2, name="c")
    d = hero(5, 3, 5, 2, name="d")  # ties c: a die
    assert names(placement_order([a, c, b, d])) == [["b"], ["a"], ["c", "d"]]


def test_bought_attributes_count_in_the_orders_r11() -> None:
    slow = hero(4, 4, 4, 3, bought=Attributes(dexterity=2), name="slow")
    quick = hero(4, 5, 3, 3, name="quick")
    assert names(initiative_order([quick, slow])) == [["slow"], ["quick"]]


def test_perception_1_is_placed_by_the_next_player() -> None:
    assert placed_by_next_player(hero(5, 5, 4, 1))
    assert not placed_by_next_player(hero(4, 5, 4, 2))
    assert not placed_by_next_player(hero(5, 5, 4, 1, bought=Attributes(perception=1)))


def test_infinite_is_a_uses_column() -> None:
    assert USES_COLUMNS[-1] == INFINITE and base_cost(1, INFINITE) == 30

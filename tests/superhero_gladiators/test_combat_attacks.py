"""Attacks on heroes with forced dice: to-hit, automatic hits and misses, double damage,
flaws, range and sight, area and superarea, piercing, fainting and victory."""

from __future__ import annotations

from typing import Any

from arena_helpers import act, attacker, defender, duel, from_position, legal, power, skip_to, texts

from gladiatorium.games.superhero_gladiators.heroes import Attributes, Hero, Power
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState

BOLT = power("distance", level=2, name="Bolt")  # 4 damage, range 6
LINE = "1..2"  # a1 to d1: 3 squares apart


def bolt_duel(
    *defences: Power, bolt: Power = BOLT, arena: str = LINE, there: str = "d1", **options: Any
) -> SuperheroGladiatorsState:
    """The usual attacker on a1 with ``bolt`` against the usual defender on ``there``."""
    return duel(
        [attacker(bolt)], [defender(*defences)], {"1A": "a1", "2A": there}, arena, **options
    )


def test_c1_to_hit_is_15_plus_combat_difference() -> None:
    """C1: 15 + 13 - 11 = 17: a 17 hits for 2 x level = 4 oomph."""
    state = bolt_duel()
    act(state, "attack 2A with Bolt", [17])
    assert state.fighters["2A"].oomph == 32
    assert "d20 = 17, needs 17 or less (7 or less doubles): hit" in " ".join(texts(state))


def test_c1_a_roll_over_the_number_misses() -> None:
    state = bolt_duel()
    act(state, "attack 2A with Bolt", [18])
    assert state.fighters["2A"].oomph == 36


def test_c2_one_always_hits_and_twenty_always_misses() -> None:
    """C2: against a To-Hit Number of 1 or less a 1 still hits; against 25 a 20 misses."""
    weak = Hero("Weak", Attributes(1, 1, 6, 7), powers=(BOLT,))  # Combat 3
    strong = Hero("Strong", Attributes(3, 4, 4, 4), Attributes(0, 5, 0, 0))  # Combat 21
    state = duel([weak], [strong], {"1A": "a1", "2A": "d1"}, LINE)
    skip_to(state, "1A")
    number = 15 + state.fighters["1A"].combat - state.fighters["2A"].combat
    assert number <= 1
    act(state, "attack 2A with Bolt", [1])
    assert state.fighters["2A"].oomph == state.fighters["2A"].max_oomph - 4
    skip_to(state, "1A")
    act(state, "attack 2A with Bolt", [2])
    assert state.fighters["2A"].oomph == state.fighters["2A"].max_oomph - 4


def test_c2_twenty_misses_even_when_the_number_is_higher() -> None:
    big = Hero("Big", Attributes(3, 5, 3, 4), Attributes(0, 6, 0, 0), (BOLT,))  # Combat 25
    state = duel([big], [defender()], {"1A": "a1", "2A": "d1"}, LINE)
    assert 15 + state.fighters["1A"].combat - 11 >= 20
    act(state, "attack 2A with Bolt", [20])
    assert state.fighters["2A"].oomph == 36


def test_c3_ten_under_the_number_doubles_the_damage() -> None:
    """C3: needs 17; a 7 is ten under: 8 oomph instead of 4. An 8 is a plain hit."""
    state = bolt_duel()
    act(state, "attack 2A with Bolt", [7])
    assert state.fighters["2A"].oomph == 28
    assert any("double damage hit" in t for t in texts(state))
    skip_to(state, "1A")
    act(state, "attack 2A with Bolt", [8])
    assert state.fighters["2A"].oomph == 24


def test_c4_unreliable_attack_needs_15_or_less_on_the_second_die() -> None:
    state = bolt_duel(bolt=power("distance", flaws=("unreliable",), level=2, name="Bolt"))
    act(state, "attack 2A with Bolt", [10, 16])
    assert state.fighters["2A"].oomph == 36
    assert "flaw die = 16, needs 15 or less, the power fails: miss" in " ".join(texts(state))
    skip_to(state, "1A")
    act(state, "attack 2A with Bolt", [10, 15])
    assert state.fighters["2A"].oomph == 32


def test_c4_wild_attack_needs_10_or_less_on_the_second_die() -> None:
    state = bolt_duel(bolt=power("distance", flaws=("wild",), level=2, name="Bolt"))
    act(state, "attack 2A with Bolt", [10, 11])
    assert state.fighters["2A"].oomph == 36
    assert "flaw die = 11, needs 10 or less" in texts(state)[-1]
    skip_to(state, "1A")
    act(state, "attack 2A with Bolt", [10, 10])
    assert state.fighters["2A"].oomph == 32


def test_c5_foiblish_attack_loses_the_targets_perception_and_checks_the_second_die() -> None:
    """C5: To-Hit 17 - Perception 4 = 13; the second die must be under 15 - 4 = 11."""
    state = bolt_duel(bolt=power("distance", flaws=("foiblish",), level=2, name="Bolt"))
    act(state, "attack 2A with Bolt", [14, 1])
    assert state.fighters["2A"].oomph == 36  # 14 > 13
    skip_to(state, "1A")
    act(state, "attack 2A with Bolt", [13, 11])
    assert state.fighters["2A"].oomph == 36  # the foible was noticed
    assert "flaw die = 11, needs 10 or less, the power fails" in texts(state)[-1]
    skip_to(state, "1A")
    act(state, "attack 2A with Bolt", [13, 10])
    assert state.fighters["2A"].oomph == 32


def test_c6_distance_attacks_reach_three_squares_a_level_with_sight() -> None:
    """C6: level 1 reaches 3 squares, not 4; a wall between blocks the attack."""
    short = power("distance", level=1, name="Bolt")
    state = bolt_duel(bolt=short, arena="1...2", there="e1")
    assert "attack 2A with Bolt" not in legal(state)
    state = bolt_duel(bolt=short, arena="1..2")
    assert "attack 2A with Bolt" in legal(state)
    state = bolt_duel(arena="1#2", there="c1")
    assert "attack 2A with Bolt" not in legal(state)


def test_c6_close_attacks_reach_adjacent_heroes_only() -> None:
    punch = power("close", level=2, name="Punch")
    state = duel([attacker(punch)], [defender()], {"1A": "a1", "2A": "c1"}, "1.2")
    assert "attack 2A with Punch" not in legal(state)
    state = duel([attacker(punch)], [defender()], {"1A": "a1", "2A": "b2"}, "1.\n.2")
    act(state, "attack 2A with Punch", [17])
    assert state.fighters["2A"].oomph == 30  # 3 x level


def test_c7_area_hits_the_target_full_and_adjacent_heroes_half() -> None:
    """C7/R10 (prose): area: full damage on the target, half to those adjacent to it,
    one die compared with each hero's own number."""
    blast = power("distance", "area", level=2, name="Blast")  # 4, splash 2
    state = duel(
        [attacker(blast)],
        [defender(), defender(name="Other"), defender(name="Far")],
        {"1A": "a1", "2A": "d1", "2B": "d2", "2C": "d3"},
        "1..2\n...2\n...2",
    )
    act(state, "attack 2A with Blast", [10])
    assert [state.fighters[f].oomph for f in ("2A", "2B", "2C")] == [32, 34, 36]


def test_c7_superarea_reaches_two_squares_and_the_table_option_three() -> None:
    """C7/R10: superarea reaches 2 squares (prose) or 3 (``area_radius=table``)."""
    blast = power("distance", "superarea", level=2, name="Blast")  # 4 x 1.2 = 5, splash 3
    at = {"1A": "a1", "2A": "d1", "2B": "d3", "2C": "d4"}
    arena = "1..2\n....\n...2\n...2"
    team = [defender(), defender(name="Two"), defender(name="Three")]
    state = duel([attacker(blast)], team, at, arena)
    act(state, "attack 2A with Blast", [10])
    assert [state.fighters[f].oomph for f in ("2A", "2B", "2C")] == [31, 33, 36]
    state = duel([attacker(blast)], team, at, arena, area_radius="table")
    act(state, "attack 2A with Blast", [10])
    assert [state.fighters[f].oomph for f in ("2A", "2B", "2C")] == [31, 33, 33]


def test_c7_close_area_hits_everyone_adjacent_to_the_attacker() -> None:
    sweep = power("close", "area", level=2, name="Sweep")  # 6, splash 3
    state = duel(
        [attacker(sweep)],
        [defender(), defender(name="Two")],
        {"1A": "b1", "2A": "a1", "2B": "c1"},
        "212",
    )
    act(state, "attack 2A with Sweep", [10])
    assert (state.fighters["2A"].oomph, state.fighters["2B"].oomph) == (30, 33)


def test_c9_area_attacks_hurt_teammates_unless_friendly_fire_is_off() -> None:
    """C9: everyone in the blast is hit, the attacker's teammates too (option)."""
    blast = power("distance", "area", level=2, name="Blast")
    at = {"1A": "a1", "1B": "c2", "2A": "d1"}
    arena = "1..2\n..1."
    friend = defender(name="Friend")
    state = duel([attacker(blast), friend], [defender()], at, arena)
    act(state, "attack 2A with Blast", [10])
    assert state.fighters["1B"].oomph == 34
    state = duel([attacker(blast), friend], [defender()], at, arena, friendly_fire=False)
    act(state, "attack 2A with Blast", [10])
    assert state.fighters["1B"].oomph == 36


BESIDE = "heroes: {1A: {square: a1}, 2A: {square: b1}}"


def test_c9_the_attacker_beside_its_own_blast_takes_half() -> None:
    """C9: "everyone adjacent" to the target square takes half damage, the attacker too:
    a level 2 Blast (4 damage) on 2A at b1 costs 2A 4 oomph (36 to 32) and the attacker
    on a1 2 (27 to 25)."""
    blast = power("distance", "area", level=2, name="Blast")
    state = from_position([attacker(blast)], [defender()], LINE, BESIDE)
    before = state.fighters["1A"].oomph
    act(state, "attack 2A with Blast", [10])
    assert (before, state.fighters["1A"].oomph, state.fighters["2A"].oomph) == (27, 25, 32)


def test_c9_area_spares_attacker_keeps_the_attacker_out_of_its_blast() -> None:
    """C9 (option): with ``area_spares_attacker`` the attacker beside the target square
    takes nothing; the target still takes the full 4."""
    blast = power("distance", "area", level=2, name="Blast")
    options = {"area_spares_attacker": True}
    state = from_position([attacker(blast)], [defender()], LINE, BESIDE, **options)
    act(state, "attack 2A with Blast", [10])
    assert (state.fighters["1A"].oomph, state.fighters["2A"].oomph) == (27, 32)


def test_t2_v1_a_hero_at_zero_oomph_faints_and_the_last_side_wins() -> None:
    """T2, V1: after the action the hero at 0 oomph faints; no opponent left: victory."""
    big = power("distance", level=8, name="Beam")  # 16, 32 doubled
    at = "heroes: {1A: {square: a1}, 2A: {square: d1, oomph: 16}}"
    state = from_position([attacker(big)], [defender()], LINE, at)
    act(state, "attack 2A with Beam", [17])
    assert state.fighters["2A"].fainted and state.fighters["2A"].square is None
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("1",)
    assert state.awaiting() == ()


def test_c19_uses_are_spent_and_run_out() -> None:
    """C19: a power with 1 use cannot be used a second time."""
    once = power("distance", level=2, uses=1, name="Bolt")
    punch = power("close", level=1, name="Punch")
    state = duel([attacker(once, punch)], [defender()], {"1A": "a1", "2A": "d1"}, LINE)
    act(state, "attack 2A with Bolt", [18])
    assert state.fighters["1A"].uses["Bolt"] == 0
    skip_to(state, "1A")
    assert "attack 2A with Bolt" not in legal(state)

"""Defences are reactions of the defending seat, decided after the hit is known:
toughness, missile deflection, copy power, flawed defences (D1-D4, C14-C18)."""

from __future__ import annotations

from arena_helpers import act, attacker, defender, duel, legal, power, skip_to, texts

LINE = "1..2"
AT = {"1A": "a1", "2A": "d1"}
BOLT = power("distance", level=2, name="Bolt")  # 4 damage
TOUGH = power("defense", "toughness", level=2, uses=3, name="Hide")  # stops up to 8


def test_d1_the_defending_seat_decides_after_the_hit() -> None:
    """D1: after a hit the defender's seat is awaited with its defences; a miss asks
    nothing."""
    state = duel([attacker(BOLT)], [defender(TOUGH)], AT, LINE)
    state.rng.force([17])
    state.act("1", "attack 2A with Bolt")
    assert state.awaiting() == ("2",)
    assert legal(state) == ["take hit", "use Hide"]
    state.act("2", "use Hide")
    assert state.fighters["2A"].oomph == 36
    assert state.fighters["2A"].uses["Hide"] == 2
    skip_to(state, "1A")
    act(state, "attack 2A with Bolt", [18])
    assert state.actor == "2A" and not state.pending


def test_c14_toughness_only_stops_damage_up_to_four_times_its_level() -> None:
    """C14: level 2 stops 8; a doubled bolt (8) is stopped, a level 5 bolt (10) is not."""
    state = duel([attacker(BOLT)], [defender(TOUGH)], AT, LINE)
    act(state, "attack 2A with Bolt", [7])
    assert "use Hide" in legal(state)
    big = power("distance", level=5, name="Bolt")
    state = duel([attacker(big)], [defender(TOUGH)], AT, LINE)
    act(state, "attack 2A with Bolt", [17])
    assert state.fighters["2A"].oomph == 26  # no question asked: toughness cannot help


def test_c14_toughness_weighs_the_damage_this_hero_takes_so_splash_may_be_stopped() -> None:
    """C14: a level 5 area blast does 10 on the target (over 8: no defence offered) and
    5 to the hero beside it, whose level 2 toughness stops it."""
    blast = power("distance", "area", level=5, name="Blast")
    state = duel(
        [attacker(blast)],
        [defender(TOUGH), defender(TOUGH, name="Beside")],
        {"1A": "a1", "2A": "d1", "2B": "d2"},
        "1..2\n...2",
    )
    act(state, "attack 2A with Blast", [10])
    assert state.fighters["2A"].oomph == 26
    assert state.pending[0].target == "2B" and legal(state) == ["take hit", "use Hide"]
    act(state, "use Hide")
    assert state.fighters["2B"].oomph == 36 and state.fighters["2B"].uses["Hide"] == 2


def test_c8_piercing_is_never_blocked_by_toughness() -> None:
    lance = power("distance", "piercing", level=2, name="Bolt")
    state = duel([attacker(lance)], [defender(TOUGH)], AT, LINE)
    act(state, "attack 2A with Bolt", [17])
    assert state.fighters["2A"].oomph == 32 and not state.pending


def test_c15_missile_deflection_stops_missiles_of_its_level_or_lower() -> None:
    shield = power("defense", "missile-deflection", level=2, uses=2, name="Shield")
    arrow = power("distance", "missile", level=2, name="Arrow")
    state = duel([attacker(arrow)], [defender(shield)], AT, LINE)
    act(state, "attack 2A with Arrow", [17])
    act(state, "use Shield")
    assert state.fighters["2A"].oomph == 36
    heavy = power("distance", "missile", level=3, name="Arrow")
    state = duel([attacker(heavy)], [defender(shield)], AT, LINE)
    act(state, "attack 2A with Arrow", [17])
    assert state.fighters["2A"].oomph == 30  # level 3 is above the shield's 2
    state = duel([attacker(BOLT)], [defender(shield)], AT, LINE)
    act(state, "attack 2A with Bolt", [17])
    assert state.fighters["2A"].oomph == 32  # not a missile


def test_c17_a_flawed_defence_rolls_and_the_use_is_spent_even_when_it_fails() -> None:
    """C17: unreliable toughness works on 15 or less on its d20."""
    shaky = power("defense", "toughness", flaws=("unreliable",), level=2, uses=3, name="Hide")
    state = duel([attacker(BOLT)], [defender(shaky)], AT, LINE)
    act(state, "attack 2A with Bolt", [17])
    act(state, "use Hide", [16])
    assert state.fighters["2A"].oomph == 32 and state.fighters["2A"].uses["Hide"] == 2
    skip_to(state, "1A")
    act(state, "attack 2A with Bolt", [17])
    act(state, "use Hide", [15])
    assert state.fighters["2A"].oomph == 32


def test_c17_foiblish_defence_fails_when_the_attacker_notices() -> None:
    """C17: a foiblish defence works on a d20 under 15 - attacker's Perception (11)."""
    sly = power("defense", "toughness", flaws=("foiblish",), level=2, uses=3, name="Hide")
    state = duel([attacker(BOLT)], [defender(sly)], AT, LINE)
    act(state, "attack 2A with Bolt", [17])
    act(state, "use Hide", [11])
    assert state.fighters["2A"].oomph == 32
    assert "Hide: flaw die = 11, needs 10 or less, the power fails" in " ".join(texts(state))


def test_c18_copy_power_copies_a_hit_and_uses_it_once_at_the_owners_level() -> None:
    """C18: copying costs a use, taking the hit; using the copy costs another use and
    works at the attacker's level; only levels up to the copy power's."""
    mirror = power("defense", "copy-power", level=2, uses=3, name="Mirror")
    state = duel([attacker(BOLT)], [defender(mirror)], AT, LINE)
    act(state, "attack 2A with Bolt", [17])
    assert legal(state) == ["take hit", "copy Mirror"]
    act(state, "copy Mirror")
    assert state.fighters["2A"].oomph == 32
    assert state.fighters["2A"].uses["Mirror"] == 2
    assert state.actor == "2A"
    act(state, "attack 1A with copied Bolt", [15])  # 15 + 11 - 13 = 13: a miss
    act_texts = texts(state)
    assert any("needs 13 or less" in t for t in act_texts)
    assert state.fighters["2A"].uses["Mirror"] == 1
    assert state.fighters["2A"].copied is None
    skip_to(state, "2A")
    assert not any("copied" in a for a in legal(state))


NET = power("distance", "entangling", level=2, name="Net")


def test_c18_copy_power_is_not_offered_on_an_entangling_hit() -> None:
    """C18, "after being damaged by attack can use it once": an entangling hit does
    no damage, so there is nothing to copy; the hit lands without asking."""
    mirror = power("defense", "copy-power", level=2, uses=3, name="Mirror")
    state = duel([attacker(NET, BOLT)], [defender(mirror)], AT, LINE)
    act(state, "attack 2A with Net", [17])
    assert not state.pending and state.actor == "2A"
    assert state.fighters["2A"].entangled == 2 and state.fighters["2A"].copied is None
    assert state.fighters["2A"].uses["Mirror"] == 3


def test_c18_house_rule_copy_on_any_hit_copies_an_entangling_attack() -> None:
    """Option copy_on_any_hit: the entangling Net may be copied as it lands."""
    mirror = power("defense", "copy-power", level=2, uses=3, name="Mirror")
    state = duel([attacker(NET, BOLT)], [defender(mirror)], AT, LINE, copy_on_any_hit=True)
    act(state, "attack 2A with Net", [17])
    assert legal(state) == ["take hit", "copy Mirror"]
    act(state, "copy Mirror")
    assert state.fighters["2A"].entangled == 2 and state.fighters["2A"].copied == NET


def test_c18_copy_power_cannot_copy_a_higher_level() -> None:
    mirror = power("defense", "copy-power", level=1, uses=3, name="Mirror")
    state = duel([attacker(BOLT)], [defender(mirror)], AT, LINE)
    act(state, "attack 2A with Bolt", [17])
    assert state.fighters["2A"].oomph == 32 and not state.pending

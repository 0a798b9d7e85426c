"""Entangling, escaping, grappling and slippery, with forced dice (C10-C12, D3)."""

from __future__ import annotations

from arena_helpers import act, attacker, defender, duel, legal, power, skip_to, texts

LINE = "1..2"
AT = {"1A": "a1", "2A": "d1"}
PUNCH = power("close", level=1, name="Punch")  # keeps the attacker able to harm
NET = power("distance", "entangling", level=3, name="Net")
WINGS = power("movement", "flight", level=3, uses=5, name="Wings")


def test_c10_an_entangled_hero_cannot_move_and_takes_no_direct_damage() -> None:
    state = duel([attacker(NET, PUNCH)], [defender()], AT, LINE)
    act(state, "attack 2A with Net", [17])
    hero = state.fighters["2A"]
    assert hero.entangled == 3 and hero.oomph == 36
    assert state.actor == "2A"
    assert not any(a.startswith("move") for a in legal(state))
    assert {"escape", "pass"} <= set(legal(state))


def test_c10_an_entangled_flyer_drops_and_loses_the_level_in_oomph() -> None:
    state = duel([attacker(NET, PUNCH)], [defender(WINGS)], AT, LINE)
    act(state, "pass")
    act(state, "move d1 up 2 with Wings")
    assert state.fighters["2A"].altitude == 2
    act(state, "attack 2A with Net", [17])  # segment 3: the attacker again
    hero = state.fighters["2A"]
    assert (hero.altitude, hero.oomph, hero.entangled) == (0, 33, 3)


def test_c10_a_stronger_entangle_replaces_a_weaker_one_not_the_reverse() -> None:
    weak = power("distance", "entangling", level=2, name="Weak")
    strong = power("distance", "entangling", level=4, name="Strong")
    state = duel([attacker(weak, strong, PUNCH)], [defender()], AT, LINE)
    act(state, "attack 2A with Weak", [17])
    assert state.fighters["2A"].entangled == 2
    skip_to(state, "1A")
    act(state, "attack 2A with Strong", [17])
    assert state.fighters["2A"].entangled == 4
    skip_to(state, "1A")
    act(state, "attack 2A with Weak", [17])
    assert state.fighters["2A"].entangled == 4


def test_c11_escape_costs_the_level_in_oomph_and_needs_10_minus_3_times_the_gap() -> None:
    """C11: level 4 against Strength 3: 10 - 3 x 1 = 7 or less escapes."""
    net = power("distance", "entangling", level=4, name="Net")
    state = duel([attacker(net, PUNCH)], [defender()], AT, LINE)
    act(state, "attack 2A with Net", [17])
    act(state, "escape", [8])
    assert (state.fighters["2A"].oomph, state.fighters["2A"].entangled) == (32, 4)
    skip_to(state, "2A")
    act(state, "escape", [7])
    assert (state.fighters["2A"].oomph, state.fighters["2A"].entangled) == (28, 0)
    assert any("needs 7 or less: free" in t for t in texts(state))


def test_c11_a_weak_entangle_on_a_strong_hero_is_easy_to_escape() -> None:
    """C11: level 1 against Strength 3: 10 - 3 x (-2) = 16 or less."""
    net = power("distance", "entangling", level=1, name="Net")
    state = duel([attacker(net, PUNCH)], [defender()], AT, LINE)
    act(state, "attack 2A with Net", [17])
    act(state, "escape", [16])
    assert state.fighters["2A"].entangled == 0


def test_c12_grappling_ends_when_the_grappler_leaves_adjacency() -> None:
    grab = power("close", "entangling", "grappling", level=2, name="Grab")
    state = duel([attacker(grab, PUNCH)], [defender()], {"1A": "a1", "2A": "b1"}, "12..\n....")
    act(state, "attack 2A with Grab", [17])
    assert state.fighters["2A"].grappler == "1A"
    act(state, "pass")
    act(state, "move d1")
    assert state.fighters["2A"].entangled == 0
    assert any("no longer grappled" in t for t in texts(state))


def test_d3_slippery_adds_its_level_to_the_entangling_roll_but_a_1_still_hits() -> None:
    slick = power("defense", "slippery", level=3, uses=3, name="Slick")
    state = duel([attacker(NET, PUNCH)], [defender(slick)], AT, LINE)
    act(state, "attack 2A with Net", [15])
    assert legal(state) == ["take hit", "use Slick"]
    act(state, "use Slick")  # 15 + 3 = 18 > 17
    assert state.fighters["2A"].entangled == 0
    skip_to(state, "1A")
    act(state, "attack 2A with Net", [1])
    act(state, "use Slick")
    assert state.fighters["2A"].entangled == 3


def test_d3_slippery_subtracts_its_level_from_the_escape_roll() -> None:
    """D3: level 5 on Strength 3 needs 4 or less; 7 - 3 = 4 escapes."""
    slick = power("defense", "slippery", level=3, uses=3, name="Slick")
    net = power("distance", "entangling", level=5, name="Net")
    state = duel([attacker(net, PUNCH)], [defender(slick)], AT, LINE)
    act(state, "attack 2A with Net", [17])
    act(state, "take hit")
    act(state, "escape with Slick", [7])
    hero = state.fighters["2A"]
    assert (hero.entangled, hero.oomph, hero.uses["Slick"]) == (0, 31, 2)


def test_c10_an_area_entangle_holds_everyone_it_hits_at_full_level() -> None:
    web = power("distance", "entangling", "area", level=2, name="Web")
    state = duel(
        [attacker(web, PUNCH)],
        [defender(), defender(name="Other")],
        {"1A": "a1", "2A": "d1", "2B": "d2"},
        "1..2\n...2",
    )
    act(state, "attack 2A with Web", [10])
    assert (state.fighters["2A"].entangled, state.fighters["2B"].entangled) == (2, 2)
    assert state.fighters["2B"].oomph == 36

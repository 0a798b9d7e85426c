"""The arena rulings not covered elsewhere, with forced dice (A5, C10-C13, D2, M4, M9,
T2, V1)."""

from __future__ import annotations

from arena_helpers import act, attacker, defender, duel, from_position, legal, power, skip_to, texts

PUNCH = power("close", level=1, name="Punch")
BOLT = power("distance", level=2, name="Bolt")
WINGS = power("movement", "flight", level=2, uses=9, name="Wings")


def test_a5_heroes_block_walking_through_their_square() -> None:
    """A5: on a one-row map a hero in the way stops a walker."""
    state = duel([attacker(PUNCH)], [defender(PUNCH)], {"1A": "a1", "2A": "b1"}, "12..")
    assert not any(a.startswith("move") for a in legal(state))


def test_m4_flight_never_goes_higher_than_its_level() -> None:
    big_wings = power("movement", "flight", level=2, uses=9, name="Wings")
    state = duel([attacker(PUNCH, big_wings)], [defender(PUNCH)], {"1A": "a1", "2A": "d1"}, "1..2")
    assert "move a1 up 2 with Wings" in legal(state)
    assert not any(" up 3" in a for a in legal(state))


def test_m9_each_destination_is_listed_once_with_the_fewest_powers() -> None:
    spurs = power("movement", "speedy", level=1, uses=9, name="Spurs")
    state = duel([attacker(PUNCH, spurs)], [defender(PUNCH)], {"1A": "a1", "2A": "h1"}, "1......2")
    moves = [a for a in legal(state) if a.startswith("move")]
    assert len(moves) == len({m.split()[1] for m in moves})
    assert "move b1" in moves and "move g1 with Spurs" in moves


def test_d2_one_defence_per_hit() -> None:
    """D2: after one defence the hit is resolved; a second defence is never asked."""
    tough = power("defense", "toughness", level=2, uses=3, name="Hide")
    mirror = power("defense", "copy-power", level=2, uses=3, name="Mirror")
    state = duel([attacker(BOLT)], [defender(tough, mirror)], {"1A": "a1", "2A": "d1"}, "1..2")
    act(state, "attack 2A with Bolt", [17])
    assert legal(state) == ["take hit", "use Hide", "copy Mirror"]
    act(state, "use Hide")
    assert not state.pending and state.actor == "2A"
    assert state.fighters["2A"].copied is None


def test_c10_a_clinging_hero_is_not_dropped_by_an_entangle() -> None:
    climb = power("movement", "wall-walking", level=2, uses=9, name="Climb")
    net = power("distance", "entangling", level=2, name="Net")
    state = duel([attacker(net, PUNCH)], [defender(climb)], {"1A": "a1", "2A": "d1"}, "1.#2\n....")
    act(state, "pass")
    act(state, "move c1 with Climb")
    act(state, "attack 2A with Net", [17])
    hero = state.fighters["2A"]
    assert hero.clinging and hero.entangled == 2 and hero.oomph == 36


def test_c11_escaping_can_make_a_hero_faint() -> None:
    net = power("distance", "entangling", level=4, name="Net")
    state = from_position(
        [attacker(net, PUNCH)],
        [defender()],
        "1..2",
        "heroes: {1A: {square: a1}, 2A: {square: d1, oomph: 4, entangled: 4}}",
    )
    act(state, "pass")
    act(state, "escape", [20])
    assert state.fighters["2A"].fainted
    assert state.outcome() is not None


def test_c12_a_stronger_plain_entangle_replaces_a_grapple() -> None:
    grab = power("close", "entangling", "grappling", level=2, name="Grab")
    net = power("distance", "entangling", level=3, name="Net")
    state = duel([attacker(grab, net, PUNCH)], [defender()], {"1A": "a1", "2A": "b1"}, "12..\n....")
    act(state, "attack 2A with Grab", [17])
    skip_to(state, "1A")
    act(state, "attack 2A with Net", [17])
    assert (state.fighters["2A"].entangled, state.fighters["2A"].grappler) == (3, "")
    skip_to(state, "1A")
    act(state, "move d2")
    assert state.fighters["2A"].entangled == 3


def test_t2_a_fainted_grappler_lets_go() -> None:
    grab = power("close", "entangling", "grappling", level=2, name="Grab")
    big = power("close", level=8, name="Crush")
    state = duel(
        [attacker(grab), attacker(PUNCH, name="Friend")],
        [defender(big)],
        {"1A": "a1", "1B": "a2", "2A": "b1"},
        "12\n1.",
    )
    skip_to(state, "1A")
    act(state, "attack 2A with Grab", [17])
    assert state.fighters["2A"].entangled == 2
    skip_to(state, "2A")
    state.fighters["1A"].oomph = 5
    act(state, "attack 1A with Crush", [13])  # 15 + 11 - 13 = 13: a hit for 24
    assert state.fighters["1A"].fainted and state.fighters["2A"].entangled == 0
    assert any("lets go" in t for t in texts(state))


def test_c13_a_destroyed_copy_power_loses_the_copied_attack() -> None:
    mirror = power("defense", "copy-power", level=2, uses=3, name="Mirror")
    state = duel([attacker(BOLT)], [defender(mirror, PUNCH)], {"1A": "a1", "2A": "d1"}, "1..2")
    act(state, "attack 2A with Bolt", [17])
    act(state, "copy Mirror")
    act(state, "pass")
    act(state, "attack 2A gizmo Mirror with Bolt", [4])
    assert state.fighters["2A"].copied is None


def test_c7_a_wall_shelters_a_hero_from_the_blast() -> None:
    blast = power("distance", "area", level=2, name="Blast")
    state = duel(
        [attacker(blast)],
        [defender(), defender(name="Behind")],
        {"1A": "a2", "2A": "c2", "2B": "e2"},
        "..#..\n1.2#2\n.....",
    )
    act(state, "attack 2A with Blast", [10])
    assert state.fighters["2B"].oomph == 36 and state.fighters["2A"].oomph == 32


def test_v1_the_last_heroes_fainting_together_is_a_tie() -> None:
    """V1/M5: the attacker in the air knocks out the last foe, then falls and faints."""
    beam = power("distance", level=8, name="Beam")
    state = from_position(
        [attacker(beam, WINGS)],
        [defender()],
        "1..2",
        "heroes: {1A: {square: a1, altitude: 1, oomph: 2}, 2A: {square: d1, oomph: 10}}",
    )
    act(state, "attack 2A with Beam", [17])
    outcome = state.outcome()
    assert outcome is not None and outcome.draw and "together" in outcome.reason
    assert any("falls and loses 2 oomph" in t for t in texts(state))

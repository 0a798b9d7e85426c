"""Movement and height with forced dice (M1-M8, A3)."""

from __future__ import annotations

from arena_helpers import act, attacker, defender, duel, legal, power, skip_to, texts

PUNCH = power("close", level=1, name="Punch")
WIDE = "1.........2\n..........."  # 11 columns
AT = {"1A": "a1", "2A": "k1"}


def moves(state: object) -> set[str]:
    return {a for a in legal(state) if a.startswith("move")}  # type: ignore[arg-type]


def test_m1_walking_covers_up_to_movement_squares() -> None:
    """M1: the attacker's Movement is 5: f1 is reachable, g1 is not."""
    state = duel([attacker(PUNCH)], [defender(PUNCH)], AT, WIDE)
    assert "move f1" in moves(state) and "move g1" not in moves(state)
    act(state, "move f1")
    assert state.fighters["1A"].square == (5, 0)


def test_m2_speedy_adds_its_level() -> None:
    spurs = power("movement", "speedy", level=2, uses=3, name="Spurs")
    state = duel([attacker(PUNCH, spurs)], [defender(PUNCH)], AT, WIDE)
    assert "move h1 with Spurs" in moves(state)
    assert "move i1 with Spurs" not in moves(state)
    act(state, "move h1 with Spurs")
    assert state.fighters["1A"].uses["Spurs"] == 2


def test_m3_flight_covers_at_most_min_level_movement() -> None:
    """M3/M4: flight level 2: two squares in all, each level up counting as one."""
    wings = power("movement", "flight", level=2, uses=5, name="Wings")
    state = duel([attacker(PUNCH, wings)], [defender(PUNCH)], AT, WIDE)
    options = moves(state)
    assert {"move b1 up 1 with Wings", "move a1 up 2 with Wings", "move c1 up 0"} - options == {
        "move c1 up 0"
    }
    assert "move c1 up 1 with Wings" not in options


def test_m3_speedy_raises_the_cap_of_flight() -> None:
    """M3, "the minimum of the level of the power and the hero's Movement trait", and
    speedy "adds its level to Movement trait": Movement 5 + Spurs 2 = 7, so Wings of
    level 7 with the Spurs fly 7 squares (6 across and 1 up), not 5."""
    wings = power("movement", "flight", level=7, uses=5, name="Wings")
    spurs = power("movement", "speedy", level=2, uses=3, name="Spurs")
    state = duel([attacker(PUNCH, wings, spurs)], [defender(PUNCH)], AT, WIDE)
    assert "move g1 up 1 with Wings + Spurs" in moves(state)
    assert "move h1 up 1 with Wings + Spurs" not in moves(state)
    act(state, "move g1 up 1 with Wings + Spurs")
    assert state.fighters["1A"].square == (6, 0) and state.fighters["1A"].altitude == 1
    assert state.fighters["1A"].uses == {"Punch": None, "Wings": 4, "Spurs": 2}


def test_m3_house_rule_the_bare_movement_trait_caps_flight() -> None:
    """Option speedy_raises_cap=false: flight stops at Movement 5 even with the Spurs
    (the Spurs still carry a walk 7 squares)."""
    wings = power("movement", "flight", level=7, uses=5, name="Wings")
    spurs = power("movement", "speedy", level=2, uses=3, name="Spurs")
    state = duel(
        [attacker(PUNCH, wings, spurs)], [defender(PUNCH)], AT, WIDE, speedy_raises_cap=False
    )
    assert not any(m.startswith(("move g1 up", "move f1 up")) for m in moves(state))
    assert "move e1 up 1 with Wings" in moves(state) and "move h1 with Spurs" in moves(state)


def test_a3_two_levels_up_is_out_of_reach_of_close_attacks_from_the_ground() -> None:
    wings = power("movement", "flight", level=3, uses=5, name="Wings")
    state = duel([attacker(PUNCH)], [defender(PUNCH, wings)], {"1A": "a1", "2A": "c1"}, "1.2")
    act(state, "pass")
    act(state, "move b1 up 2 with Wings")
    skip_to(state, "1A")
    assert "attack 2A with Punch" not in legal(state)
    act(state, "pass")
    act(state, "move b1 up 1 with Wings")
    skip_to(state, "1A")
    assert "attack 2A with Punch" in legal(state)


def test_m5_a_flyer_that_does_not_fly_on_its_next_action_falls() -> None:
    """M5: it loses its flight level (3) in oomph and lands."""
    wings = power("movement", "flight", level=3, uses=5, name="Wings")
    state = duel([attacker(PUNCH)], [defender(PUNCH, wings)], {"1A": "a1", "2A": "c1"}, "1.2")
    act(state, "pass")
    act(state, "move c1 up 1 with Wings")
    act(state, "pass")
    act(state, "pass")
    hero = state.fighters["2A"]
    assert (hero.altitude, hero.oomph) == (0, 33)
    assert any("falls and loses 3 oomph" in t for t in texts(state))


def test_m5_hovering_with_flight_keeps_the_hero_up() -> None:
    wings = power("movement", "flight", level=3, uses=5, name="Wings")
    state = duel([attacker(PUNCH)], [defender(PUNCH, wings)], {"1A": "a1", "2A": "c1"}, "1.2")
    act(state, "pass")
    act(state, "move c1 up 1 with Wings")
    act(state, "pass")
    act(state, "move c1 up 1 with Wings")
    assert state.fighters["2A"].altitude == 1 and state.fighters["2A"].oomph == 36


def test_m6_a_clinger_stays_if_it_does_not_move_and_falls_if_it_moves_without_wall_walking() -> (
    None
):
    """M6: ending on a wall with wall-walking clings; moving off without it falls (its
    wall-walking level in oomph) to the first free floor square next to the wall."""
    climb = power("movement", "wall-walking", level=2, uses=1, name="Climb")
    state = duel(
        [attacker(PUNCH, climb)], [defender(PUNCH)], {"1A": "a1", "2A": "d1"}, "1#.2\n...."
    )
    act(state, "move b1 with Climb")
    hero = state.fighters["1A"]
    assert hero.clinging and hero.square == (1, 0)
    skip_to(state, "1A")
    act(state, "pass")
    assert hero.clinging and hero.oomph == 27
    skip_to(state, "1A")
    assert hero.uses["Climb"] == 0
    act(state, "move c1")
    assert not hero.clinging and hero.oomph == 25 and hero.square == (2, 0)


def test_m8_pits_and_fire_stop_walkers_but_not_line_of_sight_movement() -> None:
    jump = power("movement", "line-of-sight", level=3, uses=3, name="Jump")
    for hazard in "~%":
        state = duel(
            [attacker(PUNCH, jump)], [defender(PUNCH)], {"1A": "a1", "2A": "d1"}, f"1{hazard}.2"
        )
        assert moves(state) == {"move c1 with Jump"}


def test_m8_flyers_pass_over_pits_not_fire() -> None:
    wings = power("movement", "flight", level=3, uses=5, name="Wings")
    state = duel([attacker(PUNCH, wings)], [defender(PUNCH)], {"1A": "a1", "2A": "d1"}, "1~.2")
    assert "move c1 with Wings" in moves(state)
    state = duel([attacker(PUNCH, wings)], [defender(PUNCH)], {"1A": "a1", "2A": "d1"}, "1%.2")
    assert not any(m.startswith("move c1") for m in moves(state))


def test_a4_a_flyer_that_falls_over_a_pit_plunges_and_faints() -> None:
    wings = power("movement", "flight", level=3, uses=5, name="Wings")
    state = duel([attacker(PUNCH, wings)], [defender(PUNCH)], {"1A": "a1", "2A": "d1"}, "1~.2")
    act(state, "move b1 up 1 with Wings")
    skip_to(state, "1A")
    act(state, "pass")
    assert state.fighters["1A"].fainted
    assert state.outcome() is not None and state.outcome().winners == ("2",)  # type: ignore[union-attr]


def test_m7_unreliable_movement_rolls_each_action_to_see_if_it_works() -> None:
    """M7: at the start of the hero's action a d20 of 15 or less makes it available."""
    from gladiatorium.games.superhero_gladiators import GAME
    from gladiatorium.games.superhero_gladiators.hero_files import hero_to_data

    spurs = power("movement", "speedy", flaws=("unreliable",), level=2, uses=5, name="Spurs")
    values = {
        "teams": [[hero_to_data(attacker(PUNCH, spurs))], [hero_to_data(defender(PUNCH))]],
        "map": WIDE,
        "power_points": 100_000,
    }
    state = GAME.start(values, 2, 0)
    first, second = state.to_place
    state.act(state.placer(first), "place " + AT[first])
    state.rng.force([16])  # the first action of 1A: the spurs fail
    state.act(state.placer(second), "place " + AT[second])
    assert state.actor == "1A"
    assert not any("Spurs" in str(a) for a in state.legal_actions("1"))
    state.act("1", "pass")
    state.rng.force([15])  # segment 3, 1A again: they work
    state.act("2", "pass")
    assert state.actor == "1A"
    assert any("Spurs" in str(a) for a in state.legal_actions("1"))
    assert any("d20 = 15, needs 15 or less: works" in e.text for e in state.events)

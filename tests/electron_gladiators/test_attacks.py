"""Attacks: arcs, ranges, lines, telemetry, armour, second guns, die rolls, dodges."""

from __future__ import annotations

from eg_helpers import arena, legal, where

FAR = "2 HT1 U21 N"


def fires(state: object) -> set[str]:
    return {m for m in legal(state) if m.startswith("fire")}  # type: ignore[arg-type]


def test_direct_attack_needs_target_in_the_90_degree_arc() -> None:
    state = arena(["1 HT2 K10 S", "2 LT K14 N", "2 LT E14 N", FAR])
    assert "fire K10 at K14" in fires(state)
    assert "fire K10 at E14" not in fires(state)  # 6 across, 4 down: outside the arc


def test_direct_attack_range() -> None:
    """A light tank reaches 5 spaces (no parabolic gun)."""
    near = arena(["1 LT K10 S", "2 LT K15 N", FAR])
    far = arena(["1 LT K10 S", "2 LT K16 N", FAR])
    assert "fire K10 at K15" in fires(near)
    assert fires(far) == set()


def test_obstacles_and_ground_vehicles_block_direct_fire_flyers_do_not() -> None:
    blocked = arena(["1 LT K10 S", "2 LT K14 N", FAR], obstacles="K12")
    assert fires(blocked) == set()
    behind_tank = arena(["1 LT K10 S", "1 LT K12 S", "2 LT K14 N", FAR])
    assert "fire K10 at K14" not in fires(behind_tank)
    under_flyer = arena(["1 LT K10 S", "2 MQ K12 -", "2 LT K14 N", FAR])
    assert "fire K10 at K14" in fires(under_flyer)


def test_3d_obstacles_block_the_mosquitos_fire_regular_ones_do_not() -> None:
    over = arena(["1 MQ K10 -", "2 SC K13 N", FAR], obstacles="K11")
    assert "fire K10 at K13" in fires(over)
    walled = arena(["1 MQ K10 -", "2 SC K13 N", FAR], walls="K11")
    assert "fire K10 at K13" not in fires(walled)


def test_parabolic_attack_needs_a_friendly_spotter() -> None:
    """A parabolic gun fires over an obstacle within its band if a team vehicle
    spots the target; without one, no attack."""
    lonely = arena(["1 MT2 K10 S", "2 LT K14 N", FAR], obstacles="K12")
    assert fires(lonely) == set()
    spotted = arena(["1 MT2 K10 S", "1 LT F14 E", "2 LT K14 N", FAR], obstacles="K12")
    assert "fire K10 at K14" in fires(spotted)


def test_ground_spotter_must_face_the_target_flyers_see_all_round() -> None:
    back_turned = arena(["1 MT2 K10 S", "1 LT F14 W", "2 LT K14 N", FAR], obstacles="K12")
    assert fires(back_turned) == set()
    flyer = arena(["1 MT2 K10 S", "1 INV F4 -", "2 LT K14 N", FAR], obstacles="K12")
    assert "fire K10 at K14" in fires(flyer)  # 10 spaces all round


def test_spotter_sight_is_blocked_by_obstacles_and_flyer_sight_by_3d_ones() -> None:
    blocked = arena(["1 MT2 K10 S", "1 LT F14 E", "2 LT K14 N", FAR], obstacles="K12 H14")
    assert fires(blocked) == set()
    walled = arena(["1 MT2 K10 S", "1 INV F14 -", "2 LT K14 N", FAR], obstacles="K12", walls="H14")
    assert fires(walled) == set()


def test_parabolic_band_has_a_minimum_and_maximum() -> None:
    """Medium tank: parabolic 2-5."""
    state = arena(["1 MT2 K10 S", "1 INV F10 -", "2 LT K16 N", FAR], obstacles="K12")
    assert fires(state) == set()  # 6 spaces: beyond the band


def test_parabolic_fire_destroys_a_friendly_flyer_more_than_2_spaces_away() -> None:
    state = arena(["1 MT2 K10 S", "1 INV F14 -", "1 MQ K13 -", "2 LT K15 N", FAR], obstacles="K11")
    state.act("1", "fire K10 at K15")
    assert "K13" not in where(state)  # friendly fire
    assert "K15" not in where(state)  # gun 4 beats front armour 2
    assert any(e.kind == "friendly-fire" for e in state.events)


def test_parabolic_fire_passes_a_friendly_flyer_1_or_2_spaces_away() -> None:
    state = arena(["1 MT2 K10 S", "1 INV F14 -", "1 MQ K12 -", "2 LT K15 N", FAR], obstacles="K11")
    state.act("1", "fire K10 at K15")
    assert where(state)["K12"] == "1 MQ None"


def test_tanks_cannot_fire_at_a_flyer_1_space_away() -> None:
    state = arena(["1 HT2 K10 S", "2 INV K11 -", FAR])
    assert fires(state) == set()
    state = arena(["1 HT2 K10 S", "2 INV K12 -", FAR])
    assert "fire K10 at K12" in fires(state)


def test_armour_side_front_sides_rear_from_the_geometry() -> None:
    """Heavy tank armour 4-3-2 hit by a medium tank-2 (gun 4)."""
    front = arena(["1 MT2 K10 S", "2 HT1 K14 N", FAR])
    front.act("1", "fire K10 at K14")
    assert "K14" in where(front)  # 4 does not overcome 4
    side = arena(["1 MT2 K10 S", "2 HT1 K14 E", FAR])
    side.act("1", "fire K10 at K14")
    assert "K14" not in where(side)  # 4 overcomes 3
    rear = arena(["1 MT1 K10 S", "2 HT1 K14 S", FAR])
    rear.act("1", "fire K10 at K14")
    assert "K14" not in where(rear)  # 3 overcomes 2
    assert [e.data["side"] for e in rear.events if e.kind == "armour"] == ["rear"]


def test_exact_diagonal_hits_the_side() -> None:
    """Ruling R9: 45 degrees off the front counts as the side."""
    state = arena(["1 MT2 G10 SE", "2 HT1 K14 N", FAR])
    state.act("1", "fire G10 at K14")
    assert [e.data["side"] for e in state.events if e.kind == "armour"] == ["sides"]


def test_overcome_means_strictly_greater_or_greater_or_equal_by_option() -> None:
    """Ruling R5."""
    strict = arena(["1 MT2 K10 S", "2 HT1 K14 N", FAR])
    strict.act("1", "fire K10 at K14")
    assert "K14" in where(strict)
    lenient = arena(["1 MT2 K10 S", "2 HT1 K14 N", FAR], overcome="greater-or-equal")
    lenient.act("1", "fire K10 at K14")
    assert "K14" not in where(lenient)


def test_a_second_vehicle_adds_its_gun() -> None:
    """LT (2) + LT (2) = 4 beats the heavy's front 4? No; MT1 (3) + LT (2) = 5 does."""
    state = arena(["1 MT1 K10 S", "1 LT M10 S", "2 HT1 K14 N", FAR])
    assert {"fire K10 at K14", "fire K10 at K14 with M10", "fire M10 at K14 with K10"} <= fires(
        state
    )
    state.act("1", "fire K10 at K14 with M10")
    assert "K14" not in where(state)


def test_second_gun_must_face_the_target() -> None:
    state = arena(["1 MT1 K10 S", "1 LT M10 N", "2 HT1 K14 N", FAR])
    assert "fire K10 at K14 with M10" not in fires(state)


def test_mosquito_adds_its_gun_from_any_orientation_but_cannot_lead_on_armour() -> None:
    """Air-to-surface support; ruling R16: alone it attacks only Scouts and Mosquitos."""
    state = arena(["1 HT1 K10 S", "1 MQ K8 -", "2 HT2 K14 N", FAR])
    assert "fire K10 at K14 with K8" in fires(state)
    assert "fire K8 at K14" not in fires(state)
    state.act("1", "fire K10 at K14 with K8")
    assert "K14" not in where(state)  # 4 + 1 beats front 4


def test_attack_on_a_mosquito_needs_a_parabolic_gun_within_6_and_a_roll() -> None:
    """d6 at least the distance: a medium tank 4 spaces away hits on 4+."""
    lt = arena(["1 LT K10 S", "2 MQ K13 -", FAR])
    assert fires(lt) == set()  # no parabolic gun
    too_far = arena(["1 HT1 K10 S", "2 MQ K17 -", FAR])
    assert fires(too_far) == set()  # 7 spaces
    miss = arena(["1 MT1 K10 S", "2 MQ K14 -", FAR])
    miss.rng.force([3])
    miss.act("1", "fire K10 at K14")
    assert "K14" in where(miss)
    hit = arena(["1 MT1 K10 S", "2 MQ K14 -", FAR])
    hit.rng.force([4])
    hit.act("1", "fire K10 at K14")
    assert "K14" not in where(hit)


def test_vehicle_that_moved_this_turn_cannot_attack_a_scout_or_mosquito() -> None:
    state = arena(["1 MT1 K9 S", "2 SC K14 N", FAR])
    state.act("1", "K9 fwd 1")
    assert "fire K10 at K14" not in fires(state)
    fresh = arena(["1 MT1 K10 S", "1 LT A1 S", "2 SC K14 N", FAR])
    fresh.act("1", "A1 fwd 1")
    assert "fire K10 at K14" in fires(fresh)


def test_missed_scout_dodges_forward_or_45_degrees_aside_owner_chooses() -> None:
    state = arena(["1 MT1 K10 S", "2 SC K14 N", FAR])
    state.rng.force([2])  # 2 < 4: missed
    state.act("1", "fire K10 at K14")
    assert state.awaiting() == ("2",)
    assert legal(state, "2") == {"dodge K13", "dodge J13", "dodge L13"}
    state.act("2", "dodge J13")
    assert where(state)["J13"] == "2 SC NW"
    assert state.awaiting() == ("1",)  # the attacker's move is still owed


def test_scout_dodge_skips_blocked_squares() -> None:
    state = arena(["1 MT1 K10 S", "2 SC K14 N", FAR], obstacles="J13 L13")
    state.rng.force([1])
    state.act("1", "fire K10 at K14")
    assert where(state)["K13"] == "2 SC N"  # the only open square: taken at once


def test_scout_can_attack_a_scout() -> None:
    state = arena(["1 SC K10 S", "2 SC K12 N", FAR])
    state.rng.force([2])
    state.act("1", "fire K10 at K12")
    assert "K12" not in where(state)


def test_scout_sees_and_fires_between_diagonally_touching_obstacles() -> None:
    scout = arena(["1 SC K10 SE", "2 SC M12 NW", FAR], obstacles="L10 K11")
    assert "fire K10 at M12" in fires(scout)
    tank = arena(["1 LT K10 SE", "2 SC M12 NW", FAR], obstacles="L10 K11")
    assert "fire K10 at M12" not in fires(tank)


def test_inverter_destroys_what_it_passes_over_mosquitos_included() -> None:
    """Whatever the armour (the heavy tank's front is 4) and without a die for the
    Mosquito: the field destroys the vehicle it passes over (one a turn, R33)."""
    for victim in ("2 HT2 K11 N", "2 MQ K11 -"):
        state = arena(["1 INV K10 -", victim, FAR])
        state.rng.force([])
        state.act("1", "K10 fly S 3")
        assert where(state) == {"K13": "1 INV None", "U21": "2 HT1 N"}


def test_inverter_is_armoured_3_all_round() -> None:
    state = arena(["1 MT1 K10 S", "2 INV K14 -", FAR])
    state.act("1", "fire K10 at K14")
    assert "K14" in where(state)
    state = arena(["1 MT2 K10 S", "2 INV K14 -", FAR])
    state.act("1", "fire K10 at K14")
    assert "K14" not in where(state)

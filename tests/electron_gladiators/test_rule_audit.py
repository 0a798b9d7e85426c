"""Rule audit: scenario tests for rulebook sentences and table values the other
files did not pin down (see "Rule coverage" in docs/rules/electron-gladiators.md)."""

from __future__ import annotations

import pytest
from eg_helpers import arena, legal, where

from gladiatorium.games.electron_gladiators.setups import SHIPPED, parse_setup, shipped_text

FAR = "2 HT1 U21 N"


def fires(state: object) -> set[str]:
    return {m for m in legal(state) if m.startswith("fire")}  # type: ignore[arg-type]


def armour_events(state: object) -> list[dict[str, object]]:
    return [e.data for e in state.events if e.kind == "armour"]  # type: ignore[attr-defined]


# ----- the vehicle table ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("gun", "target", "reach"),
    [("LT", "LT", 5), ("MT1", "LT", 7), ("HT2", "LT", 9), ("SC", "SC", 5)],
)
def test_table_direct_attack_range(gun: str, target: str, reach: int) -> None:
    """Table, Direct Attack column: a target at the range is attacked, one further is not."""
    at = arena([f"1 {gun} K2 S", f"2 {target} K{2 + reach} N", FAR])
    assert f"fire K2 at K{2 + reach}" in fires(at)
    beyond = arena([f"1 {gun} K2 S", f"2 {target} K{3 + reach} N", FAR])
    assert fires(beyond) == set()


def test_table_mosquito_direct_range_8_as_a_second_gun() -> None:
    """Table: the Mosquito's direct range is 8 (it joins attacks on armour from there;
    alone it attacks only Scouts and Mosquitos, within 6 spaces)."""
    base = ["1 MT2 K6 S", "2 HT1 K10 N", FAR]
    assert "fire K6 at K10 with K18" in fires(arena([*base, "1 MQ K18 -"]))
    assert not any("with" in f for f in fires(arena([*base, "1 MQ K19 -"])))


@pytest.mark.parametrize(("gun", "top"), [("MT2", 5), ("HT1", 7)])
def test_table_parabolic_band_top(gun: str, top: int) -> None:
    """Table, Parabolic column (MT 2-5, HT 2-7): over an obstacle with a flyer spotting,
    a target at the top of the band is attacked, one further is not."""
    spotter = "1 INV F12 -"
    at = arena([f"1 {gun} K2 S", spotter, f"2 LT K{2 + top} N", FAR], obstacles="K3")
    assert fires(at) == {f"fire K2 at K{2 + top}"}
    beyond = arena([f"1 {gun} K2 S", spotter, f"2 LT K{3 + top} N", FAR], obstacles="K3")
    assert fires(beyond) == set()


def test_table_parabolic_band_bottom_is_2_spaces() -> None:
    """Table, Parabolic 2-5: an adjacent target behind a closed diagonal gap cannot be
    shelled (1 space is below the band) and the direct line is closed (R10)."""
    state = arena(["1 MT2 K10 SE", "1 INV F11 -", "2 LT L11 N", FAR], obstacles="L10 K11")
    assert fires(state) == set()


def test_table_light_tank_has_no_parabolic_gun() -> None:
    """Table: the Light Tank's Parabolic is 'none'; it cannot fire over an obstacle."""
    state = arena(["1 LT K10 S", "1 INV F12 -", "2 LT K14 N", FAR], obstacles="K12")
    assert fires(state) == set()


def test_table_inverter_has_no_gun_attack_angle_0() -> None:
    """Table: the Inverter's gun is 0 with attack angle 0; it never fires."""
    state = arena(["1 INV K10 -", "2 LT K12 N", FAR])
    assert fires(state) == set()


def test_table_telemetry_radius_inverter_10_mosquito_8() -> None:
    """Table, Telemetry: flyers spot in a radius (10 for the Inverter, 8 for the Mosquito)."""
    base = ["1 MT2 K10 S", "2 LT K14 N", FAR]
    assert fires(arena([*base, "1 INV A14 -"], obstacles="K12")) == {"fire K10 at K14"}
    assert fires(arena([*base, "1 INV U3 -"], obstacles="K12")) == set()  # 11 spaces
    assert "fire K10 at K14" in fires(arena([*base, "1 MQ C14 -"], obstacles="K12"))
    assert fires(arena([*base, "1 MQ B14 -"], obstacles="K12")) == set()  # 9 spaces


# ----- the Scout's gun: attack angle 0 (R27) -------------------------------------------


def test_scout_gun_fires_straight_ahead_only_attack_angle_0() -> None:
    """Table: the Scout's attack angle is 0 degrees (R27): its gun fires along its
    facing only, the column facing south, the diagonal facing south-east."""
    south = arena(["1 SC K10 S", "2 SC K13 N", "2 SC L13 N", FAR])
    assert fires(south) == {"fire K10 at K13"}
    corner = arena(["1 SC K10 SE", "2 SC N13 N", "2 SC M13 N", FAR])
    assert fires(corner) == {"fire K10 at N13"}


def test_scout_attack_angle_90_by_option() -> None:
    """Option scout_attack_angle=90: the Scout's gun swings like a tank turret."""
    state = arena(["1 SC K10 S", "2 SC K13 N", "2 SC L13 N", FAR], scout_attack_angle=90)
    assert fires(state) == {"fire K10 at K13", "fire K10 at L13"}


def test_scout_spots_for_parabolic_fire_within_its_90_degree_view() -> None:
    """'This can also spot Line-of-Sight telemetry': a ground spotter sees within 90
    degrees of its front (its gun's 0-degree angle does not narrow its view)."""
    state = arena(["1 MT2 K10 S", "1 SC F13 E", "2 LT K14 N", FAR], obstacles="K12")
    assert fires(state) == {"fire K10 at K14"}
    state.act("1", "fire K10 at K14")
    assert "K14" not in where(state)


def test_scout_views_between_diagonally_touching_obstacles() -> None:
    """'view ... between them if they are only diagonally connected' (R10): a Scout
    spots through the gap; a Light Tank in its place does not."""
    scout = arena(["1 MT2 M8 S", "1 SC K10 SE", "2 LT M12 N", FAR], obstacles="M10 L10 K11")
    assert "fire M8 at M12" in fires(scout)
    tank = arena(["1 MT2 M8 S", "1 LT K10 SE", "2 LT M12 N", FAR], obstacles="M10 L10 K11")
    assert fires(tank) == set()


def test_scout_joins_an_attack_on_armour_but_leads_only_against_scouts() -> None:
    """'used against another Scout or added to an attack to overcome Armor' (R29):
    the Scout adds its 1 to a Medium Tank-2's 4 against a heavy's front 4."""
    state = arena(["1 MT2 K10 S", "1 SC K18 N", "2 HT1 K14 N", FAR])
    assert fires(state) == {"fire K10 at K14", "fire K10 at K14 with K18"}
    state.act("1", "fire K10 at K14 with K18")
    assert armour_events(state) == [{"gun": 5, "side": "front", "armour": 4, "destroyed": True}]
    assert "K14" not in where(state)


# ----- flyers --------------------------------------------------------------------------


def test_3d_obstacle_blocks_the_mosquitos_attacks_even_with_a_spotter() -> None:
    """3D obstacles 'block flying vehicles ... attacks' (R28): no direct shot and no
    parabolic shot past one, even when another flyer spots the target."""
    state = arena(["1 MQ K10 -", "1 INV F13 -", "2 SC K13 N", FAR], walls="K11")
    assert fires(state) == set()
    helper = arena(["1 HT1 M10 SW", "1 MQ K8 -", "2 HT2 K12 N", FAR], walls="K10")
    assert fires(helper) == {"fire M10 at K12"}  # the Mosquito cannot join past the X


def test_scout_cannot_attack_a_mosquito_without_a_parabolic_gun() -> None:
    """'it must be made from a vehicle with a Parabolic Gun'."""
    state = arena(["1 SC K10 S", "2 MQ K13 -", FAR])
    assert fires(state) == set()


def test_flyer_may_change_direction_within_one_move() -> None:
    """Flyers 'can move in any direction': a flight may bend, one point a square."""
    state = arena(["1 MQ K10 -", FAR])
    state.act("1", "K10 fly N 2")
    assert "K8 fly E 3" in legal(state) and "K8 fly E 4" not in legal(state)
    state.act("1", "K8 fly E 3")
    assert where(state)["N8"] == "1 MQ None"
    assert state.to_move == "2"  # five points spent, no attack possible


def test_inverter_destroys_the_enemy_it_lands_on_but_not_its_own_vehicles() -> None:
    """R3: the Inverter may end on an enemy's square (destroying it); it passes over
    its own vehicles unharmed but may not stop on them."""
    state = arena(["1 INV K10 -", "2 LT K12 N", FAR])
    state.act("1", "K10 fly S 2")
    assert where(state)["K12"] == "1 INV None"
    own = arena(["1 INV K10 -", "1 LT K11 S", FAR])
    assert "K10 fly S 1" not in legal(own) and "K10 fly S 2" in legal(own)
    own.act("1", "K10 fly S 2")
    assert where(own)["K11"] == "1 LT S"


def test_ground_vehicle_cannot_drive_under_a_flyer() -> None:
    """R3: 'nor move through them': one vehicle per square, flyers included."""
    state = arena(["1 LT K10 S", "1 MQ K12 -", FAR])
    assert "K10 fwd 1" in legal(state) and "K10 fwd 2" not in legal(state)


def test_flyer_destroyed_by_the_shell_of_the_attack_it_joins_still_adds_its_gun() -> None:
    """R30: the guns fire together. The Mosquito on K14 (4 spaces from the gun) is
    destroyed by the parabolic shell, and its 1 still counts: 4 + 1 beats front 4."""
    state = arena(["1 MT2 K10 S", "1 MQ K14 -", "2 HT1 K15 N", FAR], obstacles="K11")
    assert "fire K10 at K15 with K14" in fires(state)
    state.act("1", "fire K10 at K15 with K14")
    assert [e.kind for e in state.events if e.kind in ("friendly-fire", "armour")] == [
        "friendly-fire",
        "armour",
    ]
    assert armour_events(state) == [{"gun": 5, "side": "front", "armour": 4, "destroyed": True}]
    assert "K14" not in where(state) and "K15" not in where(state)


# ----- attacks -------------------------------------------------------------------------


def test_parabolic_attack_needs_the_target_inside_the_arc() -> None:
    """'This range of 90 degrees allows a vehicle to attack anything within their
    gun's range (Parabolic or Direct)': outside the arc, no parabolic shot."""
    state = arena(["1 MT2 K10 S", "1 INV F8 -", "2 LT K6 S", FAR], obstacles="K8")
    assert fires(state) == set()
    state = arena(["1 MT2 K10 N", "1 INV F8 -", "2 LT K6 S", FAR], obstacles="K8")
    assert fires(state) == {"fire K10 at K6"}


def test_ground_sight_is_not_blocked_by_vehicles() -> None:
    """R14: a spotter sees past a vehicle standing between it and the target."""
    state = arena(["1 MT2 K10 S", "1 LT F14 E", "1 LT H14 N", "2 LT K14 N", FAR], obstacles="K12")
    assert fires(state) == {"fire K10 at K14"}


def test_second_gun_must_be_within_its_range() -> None:
    """'add a second vehicle ... within range': a Light Tank 6 spaces away cannot join."""
    state = arena(["1 MT1 K10 S", "1 LT Q14 W", "2 HT1 K14 N", FAR])
    assert "fire K10 at K14 with Q14" not in fires(state)
    near = arena(["1 MT1 K10 S", "1 LT P14 W", "2 HT1 K14 N", FAR])
    assert "fire K10 at K14 with P14" in fires(near)


def test_scout_is_attacked_only_within_6_spaces_and_hit_on_the_distance_or_more() -> None:
    """'within 6 spaces ... roll a 6d ... equal or higher to that distance'."""
    beyond = arena(["1 HT2 K10 S", "2 SC K17 N", FAR])
    assert fires(beyond) == set()  # 7 spaces, though in direct range 9
    miss = arena(["1 HT2 K10 S", "2 SC K16 N", FAR], obstacles="J15 L15")
    miss.rng.force([5])
    miss.act("1", "fire K10 at K16")
    assert where(miss)["K15"] == "2 SC N"  # missed; dodged to the one open square
    hit = arena(["1 HT2 K10 S", "2 SC K16 N", FAR])
    hit.rng.force([6])
    hit.act("1", "fire K10 at K16")
    assert "K16" not in where(hit)


def test_vehicle_that_moved_cannot_attack_a_mosquito_but_may_attack_then_move() -> None:
    """R18: 'by a vehicle that has not moved that turn'; attacking before its own move
    is allowed."""
    moved = arena(["1 MT1 K9 S", "2 MQ K14 -", FAR])
    moved.act("1", "K9 fwd 1")
    assert fires(moved) == set()
    first = arena(["1 MT1 K10 S", "2 MQ K14 -", FAR])
    first.rng.force([6])
    first.act("1", "fire K10 at K14")
    assert "K14" not in where(first)
    first.act("1", "K10 fwd 1")
    assert where(first)["K11"] == "1 MT1 S"


# ----- turns and the end ---------------------------------------------------------------


def test_end_passes_the_move_when_no_vehicle_can_move() -> None:
    """R22: a boxed-in Inverter cannot make the one-point move; 'end' passes it."""
    state = arena(["1 INV A1 -", FAR], walls="B1 A2 B2")
    assert legal(state) == {"end"}
    state.act("1", "end")
    assert state.to_move == "2"


def test_draw_after_the_turn_limit() -> None:
    """R6: option max_turns draws the match when reached."""
    state = arena(["1 LT A1 S", "2 LT U21 N"], max_turns=2)
    state.act("1", "A1 fwd 1")
    state.act("1", "end")
    assert state.outcome() is None
    state.act("2", "U21 fwd 1")
    state.act("2", "end")
    outcome = state.outcome()
    assert outcome is not None and outcome.draw and "turn limit of 2" in outcome.reason


# ----- the set-up figures --------------------------------------------------------------

FIGURES = {
    "basic-1": (
        "INV A1, MT1 C1, HT1 G1, MT2 K1, HT2 O1, MT1 S1, LT D2, LT K2, LT Q2, MQ P3, SC G7",
        "SC O15, MQ F19, LT D20, LT J20, LT Q20, MT1 C21, HT2 G21, MT2 K21, HT1 O21, "
        "MT1 S21, INV U21",
        "P5 F7 U9 J10 H11 N11 A12 L12 P15 F17",
    ),
    "basic-2": (
        "INV A1, MT1 F1, HT2 K1, MT2 S1, LT C2, LT L2, LT T2, MQ Q3, SC H7",
        "SC O15, MQ F19, LT B20, LT I20, LT S20, MT2 C21, HT2 K21, MT1 P21, INV U21",
        "Q6 E8 D11 K11 S11 R14 F16",
    ),
    "deluxe-1": (
        "INV A1, MT2 C1, HT1 F1, MT1 G1, MT1 J1, HT2 K1, MT1 N1, HT1 P1, MT2 S1, INV U1, "
        "LT C2, LT E2, LT L2, LT P2, LT S2, MQ F3, MQ Q3, SC G7, SC P7",
        "SC G15, SC P15, MQ F19, MQ Q19, LT D20, LT G20, LT J20, LT R20, LT T20, INV A21, "
        "MT2 C21, HT1 F21, MT1 H21, HT2 K21, MT1 L21, MT1 O21, HT1 P21, MT2 S21, INV U21",
        "Q5 T6 F7 U9 J10 H11 O11 A12 L12 B15 Q15 F17",
    ),
    "deluxe-2": (
        "INV A1, MT2 C1, MT1 F1, HT2 K1, MT1 P1, MT2 S1, INV U1, LT B2, LT E2, LT L2, "
        "LT Q2, LT T2, MQ E3, MQ P3, SC H7, SC T7",
        "SC C15, SC O15, MQ F19, MQ Q19, LT B20, LT E20, LT K20, LT Q20, LT T20, INV A21, "
        "MT2 C21, MT1 F21, HT2 K21, MT1 P21, MT2 S21, INV U21",
        "E8 D11 K11 S11 F16",
    ),
}


def _squares(text: str) -> set[str]:
    return set(text.split())


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_setup_matches_its_figure(name: str) -> None:
    """Set-up figures: every vehicle and X obstacle as the text places them (Deluxe 2
    with the second Mosquito of ruling R2 on Q19)."""
    from gladiatorium.games.electron_gladiators.board import square_name

    setup = parse_setup(shipped_text(name))
    seat1, seat2, walls = FIGURES[name]
    for seat, expected in (("1", seat1), ("2", seat2)):
        placed = {f"{v.code} {square_name(v.square)}" for v in setup.vehicles if v.seat == seat}
        assert placed == set(expected.split(", "))
    assert {square_name(s) for s in setup.walls} == _squares(walls)


def test_reach_shows_the_scouts_straight_gun_and_wider_view() -> None:
    """The reach helper draws the Scout's 0-degree gun (R27): ``d`` straight ahead,
    ``s`` (seen, for spotting) elsewhere in its 90-degree view."""
    from gladiatorium.games.electron_gladiators.render import reach_text

    state = arena(["1 SC K10 S", FAR])
    text = reach_text(state.arena, state.arena.vehicles[1], markup=False, options=state.options)
    rows = text.splitlines()
    assert rows[12].split()[11] == "d"  # K12: straight ahead
    assert rows[12].split()[12] == "s"  # L12: seen, not in the gun's line
    assert "attack angle 0" in text

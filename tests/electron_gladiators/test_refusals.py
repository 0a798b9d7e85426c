"""Bad input at the terminal: every refusal says why in the game's words and changes nothing."""

from __future__ import annotations

import pytest
from eg_helpers import arena, where

from gladiatorium.core import IllegalAction, NotYourTurn
from gladiatorium.games.electron_gladiators.actions import Drive, Fire
from gladiatorium.games.electron_gladiators.state import ElectronGladiatorsState

FAR = "2 HT1 U21 N"


def refused(state: ElectronGladiatorsState, text: str, seat: str = "1") -> str:
    """The refusal of ``text``; the state must be left as it was."""
    before = (where(state), len(state.history), len(state.events))
    with pytest.raises(IllegalAction) as err:
        state.act(seat, text)
    assert (where(state), len(state.history), len(state.events)) == before
    return str(err.value)


def says(state: ElectronGladiatorsState, text: str, reason: str) -> None:
    assert refused(state, text) == f"{text!r}: {reason}"


def test_refusals_name_the_square_and_whose_vehicle() -> None:
    state = arena(["1 HT1 K10 S", "2 LT K14 N", FAR])
    assert refused(state, "B1 fwd 1") == "'B1 fwd 1': no vehicle on B1"
    assert refused(state, "K14 fwd 1") == "'K14 fwd 1': the Light Tank on K14 belongs to seat 2"
    assert "'Z9' is not a square" in refused(state, "Z9 fwd 1")
    with pytest.raises(NotYourTurn):
        state.act("2", "K14 fwd 1")


def test_refusals_explain_speed_points_turns_and_what_blocks_the_way() -> None:
    """Speed: one point a square, a point per 45 degrees (heavy tank: 3 points)."""
    state = arena(["1 HT1 K10 S", "1 INV A1 -", "2 LT K12 N", FAR], obstacles="J11", walls="B2")
    assert refused(state, "K10 fwd 4") == (
        "'K10 fwd 4': the Heavy Tank-1 on K10 has 3 speed points left, not 4"
    )
    says(state, "K10 turn r30", "turn how much? l45 l90 l135 r45 r90 r135 180")
    says(
        state,
        "K10 fwd 3",
        "the way is blocked after 1 square: the Light Tank on K12 (seat 2) is in the way",
    )
    says(
        state,
        "K10 fly S 1",
        "the Heavy Tank-1 on K10 drives ('fwd', 'rev') and turns; only flyers fly",
    )
    says(state, "A1 fwd 1", "the Inverter on A1 is a flyer: it flies, e.g. 'A1 fly S 2'")
    says(state, "A1 fly SE 1", "the way is blocked: B2 is a 3D obstacle")
    says(state, "A1 fly N 1", "the way is blocked: the arena ends at A1")
    state.act("1", "K10 turn r90")  # 2 points: now faces W, 1 point left
    says(state, "K10 turn 180", "turning 180 costs 4 points; the Heavy Tank-1 on K10 has 1 left")
    says(
        state,
        "A1 fly S 1",
        "the Heavy Tank-1 on K10 is making this turn's move; only one vehicle moves a turn",
    )


def test_refusal_names_the_corner_a_tank_cannot_slip_through() -> None:
    """R10: only the Scout slips between diagonally touching obstacles."""
    state = arena(["1 LT K10 SE", "2 LT A21 N", FAR], obstacles="L10 K11")
    says(
        state,
        "K10 fwd 1",
        "the way is blocked: it cannot slip diagonally between L10 and K11, "
        "which touch at a corner",
    )


def test_refusals_of_scout_moves() -> None:
    """The Scout never reverses; its free turns never follow each other (R11)."""
    state = arena(["1 SC K10 S", "2 LT A21 N", FAR])
    says(state, "K10 rev 1", "the Scout cannot move in reverse")
    state.act("1", "K10 turn l45")
    assert "may not follow each other" in refused(state, "K10 turn r45")
    says(
        state, "end", "the move needs at least one speed point first (drive, turn or fly a vehicle)"
    )


def test_refusals_of_attacks_say_why_the_gun_does_not_reach() -> None:
    state = arena(
        ["1 MT2 K10 S", "1 LT A10 E", "1 INV A1 -", "2 LT K14 N", "2 LT C14 N", FAR],
        obstacles="K12",
    )
    says(
        state,
        "fire K10 at C14",
        "C14 is outside the 90-degree arc of the Medium Tank-2 on K10; turn it first",
    )
    says(
        state,
        "fire K10 at K14",
        "its direct line to K14 is blocked, and no friendly spotter sees K14 for a parabolic shot",
    )
    says(
        state,
        "fire K10 at U21",
        "U21 is 11 spaces away, beyond its direct range of 7, and outside its parabolic band "
        "of 2-5 spaces",
    )
    says(state, "fire A1 at K14", "the Inverter on A1 has no gun; it destroys what it flies over")
    says(state, "fire K10 at A10", "the Light Tank on A10 is your own")
    says(
        state,
        "fire K10 K14",
        "write 'fire G1 at G9' or, with a second gun, 'fire G1 at G9 with K1'",
    )


def test_refusals_of_attacks_on_scouts_and_mosquitos_and_second_guns() -> None:
    """R16, R17, R18, R29: who may lead on a Scout or Mosquito, and no second gun."""
    state = arena(["1 MT2 K10 S", "1 LT E10 S", "1 LT J10 S", "2 SC K17 N", "2 MQ E13 -", FAR])
    says(
        state,
        "fire K10 at K17",
        "a Scout/Mine Layer is attacked only from within 6 spaces; this is 7",
    )
    says(state, "fire E10 at E13", "only a vehicle with a parabolic gun may attack a Mosquito")
    says(
        state,
        "fire J10 at U21",
        "U21 is 11 spaces away, beyond its direct range of 5, and the Light Tank on J10 has "
        "no parabolic gun",
    )
    state.act("1", "K10 fwd 1")
    says(
        state,
        "fire K11 at K17",
        "the MT2 moved this turn; only a vehicle that has not moved may attack a Scout/Mine Layer",
    )
    duel = arena(["1 MT2 K10 S", "1 LT J10 S", "1 MQ E10 -", "2 SC K14 N", "2 LT E14 N", FAR])
    says(
        duel,
        "fire K10 at K14 with J10",
        "no second gun against a Scout/Mine Layer: one die roll decides",
    )
    says(
        duel,
        "fire E10 at E14",
        "alone, a Mosquito attacks only Scouts; it may add its gun",
    )
    says(
        duel,
        "fire K10 at E14 with K10",
        "E14 is outside the 90-degree arc of the Medium Tank-2 on K10; turn it first",
    )


def test_one_attack_a_turn_and_refusals_of_typed_action_objects() -> None:
    state = arena(["1 MT2 K10 S", "1 SC L9 S", "2 LT K14 N", "2 LT L14 N", "2 LT A21 N", FAR])
    says(state, "fire L9 at L14", "alone, a Scout attacks only Scouts; it may add its gun")
    state.act("1", "fire K10 at K14")
    says(state, "fire K10 at A21", "one attack a turn: this turn's attack is made")
    with pytest.raises(IllegalAction, match="K10 fwd 9: the Medium Tank-2 on K10 has 4 speed"):
        state.apply("1", Drive("K10", "fwd", 9))
    with pytest.raises(IllegalAction, match="one attack a turn"):
        state.apply("1", Fire("K10", "A21"))


def test_a_vehicle_named_alone_lists_what_it_may_do_now() -> None:
    state = arena(["1 LT K10 S", "1 LT A1 S", "2 LT K14 N", FAR])
    assert refused(state, "k10").startswith(
        "'k10': what should the Light Tank on K10 do? e.g. fire K10 at K14, K10 fwd 1, K10 fwd 2, "
    )
    state.act("1", "K10 fwd 1")
    says(state, "A1", "the Light Tank on A1 can do nothing more this turn")


def test_refusals_while_a_missed_scout_must_dodge() -> None:
    """R19: the owner of a missed Scout dodges before anything else happens."""
    state = arena(["1 MT1 K10 S", "2 SC K14 N", FAR])
    says(
        state,
        "dodge K11",
        "no Scout is waiting to dodge (a Scout dodges when an attack on it misses)",
    )
    state.rng.force([2])  # 2 < 4: missed
    state.act("1", "fire K10 at K14")
    choices = "'dodge K13' or 'dodge J13' or 'dodge L13'"
    assert refused(state, "K14 fwd 1", "2") == (
        "'K14 fwd 1': the Scout on K14 must dodge first: " + choices
    )
    assert refused(state, "dodge K15", "2") == "'dodge K15': the Scout on K14 dodges to " + choices
    with pytest.raises(NotYourTurn):
        state.act("1", "K10 fwd 1")

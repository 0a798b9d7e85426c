"""Movement (speed points, facing, Scout and flyer quirks) and the shape of a turn."""

from __future__ import annotations

import pytest
from eg_helpers import arena, legal, where

from gladiatorium.core import IllegalAction

FAR = "2 HT1 U21 N"  # an enemy far away so the game goes on


def test_tank_spends_one_point_per_square_forward_or_reverse() -> None:
    state = arena(["1 MT1 K10 S", FAR])
    assert {"K10 fwd 4", "K10 rev 4"} <= legal(state)
    assert "K10 fwd 5" not in legal(state)
    state.act("1", "K10 fwd 3")
    assert where(state)["K13"] == "1 MT1 S"
    assert legal(state) >= {"K13 fwd 1", "K13 rev 1", "end"}
    assert "K13 fwd 2" not in legal(state)


def test_tank_turns_cost_one_point_per_45_degrees() -> None:
    state = arena(["1 HT1 K10 S", FAR])
    assert {"K10 turn l45", "K10 turn r90", "K10 turn r135"} <= legal(state)
    assert "K10 turn 180" not in legal(state)  # 4 points, a heavy has 3
    state.act("1", "K10 turn r90")
    assert where(state)["K10"] == "1 HT1 W"
    assert "K10 fwd 1" in legal(state) and "K10 fwd 2" not in legal(state)


def test_tank_facing_a_corner_moves_diagonally() -> None:
    state = arena(["1 LT K10 SE", FAR])
    state.act("1", "K10 fwd 2")
    assert where(state)["M12"] == "1 LT SE"


def test_obstacles_and_vehicles_block_ground_movement() -> None:
    state = arena(["1 MT1 K10 S", "1 LT A1 S", FAR], obstacles="K13")
    assert "K10 fwd 2" in legal(state) and "K10 fwd 3" not in legal(state)
    state = arena(["1 MT1 K10 S", "2 LT K12 N", FAR])
    assert "K10 fwd 1" in legal(state) and "K10 fwd 2" not in legal(state)


def test_tank_cannot_slip_between_diagonally_touching_obstacles_but_scout_can() -> None:
    """Ruling R10: the Scout moves between diagonally connected obstacles."""
    tank = arena(["1 LT K10 SE", FAR], obstacles="L10 K11")
    assert "K10 fwd 1" not in legal(tank)
    scout = arena(["1 SC K10 SE", FAR], walls="L10 K11")
    assert "K10 fwd 1" in legal(scout)


def test_scout_cannot_reverse_and_turns_45_or_90_free_but_not_twice_in_a_row() -> None:
    """Ruling R11; 180 degrees costs one point."""
    state = arena(["1 SC K10 S", FAR])
    moves = legal(state)
    assert not any(" rev " in m for m in moves)
    assert {"K10 turn l45", "K10 turn r90", "K10 turn 180"} <= moves
    assert "K10 turn l135" not in moves
    assert "end" not in moves  # a free turn is not yet a point of movement
    state.act("1", "K10 turn r90")
    assert state.spent == 0 and where(state)["K10"] == "1 SC W"
    assert "K10 turn l45" not in legal(state)  # not twice in a row
    assert "end" not in legal(state)
    state.act("1", "K10 turn 180")
    assert state.spent == 1 and where(state)["K10"] == "1 SC E"
    assert "K10 fwd 6" in legal(state) and "K10 fwd 7" not in legal(state)


def test_scout_turns_can_cost_a_point_by_option() -> None:
    state = arena(["1 SC K10 S", FAR], scout_free_turns=False)
    state.act("1", "K10 turn l90")
    assert state.spent == 1
    assert "K10 turn l45" in legal(state)


def test_flyers_move_any_direction_over_regular_obstacles_not_3d_ones() -> None:
    state = arena(["1 MQ K10 -", FAR], obstacles="K11", walls="J10")
    moves = legal(state)
    assert {"K10 fly S 5", "K10 fly N 5", "K10 fly NE 5", "K10 fly SW 5"} <= moves
    assert not any(m.startswith("K10 fly W") for m in moves)  # X on J10
    assert "K10 turn l45" not in moves
    state.act("1", "K10 fly S 1")
    assert where(state)["K11"] == "1 MQ None"


def test_flyer_cannot_pass_diagonally_between_two_3d_obstacles() -> None:
    state = arena(["1 INV K10 -", FAR], walls="L10 K11")
    assert "K10 fly SE 1" not in legal(state)


def test_turn_needs_a_move_of_at_least_one_point() -> None:
    state = arena(["1 LT K10 S", FAR])
    assert "end" not in legal(state)
    with pytest.raises(IllegalAction):
        state.act("1", "end")


def test_only_one_vehicle_moves_in_a_turn() -> None:
    state = arena(["1 LT K10 S", "1 LT C3 S", FAR])
    state.act("1", "K10 fwd 1")
    assert not any(m.startswith("C3") for m in legal(state))
    state.act("1", "end")
    assert state.to_move == "2"


def test_speed_points_do_not_carry_over() -> None:
    state = arena(["1 LT K10 S", "2 LT A21 N"])
    state.act("1", "K10 fwd 1")
    state.act("1", "end")
    state.act("2", "A21 fwd 1")
    state.act("2", "end")
    assert "K11 fwd 5" in legal(state) and "K11 fwd 6" not in legal(state)


def test_moving_all_points_ends_the_turn_when_no_attack_is_possible() -> None:
    state = arena(["1 HT1 K10 N", FAR])
    state.act("1", "K10 fwd 3")
    assert state.to_move == "2" and state.turn == 2


def test_attack_before_the_move_then_the_move_still_follows() -> None:
    state = arena(["1 HT2 K10 S", "1 LT A1 S", "2 LT K14 N", FAR])
    state.act("1", "fire K10 at K14")
    assert "K14" not in where(state)
    assert state.to_move == "1"
    assert not any(m.startswith("fire") for m in legal(state))  # only one attack
    assert "end" not in legal(state)  # the move is still owed
    state.act("1", "A1 fwd 1")
    state.act("1", "end")
    assert state.to_move == "2"


def test_no_move_after_an_attack_made_after_moving() -> None:
    """No move-attack-move: an attack closes the move action."""
    state = arena(["1 HT2 K8 S", "2 LT K14 N", FAR])
    state.act("1", "K8 fwd 1")
    assert "fire K9 at K14" in legal(state)
    state.act("1", "fire K9 at K14")
    assert state.to_move == "2"


def test_end_then_end_passes_up_the_attack() -> None:
    state = arena(["1 HT2 K8 S", "2 LT K14 N", FAR])
    state.act("1", "K8 turn l45")
    state.act("1", "end")
    assert state.to_move == "1" and legal(state) >= {"end"}
    assert not any(" fwd " in m for m in legal(state))
    state.act("1", "end")
    assert state.to_move == "2"

"""Issue 15's readings of the text for flyers, the Inverter's field, the Mosquito's
gun, set-ups and the Scout's free turns (rulings R3, R11, R16, R32, R33 in
docs/rules/electron-gladiators.md), each with the option that keeps the earlier rule."""

from __future__ import annotations

import pytest
from eg_helpers import arena, legal, where

from gladiatorium.core import IllegalAction
from gladiatorium.games.electron_gladiators.setups import parse_setup
from gladiatorium.games.electron_gladiators.state import ElectronGladiatorsState

FAR = "2 HT1 U21 N"


def fires(state: ElectronGladiatorsState) -> set[str]:
    return {m for m in legal(state) if m.startswith("fire")}


# ----- R3: flyers pass over vehicles ------------------------------------------------------


def test_r3_flyers_pass_over_any_vehicle_but_stop_on_an_empty_square() -> None:
    """'nor move through them, except flying vehicles': the Mosquito on K10 flies over
    its own light tank (K11) and an enemy heavy tank (K12) to K13; it may not stop on
    either. Both tanks are untouched."""
    state = arena(["1 MQ K10 -", "1 LT K11 S", "2 HT2 K12 N", FAR])
    moves = legal(state)
    assert "K10 fly S 1" not in moves and "K10 fly S 2" not in moves
    assert "K10 fly S 3" in moves
    with pytest.raises(IllegalAction, match="cannot stop on the Light Tank on K11"):
        state.act("1", "K10 fly S 1")
    state.act("1", "K10 fly S 3")
    assert where(state) == {
        "K13": "1 MQ None",
        "K11": "1 LT S",
        "K12": "2 HT2 N",
        "U21": "2 HT1 N",
    }


def test_r3_an_inverter_passes_over_its_own_vehicles() -> None:
    state = arena(["1 INV K10 -", "1 LT K11 S", FAR])
    assert "K10 fly S 1" not in legal(state)
    state.act("1", "K10 fly S 2")
    assert where(state)["K12"] == "1 INV None" and where(state)["K11"] == "1 LT S"


def test_r3_option_no_flyer_passes_a_vehicle() -> None:
    """Under ``flyers_pass_vehicles=false`` (before version 3) a vehicle blocks a flyer."""
    state = arena(["1 MQ K10 -", "1 LT K11 S", FAR], flyers_pass_vehicles=False)
    assert not any(m.split()[1:3] == ["fly", "S"] for m in legal(state))
    with pytest.raises(IllegalAction, match="the way is blocked: the Light Tank on K11"):
        state.act("1", "K10 fly S 3")


def test_r3_a_setup_may_place_a_flyer_on_a_regular_obstacle() -> None:
    """Flyers may stop over regular obstacles in play, so a set-up may put one there;
    a ground vehicle there is refused."""
    state = arena(["1 MQ K10 -", "1 INV L10 -", FAR], obstacles="K10 L10")
    assert where(state)["K10"] == "1 MQ None" and where(state)["L10"] == "1 INV None"
    state.act("1", "K10 fly S 1")
    assert where(state)["K11"] == "1 MQ None"
    assert "K10" in state.view(None)["obstacles"]


# ----- R33: the Inverter's field is the turn's attack -----------------------------------

#: the Inverter on K10 above an enemy heavy tank (K11) and Mosquito (K12); an enemy
#: light tank on K16 in front of a seat-1 heavy tank on K20 (4 spaces, gun 5 > armour 2)
FIELD = ["1 INV K10 -", "2 HT2 K11 N", "2 MQ K12 -", "2 LT K16 S", "1 HT2 K20 N", FAR]


def test_r33_the_inverters_field_destroys_one_vehicle_as_the_turns_attack() -> None:
    """'only one attack can be made per turn': flying S 3 the field destroys the heavy
    tank on K11 (no die: none is forced), then passes over the Mosquito on K12; the turn's
    attack is spent, so the heavy tank on K20 may no longer fire at K16."""
    state = arena(FIELD)
    assert "fire K20 at K16" in fires(state)
    state.rng.force([])
    events = [e.text for e in state.act("1", "K10 fly S 3")]
    assert "1: the Inverter disintegrates the HT2 on K11" in events
    assert where(state)["K13"] == "1 INV None" and "K11" not in where(state)
    assert where(state)["K12"] == "2 MQ None"
    assert state.attacked and fires(state) == set()
    with pytest.raises(IllegalAction, match="one attack a turn"):
        state.act("1", "fire K20 at K16")


def test_r33_after_an_attack_the_inverter_destroys_nothing() -> None:
    """The heavy tank fires first (5 against the light tank's front 2): the Inverter
    then flies over both enemies on K11 and K12 and destroys neither; it may not stop
    on either."""
    state = arena(FIELD)
    state.act("1", "fire K20 at K16")
    assert "K16" not in where(state)
    assert "K10 fly S 1" not in legal(state) and "K10 fly S 3" in legal(state)
    state.act("1", "K10 fly S 3")
    assert where(state)["K11"] == "2 HT2 N" and where(state)["K12"] == "2 MQ None"


def test_r33_the_field_destroys_a_mosquito_without_a_roll() -> None:
    """'without having to roll a die': no die is forced, the Mosquito is gone."""
    state = arena(["1 INV K10 -", "2 MQ K11 -", FAR])
    state.rng.force([])
    state.act("1", "K10 fly S 2")
    assert "K11" not in where(state) and where(state)["K12"] == "1 INV None"


def test_r33_option_the_field_destroys_every_enemy_and_another_gun_may_fire() -> None:
    """Under ``inverter_field_is_attack=false`` (before version 3) the field destroys
    both enemies and the heavy tank may still fire at K16."""
    state = arena(FIELD, inverter_field_is_attack=False)
    state.act("1", "K10 fly S 3")
    assert "K11" not in where(state) and "K12" not in where(state)
    assert "fire K20 at K16" in fires(state)
    state.act("1", "fire K20 at K16")
    assert "K16" not in where(state)


# ----- R16: the Mosquito's Air-To-Surface gun ---------------------------------------------


def test_r16_a_lone_mosquito_attacks_a_scout_not_a_mosquito() -> None:
    """The gun 'either target[s] a Scout or add[s] to another vehicles attack': the
    Mosquito on K10 may attack the Scout on N13 (d6 3 at 3 spaces destroys it) but not
    the Mosquito on K13, and the refusal says so."""
    state = arena(["1 MQ K10 -", "2 MQ K13 -", "2 SC N13 N", FAR])
    assert fires(state) == {"fire K10 at N13"}
    with pytest.raises(IllegalAction, match="alone, a Mosquito attacks only Scouts"):
        state.act("1", "fire K10 at K13")
    state.rng.force([3])
    state.act("1", "fire K10 at N13")
    assert "N13" not in where(state)


def test_r16_option_mosquito_attacks_mosquitos() -> None:
    """Under ``mosquito_attacks_mosquitos`` (before version 3) it may: d6 3 at 3 spaces."""
    state = arena(["1 MQ K10 -", "2 MQ N13 -", FAR], mosquito_attacks_mosquitos=True)
    assert fires(state) == {"fire K10 at N13"}
    state.rng.force([3])
    state.act("1", "fire K10 at N13")
    assert "N13" not in where(state)


# ----- R11, R32: the Scout's free turns ---------------------------------------------------


def test_r32_a_free_scout_turn_alone_is_not_a_move_unless_the_option_says_so() -> None:
    """Ours (R32): after a free turn the move still needs a point, so neither 'end' nor
    an attack may follow yet (R21). Under ``scout_free_turn_is_a_move`` the free turn is
    the move: 'end' closes it, and the heavy tank on K16 may fire at the light tank on
    K12 (gun 5 against front armour 2), which ends the turn."""
    layout = ["1 SC A1 S", "1 HT2 K16 N", "2 LT K12 S", FAR]
    state = arena(layout)
    state.act("1", "A1 turn l90")
    assert "end" not in legal(state) and fires(state) == set()
    state = arena(layout, scout_free_turn_is_a_move=True)
    state.act("1", "A1 turn l90")
    assert where(state)["A1"] == "1 SC E" and state.spent == 0
    assert "end" in legal(state) and fires(state) == {"fire K16 at K12"}
    state.act("1", "fire K16 at K12")
    assert "K12" not in where(state) and state.to_move == "2"


def test_r11_option_scout_free_turns_false_every_turn_costs_a_point() -> None:
    """Ours (R11): two free turns never follow each other. The table's reading, 'turn
    either 45 or 90 degrees per point', is the option ``scout_free_turns=false``: each
    turn costs a point, so two in a row are fine and the first is already the move."""
    state = arena(["1 SC K10 S", FAR])
    state.act("1", "K10 turn l45")
    assert "K10 turn l45" not in legal(state)
    state = arena(["1 SC K10 S", FAR], scout_free_turns=False)
    state.act("1", "K10 turn l45")
    assert "K10 turn l45" in legal(state) and "end" in legal(state)
    state.act("1", "K10 turn l45")
    assert state.spent == 2 and where(state)["K10"] == "1 SC E"


def test_r3_setup_parse_names_a_ground_vehicle_on_an_obstacle() -> None:
    from eg_helpers import setup_text

    with pytest.raises(Exception, match="line 24: the LT on K10 stands on an obstacle"):
        parse_setup(setup_text(["1 LT K10 S", FAR], obstacles="K10"))

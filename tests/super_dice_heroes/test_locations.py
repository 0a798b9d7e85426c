"""Each location's rules on the standard sheet (rulebook: Each Location Explained),
robot minions and bystanders. Exact honor after forced dice."""

from __future__ import annotations

import pytest
from sdh_helpers import acts, hero, legal, place, preset, start

from gladiatorium.core import IllegalAction
from gladiatorium.games.super_dice_heroes.actions import Defeat


def helps(state: object, seat: str = "1") -> set[str]:
    return {a for a in legal(state, seat) if a.startswith("help")}  # type: ignore[arg-type]


# ----- 1 City Hall -----------------------------------------------------------------
def test_city_hall_marks_an_x_on_a_matching_1_2_or_3_in_any_order() -> None:
    """City Hall: mark an X for a matching die (1, 2 or 3) in any order."""
    state = start(rolls=[(1, 3, 5, 6)])
    place(state, 1)
    # standard grid: 1 3 2 / 3 2 1 / 2 1 3
    assert helps(state) == {
        "help 1 at 1",
        "help 1 at 6",
        "help 1 at 8",
        "help 3 at 2",
        "help 3 at 4",
        "help 3 at 9",
    }
    acts(state, "help 3 at 9", "help 1 at 1")
    assert hero(state).marks[0] == (1, 0, 0, 0, 0, 0, 0, 0, 3)


def test_city_hall_row_and_column_each_earn_4_honor() -> None:
    """City Hall: earn 4 honor for each row and/or column completed."""
    state = start(rolls=[(1, 3, 2, 3)])
    place(state, 1)
    preset(state, 1, (0, 0, 0, 1, 0, 0, 1, 0, 0))
    acts(state, "help 1 at 1")
    assert hero(state).score(state.sheet) == 4  # left column (1, 4, 7)
    acts(state, "help 3 at 2", "help 2 at 3")
    assert hero(state).score(state.sheet) == 8  # and the top row


def test_city_hall_diagonal_earns_a_wild_die() -> None:
    """City Hall: when the 1, 2 and 3 are marked off diagonally, earn a wild die."""
    state = start(rolls=[(1, 2, 3, 6)])
    place(state, 1)
    acts(state, "help 1 at 1", "help 2 at 5")
    assert hero(state).wild_earned == 0
    acts(state, "help 3 at 9")
    assert hero(state).wild_earned == 1 and hero(state).score(state.sheet) == 0


def test_city_hall_all_nine_rescue_a_bystander() -> None:
    """City Hall: all nine spaces marked rescue a bystander (5 honor); 3 rows + 3
    columns are 24 honor."""
    state = start(rolls=[(1, 1, 1, 2), (2, 2, 3, 3), (3, 6, 6, 6)])
    place(state, 1)
    acts(state, "help 1 at 1", "help 1 at 6", "help 1 at 8", "help 2 at 3", "done")
    acts(state, "help 2 at 5", "help 2 at 7", "help 3 at 2", "help 3 at 4", "done")
    assert hero(state).bystanders == 0
    acts(state, "help 3 at 9")
    assert hero(state).bystanders == 1 and hero(state).wild_earned == 1
    assert hero(state).score(state.sheet) == 24 + 5


# ----- 2 Hospital ------------------------------------------------------------------
def test_hospital_pairs_of_the_same_number_in_any_order() -> None:
    """Hospital: same-number pairs; start a new pair before completing others; the
    same number may make several pairs; no order."""
    state = start(rolls=[(4, 4, 4, 2), (4, 1, 1, 1)])
    place(state, 2)
    acts(state, "help 4 at 7")  # start pair 4 (boxes 7-8)
    assert "help 4 at 8" in helps(state) and "help 2 at 8" not in helps(state)
    acts(state, "help 2 at 1")  # start pair 1 with a 2 before finishing pair 4
    acts(state, "help 4 at 8")  # pair 4 done: 4 honor
    assert hero(state).score(state.sheet) == 4
    acts(state, "help 4 at 3", "done")  # another pair of 4s
    acts(state, "help 4 at 4")
    assert hero(state).score(state.sheet) == 4 + 3
    assert "help 1 at 2" not in helps(state)  # pair 1 holds a 2


def test_hospital_pair_rewards_wild_die_and_bystander() -> None:
    """Hospital (sheet S3): pair 3 earns a wild die, pair 6 rescues a bystander."""
    state = start(rolls=[(5, 5, 6, 6)])
    place(state, 2)
    acts(state, "help 5 at 5", "help 5 at 6", "help 6 at 11", "help 6 at 12")
    assert hero(state).wild_earned == 1 and hero(state).bystanders == 1
    assert hero(state).score(state.sheet) == 5


# ----- 3 Downtown ------------------------------------------------------------------
def test_downtown_one_number_for_the_whole_run_from_the_bottom_up() -> None:
    """Downtown: any number to start, then the same number for the rest of the game,
    starting at the bottom and going up."""
    state = start(rolls=[(2, 5, 5, 6), (5, 2, 2, 2)])
    place(state, 3)
    assert helps(state) == {"help 2 at 1", "help 5 at 1", "help 6 at 1"}
    acts(state, "help 5 at 1")
    assert helps(state) == {"help 5 at 2"}
    acts(state, "help 5 at 2", "done", "help 5 at 3")
    assert helps(state) == set()
    assert hero(state).marks[2][:4] == (5, 5, 5, 0)
    assert hero(state).score(state.sheet) == 4 and hero(state).wild_earned == 1


def test_downtown_bystander_box_and_top_box() -> None:
    """Downtown (sheet S4): box 6 rescues a bystander; box 8 pays 8 honor."""
    state = start(rolls=[(3, 3, 3, 1)])
    place(state, 3)
    preset(state, 3, (3, 3, 3, 3, 3, 0, 0, 0))
    acts(state, "help 3 at 6", "help 3 at 7", "help 3 at 8")
    assert hero(state).bystanders == 1
    assert hero(state).score(state.sheet) == 5 + 6 + 8


# ----- 4 Powerplant ----------------------------------------------------------------
def test_powerplant_next_number_exactly_one_higher_or_lower() -> None:
    """Powerplant: leftmost first, any number; then exactly one higher or lower,
    never the same; after a 6 only a 5."""
    state = start(rolls=[(5, 6, 6, 4), (4, 5, 6, 1)])
    place(state, 4)
    acts(state, "help 5 at 1")
    assert helps(state) == {"help 6 at 2", "help 4 at 2"}
    acts(state, "help 6 at 2")
    assert helps(state) == set()  # the other 6 is the same number; no 5 left
    assert hero(state).score(state.sheet) == 4
    acts(state, "done")  # next round: 4 5 6 1; after the 6 only the 5 fits
    assert helps(state) == {"help 5 at 3"}
    acts(state, "help 5 at 3")
    assert helps(state) == {"help 4 at 4", "help 6 at 4"}
    assert hero(state).score(state.sheet) == 2 + 2 + 3


# ----- 5 Warehouse -----------------------------------------------------------------
def test_warehouse_next_number_equal_or_higher() -> None:
    """Warehouse: leftmost first, any number; the next is equal to or higher."""
    state = start(rolls=[(2, 4, 2, 1)])
    place(state, 5)
    acts(state, "help 2 at 1")
    assert helps(state) == {"help 2 at 2", "help 4 at 2"}
    acts(state, "help 4 at 2")
    assert helps(state) == set()
    with pytest.raises(IllegalAction):
        state.act("1", "help 2 at 3")
    assert hero(state).marks[4][:3] == (2, 4, 0)


# ----- 6 Church --------------------------------------------------------------------
def test_church_column_1_to_6_earns_15_honor() -> None:
    """Church: mark an X for a matching die, any order; a complete column gains 15."""
    state = start(rolls=[(6, 6, 1, 1)])
    place(state, 6)
    assert helps(state) == {"help 1 at 1", "help 1 at 12", "help 6 at 2", "help 6 at 11"}
    preset(state, 6, (1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 0, 0))
    acts(state, "help 6 at 11")
    assert hero(state).score(state.sheet) == 15


def test_church_top_six_wild_die_bottom_six_bystander() -> None:
    """Church: completing the top six earns a wild die, the bottom six a bystander."""
    state = start(rolls=[(4, 4, 1, 1)])
    place(state, 6)
    preset(state, 6, (1, 6, 2, 5, 3, 0, 0, 3, 5, 2, 6, 1))
    acts(state, "help 4 at 6")
    assert hero(state).wild_earned == 1
    acts(state, "help 4 at 7")
    assert hero(state).bystanders == 1
    assert hero(state).score(state.sheet) == 15 + 15 + 5


# ----- robot minions ---------------------------------------------------------------
def test_three_robot_minions_per_location_any_die_1_honor_each() -> None:
    """Robot Minions: each location has three; any number defeats one; 1 honor each."""
    state = start(rolls=[(6, 5, 4, 2), (1, 1, 1, 1)])
    place(state, 1)
    acts(state, "defeat minion with 6", "defeat minion with 5", "defeat minion with 4")
    assert "defeat minion with 2" not in legal(state)
    assert hero(state).minions[0] == 3 and hero(state).score(state.sheet) == 3
    acts(state, "move 2 with 2", "done", "defeat minion with 1")
    assert hero(state).minions[1] == 1 and hero(state).score(state.sheet) == 4


def test_minions_take_any_die_even_one_that_could_help_by_default() -> None:
    """Robot Minions (ruling R18): 'a last resort' is advice; by default any die may
    defeat a minion, also one that could fill a box."""
    state = start(rolls=[(1, 5, 5, 5)])
    place(state, 1)
    assert {"help 1 at 1", "defeat minion with 1", "defeat minion with 5"} <= legal(state)
    acts(state, "defeat minion with 1")
    assert hero(state).minions[0] == 1 and hero(state).marks[0] == (0,) * 9


def test_minions_as_a_last_resort_with_the_option() -> None:
    """Option minions_last_resort (R18): a minion only with a die that can fill no box
    here; a wild die only once no box here can be filled at all."""
    state = start(rolls=[(1, 5, 5, 5)], minions_last_resort=True)
    place(state, 1)
    hero(state).wild_earned = 1
    assert "defeat minion with 5" in legal(state)
    assert "defeat minion with 1" not in legal(state)
    assert "wild defeat minion" not in legal(state)
    with pytest.raises(IllegalAction, match="minions are a last resort"):
        state.apply("1", Defeat(1))
    preset(state, 1, (1, 3, 2, 3, 2, 1, 2, 1, 3))  # every box marked
    assert {"defeat minion with 1", "wild defeat minion"} <= legal(state)

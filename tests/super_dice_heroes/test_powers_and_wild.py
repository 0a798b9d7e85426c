"""Superpowers (rulebook: Superpowers explained) and wild dice (Using Wild Dice)."""

from __future__ import annotations

import pytest
from sdh_helpers import acts, hero, legal, place, start

from gladiatorium.core import IllegalAction


def test_shrink_changes_any_die_to_a_1() -> None:
    """1 Shrink: change any die to a 1."""
    state = start(("shrink",), rolls=[(5, 6, 1, 4)])
    assert {a for a in legal(state) if a.startswith("shrink")} == {
        "shrink 4",
        "shrink 5",
        "shrink 6",
    }
    acts(state, "shrink 6")
    assert hero(state).unspent() == [1, 4, 5] and hero(state).powers_left == 2


def test_teleport_uses_any_die_to_travel_anywhere() -> None:
    """2 Teleport: use a die to travel to any location."""
    state = start(("teleport",), rolls=[(5, 5, 5, 5)])
    acts(state, "teleport 3 with 5")
    assert hero(state).location == 3 and hero(state).unspent() == [5]
    assert "teleport 3 with 5" not in legal(state)  # already there
    assert hero(state).powers_left == 2


def test_ice_decreases_a_die_by_one_but_not_a_1() -> None:
    """3 Ice: decrease a die by one; 1s cannot be changed."""
    state = start(("ice",), rolls=[(1, 4, 4, 2)])
    assert {a for a in legal(state) if a.startswith("ice")} == {"ice 4", "ice 2"}
    acts(state, "ice 4")
    assert hero(state).unspent() == [1, 2, 3, 4]
    with pytest.raises(IllegalAction):
        state.act("1", "ice 1")


def test_fire_increases_a_die_by_one_but_not_a_6() -> None:
    """4 Fire: increase a die by one; 6s cannot be changed."""
    state = start(("fire",), rolls=[(6, 3, 1, 6)])
    assert {a for a in legal(state) if a.startswith("fire")} == {"fire 3", "fire 1"}
    acts(state, "fire 1")
    assert hero(state).unspent() == [2, 3, 6]


def test_shapeshift_copies_another_die_rolled_this_round() -> None:
    """5 Shapeshift: change one die to the number of another die rolled this round."""
    state = start(("shapeshift",), rolls=[(2, 2, 5, 6)])
    assert {a for a in legal(state) if a.startswith("shapeshift")} == {
        "shapeshift 2 to 5",
        "shapeshift 2 to 6",
        "shapeshift 5 to 2",
        "shapeshift 5 to 6",
        "shapeshift 6 to 2",
        "shapeshift 6 to 5",
    }
    acts(state, "move 6 with 6")  # a spent die's number still counts as rolled
    acts(state, "shapeshift 2 to 6")
    assert hero(state).unspent() == [2, 5, 6]


def test_shapeshift_never_changes_a_wild_die() -> None:
    """5 Shapeshift: you may not shapeshift a wild die (wild dice are not rolled,
    and no power acts on them: ruling R9)."""
    state = start(("shapeshift",), rolls=[(2, 5, 6, 6)])
    hero(state).wild_earned = 1
    acts(state, "move 2 with 2", "move 5 with 5", "move 6 with 6", "defeat minion with 6")
    assert hero(state).unspent() == [] and hero(state).wild_left == 1
    assert "wild help 4 at 6" in legal(state)  # the wild die is there to spend ...
    assert not any(a.startswith("shapeshift") for a in legal(state))  # ... not to shift
    assert hero(state).powers_left == 3


def test_grow_changes_any_die_to_a_6() -> None:
    """6 Grow: change any die to a 6."""
    state = start(("grow",), rolls=[(2, 6, 6, 6)])
    assert {a for a in legal(state) if a.startswith("grow")} == {"grow 2"}
    acts(state, "grow 2")
    assert hero(state).unspent() == [6]


def test_superpower_three_times_a_game_several_in_one_round() -> None:
    """Using your Superpower: three uses a game, at any time, even several a round."""
    state = start(("grow",), rolls=[(1, 2, 3, 4), (1, 1, 1, 1)])
    acts(state, "grow 1", "grow 2", "grow 3")
    assert hero(state).powers_left == 0
    assert not any(a.startswith("grow") for a in legal(state))
    acts(state, "done")
    assert not any(a.startswith("grow") for a in legal(state))


def test_a_changed_die_moves_and_helps_by_its_new_number() -> None:
    """Superpowers change the die that is then spent: a grown 6 moves to the Church."""
    state = start(("grow",), rolls=[(2, 6, 3, 3)])
    acts(state, "grow 2", "move 6 with 6", "help 6 at 2")
    assert hero(state).location == 6 and hero(state).marks[5][1] == 6


def test_wild_die_spent_the_moment_it_is_earned() -> None:
    """Using Wild Dice: a wild die is any number, usable immediately after gaining
    it, for moving or helping."""
    state = start(rolls=[(1, 2, 3, 6)])
    place(state, 1)
    acts(state, "help 1 at 1", "help 2 at 5", "help 3 at 9")
    assert hero(state).wild_left == 1
    assert "wild help 3 at 2" in legal(state) and "wild move 4" in legal(state)
    acts(state, "wild help 3 at 2")
    assert hero(state).wild_left == 0 and hero(state).wild_spent == 1
    assert not any(a.startswith("wild") for a in legal(state))


def test_wild_dice_kept_for_later_rounds_several_in_a_round() -> None:
    """Using Wild Dice: spend any time, several in a round; unspent ones keep."""
    state = start(rolls=[(6, 6, 6, 6), (6, 6, 6, 6)])
    hero(state).wild_earned = 3
    acts(state, "done", "wild move 4", "wild help 3 at 1", "wild defeat minion")
    assert hero(state).location == 4 and hero(state).marks[3][0] == 3
    assert hero(state).minions[3] == 1 and hero(state).wild_left == 0

"""Set-up, the shared roll, simultaneous rounds and moving (rulebook: Setup, Gameplay)."""

from __future__ import annotations

import pytest
from sdh_helpers import acts, hero, legal, place, start

from gladiatorium.core import IllegalAction, NotYourTurn, Rng
from gladiatorium.games.super_dice_heroes import GAME, SuperDiceHeroesState
from gladiatorium.games.super_dice_heroes.actions import Done
from gladiatorium.games.super_dice_heroes.hero import MIDDLE
from gladiatorium.games.super_dice_heroes.state import SETUP, roll_power_choices


def test_setup_rolls_two_superpowers_rerolling_doubles() -> None:
    """Setup: roll 2d6 for two superpower choices, reroll until the numbers differ."""
    assert roll_power_choices(Rng.forced([3, 3, 6, 6, 2, 5])) == ("teleport", "shapeshift")


def test_setup_doubles_kept_when_the_reroll_option_is_off() -> None:
    """Option reroll_power_doubles=false keeps a double (one power to choose)."""
    assert roll_power_choices(Rng.forced([4, 4]), reroll_doubles=False) == ("fire", "fire")


def test_setup_choose_one_of_the_two_rolled_powers() -> None:
    """Setup: choose one superpower of the two rolled; different players may differ."""
    state = SuperDiceHeroesState(
        GAME.make_options({}), 2, 0, rng=Rng.forced([1, 6, 3, 4, 2, 2, 2, 2])
    )
    assert state.round == SETUP and set(state.awaiting()) == {"1", "2"}
    assert legal(state, "1") == {"choose shrink", "choose grow"}
    with pytest.raises(IllegalAction):
        state.act("1", "choose ice")
    state.act("1", "choose grow")
    assert state.awaiting() == ("2",)
    state.act("2", "choose ice")
    assert hero(state, "1").power == "grow" and hero(state, "2").power == "ice"
    assert state.round == 1 and state.roll == [2, 2, 2, 2]


def test_setup_names_the_hero_and_starts_in_the_middle() -> None:
    """Setup: name your superhero; the token starts in the middle circle."""
    state = start(("grow", "ice"), hero_names=("Blaze",))
    assert hero(state, "1").name == "Blaze" and hero(state, "2").name == "Hero 2"
    assert hero(state).location == MIDDLE and hero(state).powers_left == 3


def test_the_middle_offers_no_help_only_moves_to_the_dice_locations() -> None:
    """Move: go to the location matching the die; nobody helps in the middle circle."""
    state = start(rolls=[(2, 2, 5, 6)])
    moves = {a for a in legal(state) if a.startswith("move")}
    assert moves == {"move 2 with 2", "move 5 with 5", "move 6 with 6"}
    assert not any(a.startswith(("help", "defeat")) for a in legal(state))


def test_a_die_matching_where_you_stand_moves_you_anywhere() -> None:
    """Move: a die that matches the current location moves the hero to any location."""
    state = start(rolls=[(3, 5, 6, 6)])
    place(state, 3)
    moves = {a for a in legal(state) if a.startswith("move")}
    assert moves == {f"move {n} with 3" for n in (1, 2, 4, 5, 6)} | {
        "move 5 with 5",
        "move 6 with 6",
    }
    acts(state, "move 1 with 3")
    assert hero(state).location == 1
    assert "move 1 with 5" not in legal(state)


def test_ten_rounds_one_shared_roll_for_every_player() -> None:
    """Gameplay: ten rounds; every player spends the same four dice, simultaneously."""
    rolls = [(r % 6 + 1, 1, 2, 3) for r in range(10)]
    state = start(("grow", "shrink", "ice"), rolls=rolls)
    for round_ in range(1, 11):
        assert state.round == round_ and state.roll == list(rolls[round_ - 1])
        assert all(hero(state, s).unspent() == sorted(set(rolls[round_ - 1])) for s in state.seats)
        assert set(state.awaiting()) == {"1", "2", "3"}
        state.act("2", "done")
        state.act("1", f"move {rolls[round_ - 1][0]} with {rolls[round_ - 1][0]}")
        assert state.round == round_, "the round resolves only when everyone is done"
        with pytest.raises(NotYourTurn):
            state.act("2", "done")
        state.act("3", "done")
        state.act("1", "done")
    assert state.is_over and state.outcome() is not None


def test_r6_house_rule_may_waste_dice_loses_the_dice_left_at_done() -> None:
    """Gameplay: each die is spent once; option may_waste_dice (ruling R6): dice left
    at 'done' are lost."""
    state = start(rolls=[(2, 4, 4, 6), (1, 1, 1, 1)])
    acts(state, "move 4 with 4")
    assert hero(state).unspent() == [2, 4, 6]
    acts(state, "move 2 with 4")
    assert hero(state).unspent() == [2, 6]
    acts(state, "done")
    assert state.round == 2 and hero(state).unspent() == [1]


def test_r6_all_four_dice_are_spent_each_round() -> None:
    """Gameplay, "Roll 4 dice and then spend those 4 dice" (ruling R6, the default):
    'done' only once no die can be spent, and a die can always pay for a move."""
    assert GAME.make_options({}).may_waste_dice is False
    state = start(rolls=[(2, 4, 4, 6), (1, 1, 1, 1)], may_waste_dice=False)
    assert "done" not in legal(state)
    with pytest.raises(IllegalAction, match="spend every die"):
        state.apply("1", Done())
    acts(state, "move 2 with 2", "move 4 with 4", "move 6 with 4", "move 1 with 6")
    assert "done" in legal(state)

"""The cheap path for bots and playouts: the legal list kept per state revision, an
action taken from it applied without a second check, counting and sampling."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gladiatorium.core import Action, IllegalAction, LegalList, Rng, Seat, get_game
from gladiatorium.games.pig import PigState
from gladiatorium.games.pig.game import Hold, Roll


class CountingPig(PigState):
    """Pig that counts how often legality is worked out."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.built = 0
        self.checked = 0

    def legal_actions(self, seat: Seat) -> list[Action]:
        self.built += 1
        return super().legal_actions(seat)

    def illegal_reason(self, seat: Seat, action: Action) -> str | None:
        self.checked += 1
        return super().illegal_reason(seat, action)


def pig() -> CountingPig:
    options = get_game("pig").make_options({"target": 10})
    return CountingPig(options, 2, 0)


def test_the_list_is_built_once_per_revision_and_equals_legal_actions() -> None:
    state = pig()
    first = state.legal_now("1")
    assert list(first) == [Roll()] and state.legal_now("1") is first
    assert state.legal_count("1") == 1 and state.built == 1
    state.rng.force([4])
    state.apply("1", first[0])
    assert state.revision == 1
    assert list(state.legal_now("1")) == [Roll(), Hold()] and state.built == 2
    assert state.legal_now("2") == () and state.legal_count("2") == 0


def test_an_action_taken_from_the_list_is_not_checked_again() -> None:
    state = pig()
    state.rng.force([4, 3])
    state.apply("1", state.legal_now("1")[0])
    assert state.checked == 0
    state.apply("1", Roll())  # equal, but not taken from the list: checked
    assert state.checked == 1 and state.turn_total == 7


def test_a_kept_list_is_not_trusted_after_a_change_or_for_another_seat() -> None:
    state = pig()
    state.rng.force([1, 5])
    roll = state.legal_now("1")[0]
    state.apply("1", roll)  # a 1: seat 2 to move
    with pytest.raises(IllegalAction):
        state.apply("2", Hold())  # nothing banked this turn: refused, nothing changes
    assert state.revision == 1 and state.checked == 1
    state.apply("2", roll)  # seat 1's object from the last revision: checked
    assert state.checked == 2 and state.turn_total == 5
    state.apply("2", state.legal_now("2")[1])  # hold, from seat 2's list: not checked
    assert state.checked == 2 and state.banked["2"] == 5


def test_copies_never_read_the_list_of_the_original() -> None:
    state = pig()
    kept = state.legal_now("1")
    for twin in (state.clone(), copy.deepcopy(state)):
        twin.turn_total = 3  # edited apart from the original: Hold is legal there
        assert list(twin.legal_now("1")) == [Roll(), Hold()]
        twin.checked = 0
        twin.apply("1", kept[0])  # not one of the copy's own objects: checked
        assert twin.checked == 1
    assert state.legal_now("1") is kept


def test_sample_legal_draws_as_a_choice_from_legal_actions() -> None:
    state = pig()
    state.rng.force([6])
    state.apply("1", Roll())
    picks = [state.sample_legal("1", Rng(seed)) for seed in range(40)]
    expected = [Rng(seed).choice(state.legal_actions("1")) for seed in range(40)]
    assert picks == expected and set(picks) == {Roll(), Hold()}


class LazyPig(CountingPig):
    """Pig whose kept list builds an action only when it is read."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.made: list[int] = []

    def _legal_list(self, seat: Seat) -> LegalList:
        actions = super().legal_actions(seat)

        def make(index: int) -> Action:
            self.made.append(index)
            return actions[index]

        return LegalList(len(actions), make)


def lazy_pig() -> LazyPig:
    state = LazyPig(get_game("pig").make_options({"target": 10}), 2, 0)
    state.rng.force([4])
    state.apply("1", Roll())
    state.checked = 0
    return state


def test_a_lazy_list_builds_only_what_is_read_and_reads_as_its_tuple() -> None:
    state = lazy_pig()
    kept = state.legal_now("1")
    assert isinstance(kept, LegalList) and len(kept) == state.legal_count("1") == 2
    assert state.made == []
    hold = kept[-1]
    assert hold == Hold() and kept[1] is hold and state.made == [1]  # built once
    assert kept == (Roll(), Hold()) and kept[:1] == (Roll(),) and state.made == [1, 0]
    assert kept != [Roll(), Hold()] and kept != (Roll(),)  # a tuple's equality
    assert list(kept) == state.legal_actions("1") and hash(kept) == hash((Roll(), Hold()))
    with pytest.raises(IndexError, match="legal action 2 of 2"):
        kept[2]


def test_a_draw_from_a_lazy_list_builds_one_action_and_is_applied_unchecked() -> None:
    state = lazy_pig()
    drawn = Rng(3).choice(state.legal_now("1"))
    assert state.made == [Rng(3).randint(0, 1)]
    assert state.sample_legal("1", Rng(3)) is drawn and len(state.made) == 1
    state.rng.force([5, 5])
    state.apply("1", drawn)
    assert state.checked == 0
    state.apply(state.awaiting()[0], Roll())  # built by hand, not by the list: checked
    assert state.checked == 1 and state.rng.forced_left == 0

"""Engine-wide policy, shown on the Pig example with forced dice."""

from __future__ import annotations

import copy
import pickle

import pytest

from gladiatorium.core import Event, GameOver, IllegalAction, NotYourTurn, OptionsError, get_game
from gladiatorium.games.pig import PigState
from gladiatorium.games.pig.game import Hold, Roll


def pig(target: int = 10) -> PigState:
    state = get_game("pig").start({"target": target}, 2, seed=0)
    assert isinstance(state, PigState)
    return state


def test_roll_adds_and_a_one_passes_the_turn() -> None:
    state = pig()
    state.rng.force([4, 1])
    state.act("1", "roll")
    assert state.turn_total == 4
    events = state.act("1", "roll")
    assert [e.text for e in events] == ["1 rolls 1"]
    assert state.banked == {"1": 0, "2": 0} and state.awaiting() == ("2",)


def test_hold_banks_and_target_wins() -> None:
    state = pig(target=10)
    state.rng.force([6, 5])
    state.act("1", "roll")
    state.act("1", "roll")
    state.act("1", "hold")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("1",) and not outcome.draw
    with pytest.raises(GameOver):
        state.apply("2", Roll())


def test_out_of_turn_and_illegal_raise_and_change_nothing() -> None:
    state = pig()
    before = state.fingerprint()
    with pytest.raises(NotYourTurn, match="seat 2 is not to act now; waiting for 1"):
        state.apply("2", Roll())
    with pytest.raises(IllegalAction, match="hold is not a legal action for seat 1"):
        state.apply("1", Hold())
    with pytest.raises(IllegalAction, match="'jump' is not a legal action for seat 1; legal: roll"):
        state.act("1", "jump")
    assert state.fingerprint() == before


def test_options_errors_name_the_option() -> None:
    with pytest.raises(OptionsError, match="target: Input should be greater than or equal to 1"):
        get_game("pig").start({"target": 0})
    with pytest.raises(OptionsError, match="colour: Extra inputs are not permitted"):
        get_game("pig").start({"colour": "red"})
    with pytest.raises(OptionsError, match="Pig takes 2 to 8 players, not 9"):
        get_game("pig").start(None, 9)


def test_clone_for_search_rolls_fresh_dice() -> None:
    state = pig()
    twin = state.clone(reseed=99)
    rolls_real = [state.rng.d(6) for _ in range(20)]
    rolls_twin = [twin.rng.d(6) for _ in range(20)]
    assert rolls_real != rolls_twin


def test_private_events_reach_only_their_seats() -> None:
    state = pig()
    state.emit("note", "for 2 only", to="2")
    assert [e.text for e in state.events_for("2")] == ["for 2 only"]
    assert state.events_for("1") == [] and state.events_for(None) == []
    state.emit("note", "for all")
    assert [state.count_events_for(s) for s in ("1", "2", None)] == [1, 2, 1]


def test_an_event_is_a_frozen_value_that_copies_and_pickles_whole() -> None:
    state = pig()
    event = state.emit("note", "for 2 only", to="2", face=3)
    assert event == Event("note", "for 2 only", {"face": 3}, frozenset({"2"}))
    assert event != Event("note", "for 2 only", {"face": 4}, frozenset({"2"}))
    assert copy.deepcopy(event) == event == pickle.loads(pickle.dumps(event))
    assert Event("note", "plain").data == {} and Event("note", "plain").to is None
    with pytest.raises(AttributeError):
        event.text = "for everyone"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del event.to  # type: ignore[misc]
    assert event.text == "for 2 only" and event.to == frozenset({"2"})
    assert repr(event) == (
        "Event(kind='note', text='for 2 only', data={'face': 3}, to=frozenset({'2'}))"
    )

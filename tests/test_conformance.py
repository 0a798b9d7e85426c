"""The contract, checked for every registered game on seeded random games."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, ClassVar, get_origin

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from contract import (
    channel_problems,
    copy_reaches,
    leaks,
    mutate_deeply,
    play_random,
    random_walk,
    sample_indices,
    twin_differences,
)
from gladiatorium.core import (
    Action,
    GameOver,
    GladiatoriumError,
    IllegalAction,
    NotYourTurn,
    Outcome,
    games,
    get_game,
)
from gladiatorium.core.record import MatchRecord, events_digest, record_of, replay, verify

SLUGS = [g.info.slug for g in games()]
SEEDS = [1, 2, 3]


@dataclass(frozen=True)
class Foreign(Action):
    """An action no game knows."""

    type_name: ClassVar[str] = "foreign-action"


@pytest.fixture(params=SLUGS)
def slug(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_game_ends_with_typed_outcome(slug: str, seed: int) -> None:
    state = play_random(get_game(slug), seed)
    outcome = state.outcome()
    assert isinstance(outcome, Outcome)
    assert set(outcome.winners) <= set(state.seats)
    assert state.awaiting() == ()
    assert all(state.legal_actions(s) == [] for s in state.seats)


def test_finished_game_refuses_actions(slug: str) -> None:
    state = play_random(get_game(slug), 4)
    before = state.fingerprint()
    with pytest.raises(GameOver):
        state.apply(state.seats[0], Foreign())
    assert state.fingerprint() == before


def test_same_seed_same_game(slug: str) -> None:
    game = get_game(slug)
    first, second = play_random(game, 7), play_random(game, 7)
    assert events_digest(first) == events_digest(second)
    assert first.fingerprint() == second.fingerprint()


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_record_json_replays_identically(slug: str, seed: int) -> None:
    game = get_game(slug)
    state = play_random(game, seed)
    text = record_of(game, state).model_dump_json()
    record = MatchRecord.model_validate_json(text)
    replayed = replay(record)
    assert verify(record, replayed) == []
    assert replayed.fingerprint() == state.fingerprint()


def test_illegal_and_out_of_turn_change_nothing(slug: str) -> None:
    game = get_game(slug)
    length = len(play_random(game, 5).history)
    checked = 0
    for index, (state, seat) in enumerate(random_walk(game, 5)):
        if index not in sample_indices(length):
            continue
        before = state.fingerprint()
        with pytest.raises(IllegalAction):
            state.apply(seat, Foreign())
        idle = [s for s in state.seats if s not in state.awaiting()]
        if idle:
            # a seat not awaited has no legal action (apply trusts its kept list)
            assert not state.legal_now(idle[0])
            with pytest.raises(NotYourTurn):
                state.apply(idle[0], state.legal_actions(seat)[0])
        with pytest.raises(IllegalAction):
            state.act(seat, "no such move at all")
        assert state.fingerprint() == before
        checked += 1
    assert checked > 0


def test_clone_equal_then_independent_both_ways(slug: str) -> None:
    """A copy equals its original; a move on either never shows in the other, at several
    points of seeded games; every field of the state says how a copy takes it."""
    game = get_game(slug)
    for seed in (6, 9):
        assert copy_reaches(game, seed) == []


def test_clone_reseeded_rolls_its_own_stream(slug: str) -> None:
    game = get_game(slug)
    length = len(play_random(game, 6).history)
    for index, (state, _) in enumerate(random_walk(game, 6)):
        if index not in sample_indices(length, 4):
            continue
        before = state.rng.generator().getstate()
        fresh = state.clone(reseed=12345)
        assert fresh.rng.seed == 12345
        assert fresh.rng is not state.rng
        fresh.rng.d(6)
        assert state.rng.generator().getstate() == before


def test_actions_round_trip_notation_and_json(slug: str) -> None:
    game = get_game(slug)
    length = len(play_random(game, 8).history)
    for index, (state, seat) in enumerate(random_walk(game, 8)):
        if index not in sample_indices(length):
            continue
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} is awaited but has no legal action"
        notations = [str(a) for a in legal]
        assert len(set(notations)) == len(notations), "two legal actions share a notation"
        for action in legal[:50]:
            assert state.parse(seat, str(action)) == action
            data = json.loads(json.dumps(action.to_json()))
            assert game.action_from_json(data) == action


def test_views_are_json(slug: str) -> None:
    game = get_game(slug)
    length = len(play_random(game, 9).history)
    for index, (state, _) in enumerate(random_walk(game, 9)):
        if index in sample_indices(length):
            for seat in (*state.seats, None):
                view = state.view(seat)
                assert json.loads(json.dumps(view)) == view


@pytest.mark.parametrize("seed", SEEDS)
def test_no_seat_sees_a_secret(slug: str, seed: int) -> None:
    game = get_game(slug)
    length = len(play_random(game, seed).history)
    for index, (state, _) in enumerate(random_walk(game, seed)):
        if index in sample_indices(length):
            assert leaks(game, state) == []
    final = play_random(game, seed)
    assert leaks(game, final) == []


@pytest.mark.parametrize("slug_name", SLUGS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    prefix=st.integers(min_value=0, max_value=60),
    seat_pick=st.integers(min_value=0, max_value=200),
    text=st.one_of(st.text(max_size=30), st.sampled_from(["", " ", "roll", "move", "help"])),
)
def test_fuzzed_input_is_refused_or_legal(
    slug_name: str, prefix: int, seat_pick: int, text: str
) -> None:
    """Random, malformed and out-of-turn input: either it is a legal action of an
    awaited seat, or it raises a clear error and changes nothing."""
    game = get_game(slug_name)
    state: Any = None
    for index, (reached, _) in enumerate(random_walk(game, 11)):
        state = reached
        if index == prefix:
            break
    assert state is not None
    seats = [*state.seats, "nobody"]
    seat = seats[seat_pick % len(seats)]
    before = state.fingerprint()
    awaited = seat in state.awaiting()
    legal_before = {str(a).lower() for a in state.legal_actions(seat)} if awaited else set()
    try:
        state.act(seat, text)
    except GladiatoriumError as err:
        assert str(err)
        assert state.fingerprint() == before
    else:
        assert " ".join(text.split()).lower() in legal_before


def test_views_are_fresh_data(slug: str) -> None:
    """Editing a returned view, however deep, changes neither the game nor any
    seat's view (a server hands views to clients that may keep and edit them)."""
    game = get_game(slug)
    length = len(play_random(game, 10).history)
    for index, (state, _) in enumerate(random_walk(game, 10)):
        if index in sample_indices(length, 6):
            before = frozen(state.fingerprint())
            for seat in (*state.seats, None):
                mutate_deeply(state.view(seat))
            assert frozen(state.fingerprint()) == before


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_views_made_from_the_shared_part_are_the_whole_views(slug: str, seed: int) -> None:
    """Every seat's view made from the part all seats share (``Game.shared_view``,
    built once per state) and its own (``Game.seat_view``) is, key order included, the
    view ``view(seat)`` builds whole, which the leak and twin tests check: at every
    step of a seeded game where the game shares a part, else at samples. Making the
    views leaves the shared part as it was."""
    game = get_game(slug)
    length = len(play_random(game, seed).history)
    compared = 0
    for index, (state, _) in enumerate(random_walk(game, seed)):
        shared = game.shared_view(state)
        if shared is None and index not in sample_indices(length, 4):
            continue
        before = json.dumps(shared)
        for seat in (*state.seats, None):
            made = game.seat_view(state, seat, shared)
            assert json.dumps(made) == json.dumps(state.view(seat)), (index, seat)
            compared += shared is not None
        assert json.dumps(shared) == before
    assert compared > 0 or slug not in ("super-dice-heroes", "hero-battle")


def test_a_legal_form_stands_for_the_legal_list(slug: str) -> None:
    """A game's compact form of a seat's legal actions (``Game.legal_form``) stands for
    exactly the actions of its legal list (each once) where the list is whole, as Hero
    Battle's is with 8 players (a big Battle's list is a sample of what its form says:
    ``tests/hero_battle/test_legal_form.py``)."""
    game = get_game(slug)
    formed = 0
    for state, _ in random_walk(game, 4):
        for seat in state.awaiting():
            form = game.legal_form(state, seat)
            if form is None:
                continue
            made = list(form.actions())
            assert len(made) == len(set(made))
            assert sorted(made) == sorted(str(a) for a in state.legal_actions(seat))
            formed += 1
    assert formed > 0 or slug != "hero-battle"


def frozen(fingerprint: dict[str, Any]) -> str:
    """A fingerprint as text: a later edit of a shared object cannot reach it."""
    return json.dumps(fingerprint, default=str, sort_keys=True)


HIDDEN = [g.info.slug for g in games() if g.info.hidden_information]


@pytest.mark.parametrize("hidden_slug", HIDDEN)
@pytest.mark.parametrize("seed", SEEDS[:2])
def test_no_seat_tells_worlds_apart_that_differ_in_a_secret(hidden_slug: str, seed: int) -> None:
    """For every game with hidden information: a seat receives the same view, events,
    rendering, legal actions in the same order, the same refusals and the same bot
    choices from two worlds that differ only in what it may not know."""
    game = get_game(hidden_slug)
    length = len(play_random(game, seed).history)
    compared = 0
    for index, (state, _) in enumerate(random_walk(game, seed)):
        if index not in sample_indices(length, 5):
            continue
        for seat in (*state.seats, None):
            twin = game.secret_twin(state, seat)
            if twin is None:
                continue
            assert twin.fingerprint() != state.fingerprint(), "the twin holds the same secrets"
            assert twin_differences(game, state, twin, seat) == []
            compared += 1
    assert compared > 0, f"{hidden_slug} has hidden information but no secret_twin"


def test_channels_follow_the_rules(slug: str) -> None:
    """Every game's talk channels, while the match runs and once it is over: ``all``
    first, no name twice, spectators never in a seat's channel, players never in
    spectators' talk while the match runs, a team channel read by one whole side, a
    private channel by its two seats."""
    game = get_game(slug)
    length = len(play_random(game, 4).history)
    for index, (state, _) in enumerate(random_walk(game, 4)):
        if index in sample_indices(length, 3):
            assert channel_problems(game, state, over=False) == []
            assert channel_problems(game, state, over=True) == []


def unbounded_options(options_type: type[BaseModel]) -> list[str]:
    """Fields of an options model with no upper bound: a number without ``le``/``lt``, a
    text or a collection without ``max_length`` (every value a user can set is bounded)."""
    found = []
    for name, field in options_type.model_fields.items():
        limits = {type(m).__name__ for m in field.metadata}
        kind = get_origin(field.annotation) or field.annotation
        if kind is int and not limits & {"Le", "Lt"}:
            found.append(f"{name}: a number without le/lt")
        if kind in (str, tuple, list, dict) and "MaxLen" not in limits:
            found.append(f"{name}: no max_length")
    return found


def test_every_option_is_bounded(slug: str) -> None:
    """A huge option (attack_bonus_dice=1000000000, a map of 200,000 rows) is refused
    by the options model instead of hanging the game."""
    assert unbounded_options(get_game(slug).options_type) == []

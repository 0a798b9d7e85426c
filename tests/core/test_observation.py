"""Bots are handed an Observation: the seat's picture and full states consistent with
it, never the live match."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from contract import attributes_of, quick_bots, random_walk, sample_indices, world_text
from gladiatorium.core import (
    Observation,
    Rng,
    UnknownGame,
    games,
    get_bot,
    get_game,
    standing,
)

HIDDEN = [g.info.slug for g in games() if g.info.hidden_information]
OPEN = [g.info.slug for g in games() if not g.info.hidden_information]


def secrets_text(world: Any, seat: str) -> str:
    """The facts of ``world`` hidden from ``seat``, as one text."""
    return json.dumps(sorted(world.secrets_for(seat)))


@pytest.mark.parametrize("slug", HIDDEN)
def test_a_bot_chooses_the_same_whatever_the_secrets_of_other_seats(slug: str) -> None:
    """Two matches that differ only in what a seat may not know (``secret_twin``) give
    its bots the same observation, worlds and samples, so every bot of the game chooses
    the same action in both."""
    game = get_game(slug)
    compared = 0
    for state, seat in random_walk(game, 11):
        if compared == 8:
            break
        twin = game.secret_twin(state, seat)
        if twin is None:
            continue
        here, there = Observation(game, state, seat), Observation(game, twin, seat)
        assert here.view == there.view and here.legal_actions == there.legal_actions
        assert world_text(here.world()) == world_text(there.world())
        assert world_text(here.determinize(Rng(5))) == world_text(there.determinize(Rng(5)))
        for name, factory in quick_bots(game).items():
            assert factory(Rng(3)).choose(here) == factory(Rng(3)).choose(there), name
        compared += 1
    assert compared == 8


@pytest.mark.parametrize("slug", HIDDEN)
def test_samples_do_not_copy_the_true_secrets(slug: str) -> None:
    """The sampler makes the secrets up: along a match its states hold other secrets
    than the true ones (Super Dice Heroes takes the round's choices back, the others
    draw them), the same stream giving the same state."""
    game = get_game(slug)
    differ = 0
    length = sum(1 for _ in random_walk(game, 4))
    for index, (state, seat) in enumerate(random_walk(game, 4)):
        if index not in sample_indices(length, 8):
            continue
        observation = Observation(game, state, seat)
        one, again = observation.determinize(Rng(1)), observation.determinize(Rng(1))
        assert world_text(one) == world_text(again)
        assert one.view(seat) == state.view(seat)
        drawn = {secrets_text(observation.determinize(Rng(k)), seat) for k in range(4)}
        differ += drawn != {secrets_text(state, seat)}
    assert differ >= 2


@pytest.mark.parametrize("slug", OPEN)
def test_with_nothing_hidden_the_world_is_the_match_with_fresh_dice(slug: str) -> None:
    game = get_game(slug)
    for index, (state, seat) in enumerate(random_walk(game, 2)):
        if index % 9:
            continue
        observation = Observation(game, state, seat)
        world = observation.world()
        assert world is not state and world.seed != state.seed
        assert world.rng.generator().getstate() != state.rng.generator().getstate()
        assert {s: world.view(s) for s in state.seats} == {s: state.view(s) for s in state.seats}
        assert list(world.legal_actions(seat)) == list(observation.legal_actions)
        assert [str(a) for _, a in world.history] == [str(a) for _, a in state.history]
        if index > 60:
            break


def test_an_observation_keeps_no_reference_to_the_match() -> None:
    game = get_game("hero-battle")
    state = game.start(None, None, 3)
    seat = state.awaiting()[0]
    observation = Observation(game, state, seat)
    assert all(value is not state for value in attributes_of(observation).values())
    before = state.fingerprint()
    world = observation.determinize(Rng(1))
    world.apply(seat, world.legal_actions(seat)[-1])
    assert state.fingerprint() == before
    assert observation.world().events == state.events_for(seat)


def test_standing_is_a_logistic_of_the_lead_over_the_best_other_seat() -> None:
    values = standing({"1": 10.0, "2": 4.0, "3": 10.0}, 3.0)
    assert values["1"] == values["3"] == 0.5
    assert abs(values["2"] - 1 / (1 + math.exp(2))) < 1e-12


@pytest.mark.parametrize("slug", [g.info.slug for g in games()])
def test_every_game_scores_a_fresh_match_even_for_every_seat(slug: str) -> None:
    game = get_game(slug)
    values = game.evaluate(game.start(None, None, 1))
    players = [s for s in values if s != "moderator"]
    assert len({round(values[s], 9) for s in players}) == 1


def test_a_bot_takes_settings_after_its_name_and_refuses_unknown_ones() -> None:
    game = get_game("pig")
    factory = get_bot(game, "random")
    assert factory is get_bot(game, "random")
    with pytest.raises(UnknownGame, match="no setting 'depth'"):
        get_bot(game, "random:depth=3")
    with pytest.raises(UnknownGame, match="no bot 'rando'"):
        get_bot(game, "rando:depth=3")


def test_a_match_finds_its_game_even_when_no_game_is_registered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gladiatorium.core import registry

    state = get_game("pig").start(None, None, 1)
    monkeypatch.setattr(registry, "_GAMES", {})
    assert registry.game_of(state).info.slug == "pig"


def test_a_written_position_does_not_reach_a_bot() -> None:
    """A Hero Battle taken over from a written position: the text names every player's
    hero, so neither the observation's options nor its worlds carry it."""
    from importlib import resources

    game = get_game("hero-battle")
    shipped = resources.files("gladiatorium.games.hero_battle") / "data" / "positions"
    text = (shipped / "takeover.yaml").read_text(encoding="utf-8")
    state = game.start(None, None, 3, text, "takeover.yaml")
    assert state.options.position and state.position
    seat = state.awaiting()[0]
    observation = Observation(game, state, seat)
    world, drawn = observation.world(), observation.determinize(Rng(2))
    assert observation.options.position is None
    assert world.position is None and world.options.position is None
    assert drawn.position is None and drawn.options.position is None
    assert state.options.position and state.position  # the match keeps its own


class _Recaller:
    """A bot that recalls a hold when the turn has points, and otherwise chooses."""

    def __init__(self) -> None:
        self.glances: list[Observation] = []
        self.chosen: list[Observation] = []

    def recall(self, observation: Observation) -> Any:
        self.glances.append(observation)
        holds = [a for a in observation.legal_actions if str(a) == "hold"]
        return holds[0] if holds else None

    def choose(self, observation: Observation) -> Any:
        self.chosen.append(observation)
        return observation.legal_actions[0]


def test_a_bot_that_recalls_is_glanced_at_first_and_handed_a_world_only_when_needed() -> None:
    from gladiatorium.core.match import decide

    game = get_game("pig")
    state = game.start(None, 2, 3)
    bot = _Recaller()
    first = decide(game, state, "1", bot)  # no points yet: nothing to recall
    assert str(first) == "roll" and len(bot.glances) == len(bot.chosen) == 1
    glance, chosen = bot.glances[0], bot.chosen[0]
    assert glance.situation is None and glance.legal_actions == chosen.legal_actions
    assert glance.events == chosen.events and chosen.world() is not None
    with pytest.raises(RuntimeError):
        glance.world()
    for seed in range(20):  # a match whose first roll scores: seat 1 may hold
        state = game.start(None, 2, seed)
        state.apply("1", state.legal_actions("1")[0])
        if state.awaiting() == ("1",):
            break
    assert str(decide(game, state, "1", bot)) == "hold" and len(bot.chosen) == 1

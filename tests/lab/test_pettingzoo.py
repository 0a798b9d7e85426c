"""The PettingZoo environments: PettingZoo's own API and seed tests for every game,
observations that hold no secret, masks, turn order, rewards and seeds."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import warnings
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from gladiatorium.core import Event, IllegalAction, Outcome, games, get_game
from gladiatorium.lab.encoding import encode, facts
from gladiatorium.lab.pettingzoo_env import (
    EnumeratedActions,
    GladiatoriumEnv,
    IndexedActions,
    env,
    rewards_of,
)

SLUGS = [g.info.slug for g in games()]
HIDDEN = [g.info.slug for g in games() if g.info.hidden_information]

#: what PettingZoo's API test says of every environment here, by design: observations
#: are a Dict (observation and action_mask, as in PettingZoo's own board games) and
#: agents are the game's seats ("1", "white-king"), not "player_0"
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
    "We recommend agents to be named in the format",
)


def unexpected_warnings(caught: list[warnings.WarningMessage]) -> set[str]:
    """What PettingZoo's tests said beyond the expected; a ResourceWarning is not theirs but
    an earlier test's object (a database connection) collected meanwhile on this worker."""
    said = {str(w.message) for w in caught if not issubclass(w.category, ResourceWarning)}
    return {text for text in said if not text.startswith(EXPECTED_WARNINGS)}


@pytest.mark.parametrize("slug", SLUGS)
def test_pettingzoo_api_and_seed_tests_pass(slug: str) -> None:
    """Enough cycles for whole episodes, so the tests see every agent terminate."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(slug), num_cycles=1000)
        seed_test(lambda: env(slug), num_cycles=1000)
    assert unexpected_warnings(caught) == set()


def play(environment: GladiatoriumEnv, seed: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """A whole episode of masked random actions; yields (agent, observation) before
    each step."""
    environment.reset(seed=seed)
    for agent in environment.agent_iter(100_000):
        observation, _, terminated, truncated, _ = environment.last()
        yield agent, observation
        if terminated or truncated:
            environment.step(None)
        else:
            space = environment.action_space(agent)
            environment.step(space.sample(observation["action_mask"]))


@pytest.mark.parametrize("slug", SLUGS)
def test_an_episode_ends_with_the_outcome_as_rewards(slug: str) -> None:
    environment = env(slug)
    returns: dict[str, float] = {}
    for agent, _ in play(environment, 3):
        if environment.terminations[agent]:
            returns[agent] = environment.last()[1]
    outcome = environment.match.outcome()
    assert outcome is not None
    assert environment.agents == []
    assert returns == rewards_of(outcome, environment.possible_agents, "outcome")
    assert set(returns.values()) <= {-1.0, 0.0, 1.0}


@pytest.mark.parametrize("slug", HIDDEN)
def test_a_seat_observes_the_same_in_worlds_differing_in_its_secrets(slug: str) -> None:
    """Each agent's observation (mask included), its listed actions when selected
    and who is selected are the same in the match and its secret twin; and some seat
    that knows the secret does tell the two apart, so the encoding is not blind."""
    environment, game = env(slug), get_game(slug)
    compared, told_apart = 0, 0
    for step, (_, _) in enumerate(play(environment, 5)):
        match = environment.match
        if step % 7 or match.is_over:
            continue
        for seat in environment.possible_agents:
            twin = game.secret_twin(match, seat)
            if twin is None:
                continue
            here = {a: environment.observe(a) for a in environment.possible_agents}
            slots = [str(a) for a in environment.slots()]
            environment.match = twin
            there = {a: environment.observe(a) for a in environment.possible_agents}
            if seat == environment.agent_selection:
                assert [str(a) for a in environment.slots()] == slots
            environment.match = match
            assert same(here[seat], there[seat]), f"seat {seat} tells the twin apart"
            assert twin.deciding() == match.deciding()
            told_apart += any(not same(here[a], there[a]) for a in here)
            compared += 1
    assert compared > 0
    assert told_apart > 0


def same(first: dict[str, Any], second: dict[str, Any]) -> bool:
    return first.keys() == second.keys() and all(np.array_equal(first[k], second[k]) for k in first)


def test_pig_actions_are_a_fixed_enumeration() -> None:
    environment = env("pig")
    environment.reset(seed=1)
    assert isinstance(environment.table, EnumeratedActions)
    assert [str(a) for a in environment.table.actions] == ["roll", "hold"]
    observation = environment.observe("1")
    assert observation["action_mask"].tolist() == [1, 0]  # nothing to hold yet
    assert environment.infos["1"] == {"actions": {0: "roll"}}
    assert environment.observe("2")["action_mask"].tolist() == [0, 0]


def test_other_games_index_their_sorted_legal_actions() -> None:
    environment = env("gladiator-chess")
    environment.reset(seed=2)
    agent = environment.agent_selection
    legal = sorted(str(a) for a in environment.match.legal_actions(agent))
    mask = environment.observe(agent)["action_mask"]
    assert mask.shape == (512,)
    assert mask.tolist() == [1] * len(legal) + [0] * (512 - len(legal))
    assert list(environment.infos[agent]["actions"].values()) == legal
    environment.step(3)
    seat, played = environment.match.history[-1]
    assert (seat, str(played)) == (agent, legal[3])


def test_a_seat_with_more_actions_than_the_bound_is_offered_a_spread() -> None:
    environment = env("gladiator-chess", max_actions=5)
    environment.reset(seed=2)
    agent = environment.agent_selection
    legal = sorted(str(a) for a in environment.match.legal_actions(agent))
    info = environment.infos[agent]
    assert environment.observe(agent)["action_mask"].tolist() == [1] * 5
    assert info["dropped"] == len(legal) - 5
    listed = list(info["actions"].values())
    assert listed[0] == legal[0] and listed[-1] == legal[-1]
    assert listed == sorted(set(listed))


def test_indexed_actions_are_sorted_by_notation_and_padded() -> None:
    table = IndexedActions(4)
    game = get_game("pig")
    roll, hold = (t() for t in game.action_types)
    assert table.slots([roll, hold]) == [hold, roll, None, None]  # by notation
    with pytest.raises(ValueError):
        IndexedActions(0)


def test_an_index_the_mask_refuses_changes_nothing() -> None:
    environment = env("pig")
    environment.reset(seed=1)
    before = environment.match.fingerprint()
    for index in (1, 2, -1):  # hold with nothing to bank, out of range
        with pytest.raises(IllegalAction):
            environment.step(index)
    with pytest.raises(IllegalAction):
        environment.step(None)
    assert environment.match.fingerprint() == before
    environment.step(np.int64(0))
    assert len(environment.match.history) == 1


def test_simultaneous_rounds_cycle_through_the_awaited_seats() -> None:
    """Super Dice Heroes: while both heroes decide in a round the selection alternates."""
    environment = env("super-dice-heroes")
    game = get_game("super-dice-heroes")
    turns = []
    for agent, _ in play(environment, 4):
        match = environment.match
        turns.append((agent, len(match.deciding()), game.round_number(match)))
    both = [
        (before[0], after[0])
        for before, after in pairwise(turns)
        if before[1:] == after[1:] and after[1] == 2
    ]
    assert len(both) > 10
    assert all(first != second for first, second in both)


def test_the_hero_battle_moderator_is_played_by_the_environment() -> None:
    """The moderator is no agent; when every player has moved and the round does not
    close by itself, the environment closes it."""
    environment = env("hero-battle", options={"close_when_all_moved": False})
    assert "moderator" not in environment.possible_agents
    selected = {agent for agent, _ in play(environment, 6)}
    match = environment.match
    assert match.is_over and "moderator" not in selected
    closes = [str(action) for seat, action in match.history if seat == "moderator"]
    assert closes == ["close"] * get_game("hero-battle").round_number(match)
    assert "moderator" in env("hero-battle", automatic=()).possible_agents


def test_rewards_from_the_outcome_or_the_scores() -> None:
    seats = ["1", "2", "3"]
    assert rewards_of(Outcome.win(["2"], "won"), seats, "outcome") == {
        "1": -1.0,
        "2": 1.0,
        "3": -1.0,
    }
    assert rewards_of(Outcome.drawn("tie"), seats, "outcome") == dict.fromkeys(seats, 0.0)
    assert rewards_of(Outcome.all_lost("missed"), seats, "outcome") == dict.fromkeys(seats, -1.0)
    scored = Outcome.win(["1"], "most honor", scores={"1": 20, "2": 17})
    assert rewards_of(scored, seats, "score") == {"1": 20.0, "2": 17.0, "3": 0.0}
    assert rewards_of(Outcome.win(["3"], "won"), seats, "score")["3"] == 1.0  # no scores


def test_reset_with_a_seed_plays_that_match_and_without_one_the_next() -> None:
    first, second = env("pig"), env("pig")
    first.reset(seed=9)
    assert first.match.fingerprint() == get_game("pig").start(None, None, 9).fingerprint()
    for environment in (first, second):
        environment.reset(seed=9)
        environment.reset()
    assert first.match.seed == second.match.seed != 9
    first.reset()
    assert first.match.seed != second.match.seed


def test_max_steps_truncates_the_episode() -> None:
    with pytest.raises(ValueError):
        env("pig", max_steps=0)
    environment = env("superhero-gladiators", max_steps=5)
    seen = list(play(environment, 1))
    assert environment.steps == 5
    assert not environment.match.is_over
    assert len(seen) == 5 + len(environment.possible_agents)


def test_render_shows_the_spectators_picture() -> None:
    environment = env("pig", render_mode="ansi")
    environment.reset(seed=1)
    assert environment.render() == get_game("pig").render(environment.match, None)
    with pytest.raises(ValueError):
        env("pig", render_mode="rgb_array")
    quiet = env("pig")
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None


def test_the_encoding_reads_paths_and_values() -> None:
    assert dict(facts({"hp": {"a": 3}, "alive": True, "who": None}, "view")) == {
        "view/hp/a=3": 1.0,
        "view/hp/a": 0.75,
        "view/alive=true": 1.0,
        "view/who=null": 1.0,
    }
    view = {"banked": {"1": 12, "2": 0}}
    roll = Event("roll", "1 rolls 5", {"face": 5})
    base = encode("1", view, [roll], size=64)
    assert base.dtype == np.float32 and base.shape == (64,)
    assert np.all(np.abs(base) <= 1) and np.any(base)
    assert np.array_equal(base, encode("1", view, [roll], size=64))
    assert not np.array_equal(base, encode("2", view, [roll], size=64))
    assert not np.array_equal(base, encode("1", {"banked": {"1": 13, "2": 0}}, [roll], size=64))
    assert not np.array_equal(base, encode("1", view, [], size=64))
    assert np.array_equal(encode("1", view, [], size=64), encode("1", view, [roll], 64, 0))


def test_the_example_in_the_docs_plays_a_match() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "lab.md").read_text()
    section = page.split("## Reinforcement learning", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "docs/lab.md", "exec"), {})
    ends = printed.getvalue().splitlines()
    assert [line.split()[0] for line in ends] == ["1", "2"]
    assert all(" ends with " in line for line in ends)


def test_the_games_and_the_command_line_do_not_import_pettingzoo() -> None:
    probe = (
        "import sys, gladiatorium.games, gladiatorium.cli.main, gladiatorium.core.batches\n"
        "gladiatorium.games.load()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pettingzoo', 'gymnasium')))"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"

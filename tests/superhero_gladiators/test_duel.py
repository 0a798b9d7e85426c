"""The duel lab: ``gladiatorium duel``, as the main command line mounts it."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core.batches import GameResult
from gladiatorium.games.superhero_gladiators.commands import duel
from gladiatorium.games.superhero_gladiators.state import KNOCKOUT, TURN_LIMIT

runner = CliRunner()


def test_duel_json_counts_every_game() -> None:
    result = runner.invoke(app, ["duel", "cowboy", "perseus.yaml", "--games", "6", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"games", "wins", "draws", "mean_turns"}
    assert data["games"] == 6
    assert set(data["wins"]) == {"Cowboy", "Perseus"}
    assert sum(data["wins"].values()) + data["draws"] == 6
    assert data["mean_turns"] >= 1


def test_duel_is_deterministic_by_seed_and_same_on_two_jobs() -> None:
    args = ["duel", "cowboy", "barbarian", "--games", "4", "--json", "--seed", "3"]
    one = runner.invoke(app, args)
    two = runner.invoke(app, [*args, "--jobs", "2"])
    assert one.exit_code == 0 and json.loads(one.output) == json.loads(two.output)


def test_duel_teams_and_map_and_table() -> None:
    args = ["duel", "--team", "1=cowboy,fred", "--team", "2=perseus,barbarian"]
    result = runner.invoke(app, [*args, "--map", "pillars", "--games", "2", "--bot", "random"])
    assert result.exit_code == 0, result.output
    assert "Cowboy + Fred the Giant" in result.output and "95% interval" in result.output


def test_duel_same_hero_twice_gets_two_names() -> None:
    assert duel.side_names([[{"name": "Cowboy"}], [{"name": "Cowboy"}]]) == ["Cowboy", "Cowboy (2)"]


def test_duel_errors_are_clear() -> None:
    result = runner.invoke(app, ["duel", "cowboy", "--games", "2"])
    assert result.exit_code == 2 and "give two hero files" in result.output
    result = runner.invoke(app, ["duel", "cowboy", "perseus", "--bot", "nobody"])
    assert result.exit_code == 2 and "no bot 'nobody'" in result.output
    result = runner.invoke(app, ["duel", "cowboy", "perseus", "--map", "12"])
    assert result.exit_code == 0


def test_without_jobs_a_batch_takes_a_worker_per_500_games_and_core() -> None:
    assert duel.default_jobs(2000, 2) == 2  # the command of the README on two cores
    assert duel.default_jobs(2000, 8) == 4
    assert duel.default_jobs(499, 8) == duel.default_jobs(10**6, 1) == 1
    assert duel.default_jobs(10**6, 3) == 3
    assert duel.usable_cores() >= 1


def test_the_turn_a_duel_ended_on_is_read_from_its_typed_reason() -> None:
    knocked_out = GameResult(0, ("1",), "1", 40, None, reason="", why=KNOCKOUT(turn=7))
    assert duel.turns_of(knocked_out) == 7
    limit = GameResult(1, (), None, 90, None, why=TURN_LIMIT(turn=12))
    assert duel.turns_of(limit) == 12
    # words alone are not read back: a result with no typed reason has no turn
    assert duel.turns_of(GameResult(2, (), None, 9, None, reason="(turn 9)")) == 0

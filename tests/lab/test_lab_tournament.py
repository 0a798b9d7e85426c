"""Tournaments: line-ups, places, OpenSkill ratings and a ladder that goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import OptionsError
from gladiatorium.core.jobs import GameResult, Runner
from gladiatorium.lab.ratings import Ladder, LadderError, Ratings, placing, rate_games
from gladiatorium.lab.tournament import Tournament, TournamentResult, run_tournament

runner = CliRunner()
SG = "superhero-gladiators"


def result(winners: tuple[str, ...], scores: dict[str, float] | None = None) -> GameResult:
    return GameResult(0, winners, None, 10, None, scores=scores or {})


def test_every_pair_meets_in_both_seats() -> None:
    plan = Tournament.plan("super-dice-heroes", ["planner", "greedy", "random"], 2)
    assert plan.lineups() == [
        ("planner", "greedy"),
        ("greedy", "planner"),
        ("planner", "random"),
        ("random", "planner"),
        ("greedy", "random"),
        ("random", "greedy"),
    ]
    assert [j.bots for j in plan.jobs()[:3]] == [
        {"1": "planner", "2": "greedy"},
        {"1": "planner", "2": "greedy"},
        {"1": "greedy", "2": "planner"},
    ]


def test_more_seats_than_bots_are_filled_in_turn_and_rotated() -> None:
    plan = Tournament.plan("hero-battle", ["inferrer", "hunter", "random"], 1, players=8)
    assert plan.lineups() == [
        ("inferrer", "hunter", "random") * 2 + ("inferrer", "hunter"),
        ("hunter", "random", "inferrer") * 2 + ("hunter", "random"),
        ("random", "inferrer", "hunter") * 2 + ("random", "inferrer"),
    ]


def test_a_gladiator_chess_team_of_commanders_is_one_bot() -> None:
    plan = Tournament.plan("gladiator-chess", ["marshal", "random"], 1)
    first = plan.jobs()[0].bots
    assert len(plan.sides) == 2 and len(first) == 8
    assert {first[s] for s in plan.sides[0]} == {"marshal"}
    assert {first[s] for s in plan.sides[1]} == {"random"}


def test_places_follow_wins_then_scores_and_a_bot_keeps_its_best_seat() -> None:
    sides = [("1",), ("2",), ("3",), ("4",)]
    scores = {"1": 3.0, "2": 9.0, "3": 5.0, "4": 5.0}
    assert placing(result(("2",), scores), sides, ["a", "b", "c", "d"]) == [
        ("a", 3),
        ("b", 1),
        ("c", 2),
        ("d", 2),
    ]
    assert placing(result(("3",), scores), sides, ["a", "b", "a", "b"]) == [("a", 1), ("b", 2)]
    assert placing(result((), scores), sides, ["a", "b", "c", "d"]) == [
        ("a", 1),
        ("b", 1),
        ("c", 1),
        ("d", 1),
    ]


def test_a_winner_gains_what_the_loser_drops_and_a_draw_moves_little() -> None:
    ratings = Ratings()
    ratings.rate([("a", 1), ("b", 2)], drawn=False)
    a, b = ratings.standings["a"], ratings.standings["b"]
    assert a.mu == pytest.approx(25 + (25 - b.mu)) and a.mu > 27
    assert (a.wins, a.games, b.wins, b.losses) == (1, 1, 0, 1)
    ratings.rate([("a", 1), ("b", 1)], drawn=True)
    assert ratings.standings["a"].draws == 1 and ratings.standings["a"].mu < a.mu + 1e-9


def test_bad_entries_are_refused_naming_the_flag() -> None:
    with pytest.raises(OptionsError, match="--bots: name at least two bots"):
        Tournament.plan(SG, ["greedy"], 1)
    with pytest.raises(OptionsError, match="a bot is named twice"):
        Tournament.plan(SG, ["greedy", "greedy"], 1)
    with pytest.raises(Exception, match="no bot 'genius' for superhero-gladiators"):
        Tournament.plan(SG, ["greedy", "genius"], 1)
    with pytest.raises(OptionsError, match="has one side"):
        Tournament.plan("super-dice-heroes", ["planner", "random"], 1, players=1)


def test_the_same_seed_gives_the_same_tournament_wherever_it_runs() -> None:
    plan = Tournament.plan(SG, ["greedy", "random"], 4, seed=3)
    alone = run_tournament(plan).to_json()
    assert run_tournament(plan, Runner("local", 2)).to_json() == alone
    assert alone["games"] == 8
    best, worst = alone["ratings"]
    assert (best["bot"], worst["bot"]) == ("greedy", "random")
    assert best["wins"] >= 7 and best["rating"] > worst["rating"]


def test_a_ladder_goes_on_from_run_to_run(tmp_path: Path) -> None:
    path = tmp_path / "ladder.json"
    args = ["lab", "tournament", SG, "--bots", "greedy,random", "--games", "2", "--json"]
    args += ["--ladder", str(path)]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    second = json.loads(runner.invoke(app, args).stdout)
    assert second["seed"] == 1
    stored = json.loads(path.read_text())
    assert [run["seed"] for run in stored["runs"]] == [0, 1]
    # the ladder's ratings are both runs' games rated in order
    ratings = Ratings()
    for seed in (0, 1):
        plan = Tournament.plan(SG, ["greedy", "random"], 2, seed=seed)
        rate_games(ratings, run_tournament(plan).results, plan.sides, plan.lineup_of())
    assert stored["ratings"] == json.loads(json.dumps(ratings.to_json()))
    assert stored["ratings"]["greedy"]["games"] == 8
    again = runner.invoke(app, [*args, "--seed", "1"])
    assert again.exit_code == 2 and "seed 1 was played already" in again.output
    other = runner.invoke(app, [*args, "--option", "turn_limit=20"])
    assert other.exit_code == 2 and "a ladder of other options" in other.output
    assert json.loads(path.read_text()) == stored


def test_a_ladder_that_is_not_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ladder.json"
    path.write_text('{"kind": "something else"}')
    with pytest.raises(LadderError, match=r"ladder\.json: not a gladiatorium ladder"):
        Ladder.open(path, {"game": SG})
    with pytest.raises(LadderError, match=r"the folder .*nowhere does not exist"):
        Ladder.open(tmp_path / "nowhere" / "ladder.json", {"game": SG})


def test_the_table_puts_the_best_bot_first() -> None:
    shown = runner.invoke(
        app, ["lab", "tournament", SG, "--bots", "random,greedy", "--games", "3", "--seed", "2"]
    )
    assert shown.exit_code == 0, shown.output
    rows = [line for line in shown.output.splitlines() if line.startswith("│")]
    assert [row.split("│")[2].strip() for row in rows[:2]] == ["greedy", "random"]
    # then head to head: random against greedy (in the order of --bots), six games
    assert [cell.strip() for cell in rows[2].split("│")[1:4]] == ["random", "greedy", "6"]
    assert "6 games (2 line-ups x 3), 0 draws, 2 sides, seed 2" in shown.output


def test_every_game_names_sides_of_its_own_seats_each_held_once() -> None:
    from gladiatorium.core import games

    for game in games():
        state = game.start(None, None, 0)
        sides = game.sides(state)
        seats = [seat for side in sides for seat in side]
        assert all(sides) and len(seats) == len(set(seats)), game.info.slug
        assert set(seats) <= set(state.seats), game.info.slug
    chess = next(g for g in games() if g.info.slug == "gladiator-chess")
    assert [len(side) for side in chess.sides(chess.start(None, None, 0))] == [4, 4]


def test_head_to_head_counts_the_games_only_the_two_bots_played() -> None:
    """Two-sided: every game of a pair's line-ups; a Battle of eight split between two
    bots counts for them too; a Battle of three bots belongs to no pair."""
    plan = Tournament.plan("super-dice-heroes", ["planner", "greedy", "random"], 1)
    lineups = plan.lineup_of()
    assert len(lineups) == 6
    results = [GameResult(i, ("1",), None, 9, None) for i in sorted(lineups)]
    outcome = TournamentResult(plan, results, Ratings())
    pairs = {(p.bot, p.against): (p.games, p.wins, p.draws, p.losses) for p in outcome.pairs()}
    # seat 1's bot wins every game: each pair splits its two games one-one
    assert pairs == {
        ("planner", "greedy"): (2, 1, 0, 1),
        ("planner", "random"): (2, 1, 0, 1),
        ("greedy", "random"): (2, 1, 0, 1),
    }
    battle = Tournament.plan("hero-battle", ["inferrer", "random"], 1, players=8)
    won = GameResult(0, ("3",), None, 9, None)  # seat 3: inferrer in the first line-up
    shared = GameResult(1, ("1", "2"), None, 9, None)  # one seat of each: not a win
    [pair] = TournamentResult(battle, [won, shared], Ratings()).pairs()
    assert (pair.bot, pair.against, pair.games, pair.wins, pair.draws) == (
        "inferrer",
        "random",
        2,
        1,
        1,
    )
    three = Tournament.plan("hero-battle", ["inferrer", "hunter", "random"], 1, players=8)
    assert TournamentResult(three, [won], Ratings()).pairs() == []

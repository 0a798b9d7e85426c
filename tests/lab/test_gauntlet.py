"""A hero's gauntlet (``gladiatorium lab gauntlet``, the server's gauntlet jobs): the
plan, the same results in any chunks and from the command line, and the fairness
badge read from the ``lab cost`` model."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import OptionsError
from gladiatorium.core.gauntlet import WON, GauntletSize, games_text, parse_games
from gladiatorium.core.jobs import run_jobs
from gladiatorium.core.registry import gauntlet_maker
from gladiatorium.games import load
from gladiatorium.games.superhero_gladiators.hero_files import sample_files
from gladiatorium.games.superhero_gladiators.lab.balance import Record
from gladiatorium.games.superhero_gladiators.lab.gauntlet import (
    POINT_SLOPE,
    HeroGauntlet,
    badge,
    strength,
)

runner = CliRunner()
TINY = GauntletSize((("greedy", 1),), ("small",))
COWBOY = sample_files()[1].read_text(encoding="utf-8")
MINE = """\
name: Lamp <b>Lighter</b>
attributes: {strength: 4, dexterity: 4, size: 4, perception: 3}
powers:
  - {name: Torch, type: distance, level: 2, uses: infinite}
"""


def marks_of(plan: HeroGauntlet, step: int) -> str:
    """The gauntlet played in chunks of ``step`` games, as the server plays it."""
    games, marks = plan.jobs(), ""
    while len(marks) < len(games):
        chunk = games[len(marks) : len(marks) + step]
        marks += "".join(plan.mark(r) for r in run_jobs(chunk))
    return marks


def test_a_hero_meets_every_sample_but_itself_on_both_sides() -> None:
    assert sample_files()[1].stem == "cowboy"
    plan = HeroGauntlet(COWBOY, 5, TINY)
    assert plan.name == "Cowboy"
    assert sorted(plan.field) == sorted(p.stem for p in sample_files() if p.stem != "cowboy")
    jobs = plan.jobs()
    assert len(jobs) == 7 * 2  # seven samples, both sides of one map, one greedy game
    assert [j.index for j in jobs] == list(range(14))
    assert [p.side for p in plan.pairings[:2]] == ["1", "2"]
    first, second = jobs[0].options["teams"], jobs[1].options["teams"]
    assert first[0][0]["name"] == "Cowboy" and second[1][0]["name"] == "Cowboy"
    # another hero meets the same dice: a game's seed names no hero
    other = HeroGauntlet(MINE, 5, TINY)
    assert len(other.field) == 8
    mine = {(p.opponent, p.side): j.seed for p, j in zip(other.pairings, other.jobs(), strict=True)}
    for pairing, job in zip(plan.pairings, jobs, strict=True):
        assert mine[(pairing.opponent, pairing.side)] == job.seed
    assert plan.command() == (
        "gladiatorium lab gauntlet cowboy.yaml --seed 5 --games greedy=1 --maps small"
    )
    assert other.file_name() == "lamp-b-lighter-b.yaml"


def test_chunks_give_the_results_of_one_run() -> None:
    plan = HeroGauntlet(COWBOY, 11, TINY)
    whole = "".join(plan.mark(r) for r in run_jobs(plan.jobs()))
    assert len(whole) == 14 and set(whole) <= {"w", "l", "d"}
    assert marks_of(plan, 3) == whole
    again = HeroGauntlet(COWBOY, 11, TINY)  # a fresh plan, as a restarted server makes
    assert marks_of(again, 5) == whole
    summary = plan.summary(whole)
    assert summary["games_played"] == 14
    overall = summary["overall"]
    assert overall["wins"] == whole.count(WON)
    assert overall["wins"] + overall["losses"] + overall["draws"] == 14
    assert sum(o["overall"]["games"] for o in summary["opponents"]) == 14
    assert {o["overall"]["games"] for o in summary["opponents"]} == {2}
    low, high = overall["interval"]
    assert low <= overall["win_rate"] <= high
    assert summary["command"] == plan.command()
    with pytest.raises(ValueError, match="expected 14 marks"):
        plan.summary(whole[:-1])


def test_the_command_line_plays_the_same_gauntlet(tmp_path: Path) -> None:
    hero = tmp_path / "cowboy.yaml"
    hero.write_text(COWBOY, encoding="utf-8")
    plan = HeroGauntlet(COWBOY, 7, GauntletSize((("greedy", 2),), ("small", "pillars")))
    expected = plan.summary(marks_of(plan, 9))
    words = plan.command().split()[1:]  # without "gladiatorium"
    assert words[2] == "cowboy.yaml"
    words[2] = str(hero)
    result = runner.invoke(app, [*words, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json.loads(json.dumps(expected))
    shown = runner.invoke(app, [*words, "--out", str(tmp_path / "out")])
    assert shown.exit_code == 0, shown.output
    assert "plays like" in shown.stdout and "every sample" in shown.stdout
    written = json.loads((tmp_path / "out" / "gauntlet.json").read_text(encoding="utf-8"))
    assert written == json.loads(json.dumps(expected))


def test_the_registry_plans_the_same_gauntlet() -> None:
    load()
    planned = gauntlet_maker("superhero-gladiators")(COWBOY, 3, TINY)
    direct = HeroGauntlet(COWBOY, 3, TINY)
    assert [j.seed for j in planned.jobs()] == [j.seed for j in direct.jobs()]


def test_bad_heroes_maps_and_counts_are_refused_by_name(tmp_path: Path) -> None:
    broken = yaml.safe_load(MINE)
    broken["powers"][0]["type"] = "sneeze"
    with pytest.raises(OptionsError, match=r"hero hero: .*powers\[0\]\.type"):
        HeroGauntlet(yaml.safe_dump(broken), 0, TINY)
    with pytest.raises(OptionsError, match="no shipped map 'moon'"):
        HeroGauntlet(MINE, 0, GauntletSize((("greedy", 1),), ("moon",)))
    with pytest.raises(OptionsError, match="no bot 'smart'"):
        HeroGauntlet(MINE, 0, GauntletSize((("smart", 1),), ("small",)))
    assert parse_games("greedy=10, mcts=1", "--games") == (("greedy", 10), ("mcts", 1))
    assert games_text((("greedy", 10), ("mcts", 1))) == "greedy=10,mcts=1"
    for bad in ("greedy", "greedy=0", "greedy=1,greedy=2", "", "greedy=x"):
        with pytest.raises(OptionsError, match="--games"):
            parse_games(bad, "--games")
    hero = tmp_path / "mine.yaml"
    hero.write_text(yaml.safe_dump(broken), encoding="utf-8")
    result = runner.invoke(app, ["lab", "gauntlet", str(hero), "--games", "greedy=1"])
    assert result.exit_code == 2
    assert "powers[0].type" in result.output


def test_strength_is_where_the_cost_curve_fits_the_records() -> None:
    # even against foes of 140 and 160 points: a hero of 150 points' strength
    even = [(140, Record(wins=50, losses=50)), (160, Record(wins=50, losses=50))]
    found = strength(even)
    assert found.points == 150.0
    assert found.low is not None and found.high is not None
    assert found.low < 150 < found.high
    # a win rate r against a foe of P points reads as P + logit(r) / slope
    rate = 0.75
    found = strength([(150, Record(wins=300, losses=100))])
    assert abs(found.points - (150 + math.log(rate / (1 - rate)) / POINT_SLOPE)) <= 0.5
    # every game won: no upper end within the points looked at
    assert strength([(150, Record(wins=20))]).high is None


def test_the_badge_says_over_or_under_priced_by_how_much() -> None:
    even = [(140, Record(wins=200, losses=200)), (160, Record(wins=200, losses=200))]
    over = badge(200, even)
    assert over["verdict"] == "over-priced"
    assert over["over_priced_by"] == 50.0
    low, high = over["interval"]
    assert 0 < low < 50 < high
    assert over["words"].startswith("over-priced by 50 points: costs 200, plays like 150")
    under = badge(100, even)
    assert under["verdict"] == "under-priced" and under["over_priced_by"] == -50.0
    fair = badge(150, even)
    assert fair["verdict"] == "fair" and fair["words"].startswith("fairly priced")
    assert badge(150, [])["verdict"] == "unknown"

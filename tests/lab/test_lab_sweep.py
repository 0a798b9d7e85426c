"""Rule-option sweeps: values read and checked by the game, figures with intervals, a plot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import OptionsError
from gladiatorium.core.jobs import run_jobs
from gladiatorium.core.stats import mean_interval, t95, wilson_interval
from gladiatorium.lab.sweep import Sweep, option_values, run_sweep

runner = CliRunner()


def test_values_are_read_as_json_when_they_can_be() -> None:
    assert option_values("target", "10,30") == [10, 30]
    assert option_values("fight_to_the_fall", "true,false") == [True, False]
    assert option_values("overcome", "greater, greater-or-equal") == [
        "greater",
        "greater-or-equal",
    ]


def test_a_mean_has_a_t_interval() -> None:
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert high - mean == pytest.approx(3.182 * (5 / 3) ** 0.5 / 2)
    assert low == pytest.approx(5 - high)
    assert t95(1) == 12.706 and t95(120) == pytest.approx(1.980, abs=1e-3)
    assert mean_interval([7.0]) == (7.0, 7.0, 7.0)


def test_every_combination_plays_the_same_seeds_and_gives_its_figures() -> None:
    sweep = Sweep.plan("pig", {"target": [10, 40], "sides": [6]}, ["random"], 30, seed=4)
    assert [c.label for c in sweep.combinations] == ["target=10 sides=6", "target=40 sides=6"]
    jobs = sweep.jobs()
    assert [j.seed for j in jobs[:30]] == [j.seed for j in jobs[30:]]
    outcome = run_sweep(sweep)
    played = run_jobs(jobs)
    short, long = (f for _, f in outcome.rows)
    first_wins = sum(r.winners == ("1",) for r in played[:30])
    assert short.first_share == (first_wins / 30, *wilson_interval(first_wins, 30))
    assert short.draw_rate == (0.0, *wilson_interval(0, 30))
    assert short.length[0] == sum(r.length for r in played[:30]) / 30
    assert long.length[0] > 2 * short.length[0]
    assert short.rounds is None
    data = outcome.to_json()["combinations"][1]
    assert data["options"] == {"target": 40, "sides": 6}
    assert data["fair_first_side_share"] == 0.5


def test_an_unknown_option_or_a_bad_value_is_refused_naming_it() -> None:
    with pytest.raises(OptionsError, match="--option overcom: electron-gladiators has no such"):
        Sweep.plan("electron-gladiators", {"overcom": ["greater"]}, ["random"], 1)
    with pytest.raises(OptionsError, match=r"--option overcome=bigger: .*overcome: Input should"):
        Sweep.plan("electron-gladiators", {"overcome": ["greater", "bigger"]}, ["random"], 1)
    refused = runner.invoke(app, ["lab", "sweep", "pig", "--option", "target=0,5"])
    assert refused.exit_code == 2
    assert "--option target=0: bad options for pig: target:" in refused.output


def test_the_sweep_command_writes_its_figures_and_plot(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    args = ["lab", "sweep", "pig", "--option", "target=10,20", "--games", "12", "--out"]
    shown = runner.invoke(app, [*args, str(out)])
    assert shown.exit_code == 0, shown.output
    assert "target=20" in shown.output and "wrote" in shown.output
    data = json.loads((out / "sweep.json").read_text())
    assert [c["label"] for c in data["combinations"]] == ["target=10", "target=20"]
    assert (out / "sweep.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = (out / "sweep.svg").read_text()
    assert "first side" in svg and ">target</text>" in svg and ">20</text>" in svg
    again = runner.invoke(app, [*args, str(tmp_path / "again"), "--json"])
    assert json.loads(again.stdout) == data
    assert (tmp_path / "again" / "sweep.svg").read_text() == svg


def test_bots_take_the_sides_in_turn_and_the_moderator_is_the_best_bot() -> None:
    sweep = Sweep.plan("hero-battle", {}, ["random", "hunter"], 1)
    (combo,) = sweep.combinations
    assert combo.label == "defaults"
    assert [combo.bots[s] for s in ("1", "2", "3", "8")] == ["random", "hunter", "random", "hunter"]
    assert combo.bots["moderator"] == "inferrer"

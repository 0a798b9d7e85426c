"""``--backend``, ``--jobs`` and ``--results`` on the batch commands, driven as a user would."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from gladiatorium.cli.main import app

runner = CliRunner()


def test_simulate_resumes_from_its_results_file(tmp_path: Path) -> None:
    args = ["simulate", "pig", "--games", "30", "--seed", "5", "--json"]
    whole = json.loads(runner.invoke(app, args).stdout)
    kept = tmp_path / "pig.jsonl"
    part = runner.invoke(app, [*args[:3], "12", *args[4:], "--results", str(kept)])
    assert json.loads(part.stdout)["games"] == 12
    resumed = runner.invoke(app, [*args, "--results", str(kept), "--jobs", "2"])
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout) == whole
    assert len(kept.read_text().splitlines()) == 1 + 30
    other = runner.invoke(app, [*args[:5], "6", "--json", "--results", str(kept)])
    assert other.exit_code == 2
    assert "holds another run (it differs in seed)" in other.output


def test_duel_takes_the_backend_flags_and_keeps_its_numbers(tmp_path: Path) -> None:
    args = ["duel", "cowboy", "perseus", "--games", "4", "--seed", "3", "--json"]
    plain = runner.invoke(app, args)
    assert plain.exit_code == 0, plain.output
    kept = tmp_path / "duel.jsonl"
    pooled = runner.invoke(app, [*args, "--jobs", "2", "--results", str(kept)])
    assert json.loads(pooled.stdout) == json.loads(plain.stdout)
    again = runner.invoke(app, [*args, "--results", str(kept)])
    assert json.loads(again.stdout) == json.loads(plain.stdout)
    bad = runner.invoke(app, [*args, "--backend", "spark"])
    assert bad.exit_code == 2
    assert "--backend 'spark': choose one of local, ray" in bad.output

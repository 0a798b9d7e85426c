"""``gladiatorium lab cost``: power specs, the logistic fit, the worth of one version of a
power against another, and a small run end to end."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import OptionsError
from gladiatorium.games.superhero_gladiators.hero_files import hero_data
from gladiatorium.games.superhero_gladiators.lab.balance import Record, arenas, entrant, run_balance
from gladiatorium.games.superhero_gladiators.lab.cost import (
    HOUSE_POINTS,
    Level,
    PowerSpec,
    Series,
    fit_logistic,
    parse_spec,
    run_cost,
    with_power,
    worth,
)

runner = CliRunner()


def test_a_spec_names_a_power_and_what_changes() -> None:
    spec = parse_spec("Static sparks:gizmo=hidden,uses=6,styles=piercing+area")
    assert spec.power == "Static sparks"
    assert spec.changes == {"gizmo": "hidden", "uses": 6, "styles": ["piercing", "area"]}
    assert parse_spec("Lasso").changes == {}
    with pytest.raises(OptionsError, match="level is set by --levels"):
        parse_spec("Lasso:level=3")
    with pytest.raises(OptionsError, match="name a power first"):
        parse_spec(":gizmo=none")


def test_a_spec_changes_the_heros_power_or_adds_one() -> None:
    cowboy = hero_data("cowboy")
    changed = with_power(cowboy, parse_spec("lasso:gizmo=none"), 5)
    [lasso] = [p for p in changed["powers"] if p["name"] == "Lasso"]
    assert (lasso["level"], lasso["gizmo"], lasso["uses"]) == (5, "none", 3)
    assert cowboy["powers"][1]["level"] == 4  # the hero's own data is left alone
    added = with_power(cowboy, parse_spec("Hide:type=defense,styles=toughness,uses=3"), 2)
    assert added["powers"][-1] == {
        "name": "Hide", "type": "defense", "styles": ["toughness"], "uses": 3, "level": 2
    }  # fmt: skip
    with pytest.raises(OptionsError, match=r"Cowboy has no power 'Hide' \(powers: Six-shooter"):
        with_power(cowboy, parse_spec("Hide"), 2)
    with pytest.raises(
        OptionsError, match=r"level 2: .*powers\[4\]\.styles\[0\]: unknown style 'rubber'"
    ):
        from gladiatorium.games.superhero_gladiators.lab.cost import variant

        variant(cowboy, parse_spec("Hide:type=defense,styles=rubber"), 2, "cowboy")


def expected_counts(a: float, b: float, xs: list[float], n: int) -> list[int]:
    return [round(n / (1 + math.exp(-(a + b * x)))) for x in xs]


def test_the_logistic_fit_finds_the_curve_the_counts_came_from() -> None:
    xs = [120.0, 150.0, 180.0, 210.0, 240.0]
    wins = expected_counts(-5.4, 0.03, xs, 100_000)
    fit = fit_logistic(xs, wins, [100_000] * 5)
    assert fit.slope == pytest.approx(0.03, rel=1e-3)
    assert fit.intercept == pytest.approx(-5.4, rel=1e-3)
    assert fit.rate(180) == pytest.approx(0.5, abs=1e-3)
    assert 0 < fit.slope_se < 0.001
    flat = fit_logistic([1.0, 2.0], [5, 5], [10, 10])
    assert flat.slope == pytest.approx(0.0, abs=1e-9) and flat.rate(7) == pytest.approx(0.5)


def series(text: str, costs: list[int], base: int, wins: list[int], n: int) -> Series:
    levels = tuple(
        Level(i + 1, c, base + c, Record(w, n - w, 0))
        for i, (c, w) in enumerate(zip(costs, wins, strict=True))
    )
    return Series(PowerSpec(text, "Sparks", {}), levels)


def test_worth_finds_the_factor_a_version_plays_at() -> None:
    """A version whose games match the reference curve at 1.4 x the power's points is
    worth x1.4; one that plays like the reference is worth x1.0, and the table's
    x1.4 lies outside its interval."""
    costs, base, n = [30, 45, 67, 100], 130, 4000
    reference = series(
        "plain", costs, base, expected_counts(-5.4, 0.03, [base + c for c in costs], n), n
    )
    hidden_costs = [42, 63, 94, 140]
    played_up = expected_counts(-5.4, 0.03, [base + 1.4 * c for c in costs], n)
    found = worth(reference, series("hidden", hidden_costs, base, played_up, n))
    assert found.factor == pytest.approx(1.4, abs=0.02)
    assert found.low is not None and found.high is not None
    assert found.low < 1.4 < found.high and found.charged == pytest.approx(1.4, abs=0.01)
    same = worth(reference, series("hidden", hidden_costs, base, reference_wins(reference), n))
    assert same.factor == pytest.approx(1.0, abs=0.02)
    assert same.high is not None and same.high < 1.4


def reference_wins(s: Series) -> list[int]:
    return [lv.record.wins for lv in s.levels]


def test_a_small_run_counts_every_game_and_writes_its_report(tmp_path: Path) -> None:
    out = tmp_path / "cost"
    args = ["lab", "cost", "Lasso", "Lasso:gizmo=hidden", "--hero", "cowboy"]
    args += ["--field", "perseus", "--levels", "2,4", "--games", "2", "--maps", "small"]
    result = runner.invoke(app, [*args, "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data == json.loads((out / "cost.json").read_text())
    plain, hidden = data["series"]
    # the lasso (entangling x1.4, 3 uses) at levels 2 and 4: the table's 9 and 21
    assert [lv["power_points"] for lv in plain["levels"]] == [13, 29]
    assert [lv["power_points"] for lv in hidden["levels"]] == [18, 41]  # x1.4 again
    lasso = 29  # at the Cowboy's own level 4
    assert [lv["hero_points"] for lv in plain["levels"]] == [143 - lasso + 13, 143 - lasso + 29]
    assert all(lv["games"] == 4 for s in data["series"] for lv in s["levels"])
    assert hidden["worth"]["charged"] == pytest.approx(59 / 42, abs=1e-6)
    # the level-4 lasso against Perseus, counted by the balance run directly
    cowboy = entrant(with_power(hero_data("cowboy"), parse_spec("Lasso"), 4), "c")
    perseus = entrant(hero_data("perseus"), "perseus")
    balance = run_balance([cowboy, perseus], arenas(["small"]), 2, power_points=HOUSE_POINTS)
    direct = balance.overall()["Cowboy"]
    assert plain["levels"][1]["wins"] == direct.wins
    for name in ("index.html", "cost.png", "cost.svg"):
        assert (out / name).stat().st_size > 1000


def test_run_cost_refuses_a_field_of_the_hero_alone() -> None:
    cowboy = entrant(hero_data("cowboy"), "cowboy")
    with pytest.raises(OptionsError, match="other than the reference hero"):
        run_cost(cowboy, [parse_spec("Lasso")], [cowboy], [1, 2], arenas(["small"]), 1)


def test_bad_levels_are_refused() -> None:
    result = runner.invoke(app, ["lab", "cost", "Lasso", "--levels", "3"])
    assert result.exit_code == 2 and "two or more different levels" in result.output
    result = runner.invoke(app, ["lab", "cost", "Lasso", "--levels", "0-9"])
    assert result.exit_code == 2 and "from 1 to 8" in result.output

"""``gladiatorium lab balance``: the matrix equals a direct duel count, the report's four
files are written and parse, the run is the same on one worker or two, and bad input is
refused before anything is played."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import OptionsError, derive_seed
from gladiatorium.games import load
from gladiatorium.games.superhero_gladiators.commands.duel import duel_options, run_duel
from gladiatorium.games.superhero_gladiators.lab.balance import (
    Balance,
    arenas,
    load_entrants,
    pairing_batches,
    run_balance,
)

runner = CliRunner()
GAMES = 3


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("balance") / "report"
    args = ["lab", "balance", "cowboy", "barbarian", "--games", str(GAMES)]
    args += ["--maps", "small,pillars", "--seed", "5", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return out


def direct_count(first: str, second: str, map_name: str, seed: int) -> dict[str, int]:
    """The same pairing played by ``duel``: its seed is the one the balance run derives."""
    load()
    values = duel_options([first, second], [], map_name)
    key = derive_seed(seed, "balance", first_name(first), first_name(second), map_name)
    return run_duel(values, GAMES, key, None, 1)["wins"] | {"draws": 0}


def first_name(ref: str) -> str:
    return {"cowboy": "Cowboy", "barbarian": "Barbarian"}[ref]


def test_matrix_equals_direct_duel_counts(report: Path) -> None:
    data = json.loads((report / "balance.json").read_text())
    assert data["maps"] == ["small", "pillars"] and data["games_per_pairing"] == GAMES
    cowboy_wins = barbarian_wins = 0
    for first, second in (("cowboy", "barbarian"), ("barbarian", "cowboy")):
        for map_name in ("small", "pillars"):
            counted = direct_count(first, second, map_name, 5)
            cowboy_wins += counted["Cowboy"]
            barbarian_wins += counted["Barbarian"]
            [pairing] = [
                p
                for p in data["pairings"]
                if (p["first"], p["second"], p["map"])
                == (first_name(first), first_name(second), map_name)
            ]
            assert pairing["wins"] == counted[first_name(first)]
            assert pairing["losses"] == counted[first_name(second)]
    row = data["matrix"]["Cowboy"]["Barbarian"]
    assert row["games"] == 4 * GAMES
    assert (row["wins"], row["losses"]) == (cowboy_wins, barbarian_wins)
    assert row["draws"] == 4 * GAMES - cowboy_wins - barbarian_wins
    assert data["matrix"]["Barbarian"]["Cowboy"]["wins"] == barbarian_wins


def test_intervals_and_overall_figures(report: Path) -> None:
    data = json.loads((report / "balance.json").read_text())
    heroes = {h["name"]: h for h in data["heroes"]}
    assert heroes["Cowboy"]["points"] == 143
    cowboy = heroes["Cowboy"]
    assert cowboy["games"] == 4 * GAMES
    assert cowboy["win_rate"] == pytest.approx(cowboy["wins"] / cowboy["games"], abs=1e-6)
    low, high = cowboy["interval"]
    assert 0 <= low <= cowboy["win_rate"] <= high <= 1 and high - low > 0.2
    assert {h["verdict"] for h in data["heroes"]} <= {"dominates", "dominated", "even"}


def test_report_files_exist_and_parse(report: Path) -> None:
    assert (report / "balance.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    root = ET.parse(report / "balance.svg").getroot()
    assert root.tag.endswith("svg")
    page = (report / "index.html").read_text()
    parser = HTMLParser()
    parser.feed(page)
    assert "<svg" in page and "Win-rate matrix" in page and "Barbarian" in page
    assert "<script" not in page  # self-contained and static


def test_same_figures_on_two_workers_and_same_svg_twice(tmp_path: Path) -> None:
    entrants = load_entrants(["cowboy", "perseus"])
    maps = arenas(["small"])
    one = run_balance(entrants, maps, 2, seed=1, jobs=1)
    two = run_balance(entrants, maps, 2, seed=1, jobs=2)
    assert one.to_json() == two.to_json()
    seeds = {b.seed for s in (1, 2) for b in pairing_batches(entrants, maps, s, "greedy").values()}
    assert len(seeds) == 4  # each pairing its own seed, each run seed its own
    from gladiatorium.games.superhero_gladiators.lab.balance_report import write_balance_report

    write_balance_report(one, tmp_path / "a")
    write_balance_report(two, tmp_path / "b")
    assert (tmp_path / "a" / "balance.svg").read_bytes() == (
        tmp_path / "b" / "balance.svg"
    ).read_bytes()


def test_verdicts_and_lopsided_pairs_from_counts() -> None:
    from gladiatorium.core.batches import Summary
    from gladiatorium.games.superhero_gladiators.lab.balance import Pairing

    entrants = load_entrants(["cowboy", "perseus"])
    result = Balance(entrants, ["small"], 40, 0, "greedy")
    ahead, behind = Summary(games=40), Summary(games=40)
    ahead.wins.update({"1": 38, "2": 1})
    ahead.draws = 1
    behind.wins.update({"1": 3, "2": 37})
    result.pairings = {
        Pairing("Cowboy", "Perseus", "small"): ahead,
        Pairing("Perseus", "Cowboy", "small"): behind,
    }
    cowboy = result.overall()["Cowboy"]
    assert (cowboy.wins, cowboy.losses, cowboy.draws) == (75, 4, 1)
    assert result.verdict("Cowboy") == "dominates" and result.verdict("Perseus") == "dominated"
    [(winner, loser, record)] = result.lopsided()
    assert (winner, loser, record.games) == ("Cowboy", "Perseus", 80)
    [(pairing, draws, games)] = result.drawn()
    assert pairing.first == "Cowboy" and (draws, games) == (1, 40)


def test_bad_input_is_refused_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: Bad\nattributes: {strength: 5, dexterity: 5, size: 5, perception: 0}\n")
    with pytest.raises(OptionsError, match=r"bad\.yaml.*attributes\.perception"):
        load_entrants(["cowboy", str(bad)])
    with pytest.raises(OptionsError, match="also given by cowboy"):
        load_entrants(["cowboy", "cowboy.yaml"])
    with pytest.raises(OptionsError, match="no map file 'moon'"):
        arenas(["moon"])
    out = tmp_path / "out"
    out.mkdir()
    (out / "balance.json").write_text("{}")
    result = runner.invoke(app, ["lab", "balance", "cowboy", "perseus", "--out", str(out)])
    assert result.exit_code == 2 and "balance.json exists; add --force" in result.output
    assert (out / "balance.json").read_text() == "{}"


def test_bot_option_plays_every_pairing_with_that_bot(tmp_path: Path) -> None:
    """``--bot mcts``: the report names the bot and each pairing's count is the same
    pairing duelled by ``mcts``; an unknown bot is refused before anything is played."""
    out = tmp_path / "mcts"
    args = ["lab", "balance", "cowboy", "barbarian", "--games", "1", "--maps", "small"]
    result = runner.invoke(app, [*args, "--seed", "3", "--bot", "mcts", "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads((out / "balance.json").read_text())
    assert data["bot"] == "mcts"
    for first, second in (("cowboy", "barbarian"), ("barbarian", "cowboy")):
        values = duel_options([first, second], [], "small")
        key = derive_seed(3, "balance", first_name(first), first_name(second), "small")
        counted = run_duel(values, 1, key, "mcts", 1)["wins"]
        [pairing] = [p for p in data["pairings"] if p["first"] == first_name(first)]
        assert (pairing["wins"], pairing["losses"]) == (
            counted[first_name(first)],
            counted[first_name(second)],
        )
    refused = runner.invoke(app, [*args, "--bot", "hunch", "--out", str(tmp_path / "no")])
    assert refused.exit_code == 2 and "no bot 'hunch'" in refused.output
    assert not (tmp_path / "no").exists()

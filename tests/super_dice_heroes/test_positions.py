"""Positions: a game started from hand-written sheets (--position FILE), played,
recorded and replayed; errors name the file, the line and the field."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import OptionsError, Rng
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.core.record import record_of, replay, verify
from gladiatorium.games.super_dice_heroes import GAME, SuperDiceHeroesState
from gladiatorium.games.super_dice_heroes.position import load_position
from gladiatorium.games.super_dice_heroes.sheet import load_sheet

runner = CliRunner()
SHIPPED = resources.files("gladiatorium.games.super_dice_heroes") / "data" / "positions"
POWERPLANT = (SHIPPED / "powerplant.yaml").read_text(encoding="utf-8")


def from_position(text: str, dice: list[int], players: int = 1) -> SuperDiceHeroesState:
    return SuperDiceHeroesState(
        GAME.make_options({"position": text}), players, 0, rng=Rng.forced(dice)
    )


def test_a_position_holds_its_sheet_and_counts_the_goals_its_marks_complete() -> None:
    """The shipped puzzle: Powerplant 3-4-5-4 has paid 2 + 2 + 3 honor and a wild die,
    the City Hall diagonal 1-2-3 a wild die (one spent), two minions 2 honor: 9 honor.
    Round 6 is rolled at once (3 6 6 1) and play goes on: a 3 after the 4 pays 3."""
    state = from_position(POWERPLANT, [3, 6, 6, 1])
    hero = state.heroes["1"]
    assert (state.round, state.roll, state.awaiting()) == (6, [3, 6, 6, 1], ("1",))
    assert (hero.name, hero.power, hero.powers_left, hero.location) == ("Volt", "grow", 2, 4)
    assert (hero.goal_honor, hero.wild_earned, hero.wild_left, hero.score(state.sheet)) == (
        7,
        2,
        1,
        9,
    )
    state.act("1", "help 3 at 5")
    assert hero.marks[3][:5] == (3, 4, 5, 4, 3) and hero.score(state.sheet) == 12


def test_a_position_game_is_recorded_and_replays_alike() -> None:
    """A record keeps the position in its options, so it replays without the file."""
    state = GAME.start({"position": POWERPLANT}, 1, 5)
    run_match(state, make_bots(GAME, 5, {"1": "planner"}))
    record = record_of(GAME, state)
    assert record.options["position"] == POWERPLANT
    assert verify(record, replay(record)) == []
    outcome = state.outcome()
    assert outcome is not None and dict(outcome.scores)["1"] >= 9


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("      4: [3, 7]", "pos.yaml:13: hero 1, marks, location 4: box 2: a die shows 1 to 6"),
        ("      4: [3, 5]", "pos.yaml:13: hero 1, marks, location 4: box 2 of Powerplant cannot"),
        ("    wild_spent: 3", "pos.yaml:15: hero 1, wild_spent: the marks earn 2 wild dice"),
        ("    powers_left: 4", "pos.yaml:9: hero 1, powers_left: at most 3"),
        ("    power: flight", "pos.yaml:8: hero 1, power: Input should be 'shrink'"),
        ("round: 11", "pos.yaml:5: round: the game has 10 rounds"),
        ("    minions: {4: 4}", "pos.yaml:14: hero 1, minions, location 4: Powerplant has 3"),
    ],
)
def test_position_errors_name_the_file_the_line_and_the_field(change: str, message: str) -> None:
    lines = POWERPLANT.splitlines()
    key = change.split(":")[0]
    index = next(i for i, line in enumerate(lines) if line.split(":")[0] == key)
    lines[index] = change
    with pytest.raises(OptionsError) as err:
        load_position("\n".join(lines), load_sheet("standard"), 3, 10, "pos.yaml")
    assert message in str(err.value)


def test_a_position_needs_one_player_per_hero() -> None:
    with pytest.raises(OptionsError, match="the position has 1 heroes but the game 2 players"):
        GAME.start({"position": POWERPLANT}, 2, 0)


def test_cli_plays_lists_and_simulates_from_a_position_file(tmp_path: Path) -> None:
    """--position FILE in play, legal and simulate; a bad file is refused by name."""
    file = tmp_path / "puzzle.yaml"
    file.write_text(POWERPLANT, encoding="utf-8")
    where = ["--players", "1", "--position", str(file)]
    legal = runner.invoke(app, ["legal", "super-dice-heroes", *where, "--seed", "3", "--json"])
    assert legal.exit_code == 0 and '"awaiting": ["1"]' in legal.output
    assert "wild move" in legal.output  # the position's wild die is in hand
    play = runner.invoke(app, ["play", "super-dice-heroes", *where, "--seat", "1=greedy"])
    assert play.exit_code == 0 and "honor" in play.output
    sim = runner.invoke(
        app, ["simulate", "super-dice-heroes", *where, "--seat", "1=greedy", "--games", "2"]
    )
    assert sim.exit_code == 0, sim.output
    file.write_text(POWERPLANT.replace("[3, 4, 5, 4]", "[3, 3]"), encoding="utf-8")
    bad = runner.invoke(app, ["play", "super-dice-heroes", *where])
    assert bad.exit_code == 2
    assert "puzzle.yaml:13: hero 1, marks, location 4" in " ".join(bad.output.split())

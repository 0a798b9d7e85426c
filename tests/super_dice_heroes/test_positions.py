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


# ----- positions at any decision (mid-round, set-up, named dice) -------------------------
def shipped(name: str, players: int, seed: int = 7) -> SuperDiceHeroesState:
    text = (SHIPPED / name).read_text(encoding="utf-8")
    state = GAME.load_position(GAME.make_options({}), players, seed, text, name)
    assert isinstance(state, SuperDiceHeroesState)
    return state


def test_a_round_in_progress_keeps_each_heros_choices_and_hides_them() -> None:
    """mid-round.yaml: round 4 rolled 2 5 5 6. Blaze moved to the Church with the 6 and
    is done; Frost iced a 5 into a 4 at the Powerplant (3-4-5 marked) and decides: the
    2, 5 and 6 move to their own locations, the 4 (where Frost stands) goes anywhere
    or helps the chain (4 or 6 after the 5), any die defeats a minion, and ice lowers
    any die but a 1. Blaze's move stays hidden from Frost until the round resolves."""
    state = shipped("mid-round.yaml", 2)
    blaze, frost = state.heroes["1"], state.heroes["2"]
    assert (state.round, state.roll, state.awaiting()) == (4, [2, 5, 5, 6], ("2",))
    assert (blaze.location, blaze.done, frost.powers_left) == (6, True, 2)
    assert [[d.rolled, d.value, d.spent] for d in frost.dice] == [
        [2, 2, False],
        [5, 4, False],
        [5, 5, False],
        [6, 6, False],
    ]
    assert [str(a) for a in state.legal_actions("2")] == [
        "move 2 with 2",
        "defeat minion with 2",
        *(f"move {n} with 4" for n in (1, 2, 3, 5, 6)),
        "help 4 at 4",
        "defeat minion with 4",
        "move 5 with 5",
        "defeat minion with 5",
        "move 6 with 6",
        "help 6 at 4",
        "defeat minion with 6",
        "ice 2",
        "ice 4",
        "ice 5",
        "ice 6",
    ]
    seen = state.view("2")["heroes"]["1"]
    assert (seen["location"], seen["done"]) == (1, True)  # as the round began
    state.act("2", "help 4 at 4")  # the Powerplant's fourth box: a wild die
    assert frost.marks[3][:4] == (3, 4, 5, 4) and frost.wild_earned == 1


def test_the_set_up_keeps_a_secret_choice_and_names_round_ones_dice() -> None:
    """setup.yaml: Blaze chose grow in secret; Frost chooses ice or shrink; then round
    1 rolls the named dice 1 2 3 4, whatever the seed, and Blaze's choice is revealed."""
    for seed in (1, 2):
        state = shipped("setup.yaml", 2, seed)
        assert (state.round, state.awaiting()) == (0, ("2",))
        assert [str(a) for a in state.legal_actions("2")] == ["choose ice", "choose shrink"]
        assert state.view("2")["heroes"]["1"]["power"] is None
        state.act("2", "choose ice")
        assert (state.round, state.roll) == (1, [1, 2, 3, 4])
        assert (state.heroes["1"].power, state.view("2")["heroes"]["1"]["power"]) == (
            "grow",
            "grow",
        )


def test_named_dice_roll_the_positions_round_whatever_the_seed() -> None:
    """named-dice.yaml: round 6 of Volt at the Powerplant (3-4-5-4 marked, a wild die in
    hand) rolls 3 6 6 1 with every seed."""
    for seed in (1, 2, 3):
        state = shipped("named-dice.yaml", 1, seed)
        assert (state.round, state.roll) == (6, [3, 6, 6, 1])
        legal = [str(a) for a in state.legal_actions("1")]
        assert legal[:5] == [
            "move 1 with 1",
            "defeat minion with 1",
            "move 3 with 3",
            "help 3 at 5",
            "defeat minion with 3",
        ]
        assert "wild help 3 at 5" in legal and "grow 1" in legal and "help 6 at 5" not in legal


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("    chosen: [move 4 with 6]", "mid.yaml:16: hero 1, chosen 1 (move 4 with 6): 'move 4"),
        ("roll: [2, 5, 9, 6]", "mid.yaml:6: roll: a die shows 1 to 6, not 9"),
        ("round: 11", "mid.yaml:5: round: the game has 10 rounds"),
        ("round: 0", "mid.yaml:6: roll: the set-up (round 0) rolls no dice"),
    ],
)
def test_errors_of_a_round_in_progress_name_the_line_and_the_field(
    change: str, message: str
) -> None:
    text = (SHIPPED / "mid-round.yaml").read_text(encoding="utf-8")
    lines = text.splitlines()
    key = change.split(":")[0]
    index = next(i for i, line in enumerate(lines) if line.split(":")[0] == key)
    lines[index] = change
    with pytest.raises(OptionsError) as err:
        GAME.load_position(GAME.make_options({}), 2, 0, "\n".join(lines), "mid.yaml")
    assert message in str(err.value)


def test_cli_lists_a_round_in_progress(tmp_path: Path) -> None:
    file = tmp_path / "mid.yaml"
    file.write_text((SHIPPED / "mid-round.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    legal = runner.invoke(
        app, ["legal", "super-dice-heroes", "--players", "2", "--position", str(file), "--json"]
    )
    assert legal.exit_code == 0, legal.output
    assert '"awaiting": ["2"]' in legal.output and "help 6 at 4" in legal.output

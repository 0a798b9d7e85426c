"""End of game, the winner and ties, solo play, the sheet data file, rendering, CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from sdh_helpers import acts, hero, place, start
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import OptionsError, Outcome
from gladiatorium.games.super_dice_heroes import GAME
from gladiatorium.games.super_dice_heroes.sheet import load_sheet, sheet_text

runner = CliRunner()
QUIET = [(6, 6, 6, 6)] * 10


def finish(state: object, seats: tuple[str, ...]) -> None:
    while not state.is_over:  # type: ignore[attr-defined]
        for seat in seats:
            if seat in state.awaiting():  # type: ignore[attr-defined]
                state.act(seat, "done")  # type: ignore[attr-defined]


def test_final_score_locations_bystanders_and_minions() -> None:
    """End of Game: honor from the locations, 5 per bystander, 1 per minion; most wins."""
    state = start(("grow", "ice"), rolls=[(5, 5, 6, 6), *QUIET[1:]])
    place(state, 2)
    acts(state, "help 5 at 11", "help 5 at 12", "help 6 at 1", "help 6 at 2")  # B + 3
    place(state, 1, seat="2")
    acts(state, "defeat minion with 5", seat="2")
    finish(state, ("1", "2"))
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("1",)
    assert dict(outcome.scores) == {"1": 8, "2": 1}


def test_ties_share_the_win_by_default() -> None:
    """End of Game (ruling R14): equal top honor shares the win."""
    state = start(("grow", "ice"), rolls=QUIET)
    finish(state, ("1", "2"))
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("1", "2") and "shared" in outcome.reason


def test_ties_broken_by_bystanders_with_the_option() -> None:
    """Option ties=bystanders: among equal honor, most bystanders rescued wins."""
    state = start(("grow", "ice"), rolls=[(6, 6, 6, 6), *QUIET[1:]], ties="bystanders")
    hero(state, "1").bystanders = 1  # 5 honor from a bystander ...
    hero(state, "2").goal_honor = 5  # ... against 5 honor from goals
    finish(state, ("1", "2"))
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("1",)


def solo_with_three_minions(**options: object) -> Outcome:
    """Ten rounds of 6 6 6 6 under the rulebook's rule that every die is spent: round
    1 goes to the Church and defeats its three minions (3 honor); later rounds spend
    all four dice on moves between the Church and City Hall (no honor)."""
    state = start(("grow",), rolls=QUIET, may_waste_dice=False, **options)
    acts(state, "move 6 with 6", *["defeat minion with 6"] * 3, "done")
    for _ in range(9):
        acts(state, "move 1 with 6", "move 6 with 6", "move 1 with 6", "move 6 with 6", "done")
    outcome = state.outcome()
    assert outcome is not None
    return outcome


def test_r15_a_solo_game_ends_with_a_title_and_is_never_lost() -> None:
    """Solo (ruling R15): the rulebook only totals the honor, so the lone hero ends
    ranked first with the sheet's title for its honor, however low."""
    outcome = solo_with_three_minions()
    assert outcome.winners == ("1",) and not outcome.lost and not outcome.draw
    assert outcome.reason == "3 honor: Rookie" and dict(outcome.scores) == {"1": 3}


def test_r15_house_rule_solo_target_makes_a_low_score_a_loss() -> None:
    """Option solo_target (ruling R15): short of the target the city is lost (nobody
    wins, no draw); at or above it the city is saved."""
    outcome = solo_with_three_minions(solo_target=4)
    assert outcome.lost and not outcome.draw and not outcome.winners
    assert outcome.reason == "3 honor, Rookie: short of the 4 needed"
    outcome = solo_with_three_minions(solo_target=3)
    assert outcome.winners == ("1",) and outcome.reason == "3 honor, Rookie: the city is saved"


def test_the_standard_sheet_is_read_from_its_data_file() -> None:
    """Sheet (ruling S1): six locations with three minions each, 5 honor bystanders."""
    sheet = load_sheet("standard")
    assert [loc.name for loc in sheet.locations] == [
        "City Hall",
        "Hospital",
        "Downtown",
        "Powerplant",
        "Warehouse",
        "Church",
    ]
    assert [loc.size for loc in sheet.locations] == [9, 12, 8, 10, 10, 12]
    assert all(loc.minions == 3 for loc in sheet.locations)
    assert (sheet.bystander_honor, sheet.minion_honor) == (5, 1)
    assert sum(g.wild for loc in sheet.locations for g in loc.goals) == 6
    assert sum(g.bystander for loc in sheet.locations for g in loc.goals) == 6


def test_a_corrected_sheet_changes_the_game_without_code() -> None:
    """Sheet: a player's corrected sheet (here: rows worth 5) is played as given."""
    text = sheet_text("standard").replace(
        "boxes: [1, 2, 3], honor: 4", "boxes: [1, 2, 3], honor: 5"
    )
    state = start(rolls=[(1, 3, 2, 6)], sheet=text)
    place(state, 1)
    acts(state, "help 1 at 1", "help 3 at 2", "help 2 at 3")
    assert hero(state).score(state.sheet) == 5


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("boxes: [7, 8, 9], honor: 4", "boxes: [7, 8, 10], honor: 4"),
            "my.yaml:33: location 1 (City Hall): goal 3 (bottom row): no box 10 (boxes 1-9)",
        ),
        (
            ("kind: climb", "kind: zigzag"),
            "my.yaml:98: location 5 (Warehouse), kind: Input should be 'grid'",
        ),
        (
            ("name: pair 4, boxes: [7, 8], honor: 4", "name: pair 4, boxes: [7, 8], honor: x"),
            "my.yaml:60: location 2 (Hospital), goal 4 (pair 4), honor: Input should be a valid",
        ),
        (("bystander_honor: 5", "bystander_honor: [5"), "my.yaml:22: not valid YAML"),
        (
            ("minions: 3\n", "minions: -1\n"),
            "my.yaml:40: location 1 (City Hall), minions: Input should be greater",
        ),
    ],
)
def test_a_bad_sheet_is_refused_naming_line_and_field(
    change: tuple[str, str], message: str
) -> None:
    """Sheet: bad input gets a clear error naming the file, line and field."""
    text = sheet_text("standard").replace(*change, 1)
    with pytest.raises(OptionsError) as err:
        load_sheet(text, "my.yaml")
    assert str(err.value).startswith(message)


def test_cli_refuses_a_malformed_sheet_file_naming_file_and_field(tmp_path: Path) -> None:
    """CLI --sheet: a malformed file is refused before play, naming file, line, field;
    an empty or unreadable file says so."""
    file = tmp_path / "mine.yaml"
    file.write_text(sheet_text("standard").replace("kind: climb", "kind: zigzag"))
    result = runner.invoke(app, ["play", "super-dice-heroes", "--sheet", str(file)])
    assert result.exit_code == 2
    assert "mine.yaml:98: location 5 (Warehouse), kind" in " ".join(result.output.split())
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    result = runner.invoke(app, ["play", "super-dice-heroes", "--sheet", str(empty)])
    assert result.exit_code == 2
    assert "empty.yaml: the sheet is empty" in " ".join(result.output.split())
    result = runner.invoke(app, ["play", "super-dice-heroes", "--sheet", str(tmp_path / "no")])
    assert result.exit_code == 2 and "cannot read it" in " ".join(result.output.split())


def test_render_shows_the_sheet_and_the_scoreboard() -> None:
    """Terminal: a player's sheet and a compact scoreboard of every hero."""
    state = start(("grow", "ice"), rolls=[(1, 3, 2, 6)], hero_names=("Blaze", "Frost"))
    place(state, 1)
    acts(state, "help 1 at 1")
    text = GAME.terminal.render(state, "1")
    assert "Blaze  honor 0" in text and "City Hall (grid)" in text and "Frost" in text
    assert "deciding" in text
    spectator = GAME.terminal.render(state, None)
    assert "Blaze" in spectator and "power grow" not in spectator


def test_solo_render_shows_the_table_of_titles() -> None:
    """Solo (ruling R15): the terminal shows the sheet's titles, marking the one the
    hero's honor reaches now, and the honor that saves the city only when the house
    rule solo_target sets one."""
    state = start(("grow",), rolls=[(6, 6, 6, 6)])
    hero(state).goal_honor = 61
    text = GAME.terminal.render(state, "1")
    assert "solo: now 61 honor, Sidekick" in text and "saves the city" not in text
    assert "titles: Rookie 0+ | >Sidekick 60+ | Hero 80+ | Superhero 95+ | Legend 110+" in text
    state = start(("grow",), rolls=[(6, 6, 6, 6)], solo_target=80)
    hero(state).goal_honor = 61
    assert "solo: 80 honor saves the city, now 61 honor, Sidekick" in GAME.terminal.render(
        state, "1"
    )
    assert "solo:" not in GAME.terminal.render(start(("grow", "ice")), "1")


def test_every_line_of_the_sheet_fits_an_80_column_terminal() -> None:
    """Terminal: the sheet and scoreboard fit the panel of an 80-column terminal."""
    state = start(("grow", "ice"), hero_names=("A hero with a forty-character long name",))
    assert max(len(line) for line in GAME.terminal.render(state, "1").splitlines()) <= 76


def test_a_hundred_players_play_a_whole_game() -> None:
    """Players 1-100: a hundred heroes share each roll; the game scores all of them.
    Two heroes play greedily, the others at random (a hundred greedy heroes take
    13 s; how well the bots play is tests/super_dice_heroes/test_bots.py's)."""
    from gladiatorium.core.match import make_bots, run_match

    state = GAME.start(None, 100, 3)
    bots = dict.fromkeys(state.seats, "random") | {"1": "greedy", "2": "greedy"}
    run_match(state, make_bots(GAME, 3, bots))
    outcome = state.outcome()
    assert outcome is not None and len(outcome.scores) == 100
    assert {seat for seat, _ in outcome.scores} == set(state.seats)
    assert len(state.history) > 100 * state.options.rounds  # every hero, every round
    assert max(s for _, s in outcome.scores) == dict(outcome.scores)[outcome.winners[0]]


def test_cli_plays_a_solo_game_and_reads_a_sheet_file(tmp_path: Path) -> None:
    """CLI: play solo with a bot seat and a --sheet file; --name names the hero."""
    file = tmp_path / "mine.yaml"
    file.write_text(sheet_text("standard"))
    result = runner.invoke(
        app,
        [
            "play",
            "super-dice-heroes",
            "--players",
            "1",
            "--seat",
            "1=greedy",
            "--sheet",
            str(file),
            "--name",
            "1=Blaze",
            "--seed",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "honor" in result.output
    bad = runner.invoke(app, ["play", "super-dice-heroes", "--colour", "red"])
    assert bad.exit_code == 2 and "--sheet FILE" in bad.output


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["--name", "0=Zed"], "--name '0=Zed': seats are numbered from 1"),
        (["--name", "5=Zed"], "hero_names: a name for seat 5, but 2 players"),
        (["--name", "Zed"], "--name 'Zed': expected SEAT=NAME"),
    ],
)
def test_cli_refuses_a_name_for_no_seat(names: list[str], message: str) -> None:
    """CLI --name SEAT=NAME (ruling R2): a seat that does not exist is refused."""
    result = runner.invoke(app, ["play", "super-dice-heroes", "--players", "2", *names])
    assert result.exit_code == 2 and message in " ".join(result.output.split())


def test_cli_human_types_actions() -> None:
    """CLI: a person chooses a power and plays in the terminal."""
    state = GAME.start(None, 1, 5)
    first = state.heroes["1"].choices[0]  # type: ignore[attr-defined]
    moves = "\n".join(["help", f"choose {first}", *(["done"] * 10)]) + "\n"
    waste = ["--option", "may_waste_dice=true"]
    result = runner.invoke(
        app, ["play", "super-dice-heroes", "--players", "1", "--seed", "5", *waste], input=moves
    )
    assert result.exit_code == 0, result.output
    assert "help 4 at 2" in result.output and "honor" in result.output

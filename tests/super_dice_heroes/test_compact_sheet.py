"""The terminal's compact sheet fits a 40-row terminal; ``sheet`` shows the whole one."""

from __future__ import annotations

from sdh_helpers import acts, place, start
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import get_game
from gladiatorium.games.super_dice_heroes import GAME
from gladiatorium.games.super_dice_heroes.render import compact_location_lines
from gladiatorium.games.super_dice_heroes.sheet import Goal, Kind, Location

runner = CliRunner()
#: a panel's two borders, the line of legal actions and the prompt
AROUND = 4


def test_the_compact_sheet_shows_each_location_in_a_line_and_its_open_goals() -> None:
    state = start(("grow", "ice"), rolls=[(1, 1, 5, 6)])
    place(state, 1)
    acts(state, "help 1 at 1", "move 2 with 1", "help 5 at 11", "help 6 at 9")
    lines = GAME.terminal.render(state, "1").splitlines()
    assert " 1 City Hall (grid)  [X32 321 213]  minions [...]" in lines
    assert ">2 Hospital (pairs)  [.. .. .. .. 6. 5.]  minions [...]" in lines
    assert "    pair 1 +3, 2 +3, 3 W, 4 +4, 5 +4, 6 B" in lines  # half pairs pay nothing
    assert "    box 1 +2, 2 +2, 3 W, 4 +3, 5 +4, 6 B, 7 +6, 8 +8" in lines  # Downtown


def test_a_met_goal_leaves_the_list() -> None:
    state = start(("grow",), rolls=[(5, 5, 6, 6)])
    place(state, 2)
    acts(state, "help 5 at 11", "help 5 at 12")
    text = GAME.terminal.render(state, "1")
    assert "[.. .. .. .. .. 55]" in text
    assert "    pair 1 +3, 2 +3, 3 W, 4 +4, 5 +4\n" in text


def test_many_goals_are_cut_to_two_lines() -> None:
    goals = tuple(Goal(f"a long goal name {i}", (i,), 2, 0, 0) for i in range(12))
    loc = Location(3, "Downtown", Kind.RUN, 12, (), 0, 3, goals)
    lines = compact_location_lines(loc, [0] * 12, [False] * 12, 1)
    assert lines[0] == "3 Downtown (run)  [............]  minions [X..]"
    assert len(lines) == 3 and lines[-1].endswith(" more")
    shown = sum(line.count("a long goal name") for line in lines)
    assert lines[-1].endswith(f"and {12 - shown} more")


def test_the_sheet_fits_a_40_row_80_column_terminal() -> None:
    game = get_game("super-dice-heroes")
    for players, seat in ((4, "1"), (100, "57")):
        state = game.start({}, players, 3)
        for s in state.seats:  # round 1: everyone has chosen a superpower
            state.act(s, str(state.legal_actions(s)[0]))
        lines = game.terminal.render(state, seat).splitlines()
        assert len(lines) + AROUND <= 40, (players, len(lines))
        assert max(len(line) for line in lines) <= 76
        board = lines[-6:]  # the leaders' rows, and the viewer's always
        assert any(line.split()[1:3] == [seat, "Hero"] for line in board)
        more = players - len([line for line in board if line.split()[2:3] == ["Hero"]])
        assert lines[-1] == f"    ... {more} more {'hero' if more == 1 else 'heroes'}"


def test_sheet_at_the_prompt_shows_the_whole_sheet_and_look_another_seats() -> None:
    args = ["play", "super-dice-heroes", "--players", "2", "--seed", "2"]
    result = runner.invoke(app, args, input="sheet\nlook 2\nlook 9\nquit\n")
    out = result.output
    assert "1[1]  2[3]  3[2]" in out  # City Hall's boxes numbered
    assert "(bottom first)  1[ ]  2[ ]" in out  # Downtown, whole
    assert "Hero 2  honor 0  round 0/10  at the middle" in out
    assert "look '9': say 'sheet' or a seat (1, 2)" in " ".join(out.split())

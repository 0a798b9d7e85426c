"""Written positions (docs/rules/gladiator-chess.md, "Positions"): a puzzle written by
hand is loaded, played, recorded and replayed; a match writes its position back; every
error names the file, the line and the field; ``--position FILE`` in the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gc_helpers import GAME, act, code_at
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import PositionError
from gladiatorium.core.record import MatchRecord, record_of, replay, verify
from gladiatorium.games.gladiator_chess import GladiatorChessState
from gladiatorium.games.gladiator_chess.diagram import write_position

runner = CliRunner()

#: Turn 3, the black Queen's slot. The white Queen holds a black scout frozen on e7;
#: the black Queen is the captive of the white Black Knight on h8 (taken in turn 2,
#: he has moved this turn), so the black King is exposed: the white warrior on f4
#: (2 hit points left) bears on him without check, and the black warrior on a4 may
#: attack it.
PUZZLE = """\
; a puzzle: the black warrior may take the white one
turn 3
slot black queen
white K f1
white KK c1
white Q e7                 ; holding the scout below her
white W f4 2
white BK h8 moved
frozen black S e7 10
black K f10
black KK c10
black W a4
captive black h8 2
lost white F SQ
lost black MK
"""


#: the puzzle's last line, after which the error cases add one
LAST = "lost black MK"


def puzzle() -> GladiatorChessState:
    state = GAME.start(None, None, 5, position=PUZZLE, source="puzzle.txt")
    assert isinstance(state, GladiatorChessState)
    return state


def test_a_written_position_sets_every_piece_mark_and_counter() -> None:
    state = puzzle()
    view = state.view(None)
    assert (view["turn"], view["team"], view["commander"]) == (3, "black", "queen")
    assert code_at(state, "f4") == "W@2" and code_at(state, "e7") == "Q@0"
    assert view["frozen"] == {"white": {"square": "e7", "piece": "S", "team": "black", "hp": 10}}
    assert view["captive_queens"] == {"black": {"captor": "BK", "square": "h8", "held_turns": 1}}
    assert view["lost"] == {"white": ["F", "SQ"], "black": ["MK"]}
    assert [p["square"] for p in view["pieces"] if p["moved"]] == ["h8"]
    assert view["in_check"] == {"white": False, "black": False}  # exposed: Queen captive


def test_a_puzzle_is_played_recorded_and_replayed() -> None:
    """The black warrior attacks the white one with the seed's dice: the record holds
    the written position, and its replay reproduces every event and roll."""
    state = puzzle()
    act(state, "let queen")
    events = act(state, "queen: W a4xf4")
    assert any(e.startswith("black Warrior attacks white Warrior: ") for e in events)
    record = record_of(GAME, state)
    assert record.position == PUZZLE
    again = replay(MatchRecord.model_validate(json.loads(record.model_dump_json())))
    assert verify(record, again) == [] and again.events == state.events


def test_a_match_writes_its_position_and_reads_it_back() -> None:
    state = puzzle()
    text = write_position(state.pos, state.turn, state.order[state.slot])
    assert "frozen black S e7 10" in text and "captive black h8 2" in text
    again = GAME.start(None, None, 5, position=text)
    assert again.view(None) == state.view(None)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("white W f4 2", "white W f4 9"), "puzzle.txt line 7: hit points: 9 is not 1 to 6"),
        (("white W f4 2", "white W z4"), "line 7: square: no square 'z4'"),
        (("white W f4 2", "white X f4"), "line 7: piece: no piece code 'X'"),
        (("white W f4 2", "green W f4"), "line 7: line: starts with 'green'"),
        (("white W f4 2", "white W f1"), r"line 7: square: f1 is taken \(line 4\)"),
        (("slot black queen", "slot black bishop"), "line 3: slot: write 'slot TEAM COMMANDER'"),
        (("turn 3", "turn three"), "line 2: turn: expected a whole number"),
        (("frozen black S e7 10", "frozen black S f4"), "line 9: square: no white Queen on f4"),
        (("captive black h8 2", "captive black f4"), "line 13: square: only a Black Knight"),
        (("white K f1", ""), "puzzle.txt: the white team needs one K"),
        ((LAST, f"{LAST}\nlet now"), "line 16: let: takes nothing more, has 'now'"),
        ((LAST, f"{LAST}\nhealed twice"), "line 16: healed: takes nothing more"),
        (("slot black queen", "slot black king\nlet"), "line 4: let: the black King has no 'let'"),
        ((LAST, f"{LAST}\nforfeited white king"), "line 16: forfeited: no one overrides the K"),
        ((LAST, f"{LAST}\nforfeited white rook"), "line 16: forfeited: write 'forfeited TEAM"),
        (
            (LAST, f"{LAST}\nforfeited black black-knight"),
            "line 16: forfeited: the black black-knight's slot is not before this one",
        ),
        (
            (LAST, f"{LAST}\nforfeited white queen\nforfeited white queen"),
            "line 17: forfeited: the white queen is named already",
        ),
        ((LAST, f"{LAST}\ncombat white W 7 black W 1"), "line 16: combat: '7' are not dice"),
        ((LAST, f"{LAST}\ncombat white W 3"), "line 16: combat: write 'combat TEAM CODE DICE"),
        ((LAST, f"{LAST}\ncombat white W 3 black X 1"), "line 16: piece: no piece code 'X'"),
        ((LAST, f"{LAST}\ndice: 3 0"), "line 16: dice: '3 0' are not dice of 1 to 6"),
        ((LAST, f"{LAST}\ndice:"), "line 16: dice: 'nothing' are not dice"),
        ((LAST, f"{LAST}\nresult white won"), "line 16: result: write 'result TEAM checkmate"),
        ((LAST, f"{LAST}\nresult green checkmate"), "line 16: team: 'green' is not white"),
        ((LAST, f"{LAST}\noffer sideways own"), "line 16: offer: write 'offer override"),
        (
            ("captive black h8 2", "captive black h8 2 maybe"),
            "line 13: captive: write 'captive TEAM SQUARE",
        ),
    ],
)
def test_position_errors_name_the_file_line_and_field(
    change: tuple[str, str], message: str
) -> None:
    text = PUZZLE.replace(*change)
    with pytest.raises(PositionError, match=message):
        GAME.start(None, None, 0, position=text, source="puzzle.txt")


def test_cli_legal_play_and_simulate_start_from_a_position_file(tmp_path: Path) -> None:
    file = tmp_path / "puzzle.txt"
    file.write_text(PUZZLE)
    legal = runner.invoke(app, ["legal", "gladiator-chess", "--position", str(file), "--json"])
    assert legal.exit_code == 0, legal.output
    assert json.loads(legal.output)["legal"]["black-king"][0] == "let queen"
    saved = tmp_path / "game.json"
    args = ["play", "gladiator-chess", "--position", str(file), "--save", str(saved)]
    played = runner.invoke(app, [*args, "--seat", "white-king=bot", "--option", "turn_limit=4"])
    assert played.exit_code == 0, played.output
    assert json.loads(saved.read_text())["position"] == PUZZLE
    again = runner.invoke(app, ["replay", str(saved)])
    assert again.exit_code == 0 and "reproduced" in again.output
    sims = runner.invoke(
        app,
        ["simulate", "gladiator-chess", "--position", str(file), "--games", "2", "--json"],
    )
    assert sims.exit_code == 0, sims.output
    assert json.loads(sims.output)["games"] == 2
    file.write_text(PUZZLE.replace("white W f4 2", "white W f4 0"))
    bad = runner.invoke(app, ["legal", "gladiator-chess", "--position", str(file)])
    assert bad.exit_code == 2 and "line 7: hit points" in " ".join(bad.output.split())

"""The written positions of data/positions/, one for each decision a turn holds beyond
its start (docs/rules/gladiator-chess.md, "Positions"): each loads with exactly the
actions the rulebook allows there, writes itself back and round-trips
(tests/positions.py); forced dice give the exact fight."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.games.gladiator_chess import GladiatorChess, GladiatorChessState
from gladiatorium.games.gladiator_chess import state as rules
from positions import round_trip_problems

GAME = GladiatorChess()
FILES = Path(rules.__file__).parent / "data" / "positions"
NAMES = sorted(f.name for f in FILES.glob("*.txt"))


def text(name: str) -> str:
    return (FILES / name).read_text()


def load(name: str, body: str | None = None, **options: Any) -> GladiatorChessState:
    state = GAME.start(options or None, None, 3, position=body or text(name), source=name)
    assert isinstance(state, GladiatorChessState)
    return state


def legal(state: GladiatorChessState) -> dict[str, list[str]]:
    return {seat: [str(a) for a in state.legal_actions(seat)] for seat in state.awaiting()}


def test_every_situation_has_its_file() -> None:
    assert NAMES == [
        "combat-dice.txt",
        "forfeited.txt",
        "king-killed.txt",
        "let-given.txt",
        "queen-healed.txt",
    ]


@pytest.mark.parametrize("name", NAMES)
def test_each_file_writes_itself_back_and_round_trips(name: str) -> None:
    state = load(name)
    written = GAME.write_position(state)
    assert GAME.write_position(load(name, written)) == written
    assert round_trip_problems(GAME, state, 11) == []


def test_king_7_after_the_kings_let_only_the_commander_moves_his_own() -> None:
    state = load("let-given.txt")
    assert legal(state) == {"white-queen": ["queen: W l1-l2"]}
    assert state.view(None)["phase"] == "command"
    assert "\nlet\n" in GAME.write_position(state)
    undecided = load("", text("let-given.txt").replace("\nlet\n", "\n"))
    asked = legal(undecided)
    assert list(asked) == ["white-king"] and asked["white-king"][0] == "let queen"
    assert "king overrides queen: W l1-l2" in asked["white-king"]
    assert "king overrides queen: MK k1-j3" in asked["white-king"]


def test_king_9_a_forfeited_commanders_pieces_may_still_be_moved_by_an_override() -> None:
    state = load("forfeited.txt")
    overrides = ["KK a1-c2", "W l1-k1", "W l1-j1", "W l1-i1", "W l1-h1", "W l1-g1", "W l1-l2"]
    overrides += ["F l3-l4", "F l3-l5"]
    assert legal(state) == {
        "white-king": [
            "let kings-knight",
            *(f"king overrides kings-knight: {move}" for move in overrides),
        ]
    }
    state.apply("white-king", state.parse("white-king", "king overrides kings-knight: W l1-l2"))
    assert state.forfeited == (
        ("white", "queen"),
        ("white", "black-knight"),
        ("white", "kings-knight"),
    )
    written = GAME.write_position(state)
    assert "forfeited white kings-knight" in written and "slot black kings-knight" in written


def test_general_9_the_named_dice_decide_the_fight() -> None:
    state = load("combat-dice.txt")
    assert legal(state) == {
        "black-queen": [
            "queen: W f6-f7",
            "queen: W f6-f8",
            "queen: W f6-f9",
            "queen: W f6-f5",
            "queen: W f6xf4",
            "queen: Q a10-b10",
        ]
    }
    assert state.view(None)["last_combat"] == [
        "white Warrior attacks black Warrior: 3+2+1=6 against 1+1=2; black Warrior loses 4"
    ]
    events = state.apply("black-queen", state.parse("black-queen", "queen: W f6xf4"))
    combat = next(e for e in events if e.kind == "combat")
    assert (combat.data["attack_rolls"], combat.data["defence_rolls"]) == ([6, 5, 4], [1, 2])
    assert combat.data["damage"] == 12 and combat.data["attacker_won"] is True
    winner = state.pos.board[3 * 12 + 5]  # f4
    assert winner is not None and (winner.team, winner.kind, winner.hp) == ("black", "W", 6)
    assert state.rng.next_dice() == []


def test_queen_13_a_slot_healed_already_is_not_healed_again() -> None:
    state = load("queen-healed.txt", queen_heal_amount=2)
    assert [p["hp"] for p in state.view(None)["pieces"] if p["square"] == "a2"] == [3]
    assert legal(state) == {
        "white-king": ["let queen", *(f"king overrides queen: W a2-a{r}" for r in range(3, 11))]
    }
    fresh = load("", text("queen-healed.txt").replace("\nhealed\n", "\n"), queen_heal_amount=2)
    assert [p["hp"] for p in fresh.view(None)["pieces"] if p["square"] == "a2"] == [5]


def test_general_10_a_match_over_stays_over() -> None:
    state = load("king-killed.txt")
    outcome = state.outcome()
    assert outcome is not None and outcome.team == "white" and outcome.reason == "king-killed"
    assert state.awaiting() == () and state.legal_actions("white-queen") == []
    assert state.view(None)["phase"] == "command"


def test_cli_legal_reads_a_decision_position_and_play_replays_its_dice(tmp_path: Path) -> None:
    runner = CliRunner()
    path = str(FILES / "let-given.txt")
    found = runner.invoke(app, ["legal", "gladiator-chess", "--position", path, "--json"])
    assert found.exit_code == 0, found.output
    assert json.loads(found.output)["legal"] == {"white-queen": ["queen: W l1-l2"]}
    saved = tmp_path / "game.json"
    args = ["play", "gladiator-chess", "--position", str(FILES / "combat-dice.txt")]
    played = runner.invoke(app, [*args, "--save", str(saved), "--option", "turn_limit=5"])
    assert played.exit_code == 0, played.output
    assert json.loads(saved.read_text())["position"] == text("combat-dice.txt")
    again = runner.invoke(app, ["replay", str(saved)])
    assert again.exit_code == 0 and "reproduced" in again.output

"""The shipped positions of a round under way (data/positions/): the moves and guesses
already posted, a Hand of God effect in force with its forced abstainers and Random
Player's hit, and a round start whose draws the position names (``dice:``); each gives
exactly the actions the rulebook allows there, and the next action's outcome with the
named dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import PositionError
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.core.record import record_of, replay, verify
from gladiatorium.games.hero_battle import GAME
from gladiatorium.games.hero_battle.actions import Close, Guess, Move
from gladiatorium.games.hero_battle.state import HeroBattleState

POSITIONS = (
    Path(__file__).resolve().parents[2] / "src/gladiatorium/games/hero_battle/data/positions"
)
HAND_OF_GOD: dict[str, Any] = {"hand_of_god": True, "random_player": True}
runner = CliRunner()


def load(name: str, options: dict[str, Any] | None = None, more: str = "") -> HeroBattleState:
    text = (POSITIONS / f"{name}.yaml").read_text(encoding="utf-8") + more
    state = GAME.start(options or {}, 8, 7, position=text, source=f"{name}.yaml")
    assert isinstance(state, HeroBattleState)
    return state


def guesses(hidden: list[str], players: list[str]) -> list[str]:
    return [f"guess {hero}={player}" for hero in hidden for player in players]


def test_moves_and_guesses_already_posted() -> None:
    """ann has moved and ed abstained (awaited after the moderator: they may edit);
    bob sent his one guess of the round (R7), so he may only move or abstain."""
    state = load("mid-round")
    assert state.round == 6 and state.awaiting() == ("2", "3", "6", "7", "moderator", "1", "5")
    assert state.deciding() == ("2", "3", "6", "7")
    assert str(state.moves["1"]) == "hit Captain Comet, Silver Sparrow heal Night Heron"
    assert state.guesses == {"2": [Guess("Silver Sparrow", "6")]}
    bob = [str(a) for a in state.legal_actions("2")]
    assert len(bob) == 61 and bob[0] == "abstain"
    assert not [a for a in bob if a.startswith("guess")]
    assert state.illegal_reason("2", Guess("Captain Comet", "3")) == (
        "you have sent 1 guess(es) this round (R7)"
    )
    cy = [str(a) for a in state.legal_actions("3")]
    hidden = ["Iron Tortoise", "Night Heron", "Silver Sparrow", "The Quiet Storm"]
    assert cy[-16:] == guesses(hidden, ["1", "5", "6", "7"])
    assert state.view("1")["you"]["move"] == "hit Captain Comet, Silver Sparrow heal Night Heron"
    assert state.view(None)["posted"] == {
        "1": {"heals": ["Night Heron"], "hits": ["Captain Comet", "Silver Sparrow"]},
        "5": {"abstain": True},
    }
    assert state.legal_actions("moderator") == [Close()]


def test_the_close_with_named_dice_compiles_the_posted_round() -> None:
    """The moderator closes: the four silent players abstain with ed, each abstainer's
    random hit drawn by the named dice (an index among the heroes it may hit); bob's
    right guess outs Silver Sparrow."""
    state = load("mid-round", more="dice: [0, 1, 2, 3, 4]\n")
    state.apply("moderator", Close())
    report = state.reports[-1]
    assert {s: m.get("random_hit") for s, m in report["moves"].items()} == {
        "1": None,
        "2": "Captain Comet",
        "3": "Iron Tortoise",
        "5": "Night Heron",
        "6": "Night Heron",
        "7": "Silver Sparrow",
    }
    assert report["hp"] == {
        "Captain Comet": 9,
        "Doctor Paradox": 10,
        "Granite Jack": -1,
        "Iron Tortoise": 5,
        "Lady Lightning": 0,
        "Night Heron": 8,
        "Silver Sparrow": 7,
        "The Quiet Storm": 4,
    }
    assert report["calls"] == [
        {"caller": "Doctor Paradox", "target": "Silver Sparrow", "correct": True, "player": "6"}
    ]
    assert state.round == 7 and state.rng.next_dice() == []


def test_a_hand_of_god_effect_in_force() -> None:
    """forced-abstain: bob and ed may abstain or guess, never move; Random Player's hit
    is public; everybody else moves as usual."""
    state = load("hand-of-god", HAND_OF_GOD)
    assert (state.effect, state.forced, state.random_hit) == (
        "forced-abstain",
        ("2", "5"),
        "Night Heron",
    )
    assert state.awaiting() == ("1", "3", "4", "6", "7", "8", "moderator", "2", "5")
    hidden = [
        "Captain Comet",
        "Granite Jack",
        "Iron Tortoise",
        "Iron Wasp",
        "Lady Lightning",
        "Night Heron",
        "Silver Sparrow",
        "The Quiet Storm",
    ]
    others = ["1", "3", "4", "5", "6", "7", "8", "random"]
    assert [str(a) for a in state.legal_actions("2")] == ["abstain", *guesses(hidden, others)]
    assert state.illegal_reason(
        "2", Move(("Captain Comet", "Iron Tortoise"), ("Night Heron",))
    ) == ("Hand of God forces you to abstain this round")
    assert len(state.legal_actions("1")) == 1 + 252 + 64
    public = state.view(None)
    assert public["effect"] == "forced-abstain" and public["forced_abstain"] == ["2", "5"]
    assert public["random_player_hit"] == "Night Heron"
    assert state.round_start == [
        "Hand of God: forced-abstain.",
        "Forced to abstain: bob, ed.",
        "Random Player hits Night Heron.",
    ]


def test_a_round_start_drawn_from_named_dice() -> None:
    """Round 3 starts on loading (Hand of God every third round): the named d12 gives
    no-guesses, the named draw Random Player's hit; nothing comes from the seed."""
    for seed in (1, 2):
        state = GAME.start(
            HAND_OF_GOD,
            8,
            seed,
            position=(POSITIONS / "round-dice.yaml").read_text(encoding="utf-8"),
        )
        assert isinstance(state, HeroBattleState)
        assert (state.effect, state.random_hit) == ("no-guesses", "Captain Comet")
        assert state.rng.next_dice() == []
        legal = [str(a) for a in state.legal_actions("1")]
        assert len(legal) == 1 + 252 and not [a for a in legal if a.startswith("guess")]
        assert state.illegal_reason("1", Guess("Captain Comet", "3")) == (
            "Hand of God: no guesses this round"
        )


def test_a_written_round_reads_back_as_it_was_written() -> None:
    """The shipped files are the positions as the Battle writes them, up to layout."""
    for name, options in (("mid-round", {}), ("hand-of-god", HAND_OF_GOD)):
        state = load(name, options)
        again = GAME.load_position(state.options, 8, 7, GAME.write_position(state), "again")
        assert GAME.write_position(again) == GAME.write_position(state)


BAD: list[tuple[str, str, str]] = [
    (
        "started: {}",
        "started: {hand_of_god: calm}",
        "pos.yaml:24: started, hand_of_god: the option hand_of_god is off",
    ),
    (
        "started: {}",
        "started: {forced_abstain: [2]}",
        "pos.yaml:24: started, forced_abstain: only with hand_of_god: forced-abstain",
    ),
    (
        "started: {}",
        "started: {random_player_hit: Night Heron}",
        "pos.yaml:24: started, random_player_hit: the option random_player is off",
    ),
    (
        "  5: abstain",
        "  4: abstain",
        "pos.yaml:27: moves: player 4 has no hero alive or a Zombie",
    ),
    (
        "  5: abstain",
        "  5: hit Granite Jack, Night Heron",
        "pos.yaml:27: moves: 'hit Granite Jack, Night Heron': a move this round is 2 hit(s) "
        "and 1 heal(s), not 2 and 0",
    ),
    (
        "  5: abstain",
        "  5: dance",
        "pos.yaml:27: moves: 'dance': write 'hit HERO, HERO heal HERO' or abstain",
    ),
    (
        "  5: abstain",
        "  9: abstain",
        "pos.yaml:27: moves: no player 9",
    ),
    (
        "[Silver Sparrow=6]",
        "[Doctor Paradox=2]",
        "pos.yaml:29: guesses: 'Doctor Paradox=2': Doctor Paradox's identity is already known",
    ),
    (
        "[Silver Sparrow=6]",
        "[Silver Sparrow]",
        "pos.yaml:29: guesses: 'Silver Sparrow': write HERO=PLAYER",
    ),
    (
        "started: {}",
        "over: true",
        "pos.yaml:24: over: 6 players' heroes alive before the last round",
    ),
    (
        "started: {}",
        "",
        "pos.yaml:26: moves: the round has not started: give started",
    ),
]


@pytest.mark.parametrize(("old", "new", "message"), BAD)
def test_errors_of_a_round_under_way_name_the_line_and_the_field(
    old: str, new: str, message: str
) -> None:
    text = (POSITIONS / "mid-round.yaml").read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(PositionError) as err:
        GAME.start({}, 8, 7, position=text.replace(old, new, 1), source="pos.yaml")
    assert str(err.value).startswith(message), str(err.value)


def test_cli_lists_the_actions_of_a_round_under_way(tmp_path: Path) -> None:
    """gladiatorium legal --position with a shipped position of a round under way."""
    where = ["--position", str(POSITIONS / "hand-of-god.yaml"), "--players", "8"]
    options = ["--option", "hand_of_god=true", "--option", "random_player=true"]
    legal = runner.invoke(app, ["legal", "hero-battle", *where, *options, "--json"])
    assert legal.exit_code == 0, legal.output
    assert '"awaiting": ["1", "3", "4", "6", "7", "8", "moderator", "2", "5"]' in legal.output


def test_a_players_position_leaves_the_others_secrets_open() -> None:
    """cy's position of the round under way: cy's hero, nemeses and the public record;
    nobody else's hidden hero or nemeses, nor bob's guess; loaded, cy sees and may do
    the same."""
    state = load("mid-round")
    text = GAME.write_position(state, "3")
    assert text.startswith("round: 6\nseat: 3\n")
    assert "hero: Captain Comet" in text and "nemeses: [Doctor Paradox, The Quiet Storm]" in text
    for secret in ("Night Heron\n  nemeses", "hero: Night Heron", "Silver Sparrow=6", "hero: Iron"):
        assert secret not in text
    assert "hero: Doctor Paradox" in text  # outed: public
    copy = GAME.load_position(state.options, 8, 7, text, "cy.yaml")
    assert copy.view("3") == state.view("3")
    assert copy.legal_actions("3") == state.legal_actions("3")


@pytest.mark.parametrize(("name", "options"), [("mid-round", {}), ("round-dice", HAND_OF_GOD)])
def test_a_battle_from_a_round_under_way_is_played_recorded_and_replayed(
    name: str, options: dict[str, Any]
) -> None:
    """Bots play on to the end; the record keeps the position (its named dice too), so
    it replays alike."""
    state = load(name, options)
    run_match(state, make_bots(GAME, 5, dict.fromkeys(state.seats, "inferrer")))
    assert state.outcome() is not None
    record = record_of(GAME, state)
    assert verify(record, replay(record)) == []

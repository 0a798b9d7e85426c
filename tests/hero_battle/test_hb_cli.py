"""The terminal: a person at seat 3 among bots, the moderator's console, round posts."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from gladiatorium.cli.main import app

runner = CliRunner()
ANIMALS = '["Ant","Bat","Cat","Dog","Eel","Fox","Gnu","Hog"]'


def test_play_with_a_person_at_seat_three(tmp_path: Path) -> None:
    """`play hero-battle --players 12 --seat 3=human`: bots fill every other seat (the
    moderator's too); the person sees their hero and nemeses and moves."""
    record = tmp_path / "battle.json"
    result = runner.invoke(
        app,
        [
            "play",
            "hero-battle",
            "--players",
            "12",
            "--seat",
            "3=human",
            "--seed",
            "2",
            "--save",
            str(record),
        ],
        input="hit Captain Comet, Night Heron heal Miss Mirage\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "You: " in result.output and "nemeses" in result.output
    saved = json.loads(record.read_text())
    assert {"seat": "3", "action": "hit Captain Comet, Night Heron heal Miss Mirage"} in saved[
        "actions"
    ]


def test_moderator_console_and_post(tmp_path: Path) -> None:
    """`hero-battle moderate`: moves and guesses typed per seat, errors shown, `close`,
    `post markdown`; the saved record prints the same post with `hero-battle post`."""
    record = tmp_path / "battle.json"
    commands = "\n".join(
        [
            "1: hit Ant, Bat heal Cat",
            "2: guess Ant=3",
            "2: guess Bat=2",
            "9: abstain",
            "close",
            "post 1 markdown",
            "quit",
        ]
    )
    result = runner.invoke(
        app,
        [
            "hero-battle",
            "moderate",
            "-o",
            f"signups={ANIMALS}",
            "--seed",
            "4",
            "--save",
            str(record),
        ],
        input=commands + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "seat 2: ok" in result.output  # the guess, sent privately
    assert "you have sent 1 guess(es) this round" in result.output
    assert "no player seat '9'" in result.output
    assert "Round 1 compiled" in result.output
    assert "## Superhero Battle: Round 1 results" in result.output
    posted = runner.invoke(app, ["hero-battle", "post", str(record), "--format", "markdown"])
    assert posted.exit_code == 0, posted.output
    assert posted.stdout.startswith("## Superhero Battle: Round 1 results")
    bad = runner.invoke(app, ["hero-battle", "post", str(record), "--round", "7"])
    assert bad.exit_code == 2 and "round 7" in bad.output

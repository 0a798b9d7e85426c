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


def test_moderator_runs_a_whole_battle_with_piped_input() -> None:
    """`hero-battle moderate` from sign-ups to the last hero standing with Random
    Player and Zombies: typed moves, a guess by forum name, refusals that name the
    problem, `status` as plain text, rounds closed at the deadline, and the final
    post printed with every line whole (no console wrapping to break the BBCode)."""
    long_names = ["ann", "bob", "cy", "di", "ed", "flo", "gus", "hal"]
    names = json.dumps([f"{n} of the very long forum name" for n in long_names])
    commands = [
        "status",
        "1: hit Nobody, Bat heal Cat",
        "1: hit Ant, Bat heal Cat",
        "2: guess Bat=CY OF THE VERY LONG FORUM NAME",
        "seat 2",
        "seat 99",
        *["close"] * 30,
    ]
    result = runner.invoke(
        app,
        [
            *("hero-battle", "moderate", "--seed", "3", "-o", f"signups={ANIMALS}"),
            *("-o", f"player_names={names}", "-o", "starting_hp=3"),
            *("-o", "random_player=true", "-o", "zombies=true"),
        ],
        input="\n".join(commands) + "\n",
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "[bold]" not in out and "Moderator\n  ann of the very long forum name: " in out
    assert "'hit Nobody, Bat heal Cat': no hero called 'Nobody'" in out
    assert "Your guess: Bat as cy of the very long forum name" in out
    assert "seat '99': seats are 1 to 8, moderator or public" in out
    assert "The Battle is over: " in out and "Winner: " in out
    hp_table = out[out.index("[b]Hit points[/b]") :]
    rows = [line for line in hp_table.splitlines() if line.startswith("[tr]")]
    assert len(rows) == 10 and all(line.endswith("[/tr]") for line in rows)  # 9 heroes

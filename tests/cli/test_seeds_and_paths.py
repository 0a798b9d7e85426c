"""Unseeded matches are unpredictable; work is never lost to a bad path; the menu and
the command line refuse the same things; records are checked before they are used."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiatorium.cli import main
from gladiatorium.cli.main import app
from gladiatorium.core import Observation, RecordError, entropy_seed, games, get_game
from gladiatorium.core.match import make_bots

runner = CliRunner()
BOTS_ONLY = ["--seat", "1=random", "--seat", "2=random"]


def saved_seed(tmp_path: Path, name: str, args: list[str], given: str = "") -> int:
    record = tmp_path / name
    result = runner.invoke(app, [*args, "--save", str(record)], input=given)
    assert result.exit_code == 0, result.output
    return int(json.loads(record.read_text())["seed"])


def test_unseeded_matches_draw_different_seeds_and_save_them(tmp_path: Path) -> None:
    """`play` without --seed: two runs get different seeds (from the OS), each kept in
    its saved record; --seed still gives the same match twice."""
    play = ["play", "pig", *BOTS_ONLY]
    first, second = (saved_seed(tmp_path, f"{n}.json", play) for n in "ab")
    assert first != second
    assert saved_seed(tmp_path, "c.json", [*play, "--seed", "7"]) == 7


def test_unseeded_battles_deal_differently(tmp_path: Path) -> None:
    """`hero-battle moderate` without --seed deals from the OS's entropy."""
    moderate = ["hero-battle", "moderate", "--players", "8"]
    seeds = {saved_seed(tmp_path, f"{n}.json", moderate, "1: abstain\nquit\n") for n in "ab"}
    assert len(seeds) == 2


@pytest.mark.parametrize("slug", [g.info.slug for g in games()])
def test_the_seed_is_in_no_view_event_or_rendering(slug: str) -> None:
    game = get_game(slug)
    seed = entropy_seed()
    state = game.start(None, None, seed)
    bots = make_bots(game, seed, dict.fromkeys(state.seats, "random"))
    for _ in range(40):
        if state.is_over:
            break
        seat = state.awaiting()[0]
        state.apply(seat, bots[seat].choose(Observation.of(state, seat)))
    for seat in (*state.seats, None):
        seen = json.dumps([state.view(seat), [e.to_json() for e in state.events_for(seat)]])
        assert str(seed) not in seen + game.terminal.render(state, seat)


def test_menu_seed_is_unpredictable_when_left_empty_and_players_are_asked_again() -> None:
    """The menu refuses what `play` refuses (a Hero Battle of -1 hits a round) and asks
    again; an empty seed is drawn from the OS."""
    number = [g.info.slug for g in games()].index("hero-battle") + 1
    answers = f"{number}\n8\n\nhits_per_round=-1\n8\n\n1\nquit\nq\n"
    result = runner.invoke(app, [], input=answers)
    assert result.exit_code == 0, result.output
    assert "hits_per_round: Input should be greater" in result.output
    assert "Traceback" not in result.output


def test_a_seat_named_twice_is_refused() -> None:
    result = runner.invoke(app, ["play", "pig", "--seat", "1=human", "--seat", "1=random"])
    assert result.exit_code == 2
    assert "1 is given twice" in result.output


def test_save_paths_are_checked_before_the_game_starts(tmp_path: Path) -> None:
    """A missing folder, a folder, an existing file (without --force): refused before
    the first move, so no game is lost at the end."""
    existing = tmp_path / "old.json"
    existing.write_text("keep me")
    for path, message in (
        (tmp_path / "missing" / "x.json", "does not exist"),
        (tmp_path, "is a folder"),
        (existing, "the file exists; add --force"),
    ):
        result = runner.invoke(app, ["play", "pig", "--save", str(path)], input="roll\n")
        assert result.exit_code == 2 and message in result.output, result.output
        assert "1>" not in result.output
    assert existing.read_text() == "keep me"
    forced = runner.invoke(app, ["play", "pig", *BOTS_ONLY, "--save", str(existing), "--force"])
    assert forced.exit_code == 0 and json.loads(existing.read_text())["game"] == "pig"


def test_moderate_and_hero_new_check_their_file_first(tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere" / "x.json")
    moderate = runner.invoke(app, ["hero-battle", "moderate", "--save", missing], input="quit\n")
    assert moderate.exit_code == 2 and "does not exist" in moderate.output
    new = runner.invoke(app, ["hero", "new", "-o", missing], input="Ace\n")
    assert new.exit_code == 2 and "does not exist" in new.output
    assert "Hero name" not in new.output


def test_legal_record_is_verified_like_replay(tmp_path: Path) -> None:
    record = tmp_path / "pig.json"
    runner.invoke(app, ["play", "pig", *BOTS_ONLY, "--seed", "3", "--save", str(record)])
    data = json.loads(record.read_text())
    data["digest"] = "0" * 64
    record.write_text(json.dumps(data))
    result = runner.invoke(app, ["legal", "pig", "--record", str(record)])
    assert result.exit_code == 2
    assert f"{record}: does not reproduce" in result.output.replace("\n", "")


def test_record_seats_are_checked_and_errors_name_the_file(tmp_path: Path) -> None:
    record = tmp_path / "pig.json"
    runner.invoke(app, ["play", "pig", *BOTS_ONLY, "--seed", "3", "--save", str(record)])
    data = json.loads(record.read_text())
    for seats, message in (({"9": "random"}, "no seat '9'"), ({"1": "genius"}, "'genius'")):
        record.write_text(json.dumps({**data, "seats": seats}))
        result = runner.invoke(app, ["replay", str(record)])
        assert result.exit_code == 2
        assert str(record) in result.output.replace("\n", "") and message in result.output


def test_a_save_that_fails_at_the_end_prints_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder vanished or the disk filled during the match: the record is printed
    (the match is not lost) and the error names the file."""

    def broken(record: object, path: Path) -> None:
        raise RecordError(f"{path}: cannot write the record (No space left on device)")

    monkeypatch.setattr(main, "save_record", broken)
    target = tmp_path / "m.json"
    result = runner.invoke(app, ["play", "pig", *BOTS_ONLY, "--save", str(target)])
    assert result.exit_code == 2
    assert '"game": "pig"' in result.output
    assert "No space left on device); the record is printed on standard output" in result.output

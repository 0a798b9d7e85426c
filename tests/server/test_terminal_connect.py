"""``gladiatorium connect``: a seat of a match on a real server process, played at the
terminal to its end over the API and the socket; a refused move said and asked again;
an invitation taken by a guest; a refused login and a bad link as one clear line."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
import pytest
from rich.console import Console
from server_helpers import PASSWORD, LiveServer
from typer.testing import CliRunner

from gladiatorium.cli.connect import ConnectError, Connection, Login, connect, parse_link
from gladiatorium.cli.main import app

Start = Callable[..., LiveServer]
runner = CliRunner()


def register(server: LiveServer, name: str) -> dict[str, str]:
    answer = httpx2.post(
        server.url + "/api/register", json={"username": name, "password": PASSWORD}
    )
    assert answer.status_code == 201, answer.text
    return {"authorization": f"Bearer {answer.json()['token']}"}


def create(server: LiveServer, headers: dict[str, str], seats: dict[str, str]) -> dict[str, Any]:
    answer = httpx2.post(
        server.url + "/api/matches",
        json={"game": "pig", "seats": seats, "options": {"target": 1}},
        headers=headers,
    )
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def player(server: LiveServer, match: str, headers: dict[str, str]) -> Callable[[str], str]:
    """Answers the prompt as a person would: first a move that is no move, then hold
    when holding is legal, else roll (the seat's legal actions read from the API)."""
    typed: list[str] = []

    def read(prompt: str) -> str:
        if not typed:
            answer = "fly"
        else:
            body = httpx2.get(
                f"{server.url}/api/matches/{match}", params={"seat": "1"}, headers=headers
            ).json()
            answer = "hold" if "hold" in body["legal"] else "roll"
        typed.append(f"{prompt}{answer}")
        return answer

    read.typed = typed  # type: ignore[attr-defined]
    return read


def test_connect_plays_a_pig_match_against_a_bot_to_its_end(
    live_server: Start, tmp_path: Path
) -> None:
    server = live_server(f"sqlite:///{tmp_path / 'connect.db'}")
    ada = register(server, "ada")
    match = create(server, ada, {"1": "me", "2": "bot:random"})["id"]
    out = io.StringIO()
    console = Console(file=out, width=100)
    read = player(server, match, ada)
    never: Callable[[str], str] = lambda _prompt: pytest.fail("no password to ask")  # noqa: E731
    result = connect(
        f"{server.url}/matches/{match}?seat=1", None, Login("ada", PASSWORD), console, read, never
    )
    summary = httpx2.get(f"{server.url}/api/matches/{match}/result").json()
    assert result == summary["result"]  # the label every page shows
    winner = summary["outcome"]["winners"]
    assert result in (
        "Won by ada: reached the target",
        "Won by bot random (seat 2): reached the target",
    )
    assert (result == "Won by ada: reached the target") == (winner == ["1"])
    text = out.getvalue()
    assert text.startswith(f"match {match}, seat 1 on {server.url}\n")
    # the refused move: the server's reason, and the prompt again
    assert "'fly' is not" in text or "not a legal action" in text, text
    assert "(type 'legal' or 'help')" in text
    assert read.typed[0] == "1> fly" and read.typed[1].startswith("1> ")  # type: ignore[attr-defined]
    assert "banked  1: " in text  # Pig's own terminal picture, in its panel
    assert "final board" in text
    # connected again once it is over: the result, in one line
    with pytest.raises(ConnectError) as over:
        connect(f"{server.url}/matches/{match}", "1", Login("ada", PASSWORD), console, read, never)
    assert str(over.value) == f"this match is over: {result}"


def test_connect_takes_an_invitation_as_a_guest(live_server: Start, tmp_path: Path) -> None:
    """The command itself, its moves typed on stdin: a guest's invitation (no login,
    the seat secret riding on a cookie through the API and the socket) played to the
    end, the last line the result; the link used, a second use is refused in words."""
    server = live_server(f"sqlite:///{tmp_path / 'guest.db'}")
    ada = register(server, "ada")
    created = create(server, ada, {"1": "invite", "2": "bot:random"})
    match, link = created["id"], created["invites"]["1"]
    nobody = {"GLADIATORIUM_USER": None, "GLADIATORIUM_PASSWORD": None}
    # hold after each roll (refused after a 1 lost the turn total), then roll again
    played = runner.invoke(app, ["connect", link], input="roll\nhold\n" * 200, env=nobody)
    assert played.exit_code == 0, played.output
    result = httpx2.get(f"{server.url}/api/matches/{match}/result").json()["result"]
    assert result in (
        "Won by seat 1: reached the target",
        "Won by bot random (seat 2): reached the target",
    )
    lines = played.output.strip().splitlines()
    assert lines[0] == f"match {match}, seat 1 on {server.url}" and lines[-1] == result
    assert "1> " in played.output  # the prompt, as at `gladiatorium play`
    again = runner.invoke(app, ["connect", link], env=nobody)
    assert again.exit_code == 1
    assert again.output.startswith("error: this invitation was already used"), again.output


def test_a_refused_login_and_bad_links_are_one_clear_line(
    live_server: Start, tmp_path: Path
) -> None:
    server = live_server(f"sqlite:///{tmp_path / 'refused.db'}")
    ada = register(server, "ada")
    match = create(server, ada, {"1": "me", "2": "bot:random"})["id"]
    # the terminal's picture of a seat is its holder's alone
    other = httpx2.get(f"{server.url}/api/matches/{match}/terminal", params={"seat": "2"})
    assert other.status_code == 403, other.text
    mine = httpx2.get(
        f"{server.url}/api/matches/{match}/terminal", params={"seat": "1"}, headers=ada
    ).json()
    assert sorted(mine) == ["deciding", "notes", "picture", "ply", "prompt", "summary"]
    env = {"GLADIATORIUM_PASSWORD": "not-the-password"}
    refused = runner.invoke(
        app, ["connect", f"{server.url}/matches/{match}", "--seat", "1", "--user", "ada"], env=env
    )
    assert refused.exit_code == 1
    assert refused.output.strip() == (
        "error: login refused for 'ada': wrong username or password"
    ), refused.output
    assert "Traceback" not in refused.output
    for link, said in [
        ("ftp://example.org/matches/x", "error: not a server link: 'ftp://example.org/matches/x'"),
        (f"{server.url}/lobby", f"error: not a match or an invitation: '{server.url}/lobby'"),
        ("http://127.0.0.1:1/matches/x", "error: cannot reach http://127.0.0.1:1: "),
        (f"{server.url}/invite/nothing", "error: this invitation link is not valid"),
    ]:
        login = [] if "/invite/" in link else ["--user", "ada"]  # a guest's invitation
        answer = runner.invoke(app, ["connect", link, *login], env=env)
        assert answer.exit_code == 1, answer.output
        assert answer.output.startswith(said), answer.output
        assert "Traceback" not in answer.output and len(answer.output.strip().splitlines()) <= 2


def test_links_are_read_as_the_server_writes_them() -> None:
    assert parse_link("https://g.example/matches/abc?seat=2").seat == "2"
    assert parse_link("https://g.example/matches/abc", "3").match == "abc"
    assert parse_link("http://h:8000/invite/T0k").invite == "T0k"
    assert parse_link("http://h:8000/invite/T0k").base == "http://h:8000"


def test_the_final_board_is_shown_when_its_picture_came_with_an_earlier_read() -> None:
    """The board and the body are two requests: a bot that ends the match between them
    gives the final picture with a body still in play. When the next body says the
    match is over, that picture is shown again as the final board."""
    out = io.StringIO()
    never: Callable[[str], str] = lambda _prompt: pytest.fail("nothing to read")  # noqa: E731
    seat = Connection(None, "m", "1", Console(file=out, width=100), never)  # type: ignore[arg-type]
    playing = {"game": "pig", "events": [], "outcome": None}
    seat.show(playing, {"picture": "banked  1: 12  2: 100"})
    assert "final board" not in out.getvalue()
    seat.show({**playing, "outcome": {"winners": ["2"]}}, {"picture": "banked  1: 12  2: 100"})
    assert "final board" in out.getvalue()
    shown = out.getvalue()
    seat.show({**playing, "outcome": {"winners": ["2"]}}, {"picture": "banked  1: 12  2: 100"})
    assert out.getvalue() == shown  # once

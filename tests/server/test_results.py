"""A finished match's result says who won by name, the same way on the match page, the
lobby, the replay and the API (``server/results.py``)."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient
from server_helpers import act, body, create, register, wait_for

from gladiatorium.server.db import MatchSeat
from gladiatorium.server.results import result_label, seat_name


def _row(seat: str, kind: str, user_id: int | None = None, bot: str | None = None) -> MatchSeat:
    return MatchSeat(match_id="m", seat=seat, kind=kind, user_id=user_id, bot=bot)


def test_a_bot_is_named_with_its_seat_and_a_person_by_user_name() -> None:
    users = {7: "alice"}
    assert seat_name(_row("1", "user", 7), users) == "alice"
    assert seat_name(_row("4", "bot", bot="inferrer"), users) == "bot inferrer (seat 4)"
    assert seat_name(_row("2", "open"), users) == "seat 2"
    assert seat_name(_row("3", "server"), users) == "seat 3"


def test_the_label_names_the_winner_the_reason_and_the_scores() -> None:
    names = {s: f"bot inferrer (seat {s})" for s in "12345"}
    outcome = {"winners": ["5"], "team": None, "reason": "the title", "scores": {"5": 31, "1": 2.5}}
    assert result_label(outcome, names) == (
        "Won by bot inferrer (seat 5): the title; "
        "score: bot inferrer (seat 5) 31, bot inferrer (seat 1) 2.5"
    )


def test_a_team_that_is_a_seat_is_named_by_its_holder_another_by_its_name() -> None:
    names = {"1": "alice", "2": "bob"}
    side = {"winners": ["2"], "team": "2", "reason": "knockout", "scores": {}}
    assert result_label(side, names) == "Won by bob: knockout"
    colour = {"winners": ["1", "2"], "team": "White", "reason": "", "scores": {}}
    assert result_label(colour, names) == "Won by White (alice, bob)"
    assert result_label({"winners": [], "lost": True, "reason": "short"}, names) == (
        "Everyone lost: short"
    )
    assert result_label({"winners": [], "reason": "turn limit"}, names) == "Draw: turn limit"
    assert result_label(None, names) == ""


def test_a_person_holding_several_seats_is_named_once_and_scored_by_seat() -> None:
    names = {"1": "crowd", "2": "crowd", "3": "bob"}
    outcome = {"winners": ["1", "2"], "reason": "shared", "scores": {"1": 8, "2": 8, "3": 3}}
    assert result_label(outcome, names) == (
        "Won by crowd: shared; score: crowd (seat 1) 8, crowd (seat 2) 8, bob 3"
    )


def _finish_against_a_bot(client: TestClient) -> str:
    match = create(client, "pig", {"1": "me", "2": "bot:random"}, options={"target": 1})["id"]
    for _ in range(200):
        current = body(client, match, "1")
        if current["outcome"] is not None:
            return str(match)
        if current["awaiting"] != ["1"]:
            wait_for(lambda: body(client, match, "1")["awaiting"] != ["2"], what="the bot")
            continue
        choice = "hold" if "hold" in current["legal"] else "roll"
        assert act(client, match, "1", choice).status_code == 200
    raise AssertionError("the Pig match did not end")


def test_every_page_and_the_api_say_the_same_result(sqlite_client: TestClient) -> None:
    client = sqlite_client
    register(client, "ada")
    match = _finish_against_a_bot(client)
    assert client.get(f"/api/matches/{match}/result").status_code == 200
    summary = client.get(f"/api/matches/{match}/result").json()
    result = summary["result"]
    assert result.startswith(("Won by ada: ", "Won by bot random (seat 2): ")), result
    shown = html.escape(result, quote=False)
    assert f'<p id="result">{shown}</p>' in client.get(f"/matches/{match}").text
    lobby = client.get("/").text
    row = lobby[lobby.index(f"/matches/{match}") :]
    assert f"· {shown}</div>" in row[:2000]
    replay = client.get(f"/matches/{match}/replay").text
    assert f'<strong id="replay-result">{shown}</strong>' in replay
    service = client.app.state.service  # type: ignore[attr-defined]
    service.store.forget(match)  # the lobby reads a finished match from its row
    assert f"· {shown}</div>" in client.get("/").text
    assert client.get(f"/api/matches/{match}/result").json() == summary
    assert summary["places"][0]["place"] == 1 and summary["places"][1]["place"] == 2
    assert {p["names"][0] for p in summary["places"]} == {"ada", "bot random (seat 2)"}


def test_the_result_of_a_match_in_progress_is_409(sqlite_client: TestClient) -> None:
    register(sqlite_client, "ada")
    match = create(sqlite_client, "pig", {"1": "me", "2": "me"})["id"]
    answer = sqlite_client.get(f"/api/matches/{match}/result")
    assert (answer.status_code, answer.json()["error"]) == (409, "the match is not over yet")
    assert sqlite_client.get("/api/matches/nope/result").status_code == 404


def test_a_finished_match_page_shows_the_places(sqlite_client: TestClient) -> None:
    client = sqlite_client
    register(client, "ada")
    match = _finish_against_a_bot(client)
    winner = body(client, match)["outcome"]["winners"][0]
    ada, bot = "ada", "bot random (seat 2)"
    first, second = (ada, bot) if winner == "1" else (bot, ada)
    page = client.get(f"/matches/{match}").text
    table = page[page.index('<table id="final-places">') :]
    table = table[: table.index("</table>")]
    rows = re.findall(r"<tr><td>(\d)</td><td>([^<]*)</td><td>(\d)</td></tr>", table)
    assert rows == [("1", first, winner), ("2", second, "2" if winner == "1" else "1")]

"""A person's turns (``GET /api/me/turns``, the socket ``/ws/me``), the matches with
open seats (``GET /api/matches/open``) and rematches, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from server_helpers import ORIGIN, PASSWORD, recv, register, wait_for
from sqlalchemy import select
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from gladiatorium.server.db import Match, MatchSeat
from gladiatorium.server.rematch import rematch_id, rotated


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def call(client: TestClient, token: str, method: str, path: str, data: Any = None) -> Any:
    answer = client.request(method, path, json=data, headers=bearer(token))
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def turns(client: TestClient, token: str) -> list[tuple[str, str]]:
    return [(t["match"], t["seat"]) for t in call(client, token, "GET", "/api/me/turns")["turns"]]


def pig(client: TestClient, token: str, seats: dict[str, str], **extra: Any) -> str:
    data = {"game": "pig", "seats": seats, **extra}
    return str(call(client, token, "POST", "/api/matches", data)["id"])


def pass_turn(client: TestClient, token: str, match: str, seat: str) -> None:
    """``seat`` rolls until the turn passes (a one) or it may hold, then holds."""
    for _ in range(100):
        view = call(client, token, "GET", f"/api/matches/{match}?seat={seat}")
        if view["awaiting"] != [seat] or view["outcome"] is not None:
            return
        action = "hold" if "hold" in view["legal"] else "roll"
        move = {"seat": seat, "action": action}
        call(client, token, "POST", f"/api/matches/{match}/actions", move)
    raise AssertionError("the turn never passed")


def test_turns_after_moves_by_two_people(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    first = pig(client, alice, {"1": "me", "2": "open"}, settings={"clock_days": 1})
    call(client, bob, "POST", f"/api/matches/{first}/join", {"seat": "2"})
    second = pig(client, bob, {"1": "me", "2": "open"})
    call(client, alice, "POST", f"/api/matches/{second}/join", {"seat": "2"})
    assert turns(client, alice) == [(first, "1")]
    assert turns(client, bob) == [(second, "1")]
    pass_turn(client, bob, second, "1")
    assert turns(client, alice) == [(first, "1"), (second, "2")]  # oldest first
    assert turns(client, bob) == []
    listed = call(client, alice, "GET", "/api/me/turns")["turns"]
    assert sorted(listed[0]) == ["deadline", "game", "match", "seat", "since"]
    assert listed[0]["game"] == "pig" and listed[0]["deadline"] is not None  # the clock
    assert listed[1]["deadline"] is None and listed[0]["since"] < listed[1]["since"]
    pass_turn(client, alice, first, "1")
    assert turns(client, alice) == [(second, "2")]
    assert turns(client, bob) == [(first, "2")]
    client.cookies.clear()
    refused = client.get("/api/me/turns")
    assert refused.status_code == 401 and "log in" in refused.json()["error"]


def test_the_socket_pushes_my_turns_when_they_change(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")  # the cookie: bob's
    match = pig(client, alice, {"1": "me", "2": "open"})
    call(client, bob, "POST", f"/api/matches/{match}/join", {"seat": "2"})
    with client.websocket_connect("/ws/me", headers={"origin": ORIGIN}) as ws:
        assert recv(ws) == {"type": "turns", "turns": []}
        pass_turn(client, alice, match, "1")
        pushed = recv(ws)
        assert pushed["type"] == "turns"
        assert [(t["match"], t["seat"]) for t in pushed["turns"]] == [(match, "2")]
    client.cookies.clear()
    with client.websocket_connect("/ws/me") as ws:
        message = ws.receive()
        assert message["type"] == "websocket.close" and message["code"] == 4401


def test_open_seats_filtered_by_game_and_joined(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    match = pig(client, alice, {"1": "me", "2": "open"})
    chess = call(
        client,
        alice,
        "POST",
        "/api/matches",
        {"game": "gladiator-chess", "seats": {"white-king": "me"}},
    )["id"]
    everything = client.get("/api/matches/open").json()["matches"]
    assert [m["match"] for m in everything] == [chess, match]  # newest first
    only_pig = client.get("/api/matches/open", params={"game": "pig"}).json()["matches"]
    assert [(m["match"], m["game"], m["seats"]) for m in only_pig] == [(match, "pig", ["2"])]
    unknown = client.get("/api/matches/open", params={"game": "chess"})
    assert unknown.status_code == 422 and "chess" in unknown.json()["error"]
    call(client, bob, "POST", f"/api/matches/{match}/join", {"seat": "2"})
    assert client.get("/api/matches/open", params={"game": "pig"}).json()["matches"] == []
    again = client.post(f"/api/matches/{match}/join", json={"seat": "2"}, headers=bearer(alice))
    assert again.status_code == 409


def test_rematch_rotates_seats(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    match = pig(client, alice, {"1": "me", "2": "open"}, options={"target": 1})
    refused = client.post(f"/api/matches/{match}/rematch", headers=bearer(alice))
    assert refused.status_code == 409  # still being played
    call(client, bob, "POST", f"/api/matches/{match}/join", {"seat": "2"})
    for _ in range(100):
        view = call(client, alice, "GET", f"/api/matches/{match}")
        if view["outcome"] is not None:
            break
        seat = view["awaiting"][0]
        pass_turn(client, alice if seat == "1" else bob, match, seat)
    stranger = register(client, "carol")
    assert client.post(f"/api/matches/{match}/rematch", headers=bearer(stranger)).status_code == 403
    made = client.post(f"/api/matches/{match}/rematch", headers=bearer(bob))
    assert made.status_code == 201 and made.json()["id"] == rematch_id(match)
    same = client.post(f"/api/matches/{match}/rematch", headers=bearer(alice))
    assert same.status_code == 200 and same.json()["id"] == made.json()["id"]
    new = made.json()["id"]
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.store.sessions() as session:
        rows = session.scalars(select(MatchSeat).where(MatchSeat.match_id == new)).all()
        holders = {row.seat: (row.kind, row.user_id) for row in rows}
    accounts = client.app.state.accounts  # type: ignore[attr-defined]
    ids = {"a": accounts.user_of(alice).id, "b": accounts.user_of(bob).id}
    assert holders == {"1": ("user", ids["b"]), "2": ("user", ids["a"])}
    assert turns(client, bob) == [(new, "1")]  # in bob's turns at once: nothing to accept
    with service.store.sessions() as session:
        assert session.get(Match, new).options["target"] == 1  # the same options


def test_rotation_keeps_the_server_seats() -> None:
    order = ["1", "2", "3", "moderator"]
    assert rotated(order, {"moderator"}) == {"1": "2", "2": "3", "3": "1", "moderator": "moderator"}


def test_the_socket_on_real_servers(postgres_url: str, live_server: Callable[..., Any]) -> None:
    """``/ws/me`` on one server process, the move on another on the same PostgreSQL
    database: the notice travels by NOTIFY (on SQLite, one process: the in-process
    tests above)."""
    first, other = live_server(postgres_url), live_server(postgres_url)
    tokens = {}
    for name in ("alice", "bob"):
        answer = httpx2.post(
            first.url + "/api/register", json={"username": name, "password": PASSWORD}
        )
        tokens[name] = answer.json()["token"]

    def post(server: Any, who: str, path: str, data: Any) -> Any:
        answer = httpx2.post(server.url + path, json=data, headers=bearer(tokens[who]), timeout=30)
        assert answer.status_code in (200, 201), answer.text
        return answer.json()

    match = post(other, "alice", "/api/matches", {"game": "pig", "seats": {"1": "me", "2": "open"}})
    post(other, "bob", f"/api/matches/{match['id']}/join", {"seat": "2"})
    with (
        pytest.raises(ConnectionClosed) as refused,
        connect(
            f"{first.ws_url}/ws/me",
            additional_headers={**bearer(tokens["bob"]), "origin": "http://evil.example"},
            open_timeout=30,
        ) as ws,
    ):
        ws.recv(timeout=30)
    assert refused.value.rcvd is not None and refused.value.rcvd.code == 4403
    with connect(
        f"{first.ws_url}/ws/me", additional_headers=bearer(tokens["bob"]), open_timeout=30
    ) as ws:
        assert json.loads(ws.recv(timeout=30)) == {"type": "turns", "turns": []}
        for _ in range(100):  # alice's turn, on the other server, until it passes
            view = httpx2.get(
                f"{other.url}/api/matches/{match['id']}?seat=1", headers=bearer(tokens["alice"])
            ).json()
            if view["awaiting"] != ["1"]:
                break
            action = "hold" if "hold" in view["legal"] else "roll"
            post(
                other,
                "alice",
                f"/api/matches/{match['id']}/actions",
                {"seat": "1", "action": action},
            )
        pushed = json.loads(ws.recv(timeout=30))
        assert [(t["match"], t["seat"]) for t in pushed["turns"]] == [(match["id"], "2")]


def test_a_rematch_rotates_a_bot_alike(sqlite_client: TestClient) -> None:
    client = sqlite_client
    alice = register(client, "alice")
    match = pig(client, alice, {"1": "me", "2": "bot:random"}, options={"target": 1})
    for _ in range(100):
        view = call(client, alice, "GET", f"/api/matches/{match}")
        if view["outcome"] is not None:
            break
        if view["awaiting"] == ["1"]:
            pass_turn(client, alice, match, "1")
        else:
            wait_for(
                lambda: call(client, alice, "GET", f"/api/matches/{match}")["awaiting"] != ["2"],
                what="the bot's turn to pass",
            )
    new = call(client, alice, "POST", f"/api/matches/{match}/rematch")["id"]
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.store.sessions() as session:
        rows = session.scalars(select(MatchSeat).where(MatchSeat.match_id == new)).all()
        holders = {row.seat: (row.kind, row.bot) for row in rows}
    assert holders == {"1": ("bot", "random"), "2": ("user", None)}

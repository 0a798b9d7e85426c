"""Security of the server: the WebSocket handshake, seat tokens, per-connection limits,
and regression tests replaying boardgame.io's known leaks (state sent to a connection
that failed authentication, state sent on sync without credentials, secrets in the
initial state, secrets in logs)."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import (
    ORIGIN,
    act,
    body,
    create,
    is_body,
    recv,
    recv_until,
    register,
    wait_for,
)
from sqlalchemy import select
from starlette.websockets import WebSocketDisconnect

from gladiatorium.core import registry
from gladiatorium.server.app import create_app
from gladiatorium.server.config import Settings
from gladiatorium.server.db import Match
from gladiatorium.server.service import MatchService


def service_of(client: TestClient) -> MatchService:
    return client.app.state.service  # type: ignore[attr-defined,no-any-return]


def refused_handshake(client: TestClient, url: str, **kwargs: Any) -> int:
    """Connect and expect the server to close before sending anything: its code."""
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(url, **kwargs) as ws,
    ):
        message = recv(ws, 5)
        pytest.fail(f"the server sent {message!r} on a refused handshake")
    return closed.value.code


def test_websocket_handshake_authenticates_and_checks_origin(client: TestClient) -> None:
    register(client, "ada")
    match = create(client, "pig", {"1": "me", "2": "invite"})["id"]
    stranger = TestClient(client.app)
    # no credentials, a forged cookie: nothing is sent, closed 4403; a bad bearer token: 4401
    assert refused_handshake(stranger, f"/ws/matches/{match}?seat=1") == 4403
    stranger.cookies.set("gladiatorium_session", "forged")
    assert refused_handshake(stranger, f"/ws/matches/{match}?seat=1") == 4403
    assert (
        refused_handshake(
            TestClient(client.app),
            f"/ws/matches/{match}?seat=1",
            headers={"authorization": "Bearer forged"},
        )
        == 4401
    )
    # a seat that is not the caller's, and a match that does not exist
    assert refused_handshake(client, f"/ws/matches/{match}?seat=2") == 4403
    assert refused_handshake(client, "/ws/matches/nosuchmatch?seat=1") == 4404
    # the right cookie from another site's page (cross-site WebSocket hijacking)
    for origin in ("http://evil.example", "null", "http://testserver.evil.example"):
        for query in ("?seat=1", ""):
            code = refused_handshake(
                client, f"/ws/matches/{match}{query}", headers={"origin": origin}
            )
            assert code == 4403, (origin, query)
    with client.websocket_connect(f"/ws/matches/{match}?seat=1", headers={"origin": ORIGIN}) as ws:
        assert recv(ws) == body(client, match, "1")


def test_a_seat_token_gives_that_seat_only(sqlite_client: TestClient) -> None:
    client = sqlite_client
    register(client, "ada")
    first = create(client, "pig", {"1": "me", "2": "invite"})
    second = create(client, "pig", {"1": "invite", "2": "me"})
    token = first["invites"]["2"].rsplit("/", 1)[1]
    guest = TestClient(client.app)
    # the token, presented as the seat cookie of another match, opens nothing there
    guest.cookies.set(f"gladiatorium_seat_{second['id']}", token)
    for seat in ("1", "2"):
        assert guest.get(f"/api/matches/{second['id']}", params={"seat": seat}).status_code == 403
    guest.cookies.clear()
    assert guest.get(f"/invite/{token}", follow_redirects=False).status_code == 303
    assert body(guest, first["id"], "2")["game"] == "pig"
    assert guest.get(f"/api/matches/{first['id']}", params={"seat": "1"}).status_code == 403
    assert act(guest, first["id"], "1", "roll").status_code == 403
    # a guest may not create a match (an account is needed)
    assert (
        guest.post("/api/matches", json={"game": "pig"}, headers={"origin": ORIGIN})
        .json()["error"]
        .startswith("log in to create a match")
    )
    assert guest.get("/api/library").status_code == 403
    # a bearer client never borrows seat cookies
    bearer = register(TestClient(client.app), "bob")
    with_cookie = TestClient(client.app)
    secret = guest.cookies.get(f"gladiatorium_seat_{first['id']}")
    assert secret and secret != token  # the guest's own seat secret, not the link's token
    with_cookie.cookies.set(f"gladiatorium_seat_{first['id']}", secret)
    answer = with_cookie.get(
        f"/api/matches/{first['id']}",
        params={"seat": "2"},
        headers={"authorization": f"Bearer {bearer}"},
    )
    assert answer.status_code == 403


def test_message_size_and_rate_limits_per_connection(tmp_path: Path) -> None:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'limits.db'}",
        bot_delay_seconds=0,
        scheduler_interval=0.05,
        ws_rate=2.0,
    )
    with TestClient(create_app(settings)) as client:
        register(client, "ada")
        match = create(client, "pig", {"1": "me", "2": "me"})["id"]
        before = body(client, match, "1")
        with client.websocket_connect(f"/ws/matches/{match}?seat=1") as ws:
            recv(ws)
            replies = []
            for _ in range(8):
                ws.send_text(json.dumps({"action": "fly"}))
                replies.append(recv_until(ws, lambda m: not is_body(m)))
            statuses = [r["status"] for r in replies]
            assert 429 in statuses, statuses
            assert statuses[0] == 400
        assert body(client, match, "1") == before
        # a second connection has its own bucket
        with client.websocket_connect(f"/ws/matches/{match}?seat=1") as ws:
            recv(ws)
            ws.send_text(json.dumps({"action": "fly"}))
            assert recv_until(ws, lambda m: not is_body(m))["status"] == 400
            ws.send_text(json.dumps({"action": "roll", "pad": "x" * 9000}))
            reply = recv_until(ws, lambda m: not is_body(m))
            assert "over 8192 bytes" in reply["error"]
            with pytest.raises(WebSocketDisconnect) as closed:
                recv(ws, 10)
            assert closed.value.code == 1008
        assert body(client, match, "1") == before
        big = client.post(
            f"/api/matches/{match}/actions",
            content=b'{"seat": "1", "action": "' + b"x" * 300_000 + b'"}',
            headers={"origin": ORIGIN, "content-type": "application/json"},
        )
        assert big.status_code == 413
        assert big.json() == {"error": "request body over 262144 bytes"}
        assert body(client, match, "1") == before


def test_no_state_on_sync_without_credentials(sqlite_client: TestClient) -> None:
    """boardgame.io sent a seat's state to a sync that named the seat without its
    credentials; here such a connection is refused and a spectator gets only the
    spectator's view, with none of any seat's secrets."""
    client = sqlite_client
    register(client, "ada")
    players = [str(n) for n in range(1, 9)]
    match = create(client, "hero-battle", dict.fromkeys([*players, "moderator"], "me"))["id"]
    live = service_of(client).store.live(match)
    anonymous = TestClient(client.app)
    for seat in (*players, "moderator"):
        assert refused_handshake(anonymous, f"/ws/matches/{match}?seat={seat}") == 4403
        assert anonymous.get(f"/api/matches/{match}", params={"seat": seat}).status_code == 403
    with anonymous.websocket_connect(f"/ws/matches/{match}") as ws:
        watched = recv(ws)
    assert watched["view"] == json.loads(json.dumps(live.state.view(None)))
    assert watched["legal"] == []
    assert all("to" not in e for e in watched["events"])
    text = json.dumps(watched)
    for secret in live.state.secrets_for(None):
        assert secret not in text
    for seat in players:
        assert not any(f'"to": ["{seat}"]' in json.dumps(e) for e in watched["events"])


def test_no_secrets_in_the_initial_state(sqlite_client: TestClient) -> None:
    """Every seat's first body (GET and WebSocket) holds none of what it may not know."""
    client = sqlite_client
    register(client, "ada")
    for game, seats in (
        ("hero-battle", [*(str(n) for n in range(1, 9)), "moderator"]),
        ("super-dice-heroes", ["1", "2"]),
    ):
        match = create(client, game, dict.fromkeys(seats, "me"))["id"]
        state = service_of(client).store.live(match).state
        for seat in [*seats, None]:
            query = "" if seat is None else f"?seat={seat}"
            with client.websocket_connect(f"/ws/matches/{match}{query}") as ws:
                first = recv(ws)
            assert first == body(client, match, seat)
            text = json.dumps(first)
            secrets = state.secrets_for(seat)
            assert all(secret not in text for secret in secrets), (game, seat)
            others = [e.text for e in state.events if e.to is not None and (seat not in e.to)]
            assert all(other not in text for other in others), (game, seat)
            assert str(state.seed) not in text


def test_no_secrets_in_logs(sqlite_client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    """The gladiatorium loggers (one line per request and per match event) never
    write a private event, a secret action, or a token."""
    client = sqlite_client
    caplog.set_level(logging.DEBUG, logger="gladiatorium")
    token = register(client, "ada")
    players = [str(n) for n in range(1, 9)]
    battle = create(client, "hero-battle", dict.fromkeys(players, "me") | {"moderator": "invite"})
    dice = create(client, "super-dice-heroes", {"1": "me", "2": "me"})
    invite = battle["invites"]["moderator"].rsplit("/", 1)[1]
    TestClient(client.app).get(f"/invite/{invite}", follow_redirects=False)
    secret_actions = []
    for round_number in range(1):
        for seat in players:
            legal = body(client, battle["id"], seat)["legal"]
            guesses = [a for a in legal if a.startswith("guess")]
            if seat in ("1", "2") and guesses:
                guess = guesses[(round_number * 5 + int(seat)) % len(guesses)]
                assert act(client, battle["id"], seat, guess).status_code == 200
                secret_actions.append(guess)
            hits = [a for a in legal if a.startswith("hit")]
            assert act(client, battle["id"], seat, hits[int(seat) % len(hits)]).status_code == 200
    for _ in range(12):
        current = body(client, dice["id"])
        if current["outcome"] is not None or not current["awaiting"]:
            break
        for seat in current["awaiting"]:
            legal = body(client, dice["id"], seat)["legal"]
            if legal:
                act(client, dice["id"], seat, legal[-1])
    logged = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith("gladiatorium"))
    assert "match=" in logged and "accepted" in logged
    private = []
    for match in (battle["id"], dice["id"]):
        state = service_of(client).store.live(match).state
        private += [e.text for e in state.events if e.to is not None]
        assert str(state.seed) not in logged
    assert private
    public = "\n".join(
        e.text
        for match in (battle["id"], dice["id"])
        for e in service_of(client).store.live(match).state.events
        if e.to is None
    )
    for text in private:
        if text not in public:  # a text the rules later publish word for word is no secret
            assert text not in logged, text
    for action in secret_actions:
        assert action not in logged, action
    assert token not in logged and invite not in logged


def stored_ply(service: MatchService, match_id: str) -> int:
    """The ply the database holds for a match (what a rebuild starts from)."""
    with service.store.sessions() as session:
        return int(session.scalar(select(Match.ply).where(Match.id == match_id)) or 0)


def test_a_bot_over_its_thinking_time_gets_a_random_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The thinking-time cap: a bot that does not answer in time has a random legal
    move played for it, persisted like any other."""
    release = threading.Event()

    class Sleepy:
        def __init__(self, rng: Any) -> None:
            self.rng = rng

        def choose(self, observation: Any) -> Any:
            release.wait(30)
            return observation.legal_actions[0]

    monkeypatch.setitem(registry._GENERIC_BOTS, "sleepy", Sleepy)
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'sleepy.db'}",
        bot_delay_seconds=0,
        bot_think_seconds=0.2,
        scheduler_interval=0.05,
    )
    try:
        with TestClient(create_app(settings)) as client:
            register(client, "ada")
            match = create(client, "pig", {"1": "bot:sleepy", "2": "me"})["id"]
            service = service_of(client)
            # the move is in memory a moment before its transaction commits: wait for
            # the stored row, then rebuild from it
            wait_for(lambda: stored_ply(service, match) >= 1, what="the fallback move")
            seat, action = service.store.live(match).state.history[0]
            assert seat == "1" and str(action) == "roll"
            service.store.forget(match)
            assert service.store.live(match).state.history[0] == (seat, action)
    finally:
        release.set()

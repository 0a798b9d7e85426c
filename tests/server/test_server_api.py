"""The JSON API and the WebSocket of issue 12, on SQLite and on PostgreSQL: the exact
shapes, the status codes, seats and who may hold them, bots in seats, records."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import (
    ORIGIN,
    PASSWORD,
    act,
    body,
    create,
    is_body,
    recv,
    recv_until,
    register,
    wait_for,
)

from gladiatorium.core import get_game
from gladiatorium.core.record import events_digest

BODY_KEYS = {"game", "awaiting", "legal", "legal_form", "view", "events", "outcome"}


def other_client(client: TestClient) -> TestClient:
    """A second browser on the same server (its own cookie jar; lifespan already runs)."""
    return TestClient(client.app)


def test_register_login_and_bad_login(client: TestClient) -> None:
    answer = client.post("/api/register", json={"username": "ada", "password": PASSWORD})
    assert answer.status_code == 201
    assert set(answer.json()) == {"username", "token"}
    cookie = answer.headers["set-cookie"]
    assert "gladiatorium_session=" in cookie
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
    again = client.post("/api/register", json={"username": "ada", "password": PASSWORD})
    assert again.status_code == 409 and set(again.json()) == {"error"}
    short = client.post("/api/register", json={"username": "bo", "password": PASSWORD})
    assert short.status_code == 422 and "username" in short.json()["error"]

    fresh = other_client(client)
    good = fresh.post("/api/login", json={"username": "ada", "password": PASSWORD})
    assert good.status_code == 200
    assert good.json()["token"] and "gladiatorium_session=" in good.headers["set-cookie"]
    bad = fresh.post("/api/login", json={"username": "ada", "password": "wrong password"})
    assert bad.status_code == 401 and set(bad.json()) == {"error"}
    nobody = fresh.post("/api/login", json={"username": "nobody", "password": PASSWORD})
    assert nobody.status_code == 401 and nobody.json() == bad.json()


def test_create_get_and_bad_options(client: TestClient) -> None:
    register(client, "ada")
    answer = client.post(
        "/api/matches",
        json={"game": "pig", "options": {"target": 20}, "seats": {"1": "me", "2": "invite"}},
        headers={"origin": ORIGIN},
    )
    assert answer.status_code == 201
    created = answer.json()
    assert set(created) == {"id", "invites"}
    assert set(created["invites"]) == {"2"}
    assert created["invites"]["2"].startswith(f"{ORIGIN}/invite/")

    seat_body = body(client, created["id"], "1")
    assert set(seat_body) == BODY_KEYS
    assert seat_body["game"] == "pig" and seat_body["awaiting"] == ["1"]
    assert seat_body["legal"] == ["roll"] and seat_body["outcome"] is None
    spectator = body(client, created["id"])
    assert set(spectator) == BODY_KEYS and spectator["legal"] == []
    denied = client.get(f"/api/matches/{created['id']}", params={"seat": "2"})
    assert denied.status_code == 403 and set(denied.json()) == {"error"}
    assert client.get("/api/matches/nosuchmatch").status_code == 404

    bad = client.post(
        "/api/matches",
        json={"game": "pig", "options": {"target": "lots"}},
        headers={"origin": ORIGIN},
    )
    assert bad.status_code == 422 and "target" in bad.json()["error"]
    unknown = client.post(
        "/api/matches", json={"game": "pig", "options": {"colour": 3}}, headers={"origin": ORIGIN}
    )
    assert unknown.status_code == 422 and "colour" in unknown.json()["error"]
    players = client.post(
        "/api/matches", json={"game": "pig", "players": 1}, headers={"origin": ORIGIN}
    )
    assert players.status_code == 422


def test_actions_statuses_and_refusals_change_nothing(client: TestClient) -> None:
    register(client, "ada")
    match = create(client, "pig", {"1": "me", "2": "invite"}, options={"target": 20})["id"]
    seats = [None, "1"]

    def everything() -> list[dict[str, Any]]:
        return [body(client, match, s) for s in seats]

    before = everything()
    illegal = act(client, match, "1", "hold")
    assert illegal.status_code == 400
    assert "'hold' is not a legal action for seat 1" in illegal.json()["error"]
    not_mine = act(client, match, "2", "roll")
    assert not_mine.status_code == 403
    garbage = act(client, match, "1", "x" * 5000)
    assert garbage.status_code == 400
    assert everything() == before

    ok = act(client, match, "1", "roll")
    assert ok.status_code == 200 and set(ok.json()) == {"events"}
    assert ok.json()["events"] and all({"kind", "text"} <= set(e) for e in ok.json()["events"])
    after = body(client, match, "1")
    assert after != before[1]
    if after["awaiting"] == ["2"]:  # rolled a one: now it is seat 2's turn
        assert act(client, match, "1", "roll").status_code == 409


def test_not_your_turn_is_409_and_over_is_409(client: TestClient) -> None:
    register(client, "ada")
    match = create(client, "pig", {"1": "me", "2": "me"}, options={"target": 1})["id"]
    assert act(client, match, "2", "roll").status_code == 409
    for _ in range(200):
        current = body(client, match, "1")
        if current["outcome"] is not None:
            break
        seat = current["awaiting"][0]
        legal = body(client, match, seat)["legal"]
        choice = "hold" if "hold" in legal else "roll"
        assert act(client, match, seat, choice).status_code == 200
    assert body(client, match)["outcome"] is not None
    assert act(client, match, "1", "roll").status_code == 409


def test_the_lobby_lists_a_finished_match_without_rebuilding_it(client: TestClient) -> None:
    register(client, "ada")
    match = create(client, "pig", {"1": "me", "2": "me"}, options={"target": 1})["id"]
    for _ in range(200):
        current = body(client, match)
        if current["outcome"] is not None:
            break
        seat = current["awaiting"][0]
        choice = "hold" if "hold" in body(client, match, seat)["legal"] else "roll"
        assert act(client, match, seat, choice).status_code == 200
    service = client.app.state.service  # type: ignore[attr-defined]
    service.store.forget(match)  # as an idle match leaves memory
    lobby = client.get("/")
    assert lobby.status_code == 200
    row = lobby.text[lobby.text.index(f"/matches/{match}") :]
    assert "Won by" in row[:2000]
    assert service.store.live_count() == 0  # read from its row, not replayed


def test_websocket_pushes_after_every_change_and_takes_actions(client: TestClient) -> None:
    register(client, "ada")
    match = create(client, "pig", {"1": "me", "2": "me"}, options={"target": 50})["id"]
    with (
        client.websocket_connect(f"/ws/matches/{match}?seat=1") as ws,
        client.websocket_connect(f"/ws/matches/{match}") as watcher,
    ):
        first = recv(ws)
        assert first == body(client, match, "1")
        assert recv(watcher) == body(client, match)
        for step in range(4):
            current = body(client, match, "1")
            seat = current["awaiting"][0]
            if seat == "1":
                ws.send_text(json.dumps({"action": "roll"}))
                reply = recv_until(ws, lambda m: not is_body(m))
                assert set(reply) == {"events"}, reply
            else:
                assert act(client, match, "2", "roll").status_code == 200
            pushed = recv_until(ws, is_body)
            assert pushed == body(client, match, "1"), step
            seen = recv_until(watcher, is_body)
            assert seen == body(client, match), step
        ws.send_text(json.dumps({"action": "fly"}))
        refused = recv_until(ws, lambda m: not is_body(m))
        assert refused["status"] in (400, 409) and "error" in refused
        watcher.send_text(json.dumps({"action": "roll"}))
        assert recv_until(watcher, lambda m: not is_body(m))["status"] == 403


def test_bearer_token_clients_need_no_cookie_and_no_origin(client: TestClient) -> None:
    token = register(client, "ada")
    match = create(client, "pig", {"1": "me", "2": "open"})["id"]
    bare = other_client(client)
    auth = {"authorization": f"Bearer {token}"}
    assert bare.get(f"/api/matches/{match}", params={"seat": "1"}, headers=auth).status_code == 200
    assert bare.get(f"/api/matches/{match}", params={"seat": "1"}).status_code == 403
    answer = bare.post(
        f"/api/matches/{match}/actions", json={"seat": "1", "action": "roll"}, headers=auth
    )
    assert answer.status_code == 200
    with bare.websocket_connect(f"/ws/matches/{match}?seat=1", headers=auth) as ws:
        assert recv(ws) == body(client, match, "1")
    wrong = {"authorization": "Bearer not-a-token"}
    assert bare.get(f"/api/matches/{match}", params={"seat": "1"}, headers=wrong).status_code == (
        401
    )
    logout = bare.post("/api/logout", headers=auth)
    assert logout.status_code == 200
    assert bare.get(f"/api/matches/{match}", params={"seat": "1"}, headers=auth).status_code == 401


def test_origin_guard_on_cookie_json_calls(client: TestClient) -> None:
    register(client, "ada")
    for headers in ({}, {"origin": "http://evil.example"}, {"origin": "null"}):
        refused = client.post("/api/matches", json={"game": "pig"}, headers=headers)
        assert refused.status_code == 403, headers
        assert "Origin" in refused.json()["error"]
    match = create(client, "pig", {"1": "me"})["id"]
    before = body(client, match, "1")
    cross = client.post(
        f"/api/matches/{match}/actions",
        json={"seat": "1", "action": "roll"},
        headers={"origin": "http://evil.example"},
    )
    assert cross.status_code == 403
    assert body(client, match, "1") == before
    assert client.post("/api/logout", headers={"origin": "http://evil.example"}).status_code == 403


def test_invitation_link_makes_a_guest_seat_cookie_for_that_seat_only(client: TestClient) -> None:
    register(client, "ada")
    created = create(client, "pig", {"1": "me", "2": "invite"})
    match, link = created["id"], created["invites"]["2"]
    other = create(client, "pig", {"1": "invite", "2": "me"})
    guest = other_client(client)
    opened = guest.get(link.removeprefix(ORIGIN), follow_redirects=False)
    assert opened.status_code == 303
    assert opened.headers["location"] == f"/matches/{match}?seat=2"
    assert f"gladiatorium_seat_{match}=" in opened.headers["set-cookie"]
    assert body(guest, match, "2")["legal"] == []
    assert guest.get(f"/api/matches/{match}", params={"seat": "1"}).status_code == 403
    # the token is for this match only: the guest holds nothing in the other match
    assert guest.get(f"/api/matches/{other['id']}", params={"seat": "1"}).status_code == 403
    assert guest.get(f"/api/matches/{other['id']}/record").status_code == 403
    assert act(client, match, "1", "roll").status_code == 200
    current = body(client, match)
    if current["awaiting"] == ["1"]:
        assert act(client, match, "1", "hold").status_code == 200
    assert act(guest, match, "2", "roll").status_code == 200
    with guest.websocket_connect(f"/ws/matches/{match}?seat=2") as ws:
        assert recv(ws) == body(guest, match, "2")
    with (
        pytest.raises(Exception) as refused,
        guest.websocket_connect(f"/ws/matches/{match}?seat=1") as ws,
    ):
        recv(ws)
    assert getattr(refused.value, "code", None) == 4403
    assert guest.get("/invite/not-a-real-token").status_code == 404


def test_invitation_opened_by_an_account_takes_the_seat(client: TestClient) -> None:
    register(client, "ada")
    created = create(client, "pig", {"1": "me", "2": "invite"})
    bob = other_client(client)
    register(bob, "bob")
    assert bob.get(created["invites"]["2"].removeprefix(ORIGIN), follow_redirects=False).is_redirect
    assert body(bob, created["id"], "2")["game"] == "pig"
    assert client.get(f"/api/matches/{created['id']}", params={"seat": "2"}).status_code == 403


def test_open_seat_join(client: TestClient) -> None:
    register(client, "ada")
    match = create(client, "pig", {"1": "me", "2": "open"})["id"]
    bob = other_client(client)
    register(bob, "bob")
    assert bob.get(f"/api/matches/{match}", params={"seat": "2"}).status_code == 403
    joined = bob.post(f"/api/matches/{match}/join", json={"seat": "2"}, headers={"origin": ORIGIN})
    assert joined.status_code == 200
    assert body(bob, match, "2")["game"] == "pig"
    carol = other_client(client)
    register(carol, "carol")
    again = carol.post(f"/api/matches/{match}/join", json={"seat": "2"}, headers={"origin": ORIGIN})
    assert again.status_code == 409
    guest = other_client(client)
    assert (
        guest.post(
            f"/api/matches/{match}/join", json={"seat": "2"}, headers={"origin": ORIGIN}
        ).status_code
        == 403
    )


def test_reconnect_gets_the_current_view_and_missed_events(client: TestClient) -> None:
    register(client, "ada")
    match = create(client, "pig", {"1": "me", "2": "me"}, options={"target": 100})["id"]
    with client.websocket_connect(f"/ws/matches/{match}?seat=2") as ws:
        first = recv(ws)
    for _ in range(3):
        seat = body(client, match)["awaiting"][0]
        assert act(client, match, seat, "roll").status_code == 200
    with client.websocket_connect(f"/ws/matches/{match}?seat=2") as ws:
        again = recv(ws)
    assert again == body(client, match, "2")
    assert len(again["events"]) > len(first["events"])
    assert again["events"][: len(first["events"])] == first["events"]


def test_one_person_holds_several_seats(client: TestClient) -> None:
    register(client, "ada")
    seats = get_game("gladiator-chess").start().seats
    white = [s for s in seats if s.startswith("white")]
    match = create(client, "gladiator-chess", {s: "me" for s in white} | {"black-king": "invite"})
    match_id = match["id"]
    for seat in white:
        assert body(client, match_id, seat)["game"] == "gladiator-chess"
    assert client.get(f"/api/matches/{match_id}", params={"seat": "black-king"}).status_code == 403
    first = body(client, match_id, "white-king")
    assert first["awaiting"] == ["white-king"] and first["legal"]
    assert act(client, match_id, "white-king", first["legal"][0]).status_code == 200
    moved = body(client, match_id)
    assert moved["awaiting"] != ["white-king"]


def test_bots_move_and_are_persisted_like_people(client: TestClient) -> None:
    register(client, "ada")
    match = create(client, "pig", {"1": "me", "2": "bot:random"}, options={"target": 30})["id"]
    service = client.app.state.service  # type: ignore[attr-defined]
    for _ in range(100):
        current = wait_for(
            lambda: (b := body(client, match, "1"))["awaiting"] != ["2"] and b,
            what="the bot to move",
        )
        if current["outcome"] is not None:
            break
        choice = "hold" if "hold" in current["legal"] and current["view"]["turn_total"] else "roll"
        assert act(client, match, "1", choice).status_code == 200
    live = service.store.live(match)
    bot_plies = [s for s, _ in live.state.history if s == "2"]
    assert bot_plies, "the bot never moved"
    service.store.forget(match)
    rebuilt = service.store.live(match)
    assert rebuilt.state.history == live.state.history
    assert events_digest(rebuilt.state) == events_digest(live.state)


def test_all_bot_match_watched_live_and_record_after_the_end(client: TestClient) -> None:
    register(client, "ada")
    # bots pause a little before each move, as people following them live want
    drivers = client.app.state.drivers  # type: ignore[attr-defined]
    drivers.settings = dataclasses.replace(drivers.settings, bot_delay_seconds=0.01)
    answer = client.post(
        "/api/matches",
        json={
            "game": "pig",
            "options": {"target": 40},
            "seats": {"1": "bot:random", "2": "bot:random"},
        },
        headers={"origin": ORIGIN},
    )
    match = answer.json()["id"]
    texts = [answer.text]
    with client.websocket_connect(f"/ws/matches/{match}") as ws:
        while True:
            message = recv(ws)
            texts.append(json.dumps(message))
            if message["outcome"] is not None:
                break
    assert len(texts) > 3
    events = [len(json.loads(t)["events"]) for t in texts[1:]]
    assert events == sorted(events) and events[0] < events[-1]
    assert message == body(client, match)
    outsider = other_client(client)
    assert outsider.get(f"/api/matches/{match}/record").status_code == 403
    # the creator holds no seat of a match of bots: the record is for players
    assert client.get(f"/api/matches/{match}/record").status_code == 403


def test_record_only_after_the_end_and_no_seed_before(client: TestClient) -> None:
    register(client, "ada")
    service = client.app.state.service  # type: ignore[attr-defined]
    created = create(client, "pig", {"1": "me", "2": "me"}, options={"target": 15})
    match = created["id"]
    seed = str(service.store.live(match).state.seed)
    texts = [json.dumps(created)]

    def get(path: str, **params: str) -> Any:
        answer = client.get(path, params=params)
        texts.append(answer.text)
        return answer

    early = get(f"/api/matches/{match}/record")
    assert early.status_code == 403
    with client.websocket_connect(f"/ws/matches/{match}?seat=1") as ws:
        texts.append(json.dumps(recv(ws)))
        for _ in range(300):
            current = get(f"/api/matches/{match}", seat="1").json()
            if current["outcome"] is not None:
                break
            seat = current["awaiting"][0]
            legal = get(f"/api/matches/{match}", seat=seat).json()["legal"]
            choice = "hold" if "hold" in legal else "roll"
            answer = act(client, match, seat, choice)
            texts.append(answer.text)
            get(f"/api/matches/{match}")
            get(f"/api/matches/{match}", seat="2")
            get(f"/api/matches/{match}/posts")
            if seat == "1":
                texts.append(json.dumps(recv_until(ws, is_body)))
    for text in texts:
        assert seed not in text
        assert '"seed"' not in text
    record = client.get(f"/api/matches/{match}/record")
    assert record.status_code == 200
    data = record.json()
    assert str(data["seed"]) == seed
    assert data["digest"] == events_digest(service.store.live(match).state)
    assert "attachment" in record.headers["content-disposition"]


def test_a_call_with_no_credential_is_told_to_log_in_whatever_its_origin(
    client: TestClient,
) -> None:
    for headers in ({}, {"origin": "https://elsewhere.example"}):
        answer = client.post("/api/matches", json={"game": "pig"}, headers=headers)
        assert answer.status_code == 401, answer.text
        assert answer.json()["error"].startswith("log in to create a match"), answer.text
    register(client, "ada")  # with a session cookie, another site's page is refused
    forged = client.post(
        "/api/matches", json={"game": "pig"}, headers={"origin": "https://elsewhere.example"}
    )
    assert forged.status_code == 403 and "cross-site" in forged.json()["error"]

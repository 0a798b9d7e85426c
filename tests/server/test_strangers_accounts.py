"""Accounts and sessions in front of strangers, against real ``gladiatorium serve``
processes (which hash passwords at the real argon2 cost, 64 MiB a hash: each test keeps
its number of hashes small): the login throttle, the same time for a known and an
unknown name, a bounded number of hashes at once, sessions that expire and end, an
invalid bearer token refused everywhere, sockets closed at logout, no login from another
site, no common password."""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from server_helpers import PASSWORD, LiveServer, at_revision, settings_for, wait_for
from sqlalchemy import select, text, update
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from gladiatorium.server.accounts import HashGate, LoginThrottle, Throttled
from gladiatorium.server.app import create_app
from gladiatorium.server.db import LoginToken, Match, make_engine, make_sessions, migrate, utcnow
from gladiatorium.server.tokens import digest_token

Start = Callable[..., LiveServer]
TIMEOUT = 60


def post(server: LiveServer, path: str, data: Any, **headers: str) -> httpx2.Response:
    return httpx2.post(server.url + path, json=data, headers=headers, timeout=TIMEOUT)


def sign_up(server: LiveServer, name: str) -> str:
    answer = post(server, "/api/register", {"username": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["token"])


def log_in(server: LiveServer, name: str, password: str) -> httpx2.Response:
    return post(server, "/api/login", {"username": name, "password": password})


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def set_last_use(database_url: str, token: str, when: datetime) -> int:
    """Write a session's last use straight into the database (its age)."""
    engine = make_engine(database_url)
    try:
        with make_sessions(engine).begin() as session:
            query = update(LoginToken).where(LoginToken.token_hash == digest_token(token))
            result: Any = session.execute(query.values(last_used_at=when))
            return int(result.rowcount)
    finally:
        engine.dispose()


def stored_session(database_url: str, token: str) -> LoginToken | None:
    engine = make_engine(database_url)
    try:
        with make_sessions(engine)() as session:
            return session.get(LoginToken, digest_token(token))
    finally:
        engine.dispose()


def used_lately(database_url: str, token: str) -> bool:
    """The session's last use was written in the last five minutes."""
    row = stored_session(database_url, token)
    return row is not None and utcnow() - row.last_used_at < timedelta(minutes=5)


def ply_of(database_url: str, match: str) -> int:
    engine = make_engine(database_url)
    try:
        with make_sessions(engine)() as session:
            return session.scalars(select(Match.ply).where(Match.id == match)).one()
    finally:
        engine.dispose()


def socket(server: LiveServer, match: str, seat: str, **headers: str) -> ClientConnection:
    return connect(
        f"{server.ws_url}/ws/matches/{match}?seat={seat}",
        additional_headers=headers,
        open_timeout=TIMEOUT,
    )


def closed_with(ws: ClientConnection) -> tuple[int | None, list[dict[str, Any]]]:
    """Read until the server closes: its close code and the messages before it that
    were not bodies."""
    replies = []
    deadline = time.monotonic() + TIMEOUT
    try:
        while time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=TIMEOUT))
            if "game" not in message:
                replies.append(message)
    except ConnectionClosed as closed:
        return (closed.rcvd.code if closed.rcvd else None), replies
    raise AssertionError("the socket stayed open")


def reply_to(ws: ClientConnection, action: str) -> dict[str, Any]:
    """Send an action over the socket: the server's answer (pushed bodies skipped)."""
    ws.send(json.dumps({"action": action}))
    while True:
        message = json.loads(ws.recv(timeout=TIMEOUT))
        if "game" not in message:
            return dict(message)


def create_pig(server: LiveServer, token: str) -> str:
    answer = post(server, "/api/matches", {"game": "pig", "seats": {"1": "me"}}, **bearer(token))
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


# ----- the login throttle and the time of a login --------------------------------------------
def test_login_throttle_per_account_and_per_address(database_url: str, live_server: Start) -> None:
    """Failures are counted per account name and per address; past the limit every login
    is 429 with Retry-After, the right password included (it is not even checked then);
    successful logins are not counted."""
    server = live_server(
        database_url,
        GLADIATORIUM_LOGIN_ACCOUNT_LIMIT="3/15 minutes",
        GLADIATORIUM_LOGIN_ADDRESS_LIMIT="5/15 minutes",
    )
    sign_up(server, "ada")
    for _ in range(2):  # successes cost nothing
        assert log_in(server, "ada", PASSWORD).status_code == 200
    for _ in range(3):
        wrong = log_in(server, "ada", "not the password")
        assert wrong.status_code == 401, wrong.text
    for password in ("not the password", PASSWORD):
        refused = log_in(server, "ada", password)
        assert refused.status_code == 429, refused.text
        assert "too many failed logins for this account" in refused.json()["error"]
        assert 1 <= int(refused.headers["retry-after"]) <= 15 * 60
    # the address: two more failures (on another name) fill its window of five
    for _ in range(2):
        assert log_in(server, "nobody-here", "not the password").status_code == 401
    refused = log_in(server, "someone-else", "not the password")
    assert refused.status_code == 429, refused.text
    assert "too many failed logins for your address" in refused.json()["error"]
    assert int(refused.headers["retry-after"]) >= 1
    # the HTML form is throttled the same way
    form = httpx2.Client(base_url=server.url, timeout=TIMEOUT)
    form.get("/login")
    page = form.post(
        "/login",
        data={"username": "ada", "password": PASSWORD, "csrf": form.cookies["gladiatorium_csrf"]},
    )
    assert page.status_code == 429 and "too many failed logins" in page.text
    assert "gladiatorium_session" not in form.cookies


def test_a_known_and_an_unknown_name_take_the_same_time(
    database_url: str, live_server: Start
) -> None:
    """A wrong password costs one real hash whether the name exists or not (the median of
    a few tries of each, within a generous ratio: before, 226 ms against 4 ms)."""
    server = live_server(database_url)
    sign_up(server, "ada")
    known: list[float] = []
    unknown: list[float] = []
    for _ in range(5):
        for name, times in (("ada", known), ("nobody", unknown)):
            started = time.perf_counter()
            answer = log_in(server, name, "not the password")
            times.append(time.perf_counter() - started)
            assert answer.status_code == 401
            assert answer.json()["error"] == "wrong username or password"
    ratio = statistics.median(known) / statistics.median(unknown)
    assert 1 / 2.5 < ratio < 2.5, (known, unknown)


def test_password_hashes_are_bounded_and_the_rest_told_busy(
    database_url: str, live_server: Start
) -> None:
    """One hash at a time and a queue of two: a burst of logins each succeeds or is told
    503 busy (never piles up), and /healthz answers meanwhile."""
    server = live_server(
        database_url, GLADIATORIUM_HASH_CONCURRENCY="1", GLADIATORIUM_HASH_QUEUE="2"
    )
    sign_up(server, "ada")
    answers: list[httpx2.Response] = []
    start = threading.Barrier(13)

    def one() -> None:
        start.wait()
        answers.append(log_in(server, "ada", PASSWORD))

    threads = [threading.Thread(target=one) for _ in range(12)]
    for thread in threads:
        thread.start()
    start.wait()
    health = httpx2.get(server.url + "/healthz", timeout=TIMEOUT)
    for thread in threads:
        thread.join(TIMEOUT)
    assert health.status_code == 200
    codes = sorted(answer.status_code for answer in answers)
    assert len(codes) == 12 and set(codes) <= {200, 503}, codes
    assert 200 in codes and 503 in codes, codes
    busy = next(answer for answer in answers if answer.status_code == 503)
    assert "busy" in busy.json()["error"] and busy.headers["retry-after"] == "1"


# ----- sessions -------------------------------------------------------------------------------
def test_sessions_slide_and_expire(database_url: str, live_server: Start) -> None:
    """A session unused for 30 days is refused (401) and deleted; each use slides it on;
    an expired session cookie is a logged-out visitor on the pages; an open socket of an
    expired session is closed (4401) at its next check."""
    server = live_server(database_url, GLADIATORIUM_SESSION_CHECK="0.5")
    token = sign_up(server, "ada")
    match = create_pig(server, token)
    url = f"{server.url}/api/matches/{match}?seat=1"
    # 29 days unused: still a session, and this use moves its last use to now
    assert set_last_use(database_url, token, utcnow() - timedelta(days=29)) == 1
    assert httpx2.get(url, headers=bearer(token), timeout=TIMEOUT).status_code == 200
    wait_for(lambda: used_lately(database_url, token), TIMEOUT, "the session's use written")
    # a token last used in 2024: refused, and gone from the database
    set_last_use(database_url, token, datetime(2024, 5, 1, tzinfo=UTC))
    refused = httpx2.get(url, headers=bearer(token), timeout=TIMEOUT)
    assert refused.status_code == 401, refused.text
    assert "bearer token refused" in refused.json()["error"]
    assert "expired" in refused.json()["error"]
    wait_for(lambda: stored_session(database_url, token) is None, TIMEOUT, "the deletion")
    # the same as a cookie: pages show a visitor logged out, calls that need an account 401
    answer = log_in(server, "ada", PASSWORD)
    cookie = answer.json()["token"]
    # the cookie outlives session_days (the server decides when the session ends)
    assert f"Max-Age={400 * 24 * 3600}" in answer.headers["set-cookie"]
    with socket(server, match, "1", cookie=f"gladiatorium_session={cookie}") as ws:
        set_last_use(database_url, cookie, datetime(2024, 5, 1, tzinfo=UTC))
        assert closed_with(ws)[0] == 4401
    browser = httpx2.Client(base_url=server.url, timeout=TIMEOUT)
    browser.cookies.set("gladiatorium_session", cookie, domain="127.0.0.1")
    lobby = browser.get("/")
    assert lobby.status_code == 200 and 'href="/login' in lobby.text
    deleted = [c for c in lobby.headers.get_list("set-cookie") if "gladiatorium_session=" in c]
    assert deleted and "Max-Age=0" in deleted[0]  # the stale cookie goes
    browser.cookies.set("gladiatorium_session", cookie, domain="127.0.0.1")  # kept anyway
    assert browser.get("/api/library").status_code == 401
    assert browser.get("/library", follow_redirects=False).status_code == 303


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_migration_gives_old_tokens_their_creation_as_last_use(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Tokens from before sessions expired get their creation time as their last use: a
    token made in 2024 is refused once the server runs the new schema."""
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.db'}"
    else:
        cluster: Any = request.getfixturevalue("postgres_cluster")
        url = cluster.new_database(empty=True)
    engine = make_engine(url)
    with at_revision(engine, "0001") as connection:
        connection.execute(
            text(
                "INSERT INTO users (id, username, password_hash, created_at)"
                " VALUES (1, 'ada', 'x', :t)"
            ),
            {"t": datetime(2024, 5, 1)},
        )
        now = datetime.now(UTC).replace(tzinfo=None)
        for name, when in (("old", datetime(2024, 5, 1)), ("new", now)):
            connection.execute(
                text(
                    "INSERT INTO login_tokens (token_hash, user_id, created_at) VALUES (:h, 1, :t)"
                ),
                {"h": digest_token(name), "t": when},
            )
    migrate(engine)
    with make_sessions(engine)() as session:
        for row in session.scalars(select(LoginToken)):
            assert row.last_used_at == row.created_at
    engine.dispose()
    with TestClient(create_app(settings_for(url))) as client:
        assert client.get("/api/library", headers=bearer("old")).status_code == 401
        assert client.get("/api/library", headers=bearer("new")).status_code == 200


def test_a_bearer_token_that_is_no_session_is_401_everywhere(
    database_url: str, live_server: Start
) -> None:
    """``Authorization: Bearer x`` is never an anonymous caller: every API call says 401
    (and the Origin check is not skipped by it)."""
    server = live_server(database_url)
    token = sign_up(server, "ada")
    match = create_pig(server, token)
    calls = [
        ("GET", f"/api/matches/{match}"),
        ("GET", f"/api/matches/{match}?seat=1"),
        ("POST", f"/api/matches/{match}/actions"),
        ("POST", f"/api/matches/{match}/join"),
        ("GET", f"/api/matches/{match}/record"),
        ("GET", f"/api/matches/{match}/posts"),
        ("POST", f"/api/matches/{match}/deadline"),
        ("POST", "/api/matches"),
        ("GET", "/api/library"),
        ("POST", "/api/library"),
        ("POST", "/api/logout"),
    ]
    for value in ("Bearer x", f"Bearer {token}x", "bearer " + "y" * 300):
        for method, path in calls:
            answer = httpx2.request(
                method,
                server.url + path,
                json={"game": "pig", "seat": "1", "action": "roll", "minutes": 5},
                headers={"authorization": value},
                timeout=TIMEOUT,
            )
            assert answer.status_code == 401, (value, method, path, answer.text)
            assert "bearer token refused" in answer.json()["error"]
            assert answer.headers["www-authenticate"] == "Bearer"
    assert ply_of(database_url, match) == 0


# ----- logout and sockets ---------------------------------------------------------------------
def test_logout_closes_that_sessions_sockets(database_url: str, live_server: Start) -> None:
    """Logging out (bearer or cookie) closes the sockets opened with that session (4401,
    after a 401 message); another session's socket stays; with no trust in a recent look
    (``GLADIATORIUM_SESSION_TRUST=0``) a socket whose session ended out of the server's
    sight (its row deleted) has its next action refused."""
    server = live_server(database_url, GLADIATORIUM_SESSION_TRUST="0")
    token = sign_up(server, "ada")
    other = log_in(server, "ada", PASSWORD).json()["token"]
    third = log_in(server, "ada", PASSWORD).json()["token"]
    match = create_pig(server, token)
    with (
        socket(server, match, "1", **bearer(token)) as mine,
        socket(server, match, "1", **bearer(other)) as kept,
    ):
        assert post(server, "/api/logout", {}, **bearer(token)).status_code == 200
        code, replies = closed_with(mine)
        assert code == 4401 and replies[-1]["status"] == 401, (code, replies)
        assert "log in again" in replies[-1]["error"]
        assert "events" in reply_to(kept, "roll")
        assert ply_of(database_url, match) == 1
        # the session ended out of this process's sight: the next action finds it out
        engine = make_engine(database_url)
        with make_sessions(engine).begin() as session:
            session.delete(session.get(LoginToken, digest_token(other)))
        engine.dispose()
        kept.send(json.dumps({"action": "roll"}))
        code, replies = closed_with(kept)
        assert code == 4401 and all("events" not in reply for reply in replies), replies
        assert ply_of(database_url, match) == 1
    # a browser: the session cookie's sockets close when the logout form is sent
    browser = httpx2.Client(base_url=server.url, timeout=TIMEOUT)
    browser.cookies.set("gladiatorium_session", third, domain="127.0.0.1")
    with socket(
        server, match, "1", cookie=f"gladiatorium_session={third}", origin=server.url
    ) as tab:
        browser.get("/logout")
        out = browser.post("/logout", data={"csrf": browser.cookies["gladiatorium_csrf"]})
        assert out.status_code in (200, 303)
        assert closed_with(tab)[0] == 4401
    assert httpx2.get(server.url + "/api/library", headers=bearer(third)).status_code == 401


def test_a_logout_through_another_process_closes_the_sockets_at_once(
    postgres_url: str, live_server: Start
) -> None:
    """Two server processes on one PostgreSQL database: a session logged out through one
    closes its sockets on the other at once (told by NOTIFY, no action needed), though
    that socket's last action made it trust the session for a minute; the action sent
    after it is never applied."""
    first = live_server(postgres_url, GLADIATORIUM_SESSION_TRUST="60")
    second = live_server(postgres_url, GLADIATORIUM_SESSION_TRUST="60")
    token = sign_up(first, "ada")
    match = create_pig(first, token)
    with socket(first, match, "1", **bearer(token)) as ws:
        assert "events" in reply_to(ws, "roll")  # the session looked at, and trusted
        assert post(second, "/api/logout", {}, **bearer(token)).status_code == 200
        code, replies = closed_with(ws)
        assert code == 4401 and replies[-1]["status"] == 401, (code, replies)
    assert ply_of(postgres_url, match) == 1


def test_a_sockets_actions_trust_a_recent_look_at_its_session(database_url: str) -> None:
    """Within ``session_trust_seconds`` of a look that found the session live, a socket's
    actions ask the database nothing more about it; a logout in the process still closes
    the socket at once."""
    settings = replace(settings_for(database_url), session_trust_seconds=60.0)
    with TestClient(create_app(settings)) as client:
        made = client.post("/api/register", json={"username": "ada", "password": PASSWORD})
        token = made.json()["token"]
        seats = {"game": "pig", "seats": {"1": "me", "2": "me"}}
        match = client.post("/api/matches", json=seats, headers=bearer(token)).json()["id"]

        def first_legal(seat: str) -> str:
            answer = client.get(f"/api/matches/{match}?seat={seat}", headers=bearer(token))
            return str(answer.json()["legal"][0])

        accounts = client.app.state.accounts  # type: ignore[attr-defined]
        looks: list[str] = []
        lasts = accounts.lasts
        accounts.lasts = lambda digest, touch=True: looks.append(digest) or lasts(digest, touch)
        with client.websocket_connect(f"/ws/matches/{match}?seat=1", headers=bearer(token)) as ws:
            for _ in range(3):
                while client.get(f"/api/matches/{match}").json()["awaiting"] == ["2"]:
                    action = {"seat": "2", "action": first_legal("2")}
                    answer = client.post(
                        f"/api/matches/{match}/actions", json=action, headers=bearer(token)
                    )
                    assert answer.status_code == 200, answer.text
                ws.send_text(json.dumps({"action": first_legal("1")}))
                # the action's reply, not a pushed body (which holds events too): the
                # next look at the match must come after the action
                while "events" not in (reply := ws.receive_json()) or "game" in reply:
                    assert "error" not in reply, reply
            assert looks == [digest_token(token)]  # one look for three actions
            assert client.post("/api/logout", json={}, headers=bearer(token)).status_code == 200
            while "status" not in (message := ws.receive_json()):
                pass
            assert message["status"] == 401
            assert ws.receive()["code"] == 4401


# ----- login CSRF and weak passwords --------------------------------------------------------
def test_no_login_or_registration_from_another_site(database_url: str, live_server: Start) -> None:
    """A cross-site page can post text/plain or a form with its own Origin: refused (415,
    403) before any password is looked at; the JSON API from this site still works."""
    server = live_server(database_url)
    sign_up(server, "ada")
    body = json.dumps({"username": "ada", "password": PASSWORD})
    for path in ("/api/login", "/api/register"):
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
            answer = httpx2.post(
                server.url + path, content=body, headers={"content-type": kind}, timeout=TIMEOUT
            )
            assert answer.status_code == 415, (path, kind, answer.text)
            assert "application/json" in answer.json()["error"]
            assert "gladiatorium_session" not in answer.cookies
        for origin in ("http://evil.example", "null"):
            answer = post(server, path, json.loads(body), origin=origin)
            assert answer.status_code == 403, answer.text
            assert "Origin" in answer.json()["error"]
    # the HTML forms: the visitor's own CSRF token does not help another site's page
    browser = httpx2.Client(base_url=server.url, timeout=TIMEOUT)
    browser.get("/login")
    csrf = browser.cookies["gladiatorium_csrf"]
    for path in ("/login", "/register"):
        answer = browser.post(
            path,
            data={"username": "ada", "password": PASSWORD, "csrf": csrf},
            headers={"origin": "http://evil.example"},
        )
        assert answer.status_code == 403 and "refused" in answer.text
        assert "gladiatorium_session" not in browser.cookies
    same = post(server, "/api/login", {"username": "ada", "password": PASSWORD}, origin=server.url)
    assert same.status_code == 200, same.text


def test_common_passwords_are_refused_at_registration(
    database_url: str, live_server: Start
) -> None:
    """zxcvbn's score under 2 is refused, naming the field and why; nothing is created."""
    server = live_server(database_url)
    for name, password in (
        ("ada", "12345678"),
        ("ada", "password"),
        ("ada", "password1"),
        ("lovelace", "lovelace1"),
        ("ada", "aaaaaaaaaaaa"),
    ):
        answer = post(server, "/api/register", {"username": name, "password": password})
        assert answer.status_code == 422, (password, answer.text)
        error = answer.json()["error"]
        assert error.startswith("password: too easy to guess"), error
        assert len(error) > len("password: too easy to guess. "), error
    assert (
        "common password"
        in post(server, "/api/register", {"username": "ada", "password": "password"}).json()[
            "error"
        ]
    )
    browser = httpx2.Client(base_url=server.url, timeout=TIMEOUT)
    browser.get("/register")
    page = browser.post(
        "/register",
        data={
            "username": "ada",
            "password": "12345678",
            "csrf": browser.cookies.get("gladiatorium_csrf"),
        },
    )
    assert page.status_code == 422 and "too easy to guess" in page.text
    sign_up(server, "ada")  # the suite's own password is strong enough


# ----- in process: the parts on their own ---------------------------------------------------
def test_login_throttle_windows() -> None:
    throttle = LoginThrottle("2/15 minutes", "3/15 minutes")
    throttle.check("ada", "10.0.0.1")
    throttle.failed("ada", "10.0.0.1")
    throttle.failed("ada", "10.0.0.1")
    with pytest.raises(Throttled, match="this account") as refused:
        throttle.check("ada", "10.0.0.2")
    assert 800 < refused.value.retry_after <= 900
    throttle.check("bob", "10.0.0.2")
    throttle.failed("bob", "10.0.0.1")
    with pytest.raises(Throttled, match="your address"):
        throttle.check("carol", "10.0.0.1")


def test_hash_gate_queues_then_refuses() -> None:
    import asyncio

    from gladiatorium.server.accounts import Busy

    gate = HashGate(1, 1)
    order: list[str] = []

    async def hold(name: str, release: asyncio.Event) -> None:
        async with gate.turn():
            order.append(name)
            await release.wait()

    async def main() -> None:
        release = asyncio.Event()
        first = asyncio.create_task(hold("first", release))
        second = asyncio.create_task(hold("second", release))
        await asyncio.sleep(0.01)
        with pytest.raises(Busy):
            async with gate.turn():
                pass
        release.set()
        await asyncio.gather(first, second)

    asyncio.run(main())
    assert order == ["first", "second"]


def test_a_lone_surrogate_in_login_or_registration_is_refused_plainly(
    sqlite_client: TestClient,
) -> None:
    """Text no password or name can be: 422 naming the field, at login and registration
    (the edge refuses it before any route reads the body)."""
    headers = {"content-type": "application/json"}
    for route in ("/api/login", "/api/register"):
        for field, raw in (
            ("username", '{"username": "ada\\ud800", "password": "correct horse battery"}'),
            ("password", '{"username": "ada", "password": "correct horse\\udc00 battery"}'),
        ):
            answer = sqlite_client.post(route, content=raw, headers=headers)
            assert answer.status_code == 422, answer.text
            assert answer.json()["error"].startswith(field), answer.text

"""The network edge against a real ``gladiatorium serve`` process: half-open and idle
connections are closed, connections are capped per address and in all, bodies are
refused while they stream in, bad JSON and bad WebSocket frames get answers naming the
field, and the operator's settings (public URL, origins, Secure cookies, CSP) hold."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_helpers import PASSWORD, LiveServer, wait_for
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

Start = Callable[..., LiveServer]
LIMIT = 256 * 1024
HUGE = "9" * 5000


# ----- helpers ---------------------------------------------------------------------------
def opened(server: LiveServer, source: str = "127.0.0.1") -> socket.socket:
    """A raw TCP connection to the server from ``source`` (any 127.x address)."""
    sock = socket.socket()
    sock.settimeout(60)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", server.port))
    return sock


def read_to_end(sock: socket.socket, timeout: float = 60) -> bytes:
    """Everything the server sends until it closes the connection."""
    sock.settimeout(timeout)
    chunks = []
    try:
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    except ConnectionResetError:
        pass
    return b"".join(chunks)


def read_response(sock: socket.socket) -> bytes:
    """One whole answer (headers and a Content-Length body) from a kept-alive connection."""
    sock.settimeout(60)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, rest = data.split(b"\r\n\r\n", 1)
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(rest) < length:
        rest += sock.recv(65536)
    assert len(rest) == length
    return head + b"\r\n\r\n" + rest


def status_of(answer: bytes) -> int:
    assert answer.startswith(b"HTTP/1.1 "), answer[:200]
    return int(answer.split(b" ", 2)[1])


def body_of(answer: bytes) -> bytes:
    return answer.split(b"\r\n\r\n", 1)[1]


def set_up_from(source: str = "127.0.0.1") -> httpx2.Client:
    """A client whose connections come from ``source`` (the cap test sets up from an
    address of its own, so that its counts are exact)."""
    return httpx2.Client(transport=httpx2.HTTPTransport(local_address=source), timeout=60)


def account(server: LiveServer, name: str, source: str = "127.0.0.1") -> dict[str, str]:
    """A new account: its bearer header."""
    with set_up_from(source) as client:
        made = client.post(
            server.url + "/api/register", json={"username": name, "password": PASSWORD}
        )
    assert made.status_code == 201, made.text
    return {"authorization": f"Bearer {made.json()['token']}"}


def pig_match(server: LiveServer, auth: dict[str, str], source: str = "127.0.0.1") -> str:
    with set_up_from(source) as client:
        made = client.post(
            server.url + "/api/matches",
            json={"game": "pig", "seats": {"1": "me", "2": "invite"}},
            headers=auth,
        )
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def post_raw(server: LiveServer, path: str, raw: bytes, **headers: str) -> httpx2.Response:
    return httpx2.post(
        server.url + path,
        content=raw,
        headers={"content-type": "application/json", **headers},
        timeout=60,
    )


@contextmanager
def socket_to(server: LiveServer, path: str, **headers: str) -> Iterator[ClientConnection]:
    with connect(
        server.ws_url + path, additional_headers=headers, open_timeout=60, close_timeout=10
    ) as ws:
        yield ws


def next_reply(ws: ClientConnection) -> dict[str, Any]:
    """The next message that is a reply (bodies, pushed after changes, have "game")."""
    while True:
        message = json.loads(ws.recv(timeout=60))
        if "game" not in message:
            return dict(message)


# ----- connections -----------------------------------------------------------------------
def test_half_open_and_idle_connections_are_closed(live_server: Start, tmp_path: Path) -> None:
    """A connection that never finishes its headers (or never sends a byte), or stops
    sending a body, is answered 408 and closed; an idle keep-alive connection is closed."""
    server = live_server(
        f"sqlite:///{tmp_path / 'edge.db'}",
        GLADIATORIUM_HEADER_TIMEOUT="1",
        GLADIATORIUM_KEEP_ALIVE_TIMEOUT="4",
    )
    silent = opened(server)
    partial = opened(server)
    partial.sendall(b"GET /healthz HTTP/1.1\r\nhost: x\r\nx-slow: ")
    for sock in (silent, partial):
        answer = read_to_end(sock)
        assert status_of(answer) == 408
        assert b"Request headers not received in time" in body_of(answer)
        sock.close()
    # a request trickled in after a first one: the deadline starts again at its first byte
    kept = opened(server)
    kept.sendall(b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
    assert status_of(read_response(kept)) == 200
    kept.sendall(b"GET /healthz HTTP/1.1\r\n")
    answer = read_to_end(kept)
    assert status_of(answer) == 408
    # idle after an answer: closed without a word
    idle = opened(server)
    idle.sendall(b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
    assert status_of(read_response(idle)) == 200
    assert read_to_end(idle) == b""
    # a body that stops coming: 408 once nothing arrives for as long as headers may take
    stalled = opened(server)
    stalled.sendall(
        b"POST /api/login HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
        b'content-length: 100\r\n\r\n{"username": '
    )
    answer = read_to_end(stalled)
    assert status_of(answer) == 408
    assert json.loads(body_of(answer)) == {
        "error": "request body stalled: nothing received for 1 seconds"
    }
    # headers that never end are cut off by size too
    flood = opened(server)
    flood.sendall(b"GET /healthz HTTP/1.1\r\n")
    with suppress(BrokenPipeError, ConnectionResetError):
        flood.sendall((b"x-pad: " + b"a" * 1000 + b"\r\n") * 70)
    assert status_of(read_to_end(flood)) == 431
    assert httpx2.get(server.url + "/healthz", timeout=60).status_code == 200


def test_connections_are_capped_per_address_and_in_all(live_server: Start, tmp_path: Path) -> None:
    """Past the per-address cap a connection gets 429 at once, past the total cap 503;
    a WebSocket holds its place; a place is given back when its connection ends."""
    server = live_server(
        f"sqlite:///{tmp_path / 'edge.db'}",
        GLADIATORIUM_HEADER_TIMEOUT="600",
        GLADIATORIUM_MAX_CONNECTIONS_PER_ADDRESS="3",
        GLADIATORIUM_MAX_CONNECTIONS="5",
    )
    auth = account(server, "ada", "127.0.0.4")
    match = pig_match(server, auth, "127.0.0.4")
    held = [opened(server) for _ in range(2)]
    for sock in held:
        sock.sendall(b"GET /healthz HTTP/1.1\r\n")  # never finished
    with socket_to(server, f"/ws/matches/{match}") as ws:
        assert json.loads(ws.recv(timeout=60))["game"] == "pig"
        refused = read_to_end(opened(server))
        assert status_of(refused) == 429
        assert b"Too many connections from 127.0.0.1 (at most 3)" in body_of(refused)
        # another address has its own three, until the total of five
        other = [opened(server, "127.0.0.2") for _ in range(2)]
        for sock in other:
            sock.sendall(b"GET /healthz HTTP/1.1\r\n")
        full = read_to_end(opened(server, "127.0.0.3"))
        assert status_of(full) == 503
        assert b"too many connections" in body_of(full)
        for sock in other:
            sock.close()

    def healthy() -> bool:
        sock = opened(server)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
        return status_of(read_to_end(sock)) == 200

    # the WebSocket and the two from 127.0.0.2 gave their places back
    assert wait_for(healthy, 60, "a place for 127.0.0.1 once the WebSocket closed")
    for sock in held:
        sock.close()


# ----- request bodies --------------------------------------------------------------------
def test_a_declared_length_over_the_limit_is_refused_before_reading(
    live_server: Start, tmp_path: Path
) -> None:
    """A Content-Length of 100 MiB is answered 413 before one byte of the body is sent,
    on the JSON API and on the pages' forms."""
    server = live_server(f"sqlite:///{tmp_path / 'edge.db'}")
    for path in ("/api/login", "/api/matches", "/login", "/matches/new"):
        sock = opened(server)
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            f"content-length: {100 * 1024 * 1024}\r\n\r\n".encode()
        )
        answer = read_to_end(sock)
        assert status_of(answer) == 413, path
        if path.startswith("/api/"):
            assert json.loads(body_of(answer)) == {"error": f"request body over {LIMIT} bytes"}
        else:
            assert body_of(answer) == f"request body over {LIMIT} bytes\n".encode()


def test_a_chunked_body_is_cut_off_at_the_limit(live_server: Start, tmp_path: Path) -> None:
    """A chunked body is counted as it arrives: 413 once it passes the limit, and the
    server does not grow by the bodies it refused."""
    server = live_server(f"sqlite:///{tmp_path / 'edge.db'}")
    for path, kind in (
        ("/api/login", "application/json"),
        ("/login", "application/x-www-form-urlencoded"),
    ):
        sock = opened(server)
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: {kind}\r\n"
            "transfer-encoding: chunked\r\n\r\n".encode()
        )
        chunk = b"%x\r\n" % 16384 + b"a" * 16384 + b"\r\n"
        with suppress(BrokenPipeError, ConnectionResetError):
            for _ in range(LIMIT // 16384 + 2):
                sock.sendall(chunk)
        answer = read_to_end(sock)
        assert status_of(answer) == 413, answer[:300]
        assert f"request body over {LIMIT} bytes".encode() in body_of(answer)
    # an upload route takes more (the file itself is checked by the page: 256 KiB)
    big = httpx2.post(
        server.url + "/library",
        files={"file": ("hero.yaml", b"x" * (300 * 1024))},
        follow_redirects=False,
        timeout=60,
    )
    assert big.status_code == 403  # refused for its missing CSRF token, not its size
    # four bodies of 100 MiB each (the audit's: 125 to 925 MiB) leave the server's size
    before = resident_mib(server)
    streams = [opened(server) for _ in range(4)]
    for sock in streams:
        sock.sendall(
            b"POST /api/login HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            b"transfer-encoding: chunked\r\n\r\n"
        )
    mib = b"%x\r\n" % (1 << 20) + b"a" * (1 << 20) + b"\r\n"
    for sock in streams:
        with suppress(BrokenPipeError, ConnectionResetError):
            for _ in range(100):
                sock.sendall(mib)
        assert status_of(read_to_end(sock)) == 413
    assert resident_mib(server) - before < 64
    assert httpx2.get(server.url + "/healthz", timeout=60).status_code == 200


def resident_mib(server: LiveServer) -> float:
    """The server process's resident memory, in MiB (Linux)."""
    assert server.process is not None
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


# ----- bad input -------------------------------------------------------------------------
def test_bad_json_is_a_4xx_naming_the_field(live_server: Start, database_url: str) -> None:
    """Huge integers, lone surrogates, non-finite numbers and a settings string: 422
    naming the field, on every JSON route; nothing changes."""
    server = live_server(database_url)
    auth = account(server, "ada")
    match = pig_match(server, auth)
    on = f"/api/matches/{match}"
    huge = HUGE.encode()
    cases: list[tuple[str, bytes, str]] = [
        ("/api/login", b'{"username": "ada", "password": "x", "n": ' + huge + b"}", "n"),
        ("/api/login", b'{"username": "\\ud800", "password": "xxxxxxxxxx"}', "username"),
        ("/api/login", b'{"username": "ada", "password": "a\\udfffb"}', "password"),
        ("/api/login", b'{"username": "a\\u0000b", "password": "xxxxxxxxxx"}', "username"),
        ("/api/register", b'{"username": "bob", "password": "\\ud800\\ud800"}', "password"),
        ("/api/matches", b'{"game": "pig", "players": ' + huge + b"}", "players"),
        ("/api/matches", b'{"game": "pig", "settings": "x"}', "settings"),
        ("/api/matches", b'{"game": "pig", "options": {"target": NaN}}', "options.target"),
        ("/api/matches", b'{"game": "pig", "options": {"target": 1e999}}', "options.target"),
        ("/api/matches", b'{"game": "pig", "library": {"1": [1099511627776]}}', "library"),
        ("/api/matches", b'{"game": "pig", "seats": {"1\\u0000": "me"}}', "seats"),
        (f"{on}/actions", b'{"seat": "1", "action": ' + huge + b"}", "action"),
        (f"{on}/actions", b'{"seat": "\\udc00", "action": "roll"}', "seat"),
        (f"{on}/join", b'{"seat": [' + huge + b"]}", "seat[0]"),
        (f"{on}/join", b'{"seat": "2\\u0000"}', "seat"),
        (f"{on}/deadline", b'{"seat": "1", "minutes": ' + huge + b"}", "minutes"),
        ("/api/library", b'{"game": "pig", "text": "\\ud800", "filename": "a"}', "text"),
    ]
    before = httpx2.get(f"{server.url}{on}", timeout=60).json()
    for path, raw, field in cases:
        answer = post_raw(server, path, raw, **auth)
        assert answer.status_code == 422, (path, raw[:80], answer.status_code, answer.text)
        message = answer.json()["error"]
        assert message.startswith(f"{field}:"), (path, message)
    assert httpx2.get(f"{server.url}{on}", timeout=60).json() == before
    good = json.dumps({"username": "ada", "password": PASSWORD}).encode()
    assert post_raw(server, "/api/login", good).status_code == 200
    # a NUL in a URL (PostgreSQL stores no NUL): 400 before any route looks it up
    for path in ("/api/matches/a%00b", f"{on}?seat=1%00", "/api/library?game=%00", "/invite/%00"):
        answer = httpx2.get(server.url + path, headers=auth, timeout=60)
        assert answer.status_code == 400, (path, answer.text)
        assert "a NUL character (%00) in the URL is not allowed" in answer.text
    # and in a form field (CSRF token and cookie given, as a browser would)
    form = httpx2.post(
        server.url + "/login",
        data={"csrf": "t" * 24, "username": "a\x00b", "password": "x"},
        cookies={"gladiatorium_csrf": "t" * 24},
        timeout=60,
    )
    assert form.status_code == 422
    assert "&#39;username&#39;: a NUL character" in form.text


def test_websocket_bad_frames_get_answers(live_server: Start, database_url: str) -> None:
    """A huge integer or a binary frame is answered with an error naming what is wrong,
    and the connection stays open; refused handshakes close with 4403 or 4404."""
    server = live_server(database_url)
    auth = account(server, "ada")
    match = pig_match(server, auth)
    with socket_to(server, f"/ws/matches/{match}?seat=1", **auth) as ws:
        assert json.loads(ws.recv(timeout=60))["game"] == "pig"
        ws.send('{"action": ' + HUGE + "}")
        reply = next_reply(ws)
        assert reply["status"] == 400
        assert reply["error"] == "action: a whole number of 5000 digits is out of range"
        ws.send(b"\x00\x01binary")
        reply = next_reply(ws)
        assert reply["status"] == 400 and "binary frame refused" in reply["error"]
        ws.send('{"action": "\\ud800"}')
        assert next_reply(ws)["error"].startswith("action: not valid Unicode text")
        ws.send(json.dumps({"action": "roll"}))
        assert "events" in next_reply(ws)
    refusals = [
        (f"/ws/matches/{match}?seat=1", {}, 4403),
        (f"/ws/matches/{match}?seat=2", auth, 4403),
        ("/ws/matches/nosuchmatch?seat=1", auth, 4404),
        (f"/ws/matches/{match}?seat=1%00", auth, 4400),
        (f"/ws/matches/{match}?seat=1", {**auth, "origin": "http://evil.example"}, 4403),
    ]
    for path, headers, code in refusals:
        with socket_to(server, path, **headers) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=60)
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code == code, (path, closed.value.rcvd)
            assert closed.value.rcvd.reason


# ----- the operator's settings -----------------------------------------------------------
def test_public_url_origins_and_secure_cookies(live_server: Start, tmp_path: Path) -> None:
    """Invitation links start with the public URL; its origin and an allowed one may
    post with the session cookie, another may not; cookies are Secure."""
    server = live_server(
        f"sqlite:///{tmp_path / 'edge.db'}",
        GLADIATORIUM_PUBLIC_URL="https://games.example.org/",
        GLADIATORIUM_ALLOWED_ORIGINS="https://proxy.example.net, https://other.example.net",
        GLADIATORIUM_SECURE_COOKIES="1",
    )
    with httpx2.Client(base_url=server.url, timeout=60) as browser:
        made = browser.post("/api/register", json={"username": "ada", "password": PASSWORD})
        assert made.status_code == 201
        cookie = made.headers["set-cookie"]
        assert "Secure" in cookie and "HttpOnly" in cookie
        browser.cookies.set("gladiatorium_session", made.json()["token"])
        game = {"game": "pig", "seats": {"1": "me", "2": "invite"}}
        for origin in ("https://games.example.org", "https://proxy.example.net"):
            created = browser.post("/api/matches", json=game, headers={"origin": origin})
            assert created.status_code == 201, (origin, created.text)
            assert created.json()["invites"]["2"].startswith("https://games.example.org/invite/")
        evil = browser.post("/api/matches", json=game, headers={"origin": "https://evil.example"})
        assert evil.status_code == 403


def test_security_headers_on_every_answer(live_server: Start, tmp_path: Path) -> None:
    server = live_server(f"sqlite:///{tmp_path / 'edge.db'}")
    paths = ("/", "/login", "/healthz", "/static/match.js", "/api/matches/nosuch", "/hall")
    for path in (*paths, "/hall/cowboy", "/api/hall"):
        answer = httpx2.get(server.url + path, timeout=60)
        policy = answer.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "script-src 'self';" in policy
        assert "frame-ancestors 'none'" in policy
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "same-origin"
    for path in ("/login", "/hall", "/hall/cowboy"):
        page = httpx2.get(server.url + path, timeout=60).text
        assert "<script>" not in page and " on" + "focus=" not in page, path


def test_serve_options_reach_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """``serve``'s options override the environment; bad URLs are refused."""
    from gladiatorium.cli.main import app
    from gladiatorium.server import app as server_app

    seen: list[Any] = []
    monkeypatch.setattr(server_app, "serve", lambda settings, host, port: seen.append(settings))
    monkeypatch.setenv("GLADIATORIUM_ALLOWED_ORIGINS", "https://env.example")
    monkeypatch.setenv("COLUMNS", "300")
    runner = CliRunner()
    result = runner.invoke(
        app,
        [
            "serve",
            "--public-url",
            "https://games.example.org/",
            "--allowed-origin",
            "https://a.example",
            "--allowed-origin",
            "https://b.example:8443",
            "--secure-cookies",
            "--max-connections",
            "10",
            "--max-connections-per-address",
            "0",
            "--header-timeout",
            "3",
            "--keep-alive-timeout",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    settings = seen[0]
    assert settings.public_url == "https://games.example.org"
    assert settings.extra_origins == ("https://a.example", "https://b.example:8443")
    assert settings.allowed_origins[-1] == "https://games.example.org"
    assert settings.secure_cookies is True
    assert (settings.max_connections, settings.max_connections_per_address) == (10, 0)
    assert (settings.header_timeout, settings.keep_alive_timeout) == (3, 2)
    for bad, reason in (
        (["--public-url", "games.example.org"], "expected an http:// or https:// URL"),
        (["--allowed-origin", "https://a.example/x"], "without a path"),
    ):
        refused = runner.invoke(app, ["serve", *bad])
        assert refused.exit_code == 2, refused.output
        assert reason in " ".join(refused.output.split()), refused.output
    monkeypatch.setenv("GLADIATORIUM_ALLOWED_ORIGINS", "ftp://nope")
    refused = runner.invoke(app, ["serve"])
    assert refused.exit_code == 2
    assert "GLADIATORIUM_ALLOWED_ORIGINS" in refused.output


def test_page_forms_refuse_ids_no_database_holds(live_server: Start, database_url: str) -> None:
    """Library item ids past a database integer in the new-match form and the delete
    route: a 4xx page, not a 500 (PostgreSQL's integer and SQLite's refuse them)."""
    server = live_server(database_url)
    token = "t" * 24
    with httpx2.Client(
        base_url=server.url, timeout=60, cookies={"gladiatorium_csrf": token}
    ) as browser:
        made = browser.post("/api/register", json={"username": "ada", "password": PASSWORD})
        browser.cookies.set("gladiatorium_session", made.json()["token"])
        for ids in ("9" * 50, "99999999999", "²"):
            answer = browser.post(
                "/matches/new",
                data={"csrf": token, "game": "superhero-gladiators", "library.1": ids},
            )
            assert answer.status_code == 422, (ids, answer.status_code)
            # only the samples and my own items are offered: anything else is refused
            assert "Team 1: a hero that is not offered here was picked" in answer.text
        for item in ("99999999999999", "-1"):
            answer = browser.post(f"/library/{item}/delete", data={"csrf": token})
            assert answer.status_code == 404
            assert "no such item in your library" in answer.text

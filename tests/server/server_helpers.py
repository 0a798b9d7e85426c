"""What the server tests share: requests with the right headers, polling, and real
``gladiatorium serve`` processes."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import Connection, Engine

import gladiatorium
from gladiatorium.server import db
from gladiatorium.server.config import Settings
from preloaded import Forked, preloader_for

ORIGIN = "http://testserver"
PASSWORD = "correct horse battery"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive free loopback ports."""
    while True:
        first = free_port()
        if first + count <= 65536 and all(_bindable(first + n) for n in range(1, count)):
            return first


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def wait_for(check: Callable[[], Any], timeout: float = 30.0, what: str = "condition") -> Any:
    """Poll ``check`` until it returns something truthy (generous timeouts, no sleeps
    sized to the machine)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.02)


def settings_for(database_url: str) -> Settings:
    """A test server's settings: no bot pause, a quick scheduler, and heroes' gauntlets
    (the shipped samples' are queued when the hall starts) of one game per pairing."""
    return Settings(
        database_url=database_url,
        bot_delay_seconds=0,
        scheduler_interval=0.05,
        gauntlet_games="greedy=1",
        gauntlet_maps="small",
    )


# ----- helpers on a TestClient -----------------------------------------------------------
def register(client: TestClient, name: str) -> str:
    """A new account; the client keeps its session cookie. Returns the token."""
    answer = client.post("/api/register", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["token"])


def create(client: TestClient, game: str, seats: dict[str, str], **extra: Any) -> dict[str, Any]:
    answer = client.post(
        "/api/matches", json={"game": game, "seats": seats, **extra}, headers={"origin": ORIGIN}
    )
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def act(client: TestClient, match_id: str, seat: str, action: str) -> httpx2.Response:
    return client.post(
        f"/api/matches/{match_id}/actions",
        json={"seat": seat, "action": action},
        headers={"origin": ORIGIN},
    )


def body(client: TestClient, match_id: str, seat: str | None = None) -> dict[str, Any]:
    params = {} if seat is None else {"seat": seat}
    answer = client.get(f"/api/matches/{match_id}", params=params)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


# ----- real server processes ----------------------------------------------------------------
#: the folder holding the ``gladiatorium`` package these tests import
SOURCE = Path(gladiatorium.__file__).resolve().parents[1]


def server_env(**settings: str) -> dict[str, str]:
    """The environment of a test's ``gladiatorium serve``: this one's, with bots that
    move at once, no gauntlet runner beside it (a test that watches gauntlets asks for
    one), no database of the caller's, and ``settings`` (``GLADIATORIUM_...``); the
    server runs the code these tests import (a checkout's own src/ first), even when
    PYTHONPATH was given relative to a folder other than the server's."""
    env = {
        **os.environ,
        "GLADIATORIUM_BOT_DELAY": "0",
        "GLADIATORIUM_GAUNTLETS": "0",
        **settings,
    }
    env.pop("GLADIATORIUM_DATABASE_URL", None)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(SOURCE), *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
    )
    return env


@dataclass
class LiveServer:
    database_url: str
    folder: Path
    env: dict[str, str]
    port: int = 0
    process: subprocess.Popen[bytes] | Forked | None = None
    log_path: Path | None = None
    starts: int = 0
    #: more arguments of ``gladiatorium serve`` (e.g. ``--workers 2``)
    args: tuple[str, ...] = ()
    #: forked from this worker's preloading process (``preloaded.py``: the imports made
    #: once), else the ``gladiatorium`` script run as a user runs it
    preloaded: bool = True

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, wait: bool = True) -> LiveServer:
        """Start the process; with ``wait``, until /healthz answers (see :meth:`ready`)."""
        assert self.process is None or self.process.poll() is not None
        self.port = free_port()
        self.starts += 1
        self.log_path = self.folder / f"server-{self.port}-{self.starts}.log"
        argv = ["serve", "--port", str(self.port), "--database-url", self.database_url, *self.args]
        if self.preloaded:
            self.process = preloader_for(self.env).spawn(argv, self.env, self.folder, self.log_path)
            return self.ready() if wait else self
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [str(Path(sys.executable).parent / "gladiatorium"), *argv],
                cwd=self.folder,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        return self.ready() if wait else self

    def ready(self) -> LiveServer:
        wait_for(self._healthy, 60, f"the server on port {self.port} to answer /healthz")
        return self

    def _healthy(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise AssertionError(f"the server exited early:\n{self.log()}")
        try:
            return httpx2.get(self.url + "/healthz", timeout=2).status_code == 200
        except httpx2.HTTPError:
            return False

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path else ""

    def kill(self) -> None:
        """``kill -9``: no shutdown, no flush, nothing saved on the way out."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


# ----- WebSockets of a TestClient ---------------------------------------------------------------
def recv(ws: Any, timeout: float = 30.0) -> dict[str, Any]:
    """The next JSON message of a TestClient WebSocket, or fail after ``timeout``
    (Starlette's own receive waits forever)."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    ws._raise_on_close(message)
    return dict(json.loads(message["text"]))


def recv_until(
    ws: Any, check: Callable[[dict[str, Any]], bool], timeout: float = 30.0
) -> dict[str, Any]:
    """Messages until one passes ``check`` (bodies have "game"; replies do not)."""
    deadline = time.monotonic() + timeout
    while True:
        message = recv(ws, max(0.01, deadline - time.monotonic()))
        if check(message):
            return message


def is_body(message: dict[str, Any]) -> bool:
    return "game" in message


# ----- migrations ------------------------------------------------------------------------------
@contextmanager
def at_revision(engine: Engine, revision: str) -> Iterator[Connection]:
    """A connection to a database migrated only up to ``revision`` (an older server's
    schema), to fill with rows as that server would have left them; committed on exit."""
    config = Config()
    config.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
        yield connection

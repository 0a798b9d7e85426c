"""What the talk tests share: a person talking to a real server over HTTP and sockets."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx2
from server_helpers import PASSWORD, LiveServer
from websockets.sync.client import ClientConnection, connect


class Person:
    """Someone with an account (a bearer token), or a stranger (``name`` None)."""

    def __init__(self, server: LiveServer, name: str | None) -> None:
        self.server = server
        self.name = name
        self.headers: dict[str, str] = {}
        if name is not None:
            answer = httpx2.post(
                server.url + "/api/register", json={"username": name, "password": PASSWORD}
            )
            assert answer.status_code == 201, answer.text
            self.headers = {"authorization": f"Bearer {answer.json()['token']}"}

    def url(self, path: str) -> str:
        return self.server.url + path

    def create(self, game: str, seats: dict[str, str], **extra: Any) -> str:
        answer = httpx2.post(
            self.url("/api/matches"),
            json={"game": game, "seats": seats, **extra},
            headers=self.headers,
        )
        assert answer.status_code == 201, answer.text
        return str(answer.json()["id"])

    def join(self, match: str, seat: str) -> None:
        answer = httpx2.post(
            self.url(f"/api/matches/{match}/join"), json={"seat": seat}, headers=self.headers
        )
        assert answer.status_code == 200, answer.text

    def act(self, match: str, seat: str, action: str) -> httpx2.Response:
        return httpx2.post(
            self.url(f"/api/matches/{match}/actions"),
            json={"seat": seat, "action": action},
            headers=self.headers,
            timeout=30,
        )

    def body(self, match: str, seat: str | None = None) -> dict[str, Any]:
        params = {} if seat is None else {"seat": seat}
        answer = httpx2.get(self.url(f"/api/matches/{match}"), params=params, headers=self.headers)
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def say(self, match: str, channel: str, text: str, seat: str | None = None) -> httpx2.Response:
        return httpx2.post(
            self.url(f"/api/matches/{match}/messages"),
            json={"seat": seat, "channel": channel, "text": text},
            headers=self.headers,
            timeout=30,
        )

    def said(self, match: str, channel: str, text: str, seat: str | None = None) -> int:
        """Post and return the id (the post must be accepted)."""
        answer = self.say(match, channel, text, seat)
        assert answer.status_code == 201, answer.text
        return int(answer.json()["id"])

    def read(self, match: str, seat: str | None = None, after: int = 0) -> dict[str, Any]:
        params: dict[str, Any] = {"after": after}
        if seat is not None:
            params["seat"] = seat
        answer = httpx2.get(
            self.url(f"/api/matches/{match}/messages"), params=params, headers=self.headers
        )
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def texts(self, match: str, seat: str | None = None) -> list[str]:
        return [m["text"] for m in self.read(match, seat)["messages"]]

    def get(self, path: str) -> httpx2.Response:
        return httpx2.get(self.url(path), headers=self.headers, timeout=30)

    @contextmanager
    def socket(self, match: str, seat: str | None = None) -> Iterator[ClientConnection]:
        """The match's socket for ``seat`` (None: a spectator), its first body read."""
        query = "" if seat is None else f"?seat={seat}"
        with connect(
            f"{self.server.ws_url}/ws/matches/{match}{query}",
            additional_headers=self.headers,
            open_timeout=30,
        ) as ws:
            json.loads(ws.recv(timeout=30))
            yield ws


def frames_until(ws: ClientConnection, check: Callable[[dict[str, Any]], bool]) -> list[str]:
    """Every frame (as text) up to and including the first that passes ``check``."""
    seen = []
    while True:
        text = str(ws.recv(timeout=30))
        seen.append(text)
        if check(json.loads(text)):
            return seen


def message_frame(text: str) -> Callable[[dict[str, Any]], bool]:
    """A check: the ``message`` frame whose text is ``text``."""
    return lambda f: f.get("type") == "message" and f["message"]["text"] == text

"""Talk across real server processes: two on one PostgreSQL database see and push each
other's messages, and a server killed with SIGKILL while people talk loses no message
it acknowledged (SQLite and PostgreSQL)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from server_helpers import LiveServer
from talk_helpers import Person, frames_until, message_frame

Start = Callable[..., LiveServer]


def test_two_processes_push_each_others_messages(live_server: Start, postgres_url: str) -> None:
    first, second = live_server(postgres_url), live_server(postgres_url)
    ada = Person(first, "ada")
    match = ada.create("pig", {"1": "me", "2": "me"})
    on_second = Person.__new__(Person)
    on_second.server, on_second.name, on_second.headers = second, "ada", ada.headers
    with on_second.socket(match, "2") as two:
        posted = ada.said(match, "all", "hello from the first process", "1")
        frame = frames_until(two, message_frame("hello from the first process"))[-1]
        assert f'"id":{posted}' in frame
        edited = httpx2.patch(
            ada.url(f"/api/matches/{match}/messages/{posted}"),
            json={"seat": "1", "text": "edited on the first"},
            headers=ada.headers,
        )
        assert edited.status_code == 200, edited.text
        frames_until(two, message_frame("edited on the first"))
    assert on_second.texts(match, "2") == ["edited on the first"]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_kill_9_loses_no_acknowledged_message(
    live_server: Start, backend: str, request: pytest.FixtureRequest, tmp_path: Any
) -> None:
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'talk-crash.db'}"
    else:
        url = request.getfixturevalue("postgres_url")
    server = live_server(url, GLADIATORIUM_TALK_RATE="1000/second")
    ada = Person(server, "ada")
    match = ada.create("pig", {"1": "me", "2": "me"})
    acknowledged: list[int] = []
    started = threading.Event()

    def talk() -> None:
        for n in range(10_000):
            try:
                answer = ada.say(match, "all", f"message {n}", "1")
            except httpx2.HTTPError:
                return  # the server is gone
            if answer.status_code != 201:
                return
            acknowledged.append(int(answer.json()["id"]))
            if n == 20:
                started.set()

    talker = threading.Thread(target=talk)
    talker.start()
    assert started.wait(60), "the talk did not start"
    server.kill()  # in the middle of a post
    talker.join(60)
    assert len(acknowledged) > 20
    server.start()
    kept = {m["id"]: m["text"] for m in ada.read(match, "1")["messages"]}
    assert [i for i in acknowledged if i not in kept] == []
    assert [kept[i] for i in acknowledged] == [f"message {n}" for n in range(len(acknowledged))]

"""The match sockets compress with permessage-deflate at zlib's fastest level, messages
under PLAIN_BELOW bytes left plain: the server's protocol offers it so, a real client
negotiates it with a real server, and what comes through reads."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import httpx2
from server_helpers import PASSWORD, LiveServer
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame
from websockets.sync.client import ClientConnection, connect

from gladiatorium.server.edge import DEFLATE_LEVEL, PLAIN_BELOW, EdgeWebSocketProtocol


def test_the_socket_protocol_deflates_at_the_fastest_level() -> None:
    loop = asyncio.new_event_loop()  # the protocol is made on the server's loop
    try:
        config = Config(app=lambda *_: None, ws_per_message_deflate=True)
        config.load()
        protocol = EdgeWebSocketProtocol(config, ServerState(), {}, _loop=loop)
        (offered,) = protocol.conn.available_extensions
        assert DEFLATE_LEVEL == 1
        assert offered.compress_settings == {"memLevel": 5, "level": 1}  # type: ignore[attr-defined]
        assert offered.server_max_window_bits == 12  # type: ignore[attr-defined]
        assert offered.client_max_window_bits == 12  # type: ignore[attr-defined]
        config = Config(app=lambda *_: None, ws_per_message_deflate=False)
        config.load()
        plain = EdgeWebSocketProtocol(config, ServerState(), {}, _loop=loop)
        assert plain.conn.available_extensions == []
    finally:
        loop.close()


def test_a_client_negotiates_deflate_and_reads_its_bodies(
    tmp_path: Path, live_server: Callable[..., LiveServer]
) -> None:
    server = live_server(f"sqlite:///{tmp_path / 'deflate.db'}")
    account = {"username": "ada", "password": PASSWORD}
    token = httpx2.post(f"{server.url}/api/register", json=account).json()["token"]
    bearer = {"authorization": f"Bearer {token}"}
    created = httpx2.post(
        f"{server.url}/api/matches", json={"game": "pig", "seats": {"1": "me"}}, headers=bearer
    )
    match = created.json()["id"]
    url = f"{server.ws_url}/ws/matches/{match}?seat=1&frames=2"
    came: list[tuple[bool, int]] = []  # each message: compressed, its length
    with connect(url, additional_headers=bearer, open_timeout=30) as ws:
        recording(ws, came)
        first = json.loads(ws.recv(timeout=30))
        assert first["type"] == "body" and first["body"]["game"] == "pig"
        ws.send(json.dumps({"type": "action", "id": 1, "action": "roll"}))
        seen = [json.loads(ws.recv(timeout=30)) for _ in range(2)]
        assert {m["type"] for m in seen} == {"reply", "delta"}
        (reply,) = [m for m in seen if m["type"] == "reply"]
        assert reply["id"] == 1 and reply["events"], reply
        game = {"game": "super-dice-heroes", "seats": {"1": "me", "2": "bot:random"}}
        sheets = httpx2.post(f"{server.url}/api/matches", json=game, headers=bearer).json()["id"]
        ws.send(json.dumps({"type": "sync"}))  # a Pig body again: short
        assert json.loads(ws.recv(timeout=30))["type"] == "body"
    url = f"{server.ws_url}/ws/matches/{sheets}?seat=1&frames=2"
    with connect(url, additional_headers=bearer, open_timeout=30) as ws:
        recording(ws, came)
        assert json.loads(ws.recv(timeout=30))["type"] == "body"  # maybe read before
        ws.send(json.dumps({"type": "sync"}))  # a Super Dice Heroes body: over 1 KiB
        assert json.loads(ws.recv(timeout=30))["type"] == "body"
    # a message under PLAIN_BELOW bytes came uncompressed (the replies, the deltas, a
    # Pig body), a longer one deflated (the first body may have come before the record)
    assert [compressed for compressed, _ in came] == [size >= PLAIN_BELOW for _, size in came]
    assert {compressed for compressed, _ in came} == {True, False}, came


def recording(ws: ClientConnection, came: list[tuple[bool, int]]) -> None:
    """From now on, each message ``ws`` reads is added to ``came``: whether it came
    deflated, and its length once read (the connection negotiated deflate)."""
    (deflate,) = ws.protocol.extensions
    assert isinstance(deflate, PerMessageDeflate)
    decode = deflate.decode

    def recorded(frame: Frame, *, max_size: int | None = None) -> Frame:
        read = decode(frame, max_size=max_size)
        came.append((frame.rsv1, len(read.data)))
        return read

    deflate.decode = recorded  # type: ignore[method-assign]

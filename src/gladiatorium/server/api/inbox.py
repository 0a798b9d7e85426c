"""A person's inbox over the API: their turns (``GET /api/me/turns`` and the socket
``/ws/me``, which pushes them whenever they change), the matches with open seats
(``GET /api/matches/open``) and a rematch of a finished match."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from gladiatorium.server.api.socket import SESSION_ENDED, refuse_socket, socket_caller
from gladiatorium.server.errors import ServiceError, Unauthorized
from gladiatorium.server.rematch import offer_rematch
from gladiatorium.server.turns import awaited_turns, holds_any
from gladiatorium.server.web import (
    check_origin,
    error,
    invite_url,
    request_caller,
    service_of,
)

router = APIRouter()

#: a person's socket looks at the matches that changed at most this often (seconds)
SETTLE_SECONDS = 0.1


def turns_json(request: Request | WebSocket, user_id: int) -> list[dict[str, Any]]:
    service = request.app.state.service
    return [turn.to_json() for turn in awaited_turns(service.store.sessions, user_id)]


@router.get("/api/me/turns")
async def my_turns(request: Request) -> Response:
    """Every seat of mine a match in progress waits on, oldest first."""
    try:
        caller = await run_in_threadpool(request_caller, request)
        if caller.user_id is None:
            raise Unauthorized("log in to see your turns")
        turns = await run_in_threadpool(turns_json, request, caller.user_id)
    except ServiceError as err:
        return error(err)
    return JSONResponse({"turns": turns})


@router.get("/api/matches/open")
async def open_matches(request: Request, game: str | None = None) -> Response:
    """Matches in progress with seats anyone may take (``game``: a slug), newest first."""
    try:
        found = await run_in_threadpool(service_of(request).seats.open_matches, game)
    except ServiceError as err:
        return error(err)
    return JSONResponse({"matches": [m.to_json() for m in found]})


@router.post("/api/matches/{match_id}/rematch")
async def rematch(request: Request, match_id: str) -> Response:
    """The rematch of a finished match (its seats rotated); 201 when this call created
    it, 200 when someone asked first. Guests' seats are invitations, links given here."""
    caller = request_caller(request)
    try:
        check_origin(request, caller)
        made = await run_in_threadpool(
            offer_rematch,
            service_of(request),
            match_id,
            caller.user_id,
            request.app.state.notices,
        )
    except ServiceError as err:
        return error(err)
    request.app.state.drivers.kick(made.id)
    invites = {seat: invite_url(request, token) for seat, token in made.invites.items()}
    return JSONResponse({"id": made.id, "invites": invites}, status_code=201 if made.new else 200)


@router.websocket("/ws/me")
async def my_socket(websocket: WebSocket) -> None:
    """A logged-in person's socket: ``{"type": "turns", "turns": [...]}`` at once and
    whenever their turns change; closed (4401) when the session ends."""
    app = websocket.app
    caller = await socket_caller(websocket)
    if caller is None:
        return
    if caller.user_id is None or caller.session is None:
        await refuse_socket(websocket, SESSION_ENDED, "log in to follow your turns")
        return
    await websocket.accept()
    changes = app.state.hub.watch_all()
    ended = app.state.hub.watch_session(caller.session)
    try:
        await _serve_turns(websocket, caller.user_id, caller.session, changes, ended)
    except WebSocketDisconnect:
        pass
    finally:
        app.state.hub.unwatch_all(changes)
        app.state.hub.unwatch_session(caller.session, ended)


async def _serve_turns(
    websocket: WebSocket, user_id: int, session: str, changes: Any, ended: asyncio.Event
) -> None:
    """Push the turns, then again after each change to a match of the person's (the
    matches that changed are looked at together, at most every ``SETTLE_SECONDS``)."""
    sessions = websocket.app.state.service.store.sessions
    accounts = websocket.app.state.accounts
    check = websocket.app.state.settings.session_check_seconds
    last = ""
    checked = time.monotonic()

    async def push() -> None:
        nonlocal last
        turns = await run_in_threadpool(turns_json, websocket, user_id)
        text = json.dumps({"type": "turns", "turns": turns}, separators=(",", ":"))
        if text != last:
            last = text
            await websocket.send_text(text)

    await push()
    receive = asyncio.ensure_future(websocket.receive())
    try:
        while True:
            waiting = {receive, asyncio.ensure_future(changes.event.wait())}
            waiting.add(asyncio.ensure_future(ended.wait()))
            done, pending = await asyncio.wait(
                waiting, timeout=check, return_when=asyncio.FIRST_COMPLETED
            )
            for future in pending - {receive}:
                future.cancel()
            if receive in done:
                if receive.result()["type"] == "websocket.disconnect":
                    return
                receive = asyncio.ensure_future(websocket.receive())  # nothing to say
            if time.monotonic() - checked >= check:
                checked = time.monotonic()
                if await run_in_threadpool(accounts.alive, session, False) is None:
                    ended.set()
            if ended.is_set():
                await websocket.close(code=SESSION_ENDED, reason="session ended")
                return
            if changes.event.is_set():
                await asyncio.sleep(SETTLE_SECONDS)
                if await run_in_threadpool(holds_any, sessions, user_id, changes.take()):
                    await push()
    finally:
        receive.cancel()

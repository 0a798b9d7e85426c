"""Talk's JSON API (docs/api.md, "Talk") and its part of the match's WebSocket: the
``message`` frames pushed to the sockets whose seat may read a channel, and the
client's ``read`` frames (docs/server.md, "The WebSocket's frames")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from gladiatorium.server.api.common import TEXT, json_body, json_request
from gladiatorium.server.config import Settings
from gladiatorium.server.errors import BadRequest, NotFound, ServiceError
from gladiatorium.server.service import MatchService
from gladiatorium.server.talk import Speaker, Talk, TalkHub, read_notice
from gladiatorium.server.talk_thread import Threads
from gladiatorium.server.web import (
    Caller,
    check_origin,
    error,
    request_caller,
    require_seat,
    seats_held,
)

router = APIRouter()

SEAT: dict[str, Any] = {"type": ["string", "null"]}
POST = json_request(["channel", "text"], seat=SEAT, channel=TEXT, text=TEXT)
CHANGE = json_request([], seat=SEAT, text=TEXT, hidden={"type": "boolean"})
READ = json_request(["channel", "id"], seat=SEAT, channel=TEXT, id={"type": "integer"})
MUTE = json_request([], seat=SEAT)


def install(app: FastAPI, sessions: sessionmaker[Session], settings: Settings) -> TalkHub:
    """Talk's service on ``app.state.talk`` and its routes; returns the hub, whose loop
    the lifespan sets."""
    hub = TalkHub()
    service: MatchService = app.state.service
    app.state.talk = Talk(sessions, service, hub, service.store.postgres, settings.talk_rate)
    app.state.talk_threads = Threads(service)
    app.include_router(router)
    return hub


def on_notice(hub: TalkHub) -> Any:
    """What the listener does with another process's talk notice: tell this process's
    sockets of the match (each decides for its own seat)."""

    def told(payload: str) -> None:
        found = read_notice(payload)
        if found is not None:
            hub.announce(*found)

    return told


def talk_of(request: Request | WebSocket) -> Talk:
    return request.app.state.talk


def speaker_of(service: MatchService, match_id: str, caller: Caller, seat: Any) -> Speaker:
    """Who speaks: the caller for ``seat`` (which they must hold), or as a spectator."""
    if seat is not None and not isinstance(seat, str):
        raise BadRequest("seat: expected a seat name (or none, as a spectator)")
    if seat is not None:
        require_seat(service, match_id, caller, seat)
        return Speaker(seat, caller.user_id, True)
    return Speaker(None, caller.user_id, bool(seats_held(service, match_id, caller)))


async def _speaker(request: Request, match_id: str, seat: Any) -> Speaker:
    caller = request_caller(request)
    check_origin(request, caller)
    return await run_in_threadpool(speaker_of, request.app.state.service, match_id, caller, seat)


@router.post("/api/matches/{match_id}/messages", openapi_extra=POST)
async def post_message(request: Request, match_id: str) -> Response:
    """Post a message: 201 ``{"id": N}`` once it is committed."""
    try:
        data = await json_body(request)
        speaker = await _speaker(request, match_id, data.get("seat"))
        message_id = await run_in_threadpool(
            talk_of(request).post, match_id, speaker, data.get("channel"), data.get("text")
        )
    except ServiceError as err:
        return error(err)
    return JSONResponse({"id": message_id}, status_code=201)


@router.get("/api/matches/{match_id}/messages")
async def get_messages(
    request: Request, match_id: str, seat: str | None = None, after: str | None = None
) -> Response:
    """What the seat (none: a spectator) may read, oldest first, and its channels;
    where the game's thread reads as a forum, its public moves and round posts."""
    try:
        start = _whole(after, "after")
        speaker = await _speaker(request, match_id, seat)
        found = await run_in_threadpool(talk_of(request).messages, match_id, speaker, start)
        if any(c["forum"] for c in found["channels"]):
            threads: Threads = request.app.state.talk_threads
            found["thread"] = await run_in_threadpool(threads.items, match_id)
    except ServiceError as err:
        return error(err)
    return JSONResponse(found)


def _message(message_id: int) -> int:
    """A message id a database key can hold (else no such message: 404)."""
    if not 0 < message_id < 2**31:
        raise NotFound(f"no message {message_id}")
    return message_id


def _whole(raw: str | None, name: str) -> int:
    if raw is None or raw == "":
        return 0
    if not raw.isdigit() or len(raw) > 10 or int(raw) >= 2**31:
        raise BadRequest(f"{name}: expected a message id (a whole number)")
    return int(raw)


@router.patch("/api/matches/{match_id}/messages/{message_id}", openapi_extra=CHANGE)
async def change_message(request: Request, match_id: str, message_id: int) -> Response:
    """The author edits (``text``); the creator or moderator hides (``hidden``)."""
    try:
        _message(message_id)
        data = await json_body(request)
        speaker = await _speaker(request, match_id, data.get("seat"))
        talk = talk_of(request)
        if "hidden" in data:
            if not isinstance(data["hidden"], bool):
                raise BadRequest("hidden: true or false")
            await run_in_threadpool(talk.hide, match_id, speaker, message_id, data["hidden"])
        elif "text" in data:
            await run_in_threadpool(talk.edit, match_id, speaker, message_id, data["text"])
        else:
            raise BadRequest('give {"text": NEW_TEXT} or {"hidden": true}')
    except ServiceError as err:
        return error(err)
    return JSONResponse({"ok": True})


@router.delete("/api/matches/{match_id}/messages/{message_id}")
async def delete_message(
    request: Request, match_id: str, message_id: int, seat: str | None = None
) -> Response:
    """The author deletes a message (shown as deleted)."""
    try:
        _message(message_id)
        speaker = await _speaker(request, match_id, seat)
        await run_in_threadpool(talk_of(request).delete, match_id, speaker, message_id)
    except ServiceError as err:
        return error(err)
    return JSONResponse({"ok": True})


@router.post("/api/matches/{match_id}/messages/{message_id}/mute", openapi_extra=MUTE)
async def mute_author(request: Request, match_id: str, message_id: int) -> Response:
    """Mute the author of a message, for the caller's account."""
    return await _mute(request, match_id, message_id, True)


@router.delete("/api/matches/{match_id}/messages/{message_id}/mute")
async def unmute_author(request: Request, match_id: str, message_id: int) -> Response:
    return await _mute(request, match_id, message_id, False)


async def _mute(request: Request, match_id: str, message_id: int, muted: bool) -> Response:
    try:
        _message(message_id)
        data = await json_body(request) if muted else {}
        seat = data.get("seat", request.query_params.get("seat"))
        speaker = await _speaker(request, match_id, seat)
        await run_in_threadpool(talk_of(request).mute, match_id, speaker, message_id, muted)
    except ServiceError as err:
        return error(err)
    return JSONResponse({"ok": True})


@router.post("/api/matches/{match_id}/messages/read", openapi_extra=READ)
async def mark_read(request: Request, match_id: str) -> Response:
    """The caller read a channel up to a message (unread counts)."""
    try:
        data = await json_body(request)
        speaker = await _speaker(request, match_id, data.get("seat"))
        await run_in_threadpool(
            talk_of(request).mark_read, match_id, speaker, data.get("channel"), data.get("id")
        )
    except ServiceError as err:
        return error(err)
    return JSONResponse({"ok": True})

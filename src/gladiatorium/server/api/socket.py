"""The WebSocket of a match: the handshake authenticated (cookie or bearer, and Origin),
the seat's body pushed after every change (``?frames=2``: typed frames, a ``body`` then
``delta`` frames, ``server/frames.py``), ``{"action": NOTATION}`` messages taken within
a rate and a size, and the socket closed when its session or its seat is lost."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from functools import partial
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from gladiatorium.server.accounts import SESSION_OVER, Accounts
from gladiatorium.server.edge import BadJson, NotJson, checked_json
from gladiatorium.server.errors import ServiceError
from gladiatorium.server.frames import Frames
from gladiatorium.server.pushes import Pushes
from gladiatorium.server.service import MatchService
from gladiatorium.server.talk_socket import SocketTalk
from gladiatorium.server.threads import Threads
from gladiatorium.server.web import Caller, caller_of, require_seat, same_origin

router = APIRouter()


class RateLimit:
    """A token bucket: ``rate`` messages a second, bursts of the same size."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.tokens = rate
        self.last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.rate, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@router.websocket("/ws/matches/{match_id}")
async def match_socket(
    websocket: WebSocket,
    match_id: str,
    seat: str | None = None,
    frames: str | None = None,
    ply: str | None = None,
) -> None:
    """Authenticate the handshake (cookie or bearer, and Origin), then push the seat's
    body after every change and take ``{"action": NOTATION}`` messages. ``frames=2``:
    the connection speaks typed frames; ``ply``: with them, the last ply a reconnecting
    client applied (an ``ack`` sent at once: it gets a delta of what it missed)."""
    app = websocket.app
    service: MatchService = app.state.service
    caller = await socket_caller(websocket)
    if caller is None:
        return
    try:
        if seat is not None:
            await run_in_threadpool(require_seat, service, match_id, caller, seat)
        else:
            await run_in_threadpool(service.store.live, match_id)
    except ServiceError as err:
        await refuse_socket(websocket, 4000 + err.status, str(err))
        return
    await websocket.accept()
    websocket.state.caller = caller
    queue = app.state.hub.subscribe(match_id)
    ended = None if caller.session is None else app.state.hub.watch_session(caller.session)
    talk = SocketTalk(websocket, match_id, seat)
    framed = Frames(seat) if frames == "2" else None
    try:
        await _serve_socket(
            websocket,
            service,
            match_id,
            seat,
            queue,
            Riding(caller.session, ended),
            talk,
            framed,
            ply,
        )
    except WebSocketDisconnect:
        pass
    finally:
        talk.close()
        app.state.hub.unsubscribe(match_id, queue)
        if caller.session is not None and ended is not None:
            app.state.hub.unwatch_session(caller.session, ended)


#: the close code of a socket whose session ended (logged out or expired)
SESSION_ENDED = 4401


@dataclass
class Riding:
    """The session a socket was opened with (None: a guest's seat cookie, or nobody), the
    event the hub sets when that session is logged out, and until when (``monotonic``) a
    look found it live and may be trusted (``session_trust_seconds``, while every logout
    reaches this process: a logout anywhere sets ``ended``)."""

    session: str | None
    ended: asyncio.Event | None
    trusted_until: float = 0.0

    async def lasts(self, websocket: WebSocket, touch: bool) -> bool:
        """Whether the session still holds (``touch``: a use of it), asked in a worker
        thread (none needed for a socket without a session)."""
        if self.session is None:
            return True
        return await run_in_threadpool(self.holds, websocket.app.state.accounts, touch)

    def holds(self, accounts: Accounts, touch: bool) -> bool:
        """:meth:`lasts` in the caller's thread (a worker's: it reads the database, unless
        a look made within ``session_trust_seconds`` may be trusted)."""
        if self.session is None:
            return True
        if self.ended is not None and self.ended.is_set():
            return False
        now = time.monotonic()
        if now < self.trusted_until and accounts.logouts_heard:
            return True
        held = accounts.lasts(self.session, touch)
        self.trusted_until = now + accounts.settings.session_trust_seconds if held else 0.0
        return held


async def socket_caller(websocket: WebSocket) -> Caller | None:
    """The handshake every socket makes: another site's page refused (4403), then the
    caller found from the cookie or the bearer token (a refusal closes with 4000 plus
    its status). None when refused: the socket is closed already."""
    app = websocket.app
    origin = websocket.headers.get("origin")
    if origin is not None and not same_origin(
        origin, str(websocket.url), websocket.headers.get("host"), app.state.settings
    ):
        await refuse_socket(websocket, 4403, "cross-site connection refused")
        return None
    try:
        caller: Caller = await run_in_threadpool(
            caller_of, websocket.headers, dict(websocket.cookies), app.state.accounts
        )
    except ServiceError as err:
        await refuse_socket(websocket, 4000 + err.status, str(err))
        return None
    return caller


async def refuse_socket(websocket: WebSocket, code: int, reason: str) -> None:
    """Accept, then close at once with ``code`` (4403, 4404...) and the reason, as
    docs/api.md says: a close before accepting reaches the client as an HTTP 403, where
    a browser sees neither code nor reason."""
    await websocket.accept()
    await websocket.close(code=code, reason=reason.encode()[:120].decode(errors="ignore"))


async def _receive(websocket: WebSocket) -> str | bytes:
    """The next message, text or binary (binary frames are answered, not fatal)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if text is not None else bytes(message.get("bytes") or b"")


async def _serve_socket(
    websocket: WebSocket,
    service: MatchService,
    match_id: str,
    seat: str | None,
    queue: asyncio.Queue[None],
    riding: Riding,
    talk: SocketTalk,
    framed: Frames | None,
    reconnect: str | None,
) -> None:
    settings = websocket.app.state.settings
    limit = Limits(RateLimit(settings.ws_rate), RateLimit(settings.ws_rate * ACKS_PER_MESSAGE))
    pushes: Pushes = websocket.app.state.pushes
    last: str | None = None
    checked = time.monotonic()

    async def push(fresh: bool = False, how: Any = "delta") -> None:
        nonlocal last
        text = await pushes.build(
            match_id, partial(_encoded, websocket, service, match_id, seat, framed, fresh, how)
        )
        if text is False:
            await websocket.close(code=4403, reason=f"you no longer hold seat {seat}")
            raise WebSocketDisconnect(4403)
        if isinstance(text, str) and (framed is not None or how != "delta" or text != last):
            last = text
            await websocket.send_text(text)

    opening: Any = "body"
    if framed is not None and reconnect is not None:
        opening = ("ack", int(reconnect)) if reconnect.isascii() and reconnect.isdigit() else "body"
    try:
        await push(fresh=True, how=opening)
    except ServiceError:  # a reconnecting client's ply the match never reached
        await push(fresh=True, how="body")
    receive = asyncio.ensure_future(_receive(websocket))
    wake = asyncio.ensure_future(queue.get())
    ended = asyncio.ensure_future(riding.ended.wait() if riding.ended else asyncio.Event().wait())
    told = talk.next()  # a message posted or changed (talk)
    try:
        while True:
            waiting: set[asyncio.Future[Any]] = {receive, wake, ended, told}
            done, _ = await asyncio.wait(
                waiting,
                timeout=settings.session_check_seconds if riding.session else None,
                return_when=asyncio.FIRST_COMPLETED,
            )
            if ended in done:
                await _end_socket(websocket)
                return
            if riding.session and time.monotonic() - checked >= settings.session_check_seconds:
                checked = time.monotonic()
                if not await riding.lasts(websocket, touch=False):
                    await _end_socket(websocket)
                    return
            if wake in done:
                wake = asyncio.ensure_future(queue.get())
                await push()
            if told in done:
                message_id, told = told.result(), talk.next()
                holds = await run_in_threadpool(_holds, websocket, service, match_id, seat)
                await talk.push(message_id, holds)
            if receive in done:
                message = receive.result()
                receive = asyncio.ensure_future(_receive(websocket))
                if _taken_ack(message, framed, limit):
                    continue  # an acknowledgement of a ply it was sent: nothing to do
                reply = await _socket_action(
                    websocket, service, match_id, seat, message, limit, talk, riding
                )
                if reply is SESSION_GONE:
                    await _end_socket(websocket)
                    return
                if isinstance(reply, tuple):  # a typed ack or sync: frames to push
                    try:
                        await push(how=reply)
                        reply = None
                    except ServiceError as err:
                        reply = {"type": "reply", "error": str(err), "status": err.status}
                if reply is not None:
                    await websocket.send_text(json.dumps(reply))
                    if reply.get("close"):
                        await websocket.close(code=1008)
                        return
    finally:
        receive.cancel()
        wake.cancel()
        ended.cancel()
        told.cancel()


async def _end_socket(websocket: WebSocket) -> None:
    """The session is over: say so, and close with :data:`SESSION_ENDED`."""
    await websocket.send_text(json.dumps({"error": SESSION_OVER, "status": 401}))
    await websocket.close(code=SESSION_ENDED, reason="session ended")


def _holds(websocket: WebSocket, service: MatchService, match_id: str, seat: str | None) -> bool:
    """Whether the connection's caller still holds its seat (a new invitation link
    takes the seat from whoever took the old one); a spectator always may watch."""
    if seat is None:
        return True
    caller: Caller = websocket.state.caller
    token = caller.seat_tokens.get(match_id)
    tokens = [token] if token else []
    return service.seats.still_holds(match_id, seat, caller.user_id, tokens)


def _encoded(
    websocket: WebSocket,
    service: MatchService,
    match_id: str,
    seat: str | None,
    framed: Frames | None,
    fresh: bool,
    how: Any,
) -> str | bool | None:
    """The frame to push as JSON text, built and encoded in a worker thread (a large
    body is milliseconds of encoding that would otherwise stall the event loop), with
    the frames of the match's other connections (``server/pushes.py``): the
    whole body for an untyped connection, else a ``body`` or ``delta`` frame (None:
    nothing new). False when the connection no longer holds its seat."""
    if not _holds(websocket, service, match_id, seat):
        return False
    if framed is None:
        return service.play.push_text(match_id, seat, fresh)
    live = service.play.for_push(match_id, fresh)
    with live.lock:
        if how == "body" or how == ("sync",):
            return framed.body(live)
        if isinstance(how, tuple):
            return framed.ack(live, how[1])
        return framed.delta(live)


#: acknowledgements a socket may send for each message of its rate
ACKS_PER_MESSAGE = 10


@dataclass
class Limits:
    """A socket's rates: its messages (actions, reads, syncs) and its acknowledgements."""

    messages: RateLimit
    acks: RateLimit


#: what :func:`_ack_of` answers for a message that is not an acknowledgement
NOT_ACK = object()


def _ack_of(message: str | bytes) -> Any:
    """The ply of a typed ``{"type": "ack", "ply": N}`` (read cheaply: JSON of a few
    bytes), or :data:`NOT_ACK`."""
    if isinstance(message, bytes) or len(message) > 64 or '"ack"' not in message:
        return NOT_ACK
    try:
        data = json.loads(message)
    except ValueError:
        return NOT_ACK
    if not isinstance(data, dict) or data.get("type") != "ack":
        return NOT_ACK
    return data.get("ply")


def _taken_ack(message: str | bytes, framed: Frames | None, limit: Limits) -> bool:
    """Whether ``message`` is an acknowledgement dealt with here, on the event loop: one
    over the acknowledgements' rate (ignored), or one of a ply this connection was sent
    (the next delta's base; nothing to answer). Neither reads the database nor counts
    as a use of the session. Any other (a reconnecting client's ply) goes on to
    :func:`_socket_action`."""
    if framed is None:
        return False
    ply = _ack_of(message)
    if ply is NOT_ACK:
        return False
    return not limit.acks.allow() or framed.acknowledged(ply)


#: what :func:`_socket_action` answers when the socket's session has ended
SESSION_GONE: dict[str, Any] = {"error": SESSION_OVER, "status": 401}


async def _socket_action(
    websocket: WebSocket,
    service: MatchService,
    match_id: str,
    seat: str | None,
    message: str | bytes,
    limit: Limits,
    talk: SocketTalk,
    riding: Riding,
) -> dict[str, Any] | tuple[Any, ...] | None:
    """The answer to a client's message: a reply, frames to push (a typed ``ack`` or
    ``sync``: a tuple), or nothing. Acknowledgements have a rate of their own (a page
    acknowledges every delta, dozens a second in a hundred-seat round): one over it is
    ignored (the next delta is then made against an older view, which the client
    keeps), never counted against the seat's actions."""
    read = _read_message(websocket, message, limit)
    if isinstance(read, Parsed) and _is_action(read.data):  # the session checked with it
        data = read.data
        acted = await _action(websocket, service, match_id, seat, data, riding)
        if acted is None:
            return SESSION_GONE
        return {**_reply_to(data), **acted} if "type" in data else acted
    if not await riding.lasts(websocket, touch=True):
        return SESSION_GONE
    if not isinstance(read, Parsed):
        return read
    data = read.data
    if not isinstance(data, dict):
        return {"error": 'expected JSON: {"action": NOTATION}', "status": 400}
    kind = data["type"]
    if kind == "read":
        return await talk.read(data)  # talk: how far the seat has read a channel
    if kind == "ack":
        return ("ack", data.get("ply"))
    if kind == "sync":
        return ("sync",)
    error = f"type: {kind!r} is not a frame the client sends"
    return {**_reply_to(data), "error": error, "status": 400}


def _reply_to(data: dict[str, Any]) -> dict[str, Any]:
    """The head of a typed reply: its type, and the message's id where it gave one."""
    reply: dict[str, Any] = {"type": "reply"}
    if isinstance(data.get("id"), str | int) and not isinstance(data.get("id"), bool):
        reply["id"] = data["id"]
    return reply


@dataclass(frozen=True)
class Parsed:
    """A client's message read as JSON, not yet answered."""

    data: Any


def _read_message(
    websocket: WebSocket, message: str | bytes, limit: Limits
) -> Parsed | dict[str, Any] | tuple[Any, ...] | None:
    """What needs no session to answer: a message over the size (closing), an
    acknowledgement (over its rate: ignored), one over the message rate, a binary or
    malformed one; else the message read."""
    settings = websocket.app.state.settings
    size = len(message) if isinstance(message, bytes) else len(message.encode())
    if size > settings.ws_max_message:
        return {"error": f"message over {settings.ws_max_message} bytes", "close": True}
    ply = _ack_of(message)
    if ply is not NOT_ACK:
        return ("ack", ply) if limit.acks.allow() else None
    if not limit.messages.allow():
        return {"error": "too many messages; slow down", "status": 429}
    if isinstance(message, bytes):
        return {"error": 'binary frame refused: send text, {"action": NOTATION}', "status": 400}
    try:
        return Parsed(checked_json(message))
    except NotJson:
        return {"error": 'expected JSON: {"action": NOTATION}', "status": 400}
    except BadJson as err:
        return {"error": str(err), "status": 400}


def _is_action(data: Any) -> bool:
    """An action: typed (``{"type": "action"}``) or today's untyped clients' object."""
    return isinstance(data, dict) and data.get("type", "action") == "action"


async def _action(
    websocket: WebSocket,
    service: MatchService,
    match_id: str,
    seat: str | None,
    data: dict[str, Any],
    riding: Riding,
) -> dict[str, Any] | None:
    """Act for the socket's seat: ``{"events"}``, or ``{"error", "status"}``; None when
    the socket's session has ended (checked in the same worker-thread call as the
    seat and the step: an action is a use of the session)."""
    if not isinstance(data.get("action"), str):
        if not await riding.lasts(websocket, touch=True):
            return None
        return {"error": 'expected JSON: {"action": NOTATION}', "status": 400}
    accounts: Accounts = websocket.app.state.accounts
    threads: Threads = websocket.app.state.threads
    try:
        notation = data["action"]
        events = await threads.run(
            _held_and_submitted, websocket, service, match_id, seat, notation, riding, accounts
        )
    except ServiceError as err:
        return {"error": str(err), "status": err.status}
    if events is SESSION_GONE:
        return None
    if isinstance(events, dict):
        return events
    websocket.app.state.drivers.kick(match_id)
    return {"events": events}


def _held_and_submitted(
    websocket: WebSocket,
    service: MatchService,
    match_id: str,
    seat: str | None,
    notation: str,
    riding: Riding,
    accounts: Accounts,
) -> list[dict[str, Any]] | dict[str, Any]:
    """In one worker-thread call: the session still live (else :data:`SESSION_GONE`),
    the seat a seat that acts and still held (else a refusal), then the action's events."""
    if not riding.holds(accounts, touch=True):
        return SESSION_GONE
    if seat is None:
        return {"error": "spectators cannot act; connect with ?seat=S", "status": 403}
    if not _holds(websocket, service, match_id, seat):
        return {"error": f"you no longer hold seat {seat!r} of this match", "status": 403}
    return service.play.submit(match_id, seat, notation)

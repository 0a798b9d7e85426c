"""The JSON API (documented in docs/api.md) and the WebSocket of a match."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from gladiatorium.core import GladiatoriumError, games
from gladiatorium.server.accounts import SESSION_OVER, Accounts
from gladiatorium.server.edge import BadJson, NotJson, checked_json
from gladiatorium.server.replays import check_record
from gladiatorium.server.service import (
    BadRequest,
    Forbidden,
    MatchService,
    ServiceError,
    Unauthorized,
)
from gladiatorium.server.talk_socket import SocketTalk
from gladiatorium.server.web import (
    SESSION_COOKIE,
    Caller,
    caller_of,
    check_origin,
    client_address,
    error,
    link_base,
    request_caller,
    request_same_origin,
    require_seat,
    require_user,
    same_origin,
    seats_held,
)

router = APIRouter()

MAX_JSON = 256 * 1024


async def json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_JSON:
        raise BadRequest(f"request body over {MAX_JSON} bytes")
    try:
        data = checked_json(raw or b"{}")
    except NotJson as err:
        raise BadRequest(f"request body is {err}") from None
    except BadJson as err:
        raise BadRequest(str(err)) from None
    if not isinstance(data, dict):
        raise BadRequest("request body must be a JSON object")
    return data


def json_request(required: list[str], **properties: Any) -> dict[str, Any]:
    """The OpenAPI description of a route's JSON body (``openapi_extra``: the routes read
    their bodies themselves, so FastAPI cannot describe them), for clients and the fuzz."""
    schema = {"type": "object", "properties": properties, "required": required}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


TEXT: dict[str, Any] = {"type": "string"}
NUMBER: dict[str, Any] = {"type": "number"}
ACCOUNT = json_request(["username", "password"], username=TEXT, password=TEXT)
NEW_MATCH = json_request(
    ["game"],
    game=TEXT,
    players={"type": "integer"},
    options={"type": "object"},
    seats={"type": "object", "additionalProperties": TEXT},
    settings={"type": "object", "properties": {"round_minutes": NUMBER, "clock_days": NUMBER}},
    library={
        "type": "object",
        "additionalProperties": {"type": "array", "items": {"type": "integer"}},
    },
)


def service_of(request: Request) -> MatchService:
    return request.app.state.service


#: how long the session and form cookies last, in days
COOKIE_DAYS = 30


def set_private_cookie(
    response: Response, request: Request, name: str, value: str, days: int = COOKIE_DAYS
) -> None:
    """A cookie no script may read, sent by this site's own pages and links only (and
    over HTTPS only where the settings say so)."""
    response.set_cookie(
        name,
        value,
        httponly=True,
        samesite="lax",
        secure=request.app.state.settings.secure_cookies,
        max_age=60 * 60 * 24 * days,
    )


#: the session cookie's own life, in days: as long as browsers keep one (400), since the
#: session itself ends on the server once unused for ``session_days`` (each use slides it)
SESSION_COOKIE_DAYS = 400


def with_session(response: Response, token: str, request: Request) -> Response:
    set_private_cookie(response, request, SESSION_COOKIE, token, SESSION_COOKIE_DAYS)
    return response


class UnsupportedMediaType(ServiceError):
    status = 415


def check_account_post(request: Request) -> None:
    """Login and registration refuse what another site's page can send: only JSON (a
    cross-site page cannot send it without a CORS preflight, never granted) and, when an
    Origin header comes, it must name this server (login CSRF)."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise UnsupportedMediaType("Content-Type: send the body as application/json")
    if "origin" in request.headers and not request_same_origin(request):
        raise Forbidden("cross-site request refused: the Origin header must name this server")


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    await run_in_threadpool(request.app.state.ping)
    live = request.app.state.service.live_count()
    return {"ok": True, "games": [g.info.slug for g in games()], "live_matches": live}


@router.post("/api/register", openapi_extra=ACCOUNT)
async def register(request: Request) -> Response:
    try:
        check_account_post(request)
        data = await json_body(request)
        accounts: Accounts = request.app.state.accounts
        user, token = await accounts.sign_up(data.get("username"), data.get("password"))
    except ServiceError as err:
        return error(err)
    body = {"username": user.username, "token": token}
    return with_session(JSONResponse(body, status_code=201), token, request)


@router.post("/api/login", openapi_extra=ACCOUNT)
async def login(request: Request) -> Response:
    try:
        check_account_post(request)
        data = await json_body(request)
        accounts: Accounts = request.app.state.accounts
        user, token = await accounts.log_in(
            data.get("username"), data.get("password"), client_address(request)
        )
    except ServiceError as err:
        return error(err)
    return with_session(JSONResponse({"username": user.username, "token": token}), token, request)


@router.post("/api/logout")
async def logout(request: Request) -> Response:
    caller = request_caller(request)
    try:
        check_origin(request, caller)
    except ServiceError as err:
        return error(err)
    await end_session(request, caller.session)
    response = JSONResponse({"ok": True})
    response.delete_cookie(SESSION_COOKIE)
    return response


async def end_session(request: Request, session: str | None) -> None:
    """Log a session out: its token stops working and its open sockets are closed."""
    if session is not None:
        await run_in_threadpool(request.app.state.accounts.logout, session)
        request.app.state.hub.end_session(session)


@router.post("/api/matches", openapi_extra=NEW_MATCH)
async def create_match(request: Request) -> Response:
    caller = request_caller(request)
    try:
        check_origin(request, caller)
        if caller.user_id is None:
            raise Unauthorized("log in to create a match: creating matches needs an account")
        data = await json_body(request)
        created = await run_in_threadpool(create_from_json, request, caller, data)
    except ServiceError as err:
        return error(err)
    invites = {seat: invite_url(request, token) for seat, token in created.invites.items()}
    request.app.state.drivers.kick(created.id)
    return JSONResponse({"id": created.id, "invites": invites}, status_code=201)


def invite_url(request: Request, token: str) -> str:
    """The link that holds an invitation token."""
    return f"{link_base(request)}/invite/{token}"


@router.post("/api/matches/{match_id}/seats/{seat}/invite")
async def reissue_invite(request: Request, match_id: str, seat: str) -> Response:
    """The match's creator issues a new invitation link for a seat given by invitation:
    the old link, and whoever took it, lose the seat."""
    caller = request_caller(request)
    try:
        check_origin(request, caller)
        token = await run_in_threadpool(
            service_of(request).reissue_invite, match_id, seat, caller.user_id
        )
    except ServiceError as err:
        return error(err)
    return JSONResponse({"invite": invite_url(request, token)}, status_code=201)


def create_from_json(request: Request, caller: Caller, data: dict[str, Any]) -> Any:
    game = data.get("game")
    if not isinstance(game, str):
        raise BadRequest("game: give the slug of a registered game")
    players = data.get("players")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        raise BadRequest("players: expected a whole number")
    options = data.get("options") or {}
    seats = data.get("seats") or {}
    library = data.get("library") or {}
    if not isinstance(options, dict) or not isinstance(seats, dict):
        raise BadRequest("options and seats must be JSON objects")
    if not all(isinstance(v, str) for v in seats.values()):
        raise BadRequest("seats: each seat is 'me', 'bot:NAME', 'invite', 'open' or 'server'")
    if not isinstance(library, dict) or not all(
        isinstance(v, list) and all(_is_item_id(i) for i in v) for v in library.values()
    ):
        raise BadRequest("library: seat -> list of library item ids")
    request.app.state.quota.admit(caller.user_id)
    settings = data.get("settings")
    if settings is not None and not isinstance(settings, dict):
        raise BadRequest('settings: expected a JSON object, e.g. {"round_minutes": 60}')
    service: MatchService = request.app.state.service
    return service.create(
        caller.user_id,
        game,
        players,
        options,
        {str(k): v for k, v in seats.items()},
        settings,
        {str(k): v for k, v in library.items()},
    )


def _is_item_id(value: Any) -> bool:
    """A library item id: a whole number a database key can hold."""
    return type(value) is int and 0 < value < 2**31


@router.get("/api/matches/{match_id}")
async def get_match(request: Request, match_id: str, seat: str | None = None) -> Response:
    caller = request_caller(request)
    service = service_of(request)
    try:
        if seat is not None:
            await run_in_threadpool(require_seat, service, match_id, caller, seat)
        body = await run_in_threadpool(service.body, match_id, seat)
    except ServiceError as err:
        return error(err)
    return JSONResponse(body)


@router.post(
    "/api/matches/{match_id}/actions",
    openapi_extra=json_request(["seat", "action"], seat=TEXT, action=TEXT),
)
async def post_action(request: Request, match_id: str) -> Response:
    caller = request_caller(request)
    service = service_of(request)
    try:
        check_origin(request, caller)
        data = await json_body(request)
        seat, notation = data.get("seat"), data.get("action")
        if not isinstance(seat, str) or not isinstance(notation, str):
            raise BadRequest('give {"seat": SEAT, "action": NOTATION}')
        await run_in_threadpool(require_seat, service, match_id, caller, seat)
        events = await run_in_threadpool(service.submit, match_id, seat, notation)
    except ServiceError as err:
        return error(err)
    request.app.state.drivers.kick(match_id)
    return JSONResponse({"events": events})


@router.post("/api/matches/{match_id}/join", openapi_extra=json_request(["seat"], seat=TEXT))
async def join_match(request: Request, match_id: str) -> Response:
    caller = request_caller(request)
    try:
        check_origin(request, caller)
        data = await json_body(request)
        user_id = require_user(caller, "join a match")
        await run_in_threadpool(service_of(request).join, match_id, str(data.get("seat")), user_id)
    except ServiceError as err:
        return error(err)
    return JSONResponse({"ok": True})


@router.post(
    "/api/library",
    openapi_extra=json_request(["game", "text"], game=TEXT, text=TEXT, filename=TEXT),
)
async def add_library_item(request: Request) -> Response:
    """Upload an item to the caller's library (a Superhero Gladiators hero YAML):
    201 ``{"id", "name"}``, or 422 with every error the game's checker found."""
    caller = request_caller(request)
    try:
        check_origin(request, caller)
        data = await json_body(request)
        user_id = require_user(caller, "keep a library")
        game, text, filename = data.get("game"), data.get("text"), data.get("filename")
        if not isinstance(game, str) or not isinstance(text, str):
            raise BadRequest('give {"game": SLUG, "text": FILE_TEXT, "filename": NAME}')
        source = filename if isinstance(filename, str) and filename else "upload.yaml"
        item = await run_in_threadpool(
            service_of(request).add_library_item, user_id, game, text, source[:200]
        )
    except ServiceError as err:
        return error(err)
    return JSONResponse({"id": item.id, "name": item.name}, status_code=201)


@router.get("/api/library")
async def list_library(request: Request, game: str | None = None) -> Response:
    caller = request_caller(request)
    try:
        user_id = require_user(caller, "see your library")
    except ServiceError as err:
        return error(err)
    items = await run_in_threadpool(service_of(request).library, user_id, game)
    return JSONResponse({"items": items})


@router.get("/api/matches/{match_id}/record")
async def get_record(request: Request, match_id: str) -> Response:
    caller = request_caller(request)
    service = service_of(request)
    try:
        await run_in_threadpool(check_record, service, match_id, caller)
        record = await run_in_threadpool(service.record, match_id)
    except ServiceError as err:
        return error(err)
    return Response(
        record.model_dump_json(indent=2),
        media_type="application/json",
        headers={"content-disposition": f'attachment; filename="{match_id}.json"'},
    )


@router.get("/api/matches/{match_id}/posts")
async def get_posts(request: Request, match_id: str, seat: str | None = None) -> Response:
    caller = request_caller(request)
    service = service_of(request)
    try:
        if seat is not None:
            await run_in_threadpool(require_seat, service, match_id, caller, seat)
        live = await run_in_threadpool(service.live, match_id)
        with live.lock:
            posts = live.game.posts(live.state, seat)
    except ServiceError as err:
        return error(err)
    return JSONResponse({"posts": posts, "deadlines": service.deadlines(match_id)})


@router.post(
    "/api/matches/{match_id}/deadline",
    openapi_extra=json_request(["seat", "minutes"], seat=TEXT, minutes=NUMBER),
)
async def set_deadline(request: Request, match_id: str) -> Response:
    """The moderator (or, in a match without one, its creator) sets the round's."""
    caller = request_caller(request)
    service = service_of(request)
    try:
        check_origin(request, caller)
        data = await json_body(request)
        seat, minutes = data.get("seat"), data.get("minutes")
        if seat is not None and not isinstance(seat, str):
            raise BadRequest("seat: expected a seat name")
        if isinstance(minutes, bool) or not isinstance(minutes, int | float):
            raise BadRequest('minutes: give {"seat": MODERATOR_SEAT, "minutes": NUMBER}')
        await run_in_threadpool(deadline_setter_checked, service, match_id, caller, seat)
        await run_in_threadpool(
            service.set_round_deadline,
            match_id,
            as_minutes(minutes),
            request.app.state.settings.min_deadline_minutes,
        )
    except (ServiceError, GladiatoriumError) as err:
        return error(str(err), getattr(err, "status", 400))
    return JSONResponse({"deadlines": service.deadlines(match_id)})


def as_minutes(value: float) -> float:
    """A number of minutes as a float (a huge integer is refused, not a 500)."""
    try:
        return float(value)
    except OverflowError:
        raise BadRequest("minutes: too large") from None


def deadline_setter_checked(
    service: MatchService, match_id: str, caller: Caller, seat: str | None
) -> None:
    """Refuse unless the caller may set this match's deadlines (see
    :meth:`MatchService.require_deadline_setter`); a seat named must be the caller's."""
    if seat is not None:
        require_seat(service, match_id, caller, seat)
    held = seats_held(service, match_id, caller)
    service.require_deadline_setter(match_id, caller.user_id, seat, held)


# ----- WebSocket ------------------------------------------------------------------------
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
async def match_socket(websocket: WebSocket, match_id: str, seat: str | None = None) -> None:
    """Authenticate the handshake (cookie or bearer, and Origin), then push the seat's
    body after every change and take ``{"action": NOTATION}`` messages."""
    app = websocket.app
    service: MatchService = app.state.service
    origin = websocket.headers.get("origin")
    if origin is not None and not same_origin(
        origin, str(websocket.url), websocket.headers.get("host"), app.state.settings
    ):
        await refuse_socket(websocket, 4403, "cross-site connection refused")
        return
    try:
        caller = await run_in_threadpool(
            caller_of, websocket.headers, dict(websocket.cookies), app.state.accounts
        )
        if seat is not None:
            await run_in_threadpool(require_seat, service, match_id, caller, seat)
        else:
            await run_in_threadpool(service.live, match_id)
    except ServiceError as err:
        await refuse_socket(websocket, 4000 + err.status, str(err))
        return
    await websocket.accept()
    websocket.state.caller = caller
    queue = app.state.hub.subscribe(match_id)
    ended = None if caller.session is None else app.state.hub.watch_session(caller.session)
    talk = SocketTalk(websocket, match_id, seat)
    try:
        await _serve_socket(
            websocket, service, match_id, seat, queue, Riding(caller.session, ended), talk
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
    """The session a socket was opened with (None: a guest's seat cookie, or nobody), and
    the event the hub sets when that session is logged out."""

    session: str | None
    ended: asyncio.Event | None

    async def lasts(self, websocket: WebSocket, touch: bool) -> bool:
        """Whether the session still holds (``touch``: an action, which is a use)."""
        if self.session is None:
            return True
        if self.ended is not None and self.ended.is_set():
            return False
        accounts: Accounts = websocket.app.state.accounts
        return await run_in_threadpool(accounts.alive, self.session, touch) is not None


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
) -> None:
    settings = websocket.app.state.settings
    limit = RateLimit(settings.ws_rate)
    last: str | None = None
    checked = time.monotonic()

    async def push(fresh: bool = False) -> None:
        nonlocal last
        build = service.body if fresh else service.push_body
        text = await run_in_threadpool(_encoded, websocket, service, build, match_id, seat)
        if text is None:
            await websocket.close(code=4403, reason=f"you no longer hold seat {seat}")
            raise WebSocketDisconnect(4403)
        if text != last:
            last = text
            await websocket.send_text(text)

    await push(fresh=True)
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
                if not await riding.lasts(websocket, touch=True):
                    await _end_socket(websocket)
                    return
                reply = await _socket_action(
                    websocket, service, match_id, seat, message, limit, talk
                )
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
    return service.still_holds(match_id, seat, caller.user_id, tokens)


def _encoded(
    websocket: WebSocket, service: MatchService, build: Any, match_id: str, seat: str | None
) -> str | None:
    """A body as JSON text, built and encoded in a worker thread (a large body is
    milliseconds of encoding that would otherwise stall the event loop); None when the
    connection no longer holds its seat."""
    if not _holds(websocket, service, match_id, seat):
        return None
    return json.dumps(build(match_id, seat), separators=(",", ":"))


async def _socket_action(
    websocket: WebSocket,
    service: MatchService,
    match_id: str,
    seat: str | None,
    message: str | bytes,
    limit: RateLimit,
    talk: SocketTalk,
) -> dict[str, Any] | None:
    settings = websocket.app.state.settings
    size = len(message) if isinstance(message, bytes) else len(message.encode())
    if size > settings.ws_max_message:
        return {"error": f"message over {settings.ws_max_message} bytes", "close": True}
    if not limit.allow():
        return {"error": "too many messages; slow down", "status": 429}
    if isinstance(message, bytes):
        return {"error": 'binary frame refused: send text, {"action": NOTATION}', "status": 400}
    try:
        data = checked_json(message)
    except NotJson:
        return {"error": 'expected JSON: {"action": NOTATION}', "status": 400}
    except BadJson as err:
        return {"error": str(err), "status": 400}
    if isinstance(data, dict) and data.get("type") == "read":
        return await talk.read(data)  # talk: how far the seat has read a channel
    if not isinstance(data, dict) or not isinstance(data.get("action"), str):
        return {"error": 'expected JSON: {"action": NOTATION}', "status": 400}
    if seat is None:
        return {"error": "spectators cannot act; connect with ?seat=S", "status": 403}
    if not await run_in_threadpool(_holds, websocket, service, match_id, seat):
        return {"error": f"you no longer hold seat {seat!r} of this match", "status": 403}
    try:
        events = await run_in_threadpool(service.submit, match_id, seat, data["action"])
    except ServiceError as err:
        return {"error": str(err), "status": err.status}
    websocket.app.state.drivers.kick(match_id)
    return {"events": events}

"""A match over the API: the server's health, creating a match, its seats (joining, a
new invitation), its body, actions, posts, deadlines and, once over, its record."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from gladiatorium.core import GladiatoriumError, games
from gladiatorium.server.api.common import NUMBER, TEXT, json_body, json_request
from gladiatorium.server.errors import BadRequest, ServiceError, Unauthorized
from gladiatorium.server.replays import check_record, match_record
from gladiatorium.server.results import match_summary
from gladiatorium.server.service import MatchService
from gladiatorium.server.web import (
    Caller,
    check_origin,
    deadline_setter_checked,
    error,
    invite_url,
    request_caller,
    require_seat,
    require_user,
    service_of,
)

router = APIRouter()

NEW_MATCH = json_request(
    ["game"],
    game=TEXT,
    players={"type": "integer"},
    options={"type": "object"},
    seats={"type": "object", "additionalProperties": TEXT},
    settings={
        "type": "object",
        "properties": {
            "round_minutes": NUMBER,
            "clock_days": NUMBER,
            "casual": {"type": "boolean"},
        },
    },
    library={
        "type": "object",
        "additionalProperties": {
            "type": "array",
            "items": {"oneOf": [{"type": "integer"}, TEXT]},
        },
    },
    position=TEXT,
    theme=TEXT,
    own_teams={"type": "array", "items": {"type": "string"}},
)


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    await run_in_threadpool(request.app.state.ping)
    live = service_of(request).store.live_count()
    return {"ok": True, "games": [g.info.slug for g in games()], "live_matches": live}


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


@router.post("/api/matches/{match_id}/seats/{seat}/invite")
async def reissue_invite(request: Request, match_id: str, seat: str) -> Response:
    """The match's creator issues a new invitation link for a seat given by invitation:
    the old link, and whoever took it, lose the seat."""
    caller = request_caller(request)
    try:
        check_origin(request, caller)
        token = await run_in_threadpool(
            service_of(request).seats.reissue_invite, match_id, seat, caller.user_id
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
        raise BadRequest(
            "library: seat -> list of library item ids, 'sample:NAME' and hall:SLUG@VERSION"
        )
    theme = data.get("theme")
    if theme is not None and not isinstance(theme, str):
        raise BadRequest("theme: expected a published theme, hall:SLUG@VERSION")
    request.app.state.quota.admit(caller.user_id)
    settings = data.get("settings")
    if settings is not None and not isinstance(settings, dict):
        raise BadRequest('settings: expected a JSON object, e.g. {"round_minutes": 60}')
    position = data.get("position")
    if position is not None and not isinstance(position, str):
        raise BadRequest("position: expected the text of a written position")
    own_teams = data.get("own_teams") or []
    if not isinstance(own_teams, list) or not all(isinstance(s, str) for s in own_teams):
        raise BadRequest('own_teams: expected a list of seats, e.g. ["2"]')
    service: MatchService = request.app.state.service
    return service.creation.create(
        caller.user_id,
        game,
        players,
        options,
        {str(k): v for k, v in seats.items()},
        settings,
        {str(k): v for k, v in library.items()},
        position=position,
        theme=theme,
        own_teams=own_teams,
    )


def _is_item_id(value: Any) -> bool:
    """A library item id (a whole number a database key can hold), a sample's name
    (``sample:cowboy``: one of the game's samples, checked by the library) or a published
    hero (``hall:SLUG@VERSION``, checked when the match is created)."""
    if isinstance(value, str):
        return value.startswith(("sample:", "hall:")) and len(value) <= 120
    return type(value) is int and 0 < value < 2**31


@router.get("/api/matches/{match_id}")
async def get_match(
    request: Request,
    match_id: str,
    seat: str | None = None,
    after: str | None = None,
    legal: str | None = None,
) -> Response:
    """The seat's body; ``after=PLY``: only its events after that ply; ``legal=form``:
    the legal actions in the game's compact form only, where it declares one."""
    caller = request_caller(request)
    service = service_of(request)
    try:
        if after is not None and not (after.isascii() and after.isdigit() and len(after) < 10):
            raise ServiceError(f"after: a ply (a whole number from 0), not {after[:40]!r}")
        if legal not in (None, "form", "full"):
            raise ServiceError(f"legal: 'form' or 'full', not {str(legal)[:40]!r}")
        if seat is not None:
            await run_in_threadpool(require_seat, service, match_id, caller, seat)
        ply = None if after is None else int(after)
        compact = legal == "form"
        body = await run_in_threadpool(service.play.body, match_id, seat, ply, compact)
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
        events = await run_in_threadpool(service.play.submit, match_id, seat, notation)
    except ServiceError as err:
        return error(err)
    request.app.state.drivers.kick(match_id)
    return JSONResponse({"events": events})


@router.post(
    "/api/matches/{match_id}/join",
    openapi_extra=json_request(
        ["seat"],
        seat=TEXT,
        team={
            "type": "array",
            "items": {"oneOf": [{"type": "integer"}, {"type": "string", "pattern": "^sample:"}]},
        },
    ),
)
async def join_match(request: Request, match_id: str) -> Response:
    caller = request_caller(request)
    try:
        check_origin(request, caller)
        data = await json_body(request)
        user_id = require_user(caller, "join a match")
        seat = str(data.get("seat"))
        team = data.get("team")
        if team is not None and not (isinstance(team, list) and all(_is_item_id(i) for i in team)):
            raise BadRequest("team: a list of library item ids and 'sample:NAME'")
        await run_in_threadpool(service_of(request).seats.join, match_id, seat, user_id, team)
        request.app.state.drivers.kick(match_id)
    except ServiceError as err:
        return error(err)
    return JSONResponse({"ok": True})


@router.post(
    "/api/matches/{match_id}/seats/{seat}/team",
    openapi_extra=json_request(
        ["team"],
        team={
            "type": "array",
            "items": {"oneOf": [{"type": "integer"}, {"type": "string", "pattern": "^sample:"}]},
        },
    ),
)
async def bring_team(request: Request, match_id: str, seat: str) -> Response:
    """The team of a seat taken through its invitation that waits for one, brought by
    whoever holds it (an account, or a guest by its seat cookie: the samples only)."""
    caller = request_caller(request)
    try:
        check_origin(request, caller)
        data = await json_body(request)
        team = data.get("team")
        if not (isinstance(team, list) and team and all(_is_item_id(i) for i in team)):
            raise BadRequest("team: a list of library item ids and 'sample:NAME' (at least one)")
        await run_in_threadpool(
            service_of(request).seats.bring_team,
            match_id,
            seat,
            caller.user_id,
            caller.seat_tokens,
            team,
        )
        request.app.state.drivers.kick(match_id)
    except ServiceError as err:
        return error(err)
    return JSONResponse({"ok": True})


@router.get("/api/matches/{match_id}/result")
async def get_result(request: Request, match_id: str) -> Response:
    """A finished match's result in words, as every page says it, with its places."""
    try:
        summary = await run_in_threadpool(match_summary, service_of(request).store, match_id)
    except ServiceError as err:
        return error(err)
    return JSONResponse(summary)


@router.get("/api/matches/{match_id}/record")
async def get_record(request: Request, match_id: str) -> Response:
    caller = request_caller(request)
    service = service_of(request)
    try:
        await run_in_threadpool(check_record, service, match_id, caller)
        record = await run_in_threadpool(match_record, service.store, match_id)
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
        live = await run_in_threadpool(service.store.live, match_id)
        with live.lock:
            posts = live.game.web.posts(live.state, seat)
    except ServiceError as err:
        return error(err)
    return JSONResponse({"posts": posts, "deadlines": service.deadlines.pending(match_id)})


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
            service.deadlines.set_round,
            match_id,
            as_minutes(minutes),
            request.app.state.settings.min_deadline_minutes,
        )
    except (ServiceError, GladiatoriumError) as err:
        return error(str(err), getattr(err, "status", 400))
    return JSONResponse({"deadlines": service.deadlines.pending(match_id)})


def as_minutes(value: float) -> float:
    """A number of minutes as a float (a huge integer is refused, not a 500)."""
    try:
        return float(value)
    except OverflowError:
        raise BadRequest("minutes: too large") from None

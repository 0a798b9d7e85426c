"""The hall over the API: search, an item and its versions, publishing, reports and the
operators' hiding."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from gladiatorium.server.api.common import TEXT, json_body, json_request
from gladiatorium.server.db import HallItem
from gladiatorium.server.errors import BadRequest, Forbidden, NotFound, ServiceError
from gladiatorium.server.hall import Hall, is_operator
from gladiatorium.server.hall_search import HallQuery, search
from gladiatorium.server.web import (
    Caller,
    check_origin,
    error,
    request_caller,
    require_user,
    service_of,
)

router = APIRouter()

#: what a hidden item's address tells everyone but its author and the operators
HIDDEN = "hidden by the server's operators"


def hall_of(request: Request) -> Hall:
    hall: Hall = service_of(request).library.hall
    return hall


def operator(request: Request, caller: Caller) -> bool:
    """Whether the caller operates the server (``Settings.operators``)."""
    name = caller.user.username if caller.user is not None else None
    return is_operator(name, request.app.state.settings.operators)


def may_see(request: Request, caller: Caller, item: HallItem) -> bool:
    """A hidden item is seen by its author and the operators only."""
    if not item.hidden:
        return True
    return (caller.user_id is not None and caller.user_id == item.author_id) or operator(
        request, caller
    )


@router.get("/api/hall")
async def hall_search(request: Request) -> Response:
    """Published items (the newest version of each, hidden ones left out): ``kind``
    (hero, theme), ``q`` (in the name), ``author``, ``cost_min``, ``cost_max``, every
    ``power`` (a word), every ``trait`` (``NAME:LEAST-MOST``), ``sort``, ``page``."""
    params = request.query_params
    try:
        query = HallQuery.parse(params, params.getlist("power"), params.getlist("trait"))
    except ServiceError as err:
        return error(err)
    items, more = await run_in_threadpool(search, hall_of(request).sessions, query)
    return JSONResponse({"items": items, "page": query.page, "more": more})


@router.get("/api/hall/{slug}")
async def hall_item(request: Request, slug: str, version: int | None = None) -> Response:
    """An item, one version (the newest by default, ``?version=N``) with its text, every
    version, the matches created with them."""
    caller = await run_in_threadpool(request_caller, request)
    hall = hall_of(request)
    try:
        item = await run_in_threadpool(hall.item, slug)
        if not may_see(request, caller, item):
            return JSONResponse({"slug": item.slug, "hidden": True, "error": HIDDEN}, 410)
        if version is not None and not 0 < version < 10**6:
            raise NotFound(f"{slug} has no version {version}")
        chosen = await run_in_threadpool(hall.version, item, version)
        detail = await run_in_threadpool(hall.detail, item, chosen)
    except ServiceError as err:
        return error(err)
    return JSONResponse(detail)


@router.post(
    "/api/hall",
    openapi_extra=json_request(
        ["kind"], kind=TEXT, text=TEXT, filename=TEXT, library_item={"type": "integer"}
    ),
)
async def hall_publish(request: Request) -> Response:
    """Publish a hero or a theme: ``{"kind", "text", "filename"}`` or a hero of the
    caller's library, ``{"kind": "hero", "library_item": ID}``: 201 with its reference;
    422 with every problem the game's checker found; 429 over the publishing rate."""
    caller = await run_in_threadpool(request_caller, request)
    hall = hall_of(request)
    try:
        check_origin(request, caller)
        user_id = require_user(caller, "publish")
        data = await json_body(request)
        published = await run_in_threadpool(_publish, hall, user_id, data)
    except ServiceError as err:
        return error(err)
    return JSONResponse(
        {
            "slug": published.slug,
            "version": published.number,
            "ref": published.ref,
            "name": published.name,
        },
        status_code=201,
    )


def _publish(hall: Hall, user_id: int, data: dict[str, Any]) -> Any:
    kind, text, item = data.get("kind"), data.get("text"), data.get("library_item")
    if kind not in ("hero", "theme"):
        raise BadRequest('kind: "hero" or "theme"')
    if item is not None:
        if type(item) is not int or kind != "hero":
            raise BadRequest("library_item: the id of a hero of your library")
        return hall.publish_library_item(user_id, item)
    if not isinstance(text, str) or not text.strip():
        raise BadRequest('text: give the file\'s text, {"kind", "text", "filename"}')
    filename = data.get("filename")
    source = filename[:200] if isinstance(filename, str) and filename else f"{kind}.yaml"
    return hall.publish(user_id, kind, text, source)


@router.post("/api/hall/{slug}/report", openapi_extra=json_request(["reason"], reason=TEXT))
async def hall_report(request: Request, slug: str) -> Response:
    """Report an item (once each), with a reason: 201; 409 when reported already."""
    caller = await run_in_threadpool(request_caller, request)
    try:
        check_origin(request, caller)
        user_id = require_user(caller, "report")
        data = await json_body(request)
        reason = data.get("reason")
        if not isinstance(reason, str):
            raise BadRequest("reason: say why you report it")
        await run_in_threadpool(hall_of(request).report, user_id, slug, reason)
    except ServiceError as err:
        return error(err)
    return JSONResponse({"reported": slug}, status_code=201)


@router.post("/api/hall/{slug}/hide")
async def hall_hide(request: Request, slug: str) -> Response:
    """Hide an item from listings and search (operators only)."""
    return await _set_hidden(request, slug, True)


@router.post("/api/hall/{slug}/unhide")
async def hall_unhide(request: Request, slug: str) -> Response:
    """Show a hidden item again (operators only)."""
    return await _set_hidden(request, slug, False)


async def _set_hidden(request: Request, slug: str, hidden: bool) -> Response:
    caller = await run_in_threadpool(request_caller, request)
    try:
        check_origin(request, caller)
        require_user(caller, "moderate the hall")
        if not operator(request, caller):
            raise Forbidden("only the server's operators hide and unhide published items")
        await run_in_threadpool(hall_of(request).set_hidden, slug, hidden)
    except ServiceError as err:
        return error(err)
    return JSONResponse({"slug": slug, "hidden": hidden})

"""The library over the API: upload an item (checked as the game's checker does) and
list the caller's items."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from gladiatorium.server.api.common import TEXT, json_body, json_request
from gladiatorium.server.errors import BadRequest, ServiceError
from gladiatorium.server.web import check_origin, error, request_caller, require_user, service_of

router = APIRouter()


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
            service_of(request).library.add, user_id, game, text, source[:200]
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
    items = await run_in_threadpool(service_of(request).library.listing, user_id, game)
    return JSONResponse({"items": items})

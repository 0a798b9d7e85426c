"""The library page: my items, an upload (a file or pasted text, checked as the game's
checker does) and deleting an item."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from gladiatorium.core import games
from gladiatorium.server.errors import ServiceError
from gladiatorium.server.pages.common import (
    MAX_UPLOAD,
    account_form,
    form_request,
    game_or_none,
    library_games,
    login_first,
    page,
    problem,
    redirect,
    text_of,
)
from gladiatorium.server.pages.designer import designer_games
from gladiatorium.server.web import request_caller, service_of

router = APIRouter()


@router.get("/library", response_class=HTMLResponse)
async def library_page(request: Request) -> Response:
    caller = await run_in_threadpool(request_caller, request)
    if caller.user_id is None:
        return login_first(request)
    items = await run_in_threadpool(service_of(request).library.rows, caller.user_id)
    context = {
        "items": items,
        "games": library_games(),
        "errors": [],
        "names": _game_names(),
        "hall_games": _hall_games(),
    }
    context["designers"] = _designers()
    return page(request, "library.html", context, caller)


def _game_names() -> dict[str, str]:
    return {g.info.slug: g.info.name for g in games()}


def _hall_games() -> list[str]:
    """Games whose library items may be published to the hall (heroes)."""
    return [g.info.slug for g in games() if g.library_kind == "hero"]


def _designers() -> set[str]:
    """The games whose items open in the designer."""
    return {g.info.slug for g in designer_games()}


@router.post("/library")
async def library_upload(request: Request) -> Response:
    posted = await account_form(request, max_files=1, max_fields=20)
    if isinstance(posted, Response):
        return posted
    form, caller = posted.form, posted.caller
    library = service_of(request).library
    errors: list[str] = []
    game = game_or_none(text_of(form, "game"))
    upload = form.get("file")
    source, text = "pasted text", text_of(form, "text")
    if isinstance(upload, UploadFile) and upload.filename:
        source = Path(upload.filename).name or "upload"
        raw = await upload.read(MAX_UPLOAD + 1)
        if len(raw) > MAX_UPLOAD:
            errors.append(f"{source}: larger than {MAX_UPLOAD // 1024} KiB")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            errors.append(f"{source}: not UTF-8 text")
    if game is None or not game.library_kind:
        errors.append("choose a game that keeps a library")
    elif not text.strip() and not errors:
        errors.append("choose a file to upload (or paste its text)")
    added = ""
    if not errors and game is not None:
        try:
            item = await run_in_threadpool(
                library.add, posted.user_id, game.info.slug, text, source
            )
        except ServiceError as err:
            errors = [e.strip() for e in str(err).split("; ") if e.strip()] or [str(err)]
        else:
            added = item.name
    items = await run_in_threadpool(library.rows, posted.user_id)
    context = {
        "items": items,
        "games": library_games(),
        "errors": errors,
        "added": added,
        "source": source,
        "names": _game_names(),
        "hall_games": _hall_games(),
        "designers": _designers(),
    }
    return page(request, "library.html", context, caller, 422 if errors else 200)


@router.post("/library/{item_id}/delete", openapi_extra=form_request())
async def library_delete(request: Request, item_id: int) -> Response:
    posted = await account_form(request)
    if isinstance(posted, Response):
        return posted
    if not 0 < item_id < 2**31:  # not a database key (PostgreSQL's integer would refuse it)
        return problem(request, 404, "no such item in your library", posted.caller)
    library = service_of(request).library
    if not await run_in_threadpool(library.delete, posted.user_id, item_id):
        return problem(request, 404, "no such item in your library", posted.caller)
    return redirect("/library")

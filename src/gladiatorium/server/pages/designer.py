"""The designer of library items (a Superhero Gladiators hero), for the games whose web
presenter has one (``WebPresenter.design``): the form, its live check, and the item
downloaded as its file, saved to my library, or imported from a file."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile

from gladiatorium.core import Game, WebPresenter
from gladiatorium.server.errors import ServiceError, TooMany
from gladiatorium.server.pages.common import (
    CSRF_FIELD,
    MAX_UPLOAD,
    CsrfRefused,
    checked_form,
    form_request,
    library_games,
    page,
    problem,
    redirect,
    refused,
    text_of,
)
from gladiatorium.server.web import Caller, request_caller, service_of

router = APIRouter()


def designer_games() -> list[Game[Any]]:
    """Games whose library items can be designed in the browser."""
    return [g for g in library_games() if type(g.web).design is not WebPresenter.design]


def _designer_game(slug: str | None) -> Game[Any] | None:
    found = designer_games()
    if slug:
        found = [g for g in found if g.info.slug == slug]
    return found[0] if found else None


def form_fields(form: FormData) -> dict[str, list[str]]:
    fields: dict[str, list[str]] = {}
    for key, value in form.multi_items():
        if isinstance(value, str) and key != CSRF_FIELD:
            fields.setdefault(key, []).append(value)
    return fields


def _designer_page(
    request: Request,
    game: Game[Any],
    design: Any,
    caller: Caller | None = None,
    status: int = 200,
    **extra: Any,
) -> Response:
    context = {
        "game": game,
        "design": design,
        "form": Markup(design.form),
        "check": Markup(design.check),
        "samples": sorted(game.web.design_samples()),
        # the legend of the designer's choices (styles, flaws, gizmos) and their costs
        "codes": game.web.codes(),
        **extra,
    }
    return page(request, "designer.html", context, caller, status)


def item_id(raw: str | None) -> int | None:
    """A library item's id as a form or a link gives it (None: none, or not an id)."""
    return int(raw) if raw and raw.isdecimal() and len(raw) < 10 else None


@router.get("/heroes/new", response_class=HTMLResponse)
async def designer_page(
    request: Request,
    game: str | None = None,
    sample: str | None = None,
    saved: str | None = None,
    hall: str | None = None,
    item: str | None = None,
) -> Response:
    """The designer: a blank item, a sample, an item of my library to edit, or a
    published hero (``hall``: ``hall:SLUG@VERSION``, copied in to change and save as my
    own)."""
    caller = await run_in_threadpool(request_caller, request)
    chosen = _designer_game(game)
    if chosen is None:
        return problem(request, 404, "no game has a designer", caller)
    text = chosen.web.design_samples().get(sample or "") if sample else None
    if sample and text is None:
        return problem(request, 404, f"no sample {sample!r}", caller)
    editing = None
    if item is not None:
        found, wanted = None, item_id(item)
        if caller.user_id is not None and wanted is not None:
            library = service_of(request).library
            found = await run_in_threadpool(library.item, caller.user_id, wanted)
        if found is None or found.game != chosen.info.slug:
            return problem(request, 404, f"no item {item!r} in your library", caller)
        text, editing = found.text, found
    if hall:
        try:
            version = await run_in_threadpool(
                service_of(request).library.hall.resolve, hall[:120], "hero", chosen
            )
        except ServiceError as err:
            return problem(request, 404, str(err), caller)
        text = version.text
    design = await run_in_threadpool(chosen.web.design, None, text)
    return _designer_page(request, chosen, design, caller, saved=(saved or "")[:80], item=editing)


@router.post(
    "/heroes/check", response_class=HTMLResponse, openapi_extra=form_request("game", "name")
)
async def designer_check(request: Request) -> Response:
    """The live check (htmx): cost, points left, errors and preview, plus every field's
    error slot swapped out of band."""
    try:
        form = await checked_form(request, max_fields=1000)
    except CsrfRefused:
        return HTMLResponse(
            '<p class="error">Refused: reload the page (its security token is stale).</p>', 403
        )
    game = _designer_game(text_of(form, "game"))
    if game is None:
        return HTMLResponse('<p class="error">no such game</p>', 404)
    design = await run_in_threadpool(game.web.design, form_fields(form), None)
    response = HTMLResponse(design.check + design.slots)
    response.headers["cache-control"] = "no-store"
    return response


@router.post("/heroes/new", openapi_extra=form_request("game", "do", "name"))
async def designer_post(request: Request) -> Response:
    """Download the item as its file, save it to my library, or import a file."""
    try:
        form = await checked_form(request, max_files=1, max_fields=1000)
    except CsrfRefused:
        return refused(request)
    caller = await run_in_threadpool(request_caller, request)
    game = _designer_game(text_of(form, "game"))
    if game is None:
        return problem(request, 404, "no such game", caller)
    do = text_of(form, "do")
    if do == "import":
        upload = form.get("file")
        if not isinstance(upload, UploadFile) or not upload.filename:
            design = await run_in_threadpool(game.web.design, None, None)
            return _designer_page(
                request, game, design, caller, 422, error="choose a file to import"
            )
        raw = await upload.read(MAX_UPLOAD + 1)
        try:
            if len(raw) > MAX_UPLOAD:
                raise ValueError(f"larger than {MAX_UPLOAD // 1024} KiB")
            text = raw.decode("utf-8")
        except (UnicodeDecodeError, ValueError) as err:
            design = await run_in_threadpool(game.web.design, None, None)
            reason = str(err) if isinstance(err, ValueError) else "not UTF-8 text"
            message = f"{Path(upload.filename).name}: {reason}"
            return _designer_page(request, game, design, caller, 422, error=message)
        design = await run_in_threadpool(game.web.design, None, text)
        return _designer_page(request, game, design, caller)
    design = await run_in_threadpool(game.web.design, form_fields(form), None)
    if do == "download":
        slug = "".join(c if c.isalnum() else "-" for c in design.name.lower()).strip("-")
        return Response(
            design.text,
            media_type="application/x-yaml",
            headers={
                "content-disposition": f'attachment; filename="{slug or game.library_kind}.yaml"',
                "cache-control": "no-store",
            },
        )
    return await save(request, game, design, caller, form)


async def save(
    request: Request, game: Game[Any], design: Any, caller: Caller, form: FormData
) -> Response:
    """Save the design to my library: as a new item (``do=save``), or in place of the
    item being edited (``do=replace``, ``item``). A save refused comes back as the form
    with every problem shown."""
    do = text_of(form, "do")
    library = service_of(request).library
    editing, wanted = None, item_id(text_of(form, "item"))
    if caller.user_id is not None and wanted is not None:
        editing = await run_in_threadpool(library.item, caller.user_id, wanted)

    def again(status: int, error: str) -> Response:
        return _designer_page(
            request, game, design, caller, status, error=error, item=editing, tried=True
        )

    if do not in ("save", "replace", "publish"):
        return again(400, "unknown request")
    if caller.user_id is None:
        return again(
            401, "log in to publish" if do == "publish" else "log in to save to your library"
        )
    if do == "replace" and editing is None:
        return again(404, "the item to replace is not in your library")
    if not design.valid:
        return again(422, "fix the problems below before saving")
    if do == "publish":
        return await _publish(request, game, design, caller)
    try:
        item = await run_in_threadpool(
            library.add,
            caller.user_id,
            game.info.slug,
            design.text,
            f"{design.name or 'item'}.yaml",
            editing.id if do == "replace" and editing is not None else None,
        )
    except ServiceError as err:
        return again(422, str(err))
    name = quote(item.name[:80], safe="")
    return redirect(f"/heroes/new?game={quote(game.info.slug)}&item={item.id}&saved={name}")


async def _publish(request: Request, game: Game[Any], design: Any, caller: Caller) -> Response:
    """Publish the design to the hall; its page next."""
    assert caller.user_id is not None
    try:
        done = await run_in_threadpool(
            service_of(request).library.hall.publish,
            caller.user_id,
            game.library_kind or "",
            design.text,
            f"{design.name or 'item'}.yaml",
        )
    except ServiceError as err:
        answer = _designer_page(request, game, design, caller, err.status, error=str(err))
        if isinstance(err, TooMany) and err.retry_after is not None:
            answer.headers["retry-after"] = str(err.retry_after)
        return answer
    return redirect(f"/hall/{quote(done.slug)}")

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


@router.get("/heroes/new", response_class=HTMLResponse)
async def designer_page(
    request: Request,
    game: str | None = None,
    sample: str | None = None,
    saved: str | None = None,
    hall: str | None = None,
) -> Response:
    """The designer: blank, from a sample, or from a published hero (``hall``:
    ``hall:SLUG@VERSION``, copied in to change and save as my own)."""
    chosen = _designer_game(game)
    if chosen is None:
        return problem(request, 404, "no game has a designer")
    text = chosen.web.design_samples().get(sample or "") if sample else None
    if sample and text is None:
        return problem(request, 404, f"no sample {sample!r}")
    if hall:
        try:
            version = await run_in_threadpool(
                service_of(request).library.hall.resolve, hall[:120], "hero", chosen
            )
        except ServiceError as err:
            return problem(request, 404, str(err))
        text = version.text
    design = await run_in_threadpool(chosen.web.design, None, text)
    return _designer_page(request, chosen, design, saved=(saved or "")[:80])


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
    if do not in ("save", "publish"):
        return _designer_page(request, game, design, caller, 400, error="unknown request")
    if caller.user_id is None:
        doing = "save to your library" if do == "save" else "publish"
        return _designer_page(request, game, design, caller, 401, error=f"log in to {doing}")
    if not design.valid:
        return _designer_page(
            request, game, design, caller, 422, error="fix the problems below before saving"
        )
    if do == "publish":
        return await _publish(request, game, design, caller)
    try:
        item = await run_in_threadpool(
            service_of(request).library.add,
            caller.user_id,
            game.info.slug,
            design.text,
            f"{design.name or 'item'}.yaml",
        )
    except ServiceError as err:
        return _designer_page(request, game, design, caller, 422, error=str(err))
    name = item.name
    return redirect(f"/heroes/new?game={quote(game.info.slug)}&saved={quote(name[:80], safe='')}")


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

"""The hall's pages: browse and search published heroes and themes, an item's page
(its card, its file, its versions, the matches it played, "use in a match", "copy into
my library" and "open in the designer"), publishing a theme or a library item, reports
and the operators' hiding."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool

from gladiatorium.core import get_game
from gladiatorium.server.api.hall import HIDDEN, hall_of, may_see, operator
from gladiatorium.server.db import HallItem, HallVersion
from gladiatorium.server.errors import Forbidden, ServiceError
from gladiatorium.server.gauntlets import gauntlet_view
from gladiatorium.server.hall import Hall
from gladiatorium.server.hall_search import SORTS, HallQuery, search
from gladiatorium.server.pages.common import (
    account_form,
    form_request,
    login_first,
    page,
    problem,
    redirect,
    text_of,
)
from gladiatorium.server.web import Caller, request_caller, service_of

router = APIRouter()


@router.get("/hall", response_class=HTMLResponse)
async def hall_page(request: Request) -> Response:
    """Published heroes (or themes, ``?kind=theme``), searched and sorted."""
    caller = await run_in_threadpool(request_caller, request)
    params = request.query_params
    powers, traits = params.getlist("power"), params.getlist("trait")
    context: dict[str, Any] = {"params": params, "sorts": SORTS, "items": [], "more": False}
    try:
        query = HallQuery.parse(params, powers, traits)
    except ServiceError as err:
        context.update(error=str(err), query=HallQuery())
        return page(request, "hall.html", context, caller, err.status)
    items, more = await run_in_threadpool(search, hall_of(request).sessions, query)
    following = {k: v for k, v in params.multi_items() if k != "page"}
    context.update(
        query=query,
        items=items,
        more=more,
        power=" ".join(powers),
        trait=" ".join(traits),
        next_page=urlencode([*following.items(), ("page", str(query.page + 1))]),
    )
    return page(request, "hall.html", context, caller)


@router.get("/hall/themes/new", response_class=HTMLResponse)
async def theme_form(request: Request) -> Response:
    caller = await run_in_threadpool(request_caller, request)
    if caller.user_id is None:
        return login_first(request)
    return page(request, "hall_theme.html", {"text": "", "error": ""}, caller)


@router.post("/hall/themes/new", openapi_extra=form_request("text"))
async def theme_publish(request: Request) -> Response:
    """Publish a theme's file (pasted), checked by the game's own options."""
    posted = await account_form(request, max_fields=10)
    if isinstance(posted, Response):
        return posted
    text = text_of(posted.form, "text").replace("\r\n", "\n")
    try:
        done = await run_in_threadpool(
            hall_of(request).publish, posted.user_id, "theme", text, "theme.yaml"
        )
    except ServiceError as err:
        context = {"text": text, "error": str(err), "problems": str(err).split("; ")}
        return page(request, "hall_theme.html", context, posted.caller, err.status)
    return redirect(f"/hall/{quote(done.slug)}")


@router.post("/hall/publish", openapi_extra=form_request("item"))
async def publish_library_item(request: Request) -> Response:
    """Publish a hero of my library (its file as saved)."""
    posted = await account_form(request)
    if isinstance(posted, Response):
        return posted
    raw = text_of(posted.form, "item")
    item_id = int(raw) if raw.isdigit() and raw.isascii() and len(raw) < 10 else 0
    try:
        done = await run_in_threadpool(
            hall_of(request).publish_library_item, posted.user_id, item_id
        )
    except ServiceError as err:
        return problem(request, err.status, str(err), posted.caller)
    return redirect(f"/hall/{quote(done.slug)}")


@router.get("/hall/{slug}", response_class=HTMLResponse)
async def item_page(request: Request, slug: str, version: str | None = None) -> Response:
    caller = await run_in_threadpool(request_caller, request)
    hall = hall_of(request)
    number = (
        int(version)
        if version and version.isascii() and version.isdigit() and len(version) < 7
        else None
    )
    try:
        item = await run_in_threadpool(hall.item, slug)
        if not may_see(request, caller, item):
            context = {"status": 410, "message": f"{item.slug}: {HIDDEN}"}
            return page(request, "error.html", context, caller, 410)
        chosen = await run_in_threadpool(hall.version, item, number)
    except ServiceError as err:
        return problem(request, err.status, str(err), caller)
    context = await run_in_threadpool(_item_context, request, caller, hall, item, chosen)
    return page(request, "hall_item.html", context, caller)


def _item_context(
    request: Request, caller: Caller, hall: Hall, item: HallItem, version: HallVersion
) -> dict[str, Any]:
    game = get_game(item.game)
    ref = f"hall:{item.slug}@{version.number}"
    use = {"game": game.info.slug, "hero" if item.kind == "hero" else "theme": ref}
    if item.kind == "theme":
        use["players"] = str(min(len(version.data.get("heroes", ())), game.info.max_players))
    card = ""
    if item.kind == "hero" and game.library_kind:
        card = game.web.design(None, version.text).check
    is_operator = operator(request, caller)
    gauntlet = None
    if item.kind == "hero":
        with hall.sessions() as session:
            gauntlet = gauntlet_view(session, ref)
    return {
        "gauntlet": gauntlet,
        "item": item,
        "version": version,
        "game": game,
        "ref": ref,
        "card": Markup(card),
        "heroes": version.data.get("heroes", []) if item.kind == "theme" else [],
        "versions": hall.versions(item),
        "matches": hall.matches(item),
        "use_url": "/matches/new?" + urlencode(use),
        "designer_url": "/heroes/new?" + urlencode({"game": game.info.slug, "hall": ref}),
        "operator": is_operator,
        "reports": hall.reports(item) if is_operator else [],
        "notice": request.query_params.get("done", "")[:40],
    }


@router.post("/hall/{slug}/copy", openapi_extra=form_request("version"))
async def copy_to_library(request: Request, slug: str) -> Response:
    """Copy a published hero (the version shown) into my library."""
    posted = await account_form(request)
    if isinstance(posted, Response):
        return posted
    hall = hall_of(request)
    raw = text_of(posted.form, "version")
    try:
        item = await run_in_threadpool(hall.item, slug)
        if item.kind != "hero" or not may_see(request, posted.caller, item):
            raise Forbidden("only a published hero that is not hidden may be copied")
        number = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 7 else None
        version = await run_in_threadpool(hall.version, item, number)
        await run_in_threadpool(
            service_of(request).library.add,
            posted.user_id,
            item.game,
            version.text,
            f"{version.name}.yaml",
        )
    except ServiceError as err:
        return problem(request, err.status, str(err), posted.caller)
    return redirect(f"/hall/{quote(item.slug)}?done=copied")


@router.post("/hall/{slug}/report", openapi_extra=form_request("reason"))
async def report_item(request: Request, slug: str) -> Response:
    posted = await account_form(request)
    if isinstance(posted, Response):
        return posted
    reason = text_of(posted.form, "reason")
    try:
        await run_in_threadpool(hall_of(request).report, posted.user_id, slug, reason)
    except ServiceError as err:
        return problem(request, err.status, str(err), posted.caller)
    return redirect(f"/hall/{quote(slug)}?done=reported")


@router.post("/hall/{slug}/hide", openapi_extra=form_request())
async def hide_item(request: Request, slug: str) -> Response:
    return await _set_hidden(request, slug, True)


@router.post("/hall/{slug}/unhide", openapi_extra=form_request())
async def unhide_item(request: Request, slug: str) -> Response:
    return await _set_hidden(request, slug, False)


async def _set_hidden(request: Request, slug: str, hidden: bool) -> Response:
    posted = await account_form(request)
    if isinstance(posted, Response):
        return posted
    if not operator(request, posted.caller):
        message = "only the server's operators hide and unhide published items"
        return problem(request, 403, message, posted.caller)
    try:
        await run_in_threadpool(hall_of(request).set_hidden, slug, hidden)
    except ServiceError as err:
        return problem(request, err.status, str(err), posted.caller)
    return redirect(f"/hall/{quote(slug)}?done={'hidden' if hidden else 'shown'}")

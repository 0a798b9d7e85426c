"""Gauntlets to read: a hero's gauntlet (status, progress, results, badge, the command
that plays it again) and the hero ladder, as JSON and as pages. The panel
(templates/gauntlet_panel.html) shows one gauntlet from its JSON alone, for any page
that includes it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from gladiatorium.server.gauntlets import gauntlet_view, hero_ladder, hidden_ref
from gladiatorium.server.pages.common import page, problem
from gladiatorium.server.web import read_with_session

router = APIRouter()


def _ladder(session: Session) -> list[dict[str, Any]]:
    return hero_ladder(session)


def _shown(session: Session, hero_ref: str) -> dict[str, Any] | None:
    """The gauntlet of ``hero_ref``; None for none, or for a hidden hall item's (as if
    there were none: its page says it is hidden)."""
    return None if hidden_ref(session, hero_ref) else gauntlet_view(session, hero_ref)


@router.get("/api/gauntlets/ladder")
async def ladder_api(request: Request) -> Response:
    heroes = await run_in_threadpool(read_with_session, request, _ladder)
    return JSONResponse({"heroes": heroes})


@router.get("/api/gauntlets/{hero_ref:path}")
async def gauntlet_api(request: Request, hero_ref: str) -> Response:
    found = await run_in_threadpool(read_with_session, request, _shown, hero_ref)
    if found is None:
        return JSONResponse({"error": f"no gauntlet for {hero_ref!r}"}, status_code=404)
    return JSONResponse(found)


@router.get("/ladder/heroes", response_class=HTMLResponse)
async def ladder_page(request: Request) -> Response:
    heroes = await run_in_threadpool(read_with_session, request, _ladder)
    return page(request, "hero_ladder.html", {"heroes": heroes})


@router.get("/gauntlets/{hero_ref:path}", response_class=HTMLResponse)
async def gauntlet_page(request: Request, hero_ref: str) -> Response:
    found = await run_in_threadpool(read_with_session, request, _shown, hero_ref)
    if found is None:
        return problem(request, 404, f"no gauntlet for {hero_ref!r}")
    # a queued or running panel fetches itself again through htmx: the panel alone
    alone = request.headers.get("hx-request") == "true"
    return page(request, "gauntlet_panel.html" if alone else "gauntlet.html", {"gauntlet": found})

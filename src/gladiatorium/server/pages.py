"""Server-rendered pages (Jinja2): the lobby, accounts, the generic match page."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from gladiatorium.core import games

router = APIRouter()
templates = Jinja2Templates(directory=Path(__file__).parent / "templates")


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "lobby.html", {"games": games()})

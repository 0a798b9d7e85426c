"""The links every mail carries: confirming an address, and the one-click unsubscribe
(RFC 8058: ``POST`` with no login, the token in the URL; a ``GET`` only shows the
button, since mail scanners open links)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from gladiatorium.server.errors import ServiceError
from gladiatorium.server.pages.common import page, problem

router = APIRouter()


@router.get("/mail/confirm/{token}", response_class=HTMLResponse)
async def confirm(request: Request, token: str) -> Response:
    """The confirmation link: the address is confirmed (once; the link expires)."""
    try:
        address = await run_in_threadpool(request.app.state.mailbox.confirm, token[:200])
    except ServiceError as err:
        return problem(request, err.status, str(err))
    return page(request, "mail.html", {"done": "confirmed", "address": address})


@router.get("/mail/unsubscribe/{token}", response_class=HTMLResponse)
async def unsubscribe_page(request: Request, token: str) -> Response:
    """The unsubscribe link opened in a browser: a button that posts it."""
    return page(request, "mail.html", {"done": None, "token": token[:200]})


@router.post("/mail/unsubscribe/{token}", response_class=HTMLResponse)
async def unsubscribe(request: Request, token: str) -> Response:
    """One click: every choice off, no login needed (the token is the proof)."""
    try:
        address = await run_in_threadpool(request.app.state.mailbox.unsubscribe, token[:200])
    except ServiceError as err:
        return problem(request, err.status, str(err))
    return page(request, "mail.html", {"done": "unsubscribed", "address": address})

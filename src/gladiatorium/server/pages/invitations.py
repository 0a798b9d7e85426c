"""Invitations: a link opened (used once: an account takes the seat, a guest gets a
seat secret as a cookie), and a new link issued by the match's creator."""

from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from gladiatorium.server.errors import ServiceError
from gladiatorium.server.pages.common import account_form, page, problem, redirect
from gladiatorium.server.web import (
    SEAT_COOKIE_PREFIX,
    invite_url,
    request_caller,
    service_of,
    set_private_cookie,
)

router = APIRouter()


@router.get("/invite/{token}")
async def accept_invite(request: Request, token: str) -> Response:
    """An invitation link, used once: an account takes the seat; a guest gets a new
    seat secret as a cookie for that seat only. Then the match page of that seat.
    Opened again: whoever took it goes on to the match, anyone else is refused."""
    caller = await run_in_threadpool(request_caller, request)
    service = service_of(request)
    try:
        taken = await run_in_threadpool(
            service.seats.accept_invite, token, caller.user_id, caller.seat_tokens
        )
    except ServiceError as err:
        return problem(request, err.status, str(err), caller)
    match_id, seat = taken.match_id, taken.seat
    response = redirect(f"/matches/{quote(match_id)}?seat={quote(seat)}")
    if taken.secret is not None:
        cookie = SEAT_COOKIE_PREFIX + match_id
        set_private_cookie(response, request, cookie, taken.secret, days=90)
        service.store.on_change(match_id)
    return response


@router.post("/matches/{match_id}/seats/{seat}/invite")
async def reissue_invite(request: Request, match_id: str, seat: str) -> Response:
    """The creator's button on the match page: a new invitation link for a seat (the
    old link, and whoever took it, lose the seat)."""
    posted = await account_form(request)
    if isinstance(posted, Response):
        return posted
    try:
        token = await run_in_threadpool(
            service_of(request).seats.reissue_invite, match_id, seat, posted.user_id
        )
    except ServiceError as err:
        return problem(request, err.status, str(err), posted.caller)
    context = {"id": match_id, "invites": {seat: invite_url(request, token)}, "reissued": True}
    return page(request, "created.html", context, posted.caller, 201)

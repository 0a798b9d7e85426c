"""Invitations: a link opened (used once: an account takes the seat, a guest gets a
seat secret as a cookie), the team its taker brings where the seat waits for one, and a
new link issued by the match's creator."""

from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from gladiatorium.server.errors import BadRequest, ServiceError
from gladiatorium.server.pages.common import (
    CsrfRefused,
    account_form,
    checked_form,
    form_request,
    page,
    problem,
    redirect,
    refused,
)
from gladiatorium.server.pages.lobby import pick_team
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
    seat secret as a cookie for that seat only. Then the match page of that seat, or
    first the page that picks its team where the seat waits for one. Opened again:
    whoever took it goes on, anyone else is refused."""
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
    if await run_in_threadpool(service.seats.waits_for_team, match_id, seat):
        response = redirect(f"/matches/{quote(match_id)}/seats/{quote(seat)}/team")
    if taken.secret is not None:
        cookie = SEAT_COOKIE_PREFIX + match_id
        set_private_cookie(response, request, cookie, taken.secret, days=90)
        service.store.on_change(match_id)
    return response


def team_action(seat: str) -> str:
    """Where the form of a held seat's team posts, under its match."""
    return f"seats/{quote(seat)}/team"


@router.get("/matches/{match_id}/seats/{seat}/team")
async def team_page(request: Request, match_id: str, seat: str) -> Response:
    """The "Pick my team" page of a seat taken through its invitation that waits for
    its team (only its holder sees it)."""
    caller = await run_in_threadpool(request_caller, request)
    service = service_of(request)
    try:
        held = await run_in_threadpool(
            service.seats.held, match_id, caller.user_id, caller.seat_tokens.values()
        )
        if seat not in held:
            return problem(request, 403, f"seat {seat} is not yours: open its invitation link")
        if not await run_in_threadpool(service.seats.waits_for_team, match_id, seat):
            return redirect(f"/matches/{quote(match_id)}?seat={quote(seat)}")
        return await pick_team(request, match_id, seat, caller, action=team_action(seat))
    except ServiceError as err:
        return problem(request, err.status, str(err), caller)


@router.post("/matches/{match_id}/seats/{seat}/team", openapi_extra=form_request("library.1"))
async def bring_team(request: Request, match_id: str, seat: str) -> Response:
    """The team of a seat taken through its invitation, brought by whoever holds it
    (an account or a guest): then the match page of that seat."""
    try:
        form = await checked_form(request)
    except CsrfRefused:
        return refused(request)
    caller = await run_in_threadpool(request_caller, request)
    service = service_of(request)
    team = [v for v in form.getlist(f"library.{seat}") if isinstance(v, str)]
    action = team_action(seat)
    chosen: list[int | str] = [int(v) if v.isdecimal() and len(v) < 10 else v for v in team]
    try:
        if not team:
            raise BadRequest("pick at least one hero for your team")
        await run_in_threadpool(
            service.seats.bring_team, match_id, seat, caller.user_id, caller.seat_tokens, chosen
        )
    except ServiceError as err:  # the team comes back to be mended, the problem on it
        try:
            return await pick_team(request, match_id, seat, caller, str(err), team, action)
        except ServiceError as unknown:  # no such match: no page to come back to
            return problem(request, unknown.status, str(unknown), caller)
    request.app.state.drivers.kick(match_id)
    return redirect(f"/matches/{quote(match_id)}?seat={quote(seat)}")


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

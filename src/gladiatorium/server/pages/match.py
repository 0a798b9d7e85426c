"""The generic match page that every game gets for free: built for one seat (or a
spectator) from what it may know (its body, the web presenter's ``picture`` or
``text``, ``posts``, its events), its actions as buttons or a notation box, the
moderator's console and the round's deadline; the live part fetched again after each
push, and the plain form posts of an action and of a deadline."""

from __future__ import annotations

import hashlib
import json
from itertools import islice
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup
from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from gladiatorium.core import Seat
from gladiatorium.core.presenters import named_seat
from gladiatorium.server.db import User
from gladiatorium.server.errors import BadRequest, Forbidden, NotFound, ServiceError
from gladiatorium.server.pages.common import (
    SPECTATOR,
    CsrfRefused,
    checked_form,
    form_request,
    page,
    problem,
    redirect,
    refused,
    text_of,
)
from gladiatorium.server.play import seat_body
from gladiatorium.server.ratings_views import match_changes
from gladiatorium.server.rematch import existing_rematch
from gladiatorium.server.replays import may_have_record
from gladiatorium.server.results import final_places, match_names, named_places, result_label
from gladiatorium.server.service import MatchService
from gladiatorium.server.store import TEAMS_AWAITED
from gladiatorium.server.web import (
    Caller,
    deadline_setter_checked,
    request_caller,
    require_seat,
    seats_held,
    service_of,
)

router = APIRouter()

#: legal actions shown as buttons up to this many; more get a notation box
MAX_BUTTONS = 12
#: suggestions offered in the notation box's datalist
MAX_SUGGESTIONS = 500


def seat_labels(service: MatchService, match_id: str, me: int | None) -> dict[Seat, str]:
    """Who sits where, as shown to everyone: a username, a bot, invited or open."""
    live = service.store.live(match_id)
    with live.lock:
        rows = dict(live.seats)
        order = list(live.state.seats)
    ids = {r.user_id for r in rows.values() if r.user_id is not None}
    with service.store.sessions() as session:
        users = {u.id: u.username for u in session.scalars(select(User).where(User.id.in_(ids)))}
    labels = {}
    for seat in order:
        row = rows[seat]
        if row.kind == "user" and row.user_id is not None:
            name = users.get(row.user_id, "a player")
            labels[seat] = f"{name} (you)" if row.user_id == me else name
        elif row.kind == "bot":
            labels[seat] = f"bot {row.bot}"
        elif row.kind == "invite":
            labels[seat] = "invited guest" if row.guest else "invited"
        elif row.kind == "server":
            labels[seat] = "run by the server"
        else:
            labels[seat] = "open"
    return labels


def pick_seat(held: list[Seat], asked: str | None, awaiting: list[Seat]) -> Seat | None:
    if asked == SPECTATOR:
        return None
    if asked:
        if asked not in held:
            raise Forbidden(f"you do not hold seat {asked!r} of this match")
        return asked
    for seat in held:
        if seat in awaiting:
            return seat
    return held[0] if held else None


def match_context(
    service: MatchService, match_id: str, caller: Caller, asked: str | None
) -> dict[str, Any]:
    """Everything the match page shows, built for one seat (None: a spectator)."""
    held_set = seats_held(service, match_id, caller)
    names = match_names(service.store, match_id)
    live = service.store.live(match_id)
    with live.lock:
        order = list(live.state.seats)
        held = [s for s in order if s in held_set]
        teams_awaited = [str(s) for s in live.settings.get(TEAMS_AWAITED) or ()]
        awaiting = [] if live.over or teams_awaited else list(live.state.awaiting())
        deciding = list(live.deciding())
        seat = pick_seat(held, asked, awaiting)
        body = seat_body(live, seat, compact=True)
        game = live.game
        # a game's compact form of the seat's legal actions: the first of them listed
        form = None
        if seat is not None and body["legal_form"] is not None:
            form = game.legal_form(live.state, seat)
        legal: list[str] = (
            body["legal"] if form is None else list(islice(form.actions(), MAX_SUGGESTIONS))
        )
        # while teams are awaited, the board is drawn as anyone sees it (nothing to do)
        board = game.web.named_picture(live.state, None if teams_awaited else seat, names)
        # the text picture only where the game draws no web picture of its own
        picture = game.web.text(live.state, seat) if board is None else ""
        posts = game.web.posts(live.state, seat)
        players = order[: live.state.players]
        timeout = [str(a) for a in game.timeout_actions(live.state, seat)] if seat else []
        console = bool(timeout) and seat not in players
        rounds = game.round_number(live.state)
        # the console's suggested deadline: a day, or the match's round_minutes if shorter
        deadline_minutes = min(1440, float(live.settings.get("round_minutes") or 1440))
        record = live.over and may_have_record(game, live.state, held_set)
        casual = bool(live.settings.get("casual"))
        places = final_places(live)
    labels = seat_labels(service, match_id, caller.user_id)
    deadlines = service.deadlines.pending(match_id) if (console or rounds is not None) else []
    stamp = hashlib.sha256(
        json.dumps(
            [body, picture, board, posts, deadlines, labels], sort_keys=True, default=str
        ).encode()
    ).hexdigest()[:16]
    # who has moved: a simultaneous round keeps everyone awaited until it closes, to
    # allow edits; the match waits only on the seats still deciding
    still = set(deciding)
    # the page's last events, their players named as the server knows them
    events = [{**e, "text": game.web.named_event(e["text"], names)} for e in body["events"][-300:]]
    return {
        "teams_awaited": teams_awaited,
        # a seat of mine taken through its invitation, its team still to pick
        "team_to_pick": next((s for s in held if s in teams_awaited), None),
        "to_move": [named_seat(s, names) or f"seat {s}" for s in players if s in still],
        "moved": [named_seat(s, names) or f"seat {s}" for s in players if s not in still],
        "notation_help": game.web.notation_help(),
        # the legend: every code the game's pages show, each linked to its rule
        "codes": game.web.codes(),
        "id": match_id,
        "game": game,
        "seat": seat,
        "held": held,
        "labels": labels,
        "body": body,
        "picture": picture,
        # the game's own web picture: its module escapes every string it shows
        "board": Markup(board) if board is not None else None,
        "latest": events[-6:],
        "posts": posts,
        "legal": legal,
        # the compact form (JSON) the picture's picks follow (static/board.js)
        "form": body["legal_form"],
        "buttons": len(legal) <= MAX_BUTTONS,
        # the moderator's only action, closing the round, is the console's button
        "console_only": console and set(legal) <= set(timeout),
        "suggestions": legal[:MAX_SUGGESTIONS],
        "awaiting": [s for s in body["awaiting"] if s not in players or s in still],
        "events": events,
        "outcome": result_label(body["outcome"], names),
        "console": console,
        "close": [a for a in timeout if a in legal],
        "players": players,
        "round": rounds,
        "deadlines": deadlines,
        "deadline_minutes": f"{deadline_minutes:g}",
        "stamp": stamp,
        "player": bool(held),
        "record": record,
        "ratings": _rating_changes(service, match_id) if body["outcome"] else [],
        "casual": casual,
        "places": named_places(places, names),
        # a finished match's rematch, once someone asked for it
        "rematch": existing_rematch(service, match_id) if live.over else None,
    }


def _rating_changes(service: MatchService, match_id: str) -> list[dict[str, Any]]:
    """Each rated player's change in the finished match (none: not rated)."""
    with service.store.sessions() as session:
        return match_changes(session, match_id)


def invitation_seats(service: MatchService, match_id: str, caller: Caller) -> list[Seat]:
    """For the match's creator: the seats given by invitation, which may get a new link."""
    if caller.user_id is None or service.seats.creator(match_id) != caller.user_id:
        return []
    live = service.store.live(match_id)
    with live.lock:
        if live.over:
            return []
        return [
            seat
            for seat in live.state.seats
            if live.seats[seat].kind == "invite" or live.seats[seat].token_hash is not None
        ]


async def _match(
    request: Request, match_id: str, seat: str | None, template: str, error: str = ""
) -> Response:
    caller = await run_in_threadpool(request_caller, request)
    service = service_of(request)
    try:
        context = await run_in_threadpool(match_context, service, match_id, caller, seat)
        if template == "match.html":
            context["reinvite"] = await run_in_threadpool(
                invitation_seats, service, match_id, caller
            )
    except ServiceError as err:
        return problem(request, err.status, str(err), caller)
    context["error"] = error
    return page(request, template, context, caller, 400 if error else 200)


@router.get("/matches/{match_id}", response_class=HTMLResponse)
async def match_page(request: Request, match_id: str, seat: str | None = None) -> Response:
    return await _match(request, match_id, seat, "match.html")


@router.get("/matches/{match_id}/live", response_class=HTMLResponse)
async def match_fragment(request: Request, match_id: str, seat: str | None = None) -> Response:
    """The live part of the match page, fetched again after each push."""
    return await _match(request, match_id, seat, "match_live.html")


@router.post("/matches/{match_id}/act", openapi_extra=form_request("seat", "action"))
async def act(request: Request, match_id: str) -> Response:
    """An action from the page without a WebSocket (the form's plain post)."""
    try:
        form = await checked_form(request)
    except CsrfRefused:
        return refused(request)
    caller = await run_in_threadpool(request_caller, request)
    service = service_of(request)
    seat, action = text_of(form, "seat"), text_of(form, "action").strip()
    try:
        await run_in_threadpool(require_seat, service, match_id, caller, seat)
        if not action:
            raise BadRequest("type an action")
        await run_in_threadpool(service.play.submit, match_id, seat, action)
    except ServiceError as err:
        if isinstance(err, NotFound | Forbidden):
            return problem(request, err.status, str(err), caller)
        return await _match(request, match_id, seat, "match.html", str(err))
    request.app.state.drivers.kick(match_id)
    return redirect(f"/matches/{quote(match_id)}?seat={quote(seat)}")


@router.post("/matches/{match_id}/deadline", openapi_extra=form_request("seat", "minutes"))
async def set_deadline(request: Request, match_id: str) -> Response:
    """The moderator console (or, in a match without a moderator, its creator) sets
    the deadline of the round in progress."""
    try:
        form = await checked_form(request)
    except CsrfRefused:
        return refused(request)
    caller = await run_in_threadpool(request_caller, request)
    service = service_of(request)
    seat = text_of(form, "seat")

    def apply() -> None:
        deadline_setter_checked(service, match_id, caller, seat or None)
        try:
            minutes = float(text_of(form, "minutes"))
        except (ValueError, OverflowError):
            raise BadRequest("minutes: expected a number") from None
        service.deadlines.set_round(
            match_id, minutes, request.app.state.settings.min_deadline_minutes
        )

    try:
        await run_in_threadpool(apply)
    except ServiceError as err:
        if isinstance(err, NotFound | Forbidden):
            return problem(request, err.status, str(err), caller)
        return await _match(request, match_id, seat, "match.html", str(err))
    return redirect(f"/matches/{quote(match_id)}?seat={quote(seat)}")

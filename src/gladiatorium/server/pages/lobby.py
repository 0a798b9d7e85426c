"""The lobby: my matches (where it is my move first) and the matches with an open seat,
and taking an open seat."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from gladiatorium.core import Seat, games
from gladiatorium.server.db import Match, MatchSeat
from gladiatorium.server.errors import ServiceError
from gladiatorium.server.pages.common import (
    account_form,
    form_request,
    page,
    problem,
    redirect,
    text_of,
)
from gladiatorium.server.pages.pictures import outcome_text
from gladiatorium.server.service import MatchService
from gladiatorium.server.web import Caller, request_caller, service_of

router = APIRouter()


@dataclass
class MatchRow:
    id: str
    game: str
    seats: list[Seat]
    status: str
    your_move: bool = False
    result: str = ""
    open_seats: list[Seat] = field(default_factory=list)


def lobby_rows(service: MatchService, caller: Caller) -> tuple[list[MatchRow], list[MatchRow]]:
    """My matches (with where it is my move) and matches with an open seat."""
    names = {g.info.slug: g.info.name for g in games()}
    mine: dict[str, list[Seat]] = {}
    with service.store.sessions() as session:
        if caller.user_id is not None:
            for match_id, seat in session.execute(
                select(MatchSeat.match_id, MatchSeat.seat)
                .join(Match, Match.id == MatchSeat.match_id)
                .where(MatchSeat.user_id == caller.user_id, MatchSeat.kind == "user")
                .order_by(Match.created_at.desc())
                .limit(200)
            ):
                mine.setdefault(match_id, []).append(seat)
        open_rows = session.execute(
            select(Match.id, Match.game, MatchSeat.seat)
            .join(MatchSeat, MatchSeat.match_id == Match.id)
            .where(Match.status == "running", MatchSeat.kind == "open")
            .order_by(Match.created_at.desc())
            .limit(200)
        ).all()
    for match_id, token in caller.seat_tokens.items():
        if match_id not in mine and len(mine) < 250:
            try:
                held = service.seats.held(match_id, None, [token])
            except ServiceError:
                continue
            if held:
                mine[match_id] = sorted(held)
    with service.store.sessions() as session:
        over = {
            m.id: m
            for m in session.scalars(
                select(Match).where(Match.id.in_(list(mine)), Match.status == "over")
            )
        }
    my_rows = []
    for match_id, seats in mine.items():
        if match_id in over:  # read from its row: a finished match is not rebuilt
            ended = over[match_id]
            result = outcome_text(ended.outcome, {})
            game = names.get(ended.game, ended.game)
            order = sorted(seats, key=lambda seat: (len(seat), seat))
            my_rows.append(MatchRow(match_id, game, order, "over", result=result))
            continue
        try:
            live = service.store.live(match_id)
        except ServiceError:
            continue
        with live.lock:
            awaiting = set() if live.over else set(live.state.awaiting())
            row = MatchRow(
                match_id,
                names.get(live.game.info.slug, live.game.info.slug),
                sorted(seats, key=live.state.seats.index),
                "over" if live.over else "running",
                your_move=_my_move(live, awaiting, seats),
                result=outcome_text(live.outcome(), {}),
            )
        my_rows.append(row)
    my_rows.sort(key=lambda r: (not r.your_move, r.status == "over"))
    joinable: dict[str, MatchRow] = {}
    for match_id, slug, seat in open_rows:
        if match_id in mine:
            continue
        row = joinable.setdefault(
            match_id, MatchRow(match_id, names.get(slug, slug), [], "running")
        )
        row.open_seats.append(seat)
    return my_rows, list(joinable.values())[:50]


def _my_move(live: Any, awaiting: set[Seat], seats: list[Seat]) -> bool:
    """Whether the match waits on one of ``seats`` (in a simultaneous round a player
    who moved stays awaited, to edit, but is no longer deciding)."""
    deciding = set(live.state.deciding()) if awaiting else set()
    return any(seat in deciding for seat in seats)


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> Response:
    caller = await run_in_threadpool(request_caller, request)
    mine, joinable = await run_in_threadpool(lobby_rows, service_of(request), caller)
    return page(
        request,
        "lobby.html",
        {"games": games(), "mine": mine, "joinable": joinable},
        caller,
    )


@router.post("/matches/{match_id}/join", openapi_extra=form_request("seat"))
async def join(request: Request, match_id: str) -> Response:
    posted = await account_form(request)
    if isinstance(posted, Response):
        return posted
    seat = text_of(posted.form, "seat")
    try:
        await run_in_threadpool(service_of(request).seats.join, match_id, seat, posted.user_id)
    except ServiceError as err:
        return problem(request, err.status, str(err), posted.caller)
    request.app.state.drivers.kick(match_id)
    return redirect(f"/matches/{quote(match_id)}?seat={quote(seat)}")

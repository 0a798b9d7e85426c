"""The lobby: my turns, my matches (where it is my move first) and the matches with an
open seat (of one game, if chosen), taking an open seat, and asking for a rematch."""

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
from gladiatorium.server.pages.new_match import team_picks
from gladiatorium.server.rematch import offer_rematch
from gladiatorium.server.results import names_by_match, result_label
from gladiatorium.server.service import MatchService
from gladiatorium.server.turns import Turn, awaited_turns
from gladiatorium.server.web import Caller, invite_url, request_caller, service_of

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


def lobby_rows(
    service: MatchService, caller: Caller, game: str | None = None
) -> tuple[list[MatchRow], list[MatchRow]]:
    """My matches (with where it is my move) and matches with an open seat (of
    ``game``, a slug, if given)."""
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
        query = (
            select(Match.id, Match.game, MatchSeat.seat)
            .join(MatchSeat, MatchSeat.match_id == Match.id)
            .where(Match.status == "running", MatchSeat.kind == "open")
            .order_by(Match.created_at.desc())
            .limit(200)
        )
        if game:
            query = query.where(Match.game == game)
        open_rows = session.execute(query).all()
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
        who = names_by_match(session, mine)
    my_rows = []
    for match_id, seats in mine.items():
        if match_id in over:  # read from its row: a finished match is not rebuilt
            ended = over[match_id]
            result = result_label(ended.outcome, who.get(match_id, {}))
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
                result=result_label(live.outcome(), who.get(match_id, {})),
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
async def lobby(request: Request, game: str | None = None) -> Response:
    caller = await run_in_threadpool(request_caller, request)
    service = service_of(request)
    slugs = {g.info.slug for g in games()}
    chosen = game if game in slugs else None
    mine, joinable = await run_in_threadpool(lobby_rows, service, caller, chosen)
    turns: list[Turn] = []
    if caller.user_id is not None:
        turns = await run_in_threadpool(awaited_turns, service.store.sessions, caller.user_id)
    names = {g.info.slug: g.info.name for g in games()}
    context = {"games": games(), "mine": mine, "joinable": joinable, "chosen": chosen or ""}
    context.update(turns=turns, names=names)
    return page(request, "lobby.html", context, caller)


@router.post("/matches/{match_id}/join", openapi_extra=form_request("seat", "library.1"))
async def join(request: Request, match_id: str) -> Response:
    posted = await account_form(request)
    if isinstance(posted, Response):
        return posted
    seat = text_of(posted.form, "seat")
    service = service_of(request)
    team = [v for v in posted.form.getlist(f"library.{seat}") if isinstance(v, str)]
    try:
        if not team and await run_in_threadpool(service.seats.waits_for_team, match_id, seat):
            empty = (
                "pick at least one hero for your team" if text_of(posted.form, "picking") else ""
            )
            return await pick_team(request, match_id, seat, posted.caller, empty)
        chosen = [int(v) if v.isdecimal() and len(v) < 10 else v for v in team]
        await run_in_threadpool(service.seats.join, match_id, seat, posted.user_id, chosen or None)
    except ServiceError as err:
        if team:  # the team comes back to be mended, the problem on it
            return await pick_team(request, match_id, seat, posted.caller, str(err), team)
        return problem(request, err.status, str(err), posted.caller)
    request.app.state.drivers.kick(match_id)
    return redirect(f"/matches/{quote(match_id)}?seat={quote(seat)}")


async def pick_team(
    request: Request,
    match_id: str,
    seat: str,
    caller: Caller,
    error: str = "",
    picked: list[str] | None = None,
    action: str = "join",
) -> Response:
    """The page where whoever takes a seat that waits for its team picks it, from the
    game's samples and their own library; the form posts to ``action`` under the match
    (``join``: an open seat; ``seats/N/team``: a seat taken through its invitation)."""
    service = service_of(request)
    live = await run_in_threadpool(service.store.live, match_id)
    context = {
        "id": match_id,
        "seat": seat,
        "game": live.game,
        "team_picks": await run_in_threadpool(team_picks, service, caller, live.game, []),
        "picked": picked or [],
        "error": error,
        "action": action,
    }
    return page(request, "join_team.html", context, caller, 422 if error else 200)


@router.post("/matches/{match_id}/rematch", openapi_extra=form_request())
async def rematch(request: Request, match_id: str) -> Response:
    """A rematch of a finished match, its seats rotated (``server/rematch.py``): to the
    new match, or to the invitation links its guests' seats need."""
    posted = await account_form(request)
    if isinstance(posted, Response):
        return posted
    service = service_of(request)
    try:
        made = await run_in_threadpool(
            offer_rematch, service, match_id, posted.user_id, request.app.state.notices
        )
    except ServiceError as err:
        return problem(request, err.status, str(err), posted.caller)
    request.app.state.drivers.kick(made.id)
    if not made.invites:
        return redirect(f"/matches/{quote(made.id)}")
    invites = {seat: invite_url(request, token) for seat, token in made.invites.items()}
    return page(request, "created.html", {"id": made.id, "invites": invites}, posted.caller, 201)

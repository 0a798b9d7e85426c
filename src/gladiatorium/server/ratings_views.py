"""Ratings to read: a game's leaderboard, a person's profile (matches played, results,
ratings and their history), a match's rating changes; as JSON and as pages. Nothing
here reveals a secret: a profile shows the game, the date, the place and the link of
each finished match, never which hero or seat's secret a person held."""

from __future__ import annotations

from collections import Counter
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sqlalchemy import and_, select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from gladiatorium.core import games
from gladiatorium.server.db import Match, MatchSeat, Rating, RatingChange, User
from gladiatorium.server.pages.common import game_or_none, page, problem
from gladiatorium.server.ratings import ordinal, shown
from gladiatorium.server.web import read_with_session

router = APIRouter()

#: players on a leaderboard, and recent matches on a profile
LEADERS = 100
RECENT = 20


def names_of(session: Session, players: set[str]) -> dict[str, str]:
    """The shown name of each rated player: a person's user name, a bot as ``bot:NAME``."""
    ids = {int(p.split(":", 1)[1]) for p in players if p.startswith("user:")}
    users = session.execute(select(User.id, User.username).where(User.id.in_(ids))).all()
    found = {f"user:{uid}": name for uid, name in users}
    return {p: found.get(p, p) for p in players}


def leaderboard(session: Session, game: str) -> list[dict[str, Any]]:
    """The game's rated players, best first by the conservative rating."""
    rows = session.scalars(
        select(Rating)
        .where(Rating.game == game)
        .order_by((Rating.mu - 3 * Rating.sigma).desc(), Rating.player)
        .limit(LEADERS)
    ).all()
    names = names_of(session, {row.player for row in rows})
    return [{"name": names[row.player], **shown(row.mu, row.sigma, row.games)} for row in rows]


def match_changes(session: Session, match_id: str) -> list[dict[str, Any]]:
    """Each rated player's change in one match, by place."""
    rows = session.scalars(
        select(RatingChange)
        .where(RatingChange.match_id == match_id)
        .order_by(RatingChange.place, RatingChange.player)
    ).all()
    names = names_of(session, {row.player for row in rows})
    return [
        {
            "name": names[row.player],
            "place": row.place,
            "before": round(ordinal(row.mu_before, row.sigma_before), 2),
            "after": round(ordinal(row.mu_after, row.sigma_after), 2),
            "change": round(
                ordinal(row.mu_after, row.sigma_after) - ordinal(row.mu_before, row.sigma_before),
                2,
            ),
        }
        for row in rows
    ]


def result_of(places: list[Any] | None, seats: set[str]) -> str:
    """``won``, ``drew`` or ``lost`` (or ``over`` when the match kept no places) for
    the person holding ``seats``."""
    if not places:
        return "over"
    mine = min((place for side, place in places if seats & set(side)), default=None)
    if mine is None:
        return "over"
    if all(place == mine for _, place in places):
        return "drew"
    return "won" if mine == 1 else "lost"


def profile(session: Session, name: str) -> dict[str, Any] | None:
    """A person's matches per game, results, ratings with their history, and recent
    finished matches."""
    user = session.scalar(select(User).where(User.username == name))
    if user is None:
        return None
    held = session.execute(
        select(Match.id, Match.game, Match.ended_at, Match.places, MatchSeat.seat)
        .join(MatchSeat, and_(MatchSeat.match_id == Match.id, MatchSeat.user_id == user.id))
        .where(Match.status == "over")
        .order_by(Match.ended_at.desc(), Match.id)
    ).all()
    seats: dict[str, set[str]] = {}
    info: dict[str, Any] = {}
    for match_id, game, ended, places, seat in held:
        seats.setdefault(match_id, set()).add(seat)
        info[match_id] = (game, ended, places)
    matches = [
        {
            "id": match_id,
            "game": game,
            "ended": ended.isoformat() if ended else None,
            "result": result_of(places, seats[match_id]),
        }
        for match_id, (game, ended, places) in info.items()
    ]
    played: Counter[tuple[str, str]] = Counter((m["game"], m["result"]) for m in matches)
    per_game = {
        slug: {r: played[(slug, r)] for r in ("won", "drew", "lost") if played[(slug, r)]}
        for slug in sorted({m["game"] for m in matches})
    }
    key = f"user:{user.id}"
    ratings = {
        row.game: shown(row.mu, row.sigma, row.games)
        for row in session.scalars(select(Rating).where(Rating.player == key))
    }
    history: dict[str, list[float]] = {}
    for change in session.scalars(
        select(RatingChange).where(RatingChange.player == key).order_by(RatingChange.id)
    ):
        history.setdefault(change.game, []).append(
            round(ordinal(change.mu_after, change.sigma_after), 2)
        )
    return {
        "name": user.username,
        "games": per_game,
        "ratings": ratings,
        "history": history,
        "recent": matches[:RECENT],
    }


def plot(points: list[float], width: int = 240, height: int = 60) -> str:
    """A small line of a rating's history as inline SVG (numbers only: no text)."""
    if len(points) < 2:
        return ""
    low, high = min(points), max(points)
    span = (high - low) or 1.0
    step = width / (len(points) - 1)
    line = " ".join(
        f"{i * step:.1f},{height - 4 - (p - low) / span * (height - 8):.1f}"
        for i, p in enumerate(points)
    )
    return (
        f'<svg class="rating-plot" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="rating history, {len(points)} matches">'
        f'<polyline fill="none" stroke="currentColor" stroke-width="2" points="{line}"/></svg>'
    )


@router.get("/api/leaderboard/{game}")
async def leaderboard_api(request: Request, game: str) -> Response:
    found = game_or_none(game)
    if found is None:
        return JSONResponse({"error": f"no game {game!r}"}, status_code=404)
    players = await run_in_threadpool(read_with_session, request, leaderboard, found.info.slug)
    return JSONResponse({"game": found.info.slug, "players": players})


@router.get("/leaderboard/{game}", response_class=HTMLResponse)
async def leaderboard_page(request: Request, game: str) -> Response:
    found = game_or_none(game)
    if found is None:
        return problem(request, 404, f"no game {game!r}")
    players = await run_in_threadpool(read_with_session, request, leaderboard, found.info.slug)
    return page(request, "leaderboard.html", {"game": found, "players": players, "all": games()})


@router.get("/api/users/{name}")
async def profile_api(request: Request, name: str) -> Response:
    found = await run_in_threadpool(read_with_session, request, profile, name)
    if found is None:
        return JSONResponse({"error": f"no player {name!r}"}, status_code=404)
    return JSONResponse(found)


@router.get("/users/{name}", response_class=HTMLResponse)
async def profile_page(request: Request, name: str) -> Response:
    found = await run_in_threadpool(read_with_session, request, profile, name)
    if found is None:
        return problem(request, 404, f"no player {name!r}")
    plots = {game: plot(points) for game, points in found["history"].items()}
    names = {g.info.slug: g.info.name for g in games()}
    return page(request, "profile.html", {"player": found, "plots": plots, "names": names})


@router.get("/api/matches/{match_id}/ratings")
async def match_ratings_api(request: Request, match_id: str) -> Response:
    changes = await run_in_threadpool(read_with_session, request, match_changes, match_id)
    return JSONResponse({"changes": changes})

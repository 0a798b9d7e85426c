"""Ratings of people per game, with OpenSkill's Plackett-Luce model (the lab rates bots
with the same): when a match between people ends, every participant's rating moves,
in the transaction that ends the match (so exactly once, whatever process ends it).

Who is rated: a person holding a seat (``user:ID``) and a bot seat (``bot:NAME``, a
named, rated opponent); a match with no person, a casual one, or one where a person
holds seats on two sides is not rated. Sides are the game's (Gladiator Chess: each
team's commanders share their side's result; a person holding two seats of one side
counts once) and places are the game's (``Game.places``: the winner first, then by
score or, in Hero Battle, by order of death; ties shared). A player is provisional
until :data:`PROVISIONAL_GAMES` rated matches. The places are kept with the match:
the results are the truth, and :func:`rebuild` recomputes every rating from them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, sessionmaker

from gladiatorium.core import Seat
from gladiatorium.server.db import Match, MatchSeat, Rating, RatingChange, utcnow

MODEL = PlackettLuce()
#: rated matches before a rating is shown without a question mark
PROVISIONAL_GAMES = 5

#: a rated side: its players (key, user id or None for a bot) and its place
Team = tuple[list[tuple[str, int | None]], int]
Places = Sequence[tuple[Sequence[Seat], int]]


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: ``mu - 3 sigma``, what the player holds with good confidence."""
    return mu - 3 * sigma


def player_key(row: MatchSeat | None) -> tuple[str, int | None] | None:
    """Who is rated for a seat: a person or a bot, else None."""
    if row is None:
        return None
    if row.kind == "user" and row.user_id is not None:
        return f"user:{row.user_id}", row.user_id
    if row.kind == "bot" and row.bot:
        return f"bot:{row.bot}", None
    return None


def teams_of(places: Places, seats: Mapping[Seat, MatchSeat]) -> list[Team] | None:
    """The rated sides with their places, or None when the match is not rated (no
    person, a side nobody holds, a person on two sides)."""
    teams: list[Team] = []
    side_of: dict[str, int] = {}
    for index, (side, place) in enumerate(places):
        members: dict[str, int | None] = {}
        for seat in side:
            found = player_key(seats.get(seat))
            if found is None:
                continue
            key, user = found
            if side_of.setdefault(key, index) != index:
                return None
            members[key] = user
        if not members:
            return None
        teams.append((sorted(members.items()), place))
    if len(teams) < 2 or not any(user for team, _ in teams for _, user in team):
        return None
    return teams


def record_end(
    session: Session,
    match_id: str,
    game: str,
    places: Places,
    seats: Mapping[Seat, MatchSeat],
    casual: bool,
) -> None:
    """Inside the transaction that ends the match: keep its places and end time, and
    rate it unless it is casual or not between people."""
    kept = [[list(side), place] for side, place in places]
    session.execute(
        update(Match).where(Match.id == match_id).values(ended_at=utcnow(), places=kept)
    )
    teams = None if casual else teams_of(places, seats)
    if teams:
        rate(session, match_id, game, teams)


def rate(session: Session, match_id: str, game: str, teams: list[Team]) -> None:
    """Move every participant's rating by one match; their rows are locked in one
    order (two matches ending at once in two processes wait, never deadlock)."""
    users = {key: user for team, _ in teams for key, user in team}
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    fresh = [
        {"game": game, "player": key, "user_id": user, "mu": MODEL.mu, "sigma": MODEL.sigma}
        | {"games": 0}
        for key, user in sorted(users.items())
    ]
    session.execute(insert(Rating).values(fresh).on_conflict_do_nothing())
    rows = {
        row.player: row
        for row in session.scalars(
            select(Rating)
            .where(Rating.game == game, Rating.player.in_(sorted(users)))
            .order_by(Rating.player)
            .with_for_update()
        )
    }
    before = [[MODEL.rating(mu=rows[k].mu, sigma=rows[k].sigma) for k, _ in t] for t, _ in teams]
    after = MODEL.rate(before, ranks=[float(place) for _, place in teams])
    for (team, place), new_team in zip(teams, after, strict=True):
        for (key, _), new in zip(team, new_team, strict=True):
            row = rows[key]
            session.add(
                RatingChange(
                    match_id=match_id,
                    game=game,
                    player=key,
                    place=place,
                    mu_before=row.mu,
                    sigma_before=row.sigma,
                    mu_after=new.mu,
                    sigma_after=new.sigma,
                    games=row.games + 1,
                )
            )
            row.mu, row.sigma, row.games = new.mu, new.sigma, row.games + 1
    session.flush()


def rebuild(sessions: sessionmaker[Session]) -> int:
    """Every rating recomputed from the stored results, in the order the matches
    ended; returns how many matches were rated."""
    rated = 0
    with sessions.begin() as session:
        session.execute(delete(RatingChange))
        session.execute(delete(Rating))
        ended = session.scalars(
            select(Match)
            .where(Match.status == "over", Match.places.is_not(None))
            .order_by(Match.ended_at, Match.id)
        ).all()
        for match in ended:
            if (match.settings or {}).get("casual"):
                continue
            rows = session.scalars(select(MatchSeat).where(MatchSeat.match_id == match.id))
            places = [(tuple(side), int(place)) for side, place in match.places or []]
            teams = teams_of(places, {row.seat: row for row in rows})
            if teams:
                rate(session, match.id, match.game, teams)
                rated += 1
    return rated


def shown(mu: float, sigma: float, games: int) -> dict[str, Any]:
    """A rating as the API gives it."""
    return {
        "rating": round(ordinal(mu, sigma), 2),
        "mu": round(mu, 4),
        "sigma": round(sigma, 4),
        "games": games,
        "provisional": games < PROVISIONAL_GAMES,
    }

"""Who holds a match's seats: an account, a guest with a seat secret (its cookie), a
bot, the server; taking an open seat, and invitations (a link used once, which the
match's creator may issue again)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update

from gladiatorium.core import Seat, games
from gladiatorium.server.db import Match, MatchSeat
from gladiatorium.server.errors import BadRequest, Conflict, Forbidden, NotFound, Unauthorized
from gladiatorium.server.store import MatchStore
from gladiatorium.server.teams import Teams, awaited
from gladiatorium.server.tokens import digest_token, new_token

log = logging.getLogger("gladiatorium.match")


@dataclass(frozen=True)
class Accepted:
    """An invitation taken (or opened again by whoever took it)."""

    match_id: str
    seat: Seat
    #: a guest's new seat secret, for its cookie (None: an account, or nothing new)
    secret: str | None


@dataclass(frozen=True)
class OpenMatch:
    """A match in progress with seats open for anyone to take."""

    match: str
    #: the game's slug
    game: str
    seats: list[Seat]
    created_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "match": self.match,
            "game": self.game,
            "seats": self.seats,
            "created": self.created_at.isoformat(),
        }


USED = "this invitation was already used: ask whoever sent it for a new link"


class Seats:
    """The seats of the matches in ``store``: who holds them, and who takes them."""

    def __init__(self, store: MatchStore, teams: Teams | None = None) -> None:
        self.store = store
        #: teams brought by those who take seats (a match that waits for them)
        self.teams = teams

    def held(self, match_id: str, user_id: int | None, seat_tokens: Iterable[str]) -> set[Seat]:
        """Seats that a user (or the holder of guest seat secrets) may act for."""
        hashes = {digest_token(t) for t in seat_tokens}
        live = self.store.live(match_id)
        with live.lock:
            return {s for s, row in live.seats.items() if _holder(row, user_id, hashes)}

    def still_holds(
        self, match_id: str, seat: Seat, user_id: int | None, seat_tokens: Iterable[str]
    ) -> bool:
        """Whether ``seat`` is still held, asked of the copy in memory (no query when
        the match is there and no notice came): checked before each push to a seat's
        connection."""
        live = self.store.held(match_id)
        if live is None or live.stale:
            live = self.store.live(match_id)
        hashes = {digest_token(t) for t in seat_tokens}
        with live.lock:
            row = live.seats.get(seat)
            return row is not None and _holder(row, user_id, hashes)

    def waits_for_team(self, match_id: str, seat: Seat) -> bool:
        """Whether whoever takes ``seat`` picks its team first (``server/teams.py``)."""
        live = self.store.live(match_id)
        with live.lock:
            return seat in awaited(live.settings)

    def join(
        self, match_id: str, seat: Seat, user_id: int, team: Sequence[int | str] | None = None
    ) -> None:
        """Take an open seat; ``team``: the team its taker brings, where the match waits
        for one (item ids of the taker's library, ``sample:NAME``)."""
        if self.teams is not None and self.waits_for_team(match_id, seat):
            self.teams.bring(match_id, seat, user_id, team or [])
            return
        if team:
            raise BadRequest(f"team: seat {seat} does not wait for a team")
        with self.store.sessions.begin() as session:
            row = session.get(MatchSeat, (match_id, seat))
            if row is None:
                raise NotFound(f"match {match_id} has no seat {seat!r}")
            if row.kind != "open":
                raise Conflict(f"seat {seat} is not open")
            row.kind, row.user_id = "user", user_id
        self.store.reload_seats(match_id)
        self.store.on_change(match_id)

    def bring_team(
        self,
        match_id: str,
        seat: Seat,
        user_id: int | None,
        seat_tokens: Mapping[str, str],
        team: Sequence[int | str],
    ) -> None:
        """The team of a seat taken through its invitation, brought by whoever holds it
        (an account: its library and the samples; a guest: the samples), where the match
        waits for it. ``seat_tokens``: the caller's guest seat secrets by match."""
        if self.teams is None or not self.waits_for_team(match_id, seat):
            raise Conflict(f"seat {seat} does not wait for a team")
        mine = seat_tokens.get(match_id)
        hashes = {digest_token(mine)} if mine else set()
        self.teams.bring(
            match_id, seat, user_id, team, holds=lambda row: _holder(row, user_id, hashes)
        )

    def accept_invite(
        self, token: str, user_id: int | None, seat_tokens: Mapping[str, str]
    ) -> Accepted:
        """An invitation link opened. It is used once: the first to open it takes the
        seat (an account for good; a guest gets a new seat secret, for its cookie), and
        anyone opening it after is refused, except the one who took it (sent on to
        the match). ``seat_tokens``: the caller's guest seat secrets by match."""
        link = digest_token(token)
        with self.store.sessions.begin() as session:
            row = session.scalars(
                select(MatchSeat).where(MatchSeat.token_hash == link)
            ).one_or_none()
            if row is None:
                raise NotFound("this invitation is not valid (a newer link may have replaced it)")
            match_id, seat = row.match_id, row.seat
            if row.kind != "invite" or row.guest:
                mine = seat_tokens.get(match_id)
                if _holder(row, user_id, {digest_token(mine)} if mine else set()):
                    return Accepted(match_id, seat, None)
                raise Conflict(USED)
            secret = None if user_id is not None else new_token()
            taken = session.execute(
                update(MatchSeat)
                .where(
                    MatchSeat.match_id == match_id,
                    MatchSeat.seat == seat,
                    MatchSeat.token_hash == link,
                    MatchSeat.kind == "invite",
                    MatchSeat.guest.is_(False),
                )
                .values(
                    {"kind": "user", "user_id": user_id}
                    if secret is None
                    else {"guest": True, "secret_hash": digest_token(secret)}
                )
                .execution_options(synchronize_session=False)
            )
            if taken.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(USED)  # opened twice at once: the other opening took it
            self.store.notify_others(session, match_id)
        self.store.reload_seats(match_id)
        self.store.on_change(match_id)  # open pages show the seat taken
        log.info("match=%s seat=%s invitation taken", match_id, seat)
        return Accepted(match_id, seat, secret)

    def reissue_invite(self, match_id: str, seat: Seat, user_id: int | None) -> str:
        """A new invitation link for a seat given by invitation, by the match's creator:
        the old link stops working and whoever took it loses the seat, which is an open
        invitation again. Returns the new link's token."""
        if user_id is None:
            raise Unauthorized("log in as the match's creator to issue a new invitation")
        token = new_token()
        with self.store.sessions.begin() as session:
            match = session.get(Match, match_id)
            if match is None:
                raise NotFound(f"no match {match_id!r}")
            if match.created_by != user_id:
                raise Forbidden("only the match's creator may issue a new invitation")
            if match.status == "over":
                raise Conflict("the match is over")
            row = session.get(MatchSeat, (match_id, seat))
            if row is None:
                raise NotFound(f"match {match_id} has no seat {seat!r}")
            if row.kind != "invite" and row.token_hash is None:
                raise Conflict(f"seat {seat} was not given by invitation")
            row.kind, row.user_id, row.guest = "invite", None, False
            row.token_hash, row.secret_hash = digest_token(token), None
            self.store.notify_others(session, match_id)
        self.store.reload_seats(match_id)
        log.info("match=%s seat=%s new invitation", match_id, seat)
        self.store.on_change(match_id)
        return token

    def open_matches(self, game: str | None = None, limit: int = 50) -> list[OpenMatch]:
        """Matches in progress with an open seat (of ``game``, a slug, if given),
        newest first: at most ``limit`` matches, each with its open seats in order."""
        if game is not None and game not in {g.info.slug for g in games()}:
            raise BadRequest(f"game: no game {game!r}")
        query = (
            select(Match.id, Match.game, Match.created_at, MatchSeat.seat)
            .join(MatchSeat, MatchSeat.match_id == Match.id)
            .where(Match.status == "running", MatchSeat.kind == "open")
            .order_by(Match.created_at.desc(), Match.id)
            .limit(limit * 10)
        )
        if game is not None:
            query = query.where(Match.game == game)
        found: dict[str, OpenMatch] = {}
        with self.store.sessions() as session:
            for match_id, slug, created_at, seat in session.execute(query):
                if match_id not in found and len(found) == limit:
                    break
                found.setdefault(match_id, OpenMatch(match_id, slug, [], created_at))
                found[match_id].seats.append(seat)
        for row in found.values():
            row.seats.sort(key=lambda seat: (len(seat), seat))
        return list(found.values())

    def creator(self, match_id: str) -> int | None:
        """The account that created the match (None: created without one)."""
        with self.store.sessions() as session:
            return session.scalar(select(Match.created_by).where(Match.id == match_id))


def _holder(row: MatchSeat, user_id: int | None, hashes: set[str]) -> bool:
    """Whether an account, or a guest with one of the seat secret digests, holds ``row``."""
    if user_id is not None and row.kind == "user" and row.user_id == user_id:
        return True
    return row.kind == "invite" and row.secret_hash is not None and row.secret_hash in hashes

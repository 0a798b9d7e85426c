"""A rematch: the same game, options and settings as a finished match, its seats
rotated (seat 1's holder takes seat 2, and so on; the last takes seat 1). Seats the
server runs stay where they are; every other seat moves, whoever holds it:

- an account keeps its place in the rotation bound to it: the new match is in its
  turns and lobby at once, nothing to accept (it may resign);
- a bot keeps its kind; a seat nobody took stays open;
- a guest's seat (taken through an invitation) is a new invitation, whose link the
  one who asked for the rematch is given to pass on.

One rematch per match, whoever asks first: its id is derived from the match's, so
that two asking at once (in any process) reach the same new match.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from gladiatorium.core import Seat
from gladiatorium.server.creation import Created
from gladiatorium.server.db import Match, MatchSeat
from gladiatorium.server.errors import Conflict, Forbidden, NotFound, Unauthorized
from gladiatorium.server.mail_notices import Notices
from gladiatorium.server.service import MatchService


@dataclass(frozen=True)
class Rematch:
    id: str
    #: seat -> invitation token, for guests' seats (empty when the rematch existed)
    invites: dict[Seat, str]
    #: False: someone asked first, and this is their rematch
    new: bool


def rematch_id(match_id: str) -> str:
    """The id of ``match_id``'s rematch (match ids are public: so is this one)."""
    digest = hashlib.sha256(f"rematch {match_id}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:9]).decode()


def existing_rematch(service: MatchService, match_id: str) -> str | None:
    """The rematch of ``match_id``, if someone asked for it."""
    wanted = rematch_id(match_id)
    with service.store.sessions() as session:
        return session.scalar(select(Match.id).where(Match.id == wanted))


def rotated(order: Sequence[Seat], fixed: set[Seat]) -> dict[Seat, Seat]:
    """Old seat -> new seat: each seat not ``fixed`` moves on to the next one not fixed."""
    moving = [s for s in order if s not in fixed]
    moves = {s: s for s in fixed}
    for index, seat in enumerate(moving):
        moves[seat] = moving[(index + 1) % len(moving)]
    return moves


def offer_rematch(
    service: MatchService, match_id: str, user_id: int | None, notices: Notices | None = None
) -> Rematch:
    """The rematch of a finished match, asked for by an account that held a seat in it;
    each other person given a seat in it is told by mail when they chose so
    (``notices``: the server's mail notices, None when it sends no mail)."""
    if user_id is None:
        raise Unauthorized("log in to ask for a rematch")
    with service.store.sessions() as session:
        match = session.get(Match, match_id)
        if match is None:
            raise NotFound(f"no match {match_id!r}")
        rows = list(session.scalars(select(MatchSeat).where(MatchSeat.match_id == match_id)))
    if match.status != "over":
        raise Conflict("a rematch is for a finished match; this one is still being played")
    if not any(r.kind == "user" and r.user_id == user_id for r in rows):
        raise Forbidden("only a player of this match may ask for a rematch")
    new_id = rematch_id(match_id)
    if existing_rematch(service, match_id) is not None:
        return Rematch(new_id, {}, False)
    order = service.store.live(match_id).state.seats
    seats, people = _new_seats(order, {r.seat: r for r in rows}, user_id)
    try:
        created: Created = service.creation.create(
            user_id,
            match.game,
            match.players,
            match.options,
            seats,
            match.settings,
            people=people,
            match_id=new_id,
        )
    except IntegrityError:
        return Rematch(new_id, {}, False)  # asked for at the same moment elsewhere
    if notices is not None:
        live = service.store.live(created.id)
        for seat, person in people.items():
            notices.invited(live, seat, person)
    return Rematch(created.id, created.invites, True)


def _new_seats(
    order: Sequence[Seat], rows: dict[Seat, MatchSeat], user_id: int
) -> tuple[dict[Seat, str], dict[Seat, int]]:
    """The new match's seat kinds and the seats bound to accounts."""
    moves = rotated(order, {s for s, r in rows.items() if r.kind == "server"})
    seats: dict[Seat, str] = {}
    people: dict[Seat, int] = {}
    for old, row in rows.items():
        new = moves[old]
        if row.kind == "user" and row.user_id is not None:
            seats[new] = "me" if row.user_id == user_id else "open"
            if row.user_id != user_id:
                people[new] = row.user_id
        elif row.kind == "bot":
            seats[new] = f"bot:{row.bot}"
        elif row.kind == "invite":
            seats[new] = "invite"
        else:
            seats[new] = row.kind  # open, server
    return seats, people

"""Whose turn it is, per person: the seats a match waits on, kept as rows
(``awaited_seats``: match, seat and since when), written in the transaction of every
step and of a new match, so that a person's turns are one indexed query and not a
rebuild of each of their matches.

A seat is awaited here when the match waits on its decision (``State.deciding()``): a
Hero Battle player who moved and may still edit until the round closes is not. A row
says only which seat of which match and since when: nothing a seat may not know (the
list is only ever given to whoever holds the seat).

:func:`awaited_turns` is what the lobby, ``GET /api/me/turns``, the person's socket
(``/ws/me``) and the mail of "your turn" ask.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import ForeignKey, String, Table, bindparam, delete, func, insert, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from gladiatorium.core import Seat
from gladiatorium.server.db import Base, Deadline, Match, MatchSeat, UtcDateTime, utcnow


class AwaitedSeat(Base):
    """A seat a match in progress waits on, since ``since``."""

    __tablename__ = "awaited_seats"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[str] = mapped_column(String(20), primary_key=True)
    since: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


_TABLE = cast(Table, AwaitedSeat.__table__)
#: the seats the table holds for one match
_HELD = select(_TABLE.c.seat).where(_TABLE.c.match_id == bindparam("m"))
#: one seat of one match, each statement run once per seat (executemany): built once and
#: compiled once, where an expanding ``IN`` list was compiled again at every action
_SEAT = (_TABLE.c.match_id == bindparam("m"), _TABLE.c.seat == bindparam("s"))
_GONE = delete(_TABLE).where(*_SEAT)
_ANEW = update(_TABLE).where(*_SEAT).values(since=bindparam("since"))
_FRESH = insert(_TABLE)


@dataclass(frozen=True)
class Turn:
    """A seat of mine that a match in progress waits on."""

    match: str
    #: the game's slug
    game: str
    seat: Seat
    #: when the match began to wait on this seat
    since: datetime
    #: the match's next pending deadline (a round's or a move clock's), if any
    deadline: datetime | None

    def to_json(self) -> dict[str, Any]:
        return {
            "match": self.match,
            "game": self.game,
            "seat": self.seat,
            "since": self.since.isoformat(),
            "deadline": None if self.deadline is None else self.deadline.isoformat(),
        }


@dataclass(frozen=True)
class TurnChanges:
    """What a step changes in the table for one match: the seats awaited now, and the
    rows to delete (no longer awaited), to stamp anew (awaited still, and acted) and to
    add (newly awaited), each sorted."""

    now: frozenset[Seat]
    gone: list[Seat]
    anew: list[Seat]
    fresh: list[Seat]


def turn_changes(
    kept: Collection[Seat], awaited: Iterable[Seat], acted: Collection[Seat] = ()
) -> TurnChanges:
    """The changes from ``kept`` (what the table holds) to ``awaited``: a seat still
    awaited keeps its ``since`` unless it ``acted`` (it is awaited anew, from now)."""
    now, held = frozenset(awaited), set(kept)
    return TurnChanges(now, sorted(held - now), sorted(held & now & set(acted)), sorted(now - held))


def held_turns(session: Session, match_id: str) -> set[Seat]:
    """The seats the table holds for ``match_id``."""
    return set(session.connection().execute(_HELD, {"m": match_id}).scalars())


def record_turns(
    session: Session,
    match_id: str,
    awaited: Iterable[Seat],
    acted: Collection[Seat] = (),
    before: Collection[Seat] | None = None,
) -> frozenset[Seat]:
    """Inside the transaction of a step (or of a new match): the match now waits on
    ``awaited`` (nothing once over), as :func:`turn_changes` says. ``before`` is what
    the table holds for the match, when the caller knows it (it wrote it at the
    previous ply); otherwise it is read. Returns what the table holds now."""
    session.flush()  # the match's own rows first (a new match's)
    connection = session.connection()
    changes = turn_changes(
        held_turns(session, match_id) if before is None else before, awaited, acted
    )
    if changes.gone:
        connection.execute(_GONE, [{"m": match_id, "s": s} for s in changes.gone])
    moment = utcnow()
    if changes.anew:
        connection.execute(_ANEW, [{"m": match_id, "s": s, "since": moment} for s in changes.anew])
    if changes.fresh:
        connection.execute(
            _FRESH, [{"match_id": match_id, "seat": s, "since": moment} for s in changes.fresh]
        )
    return changes.now


def awaited_turns(sessions: sessionmaker[Session], user_id: int) -> list[Turn]:
    """Every seat the account ``user_id`` holds that a match in progress waits on,
    oldest first (then by match and seat), each with the match's next pending deadline."""
    due = (
        select(Deadline.match_id, func.min(Deadline.due_at).label("due"))
        .where(Deadline.fired.is_(False))
        .group_by(Deadline.match_id)
        .subquery()
    )
    query = (
        select(AwaitedSeat.match_id, Match.game, AwaitedSeat.seat, AwaitedSeat.since, due.c.due)
        .join(
            MatchSeat,
            (MatchSeat.match_id == AwaitedSeat.match_id) & (MatchSeat.seat == AwaitedSeat.seat),
        )
        .join(Match, Match.id == AwaitedSeat.match_id)
        .outerjoin(due, due.c.match_id == AwaitedSeat.match_id)
        .where(MatchSeat.user_id == user_id, MatchSeat.kind == "user", Match.status == "running")
        .order_by(AwaitedSeat.since, AwaitedSeat.match_id, AwaitedSeat.seat)
    )
    with sessions() as session:
        rows = session.execute(query).all()
    return [
        Turn(match, game, seat, since, _utc(deadline))
        for match, game, seat, since, deadline in rows
    ]


def holds_any(sessions: sessionmaker[Session], user_id: int, match_ids: Collection[str]) -> bool:
    """Whether the account holds a seat in one of ``match_ids`` (a change there may
    change its turns)."""
    if not match_ids:
        return False
    with sessions() as session:
        found = session.scalar(
            select(MatchSeat.match_id)
            .where(
                MatchSeat.user_id == user_id,
                MatchSeat.kind == "user",
                MatchSeat.match_id.in_(sorted(match_ids)),
            )
            .limit(1)
        )
    return found is not None


def _utc(value: Any) -> datetime | None:
    """A deadline read through an aggregate (SQLite gives it naive, or as text)."""
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return UtcDateTime().process_result_value(value.replace(tzinfo=None), None)

"""A step's rows: its actions appended to ``match_actions``, its match moved on and its
turns written (``server/turns.py``), inside the transaction ``MatchStore.commit`` gives
the writer (``server/writer.py``). On SQLite one statement each; on PostgreSQL one
statement for all of it (:func:`_one_statement`), and the other server processes told
by it (LISTEN/NOTIFY, ``server/hub.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import (
    Integer,
    String,
    Table,
    Text,
    any_,
    bindparam,
    delete,
    func,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from gladiatorium.core import Action, Seat
from gladiatorium.server.db import Match, MatchAction, UtcDateTime, utcnow
from gladiatorium.server.errors import Conflict
from gladiatorium.server.hub import CHANNEL, STEP, notice
from gladiatorium.server.turns import AwaitedSeat, held_turns, record_turns, turn_changes

if TYPE_CHECKING:
    from gladiatorium.server.store import Live

_MATCHES = cast(Table, Match.__table__)
#: a step's statements, built once: its actions appended, the match moved on
_APPEND = insert(cast(Table, MatchAction.__table__))
_PROGRESS = (
    update(_MATCHES)
    .where(_MATCHES.c.id == bindparam("match"), _MATCHES.c.status != "over")
    .values(
        ply=bindparam("new_ply"),
        digest=bindparam("new_digest"),
        status=bindparam("new_status"),
        outcome=bindparam("new_outcome"),
    )
)


def _one_statement() -> Any:
    """On PostgreSQL, the usual work of a step as one statement (one round trip to the
    database where there were three to five): its actions appended (``seats`` and
    ``actions``, from ``first_ply`` on); the match moved on (:data:`_PROGRESS`) and the
    other processes told by its ``RETURNING`` (NOTIFY is delivered at commit wherever
    the transaction sent it); the table of turns brought up to date (``gone``,
    ``anew``, ``fresh``: :func:`turns.turn_changes`). Returns how many matches moved
    on (0: another process ended it). The match's update waits for the count of the
    actions appended, and the turns' statements, which no query reads, run after the
    main one: rows are locked in the order of every step (actions, the match, turns)."""
    actions, turns = cast(Table, MatchAction.__table__), cast(Table, AwaitedSeat.__table__)
    match, at = bindparam("match", type_=String), bindparam("at", type_=UtcDateTime())
    rows = (
        func.unnest(
            bindparam("seats", type_=ARRAY(String)), bindparam("actions", type_=ARRAY(Text))
        )
        .table_valued("seat", "action", with_ordinality="n")
        .render_derived()
    )
    first_ply = bindparam("first_ply", type_=Integer)
    appended = (
        insert(actions)
        .from_select(
            ["match_id", "ply", "seat", "action", "created_at"],
            select(match, first_ply + rows.c.n - 1, rows.c.seat, rows.c.action, at),
        )
        .returning(actions.c.ply)
        .cte("appended")
    )
    count = select(func.count()).select_from(appended).scalar_subquery()
    progressed = (
        _PROGRESS.where(count == bindparam("count", type_=Integer))
        .returning(func.pg_notify(literal(CHANNEL), bindparam("notice")))
        .cte("progressed")
    )

    def listed(name: str) -> Any:
        return turns.c.seat == any_(bindparam(name, type_=ARRAY(String)))

    gone = delete(turns).where(turns.c.match_id == match, listed("gone")).cte("gone")
    anew = update(turns).where(turns.c.match_id == match, listed("anew")).values(since=at)
    fresh = insert(turns).from_select(
        ["match_id", "seat", "since"],
        select(match, func.unnest(bindparam("fresh", type_=ARRAY(String))), at),
    )
    return (
        select(func.count())
        .select_from(progressed)
        .add_cte(gone, anew.cte("anew"), fresh.cte("fresh"))
    )


#: :func:`_one_statement`, built once
_STEP = _one_statement()


def append(
    session: Session,
    live: Live,
    steps: list[tuple[Seat, Action]],
    first_ply: int,
    acted: set[Seat],
    before: frozenset[Seat] | None,
    postgres: bool,
) -> frozenset[Seat]:
    """``steps`` (already applied to ``live``, from ``first_ply`` on) appended, the match
    moved on (on PostgreSQL the other processes told) and its turns written: ``before``
    is what the table of turns holds for the match where the caller knows it. Returns
    the seats awaited now. Raises :class:`Conflict` when another process ended the match
    (a clock ran out) after this copy looked: the transaction rolls back."""
    progress = {
        "match": live.id,
        "new_ply": live.ply,
        "new_digest": live.digest(),
        "new_status": "over" if live.over else "running",
        "new_outcome": live.outcome(),
    }
    seats, actions = [seat for seat, _ in steps], [str(action) for _, action in steps]
    connection = session.connection()
    if not postgres:
        appended = [
            {"match_id": live.id, "ply": first_ply + n, "seat": seat, "action": action}
            for n, (seat, action) in enumerate(zip(seats, actions, strict=True))
        ]
        connection.execute(_APPEND, appended)
        moved_on(connection.execute(_PROGRESS, progress).rowcount)
        return record_turns(session, live.id, live.deciding(), acted, before)
    held = held_turns(session, live.id) if before is None else before
    turns = turn_changes(held, live.deciding(), acted)
    written = {
        "notice": notice(live.id, STEP),
        "first_ply": first_ply,
        "seats": seats,
        "actions": actions,
        "count": len(steps),
        "at": utcnow(),
        "gone": turns.gone,
        "anew": turns.anew,
        "fresh": turns.fresh,
    }
    moved_on(connection.execute(_STEP, progress | written).scalar_one())
    return turns.now


def moved_on(count: int) -> None:
    """Check that the match moved on (``count`` rows: 0 when it was over already)."""
    if count != 1:
        raise Conflict("the match is over; no more actions")

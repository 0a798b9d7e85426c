"""Snapshots of long matches: every :data:`SNAPSHOT_EVERY` plies the whole state is kept
(pickled and compressed, server-side only), so that a match coming back to memory
replays only the actions after the newest snapshot instead of the whole record. The
record stays the truth: a snapshot of another game version, or one that does not read,
is passed over, and the rebuilt event log is still checked against the stored digest."""

from __future__ import annotations

import logging
import pickle
import zlib
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

from gladiatorium.core import State
from gladiatorium.server.config import SNAPSHOT_EVERY
from gladiatorium.server.db import MatchSnapshot

log = logging.getLogger("gladiatorium.match")

__all__ = ["SNAPSHOT_EVERY", "due", "newest", "write"]
#: snapshots kept per match: the newest ones (a rebuild reads only the newest)
SNAPSHOTS_KEPT = 2


def due(before: int, after: int, every: int) -> bool:
    """Whether a step from ply ``before`` to ``after`` passed a multiple of ``every``."""
    return every > 0 and after // every > before // every


def write(
    sessions: sessionmaker[Session],
    match_id: str,
    version: str,
    state: State[Any],
    marks: list[int],
) -> None:
    """Keep ``state`` as the match's snapshot at its ply, with ``marks`` (the event log's
    length after each ply, which the socket's deltas need), in its own transaction, after
    the step's: a snapshot that fails to be written costs a longer rebuild, nothing
    more; and let older ones go."""
    ply = len(state.history)
    whole = (state, list(marks[: ply + 1]))
    blob = zlib.compress(pickle.dumps(whole, protocol=pickle.HIGHEST_PROTOCOL), 1)
    try:
        with sessions.begin() as session:
            session.merge(MatchSnapshot(match_id=match_id, ply=ply, version=version, state=blob))
            kept = session.scalars(
                select(MatchSnapshot.ply)
                .where(MatchSnapshot.match_id == match_id)
                .order_by(MatchSnapshot.ply.desc())
                .offset(SNAPSHOTS_KEPT)
            ).all()
            if kept:
                session.execute(
                    delete(MatchSnapshot).where(
                        MatchSnapshot.match_id == match_id, MatchSnapshot.ply.in_(kept)
                    )
                )
    except Exception:  # a cache: the match goes on without it
        log.exception("match=%s snapshot at ply %d not kept", match_id, ply)
        return
    log.info("match=%s snapshot at ply %d (%d bytes)", match_id, ply, len(blob))


def newest(
    session: Session, match_id: str, version: str, ply: int
) -> tuple[int, State[Any], list[int]] | None:
    """The newest snapshot of the match at or before ``ply`` written by this game
    ``version`` that reads: (its ply, the state, its marks), or None."""
    rows = session.scalars(
        select(MatchSnapshot)
        .where(
            MatchSnapshot.match_id == match_id,
            MatchSnapshot.version == version,
            MatchSnapshot.ply <= ply,
        )
        .order_by(MatchSnapshot.ply.desc())
    )
    for row in rows:
        try:
            state, marks = pickle.loads(zlib.decompress(row.state))  # the server wrote it
        except Exception:
            log.warning("match=%s snapshot at ply %d does not read; passed over", match_id, row.ply)
            continue
        if isinstance(state, State) and len(state.history) == row.ply == len(marks) - 1:
            return row.ply, state, list(marks)
        log.warning("match=%s snapshot at ply %d is not that ply; passed over", match_id, row.ply)
    return None

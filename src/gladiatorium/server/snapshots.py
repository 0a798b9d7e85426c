"""Snapshots of long matches: every :data:`SNAPSHOT_EVERY` plies the whole state is kept
(pickled and compressed, server-side only), so that a match coming back to memory
replays only the actions after the newest snapshot instead of the whole record. The
record stays the truth: a snapshot of another game version, or one that does not read,
is passed over, and the rebuilt event log is still checked against the stored digest.

A match being played keeps its two newest snapshots. A finished match gets more on its
first replay (``server/replay_steps.py``): the one pass over its record that the replay
needs anyway keeps the state every few hundred plies (:func:`replay_spacing`, at most
:data:`REPLAY_SNAPSHOTS` of them), so that any step of any seat's replay is a snapshot
plus fewer actions than that spacing. A finished match never changes, so they never go
stale; they leave with the match."""

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

__all__ = ["SNAPSHOT_EVERY", "due", "keep", "newest", "pack", "plies", "replay_spacing", "write"]
#: snapshots kept per match being played: the newest ones (a rebuild reads only the newest)
SNAPSHOTS_KEPT = 2
#: most snapshots a finished match's replay keeps (a longer match has them further apart)
REPLAY_SNAPSHOTS = 50


def replay_spacing(every: int, plies: int) -> int:
    """Plies between two of a finished match's replay snapshots: ``every``, or a multiple
    of it for a match so long that :data:`REPLAY_SNAPSHOTS` would not cover it (0: none)."""
    if every <= 0:
        return 0
    return every * max(1, -(-plies // (every * REPLAY_SNAPSHOTS)))


def pack(state: State[Any], marks: list[int]) -> bytes:
    """``state`` and ``marks`` (the event log's length after each ply) as a snapshot."""
    whole = (state, list(marks[: len(state.history) + 1]))
    return zlib.compress(pickle.dumps(whole, protocol=pickle.HIGHEST_PROTOCOL), 1)


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
    blob = pack(state, marks)
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


def plies(session: Session, match_id: str, version: str) -> set[int]:
    """The plies of the match's snapshots written by this game ``version``."""
    return set(
        session.scalars(
            select(MatchSnapshot.ply).where(
                MatchSnapshot.match_id == match_id, MatchSnapshot.version == version
            )
        )
    )


def keep(
    sessions: sessionmaker[Session], match_id: str, version: str, blobs: dict[int, bytes]
) -> None:
    """Keep the packed snapshots ``blobs`` (by ply) of a finished match beside those it
    has, in one transaction of their own (failing costs slower replays, nothing more:
    another process may have kept the same ones first)."""
    if not blobs:
        return
    try:
        with sessions.begin() as session:
            have = plies(session, match_id, version)
            session.add_all(
                MatchSnapshot(match_id=match_id, ply=ply, version=version, state=blob)
                for ply, blob in sorted(blobs.items())
                if ply not in have
            )
    except Exception:  # a cache: the replay goes on without them
        log.warning("match=%s replay snapshots not kept", match_id, exc_info=True)
        return
    size = sum(len(b) for b in blobs.values())
    log.info("match=%s %d replay snapshots kept (%d bytes)", match_id, len(blobs), size)


def newest(
    session: Session, match_id: str, version: str, ply: int
) -> tuple[int, State[Any], list[int]] | None:
    """The newest snapshot of the match at or before ``ply`` written by this game
    ``version`` that reads: (its ply, the state, its marks), or None. Only the one read
    is fetched (a finished match may have dozens)."""
    found = sorted((p for p in plies(session, match_id, version) if p <= ply), reverse=True)
    for at in found:
        row = session.get(MatchSnapshot, (match_id, at))
        if row is None:  # gone meanwhile (a newer one was written)
            continue
        try:
            state, marks = pickle.loads(zlib.decompress(row.state))  # the server wrote it
        except Exception:
            log.warning("match=%s snapshot at ply %d does not read; passed over", match_id, row.ply)
            continue
        if isinstance(state, State) and len(state.history) == row.ply == len(marks) - 1:
            return row.ply, state, list(marks)
        log.warning("match=%s snapshot at ply %d is not that ply; passed over", match_id, row.ply)
    return None

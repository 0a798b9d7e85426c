"""Heroes' gauntlets: a queue that is a table (``gauntlets``), claimed in the database
so that each job runs to its end exactly once across processes and restarts.

- :func:`enqueue_gauntlet` adds a job per hero reference (idempotent: a reference
  queued already gives its job back).
- A runner (server/gauntlet_runner.py) claims a job with one conditional ``UPDATE``
  (queued, or running under a claim whose heartbeat went stale): of several
  processes exactly one matches. It keeps the claim alive with a heartbeat, writes
  the marks of each chunk of games it played under its claim (the ``UPDATE`` names the
  claim and the games done before, so a process that lost its claim writes nothing),
  and stores the results with the job's end in one transaction, under its claim again.
- A process killed on the way leaves its claim to go stale; the next claimant goes on
  from the last chunk written, and the games of the chunk in flight are played again
  from the same seeds: the same marks. A finished job matches no claim again.

The game's part (the field, the summary, the badge) is the registry's gauntlet
maker: the server names no game module.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, and_, exists, literal, not_, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, sessionmaker

from gladiatorium.core import GladiatoriumError
from gladiatorium.core.gauntlet import LOST, WON, Gauntlet, GauntletSize, parse_games
from gladiatorium.core.registry import gauntlet_maker
from gladiatorium.games import load
from gladiatorium.server.config import Settings
from gladiatorium.server.db import GauntletJob, HallItem, utcnow
from gladiatorium.server.ratings import MODEL, ordinal, shown

#: the game whose heroes are weighed (the hall's heroes)
HERO_GAME = "superhero-gladiators"
#: claims of one job before it is given up (each ended with its process's death)
MAX_ATTEMPTS = 5
#: candidates looked at per claim
CANDIDATES = 5
STATES = ("queued", "running", "done", "failed")
#: the longest hero reference
MAX_REF = 200


class GauntletRefused(GladiatoriumError):
    """A gauntlet that cannot be queued: a hero that breaks a rule, a reference taken."""


def size_of(settings: Settings) -> GauntletSize:
    """A new gauntlet's size from the settings ``gauntlet_games`` and ``gauntlet_maps``."""
    games = parse_games(settings.gauntlet_games, "GLADIATORIUM_GAUNTLET_GAMES")
    maps = tuple(m.strip() for m in settings.gauntlet_maps.split(",") if m.strip())
    return GauntletSize(games, maps)


def plan(game: str, hero_yaml: str, seed: int, size: GauntletSize) -> Gauntlet:
    """The gauntlet planned by the game's own maker (found through the registry)."""
    load()
    return gauntlet_maker(game)(hero_yaml, seed, size)


def enqueue_gauntlet(
    session: Session,
    hero_ref: str,
    hero_yaml: str,
    seed: int = 0,
    size: GauntletSize | None = None,
    game: str = HERO_GAME,
) -> GauntletJob:
    """Queue the gauntlet of the hero ``hero_ref`` (its file's text ``hero_yaml``) in the
    caller's transaction, or give back the job queued for that reference already. A
    hero that breaks a rule, or a reference queued with another hero, is refused
    (GauntletRefused naming it); nothing is written then."""
    if not hero_ref or len(hero_ref) > MAX_REF:
        raise GauntletRefused(f"hero_ref {hero_ref[:40]!r}: give 1 to {MAX_REF} characters")
    if not 0 <= seed < 2**63:
        raise GauntletRefused(f"gauntlet of {hero_ref}: seed {seed} is not in 0 to 2^63 - 1")
    found = session.scalar(select(GauntletJob).where(GauntletJob.hero_ref == hero_ref))
    if found is None:
        size = size or size_of(Settings())
        try:
            planned = plan(game, hero_yaml, seed, size)
        except GladiatoriumError as err:
            raise GauntletRefused(f"gauntlet of {hero_ref}: {err}") from err
        row = {
            "hero_ref": hero_ref,
            "game": game,
            "hero_yaml": hero_yaml,
            "hero_name": planned.name[:80],
            "seed": seed,
            "size": size.to_json(),
            "state": "queued",
            "done": 0,
            "total": len(planned.jobs()),
            "marks": "",
            "attempts": 0,
            "created_at": utcnow(),
            "command": planned.command(),
        }
        dialect = session.get_bind().dialect.name
        insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        session.execute(insert(GauntletJob).values(row).on_conflict_do_nothing())
        found = session.scalar(select(GauntletJob).where(GauntletJob.hero_ref == hero_ref))
    assert found is not None
    if found.hero_yaml != hero_yaml:
        raise GauntletRefused(f"gauntlet of {hero_ref}: queued already with another hero file")
    return found


# ----- claims ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Claimed:
    """A job this process holds: what it needs to run it, and the marks so far."""

    id: int
    claim: str
    hero_ref: str
    game: str
    hero_yaml: str
    seed: int
    size: GauntletSize
    marks: str
    attempts: int


def new_claim() -> str:
    """A claim token naming the host and process (for the operator) and unique."""
    return f"{socket.gethostname()[:30]}:{os.getpid()}:{secrets.token_hex(6)}"


def _claimable(stale: timedelta) -> Any:
    """Queued, or running under a claim whose heartbeat is older than ``stale``."""
    return or_(
        GauntletJob.state == "queued",
        and_(GauntletJob.state == "running", GauntletJob.heartbeat_at < utcnow() - stale),
    )


def claim_next(sessions: sessionmaker[Session], claim: str, stale: timedelta) -> Claimed | None:
    """Claim the oldest claimable job for ``claim``; None when there is none. A job
    claimed :data:`MAX_ATTEMPTS` times already is marked failed instead."""
    with sessions() as session:
        ids = session.scalars(
            select(GauntletJob.id)
            .where(_claimable(stale))
            .order_by(GauntletJob.id)
            .limit(CANDIDATES)
        ).all()
    for job_id in ids:
        with sessions.begin() as session:
            now = utcnow()
            taken = one_row(
                session,
                update(GauntletJob)
                .where(GauntletJob.id == job_id, _claimable(stale))
                .values(
                    state="running",
                    claim=claim,
                    claimed_at=now,
                    heartbeat_at=now,
                    attempts=GauntletJob.attempts + 1,
                ),
            )
            if not taken:
                continue  # another process claimed it first
            row = session.get(GauntletJob, job_id, populate_existing=True)
            assert row is not None
            if row.attempts > MAX_ATTEMPTS:
                row.state, row.claim = "failed", None
                row.error = f"stopped {MAX_ATTEMPTS} times without finishing"
                row.finished_at = now
                continue
            return Claimed(
                row.id,
                claim,
                row.hero_ref,
                row.game,
                row.hero_yaml,
                int(row.seed),
                GauntletSize.from_json(row.size),
                row.marks,
                row.attempts,
            )
    return None


def one_row(session: Session, statement: Any) -> bool:
    """Run an ``UPDATE``; whether it changed exactly one row."""
    result = cast(CursorResult[Any], session.execute(statement))
    return result.rowcount == 1


def _held(job: Claimed) -> Any:
    return and_(
        GauntletJob.id == job.id, GauntletJob.claim == job.claim, GauntletJob.state == "running"
    )


def heartbeat(sessions: sessionmaker[Session], job: Claimed) -> bool:
    """Say that the claimant lives; False when the claim is lost."""
    with sessions.begin() as session:
        return one_row(session, update(GauntletJob).where(_held(job)).values(heartbeat_at=utcnow()))


def record_chunk(sessions: sessionmaker[Session], job: Claimed, before: str, marks: str) -> bool:
    """Write the marks after a chunk (``before``: those written already) under the
    claim; False, writing nothing, when the claim is lost."""
    with sessions.begin() as session:
        return one_row(
            session,
            update(GauntletJob)
            .where(_held(job), GauntletJob.done == len(before))
            .values(marks=marks, done=len(marks), heartbeat_at=utcnow()),
        )


def finish(
    sessions: sessionmaker[Session],
    job: Claimed,
    marks: str,
    results: dict[str, Any],
    rated: Callable[[Session, str, float], None] | None = None,
) -> bool:
    """Store the results, the rating and the end, in one transaction under the claim,
    with what ``rated`` writes of the rating (the hall's sort); False, storing nothing,
    when the claim is lost."""
    mu, sigma = rate_marks(marks)
    with sessions.begin() as session:
        stored = one_row(
            session,
            update(GauntletJob)
            .where(_held(job))
            .values(
                state="done",
                marks=marks,
                done=len(marks),
                results=results,
                mu=mu,
                sigma=sigma,
                claim=None,
                finished_at=utcnow(),
            ),
        )
        if stored and rated is not None:
            rated(session, job.hero_ref, ordinal(mu, sigma))
        return stored


def give_up(sessions: sessionmaker[Session], job: Claimed, error: str) -> bool:
    """Mark the job failed for good (its hero no longer plans, say), under the claim."""
    with sessions.begin() as session:
        return one_row(
            session,
            update(GauntletJob)
            .where(_held(job))
            .values(state="failed", error=error[:300], claim=None, finished_at=utcnow()),
        )


# ----- the ladder ------------------------------------------------------------------------
def rate_marks(marks: str) -> tuple[float, float]:
    """The hero's OpenSkill rating (the people's model, server/ratings.py) after its
    games in order, each against a sample held at the model's starting rating: the
    samples are fixed opponents, so a hero's rating owes nothing to other heroes."""
    hero = MODEL.rating()
    for mark in marks:
        foe = MODEL.rating()
        ranks = [1.0, 2.0] if mark == WON else [2.0, 1.0] if mark == LOST else [1.0, 1.0]
        [hero], _ = MODEL.rate([[hero], [foe]], ranks=ranks)
    return float(hero.mu), float(hero.sigma)


def _of_hidden_item() -> Any:
    """Whether a gauntlet weighed a version of a hall item the operators hid (a slug
    holds only letters, digits and dashes: nothing LIKE reads as a wildcard)."""
    return exists().where(
        HallItem.hidden.is_(True),
        GauntletJob.hero_ref.like(literal("hall:") + HallItem.slug + literal("@%")),
    )


def hidden_ref(session: Session, hero_ref: str) -> bool:
    """Whether ``hero_ref`` is a version of a hidden hall item (its gauntlet is then
    shown to nobody but on the item's own page, to its author and the operators)."""
    return bool(
        session.scalar(
            select(GauntletJob.id).where(GauntletJob.hero_ref == hero_ref, _of_hidden_item())
        )
    )


def _ranking(session: Session) -> list[tuple[float, int]]:
    """(-conservative rating, id) of every finished gauntlet, best first; the heroes
    of hidden hall items are left out."""
    rows = session.execute(
        select(GauntletJob.id, GauntletJob.mu, GauntletJob.sigma).where(
            GauntletJob.state == "done", GauntletJob.mu.is_not(None), not_(_of_hidden_item())
        )
    ).all()
    return sorted(
        (-ordinal(mu, sigma), job_id)
        for job_id, mu, sigma in rows
        if mu is not None and sigma is not None
    )


def hero_ladder(session: Session, limit: int = 500) -> list[dict[str, Any]]:
    """Every finished gauntlet's hero, best first by the conservative rating
    (``mu - 3 sigma``), then by the order they were queued."""
    ids = [job_id for _, job_id in _ranking(session)[:limit]]
    rows = {
        row.id: row for row in session.scalars(select(GauntletJob).where(GauntletJob.id.in_(ids)))
    }
    return [ladder_entry(rows[job_id], place) for place, job_id in enumerate(ids, start=1)]


def ladder_entry(row: GauntletJob, place: int) -> dict[str, Any]:
    results = row.results or {}
    assert row.mu is not None and row.sigma is not None
    return {
        "place": place,
        "hero_ref": row.hero_ref,
        "hero": row.hero_name,
        "points": results.get("points"),
        **shown(row.mu, row.sigma, row.done),
        "win_rate": (results.get("overall") or {}).get("win_rate"),
        "badge": (results.get("badge") or {}).get("verdict"),
    }


def ladder_place(session: Session, row: GauntletJob) -> int | None:
    """The hero's place on the ladder (1 the best), None before its gauntlet is done."""
    if row.state != "done" or row.mu is None:
        return None
    ids = [job_id for _, job_id in _ranking(session)]
    return ids.index(row.id) + 1 if row.id in ids else None


def gauntlet_view(session: Session, hero_ref: str) -> dict[str, Any] | None:
    """A gauntlet as the API and the panel show it; None when there is none."""
    row = session.scalar(select(GauntletJob).where(GauntletJob.hero_ref == hero_ref))
    if row is None:
        return None
    results = row.results
    return {
        "hero_ref": row.hero_ref,
        "hero": row.hero_name,
        "game": row.game,
        "state": row.state,
        "progress": {"done": row.done, "total": row.total},
        "seed": row.seed,
        "size": row.size,
        "command": row.command,
        "file_name": _file_name(row.command),
        "results": results,
        "badge": None if results is None else results.get("badge"),
        "rating": None
        if row.mu is None or row.sigma is None
        else shown(row.mu, row.sigma, row.done),
        "ladder_place": ladder_place(session, row),
        "error": row.error,
        "created_at": row.created_at.isoformat(),
        "finished_at": None if row.finished_at is None else row.finished_at.isoformat(),
    }


def _file_name(command: str) -> str | None:
    """The hero file's name in the command line (the word after ``gauntlet``)."""
    words: Sequence[str] = command.split()
    return words[3] if len(words) > 3 else None

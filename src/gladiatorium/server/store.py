"""The matches the server holds: rebuilt from their record, kept in memory, and
advanced by one transaction per step.

Every accepted action is appended to ``match_actions`` (unique per match and ply) in
the same transaction that moves the match on (:meth:`MatchStore.commit`), and only then
is anyone told. A match is rebuilt by replaying options, seed and actions, and the
rebuilt event log must equal the stored digest; a long match starts from its newest
snapshot (``server/snapshots.py``) and replays only what came after. The features of a
match (creating it, playing, seats, libraries, deadlines) share this store
(``server/service.py``). Nothing here knows a game: it uses the core contract.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import bindparam, func, literal, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from gladiatorium.core import Action, Bot, Game, GladiatoriumError, Seat, State, get_game
from gladiatorium.core.record import EventsDigest
from gladiatorium.server import ratings, snapshots
from gladiatorium.server.appends import append
from gladiatorium.server.db import Deadline, Match, MatchAction, MatchSeat, utcnow
from gladiatorium.server.errors import Claimed, Clash, Conflict, NotFound
from gladiatorium.server.hub import CHANNEL, notice
from gladiatorium.server.writer import Writer

log = logging.getLogger("gladiatorium.match")

#: tests only: when set to 1, exit the process right after a deadline's claim, before
#: its transaction commits (shows that a claim never outlives a crash); never set in
#: production. Read at the claim, not at import (the tests fork servers from a process
#: that imported this module already).
FAULT_EXIT_AFTER_CLAIM = "GLADIATORIUM_FAULT_EXIT_AFTER_CLAIM"

#: a match used this recently may be in a bot's or a deadline's hands: it stays in
#: memory even over the cap (it could leave safely, but would be rebuilt at once)
RECENT_SECONDS = 1.0

#: on PostgreSQL, the notice of a step to the other processes (sent at commit)
_NOTICE = select(func.pg_notify(literal(CHANNEL), bindparam("id")))
#: the actions of a match from a ply on, in order (what a copy in memory lacks)
_MISSING = (
    select(MatchAction.seat, MatchAction.action)
    .where(MatchAction.match_id == bindparam("match"), MatchAction.ply >= bindparam("ply"))
    .order_by(MatchAction.ply)
)


#: the match setting listing the seats whose taker is still to pick a team
#: (``server/teams.py``): until none is left, nobody is to move
TEAMS_AWAITED = "teams_awaited"


def refuse_while_waiting(live: Live) -> None:
    """No action is taken while a seat's team is still to be picked."""
    if live.waiting_for_teams:
        waiting = ", ".join(str(s) for s in live.settings[TEAMS_AWAITED])
        raise Conflict(f"the match waits for the team of seat {waiting}")


@dataclass
class Live:
    """A match held in memory: its state replayed from the database."""

    id: str
    game: Game[Any]
    state: State[Any]
    seats: dict[Seat, MatchSeat]
    settings: dict[str, Any]
    adjudicated: dict[str, Any] | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    bots: dict[Seat, Bot] = field(default_factory=dict)
    running_digest: EventsDigest = field(default_factory=EventsDigest)
    #: another process may have committed since the last catch-up (a NOTIFY came)
    stale: bool = False
    #: ... and something other than steps (seats, an adjudication): the catch-up reads
    #: the match and its seats again, not only the actions it lacks
    stale_beyond_steps: bool = False
    #: when this copy was last asked for (time.monotonic): idle copies leave memory
    used: float = field(default_factory=time.monotonic)
    #: the ply this copy was rebuilt from: its snapshot's, or 0 (the whole record)
    rebuilt_from: int = 0
    #: how many events the log held at each ply (``marks[p]``: after ``p`` actions), so
    #: that the events after a ply are found without looking at the older ones
    marks: list[int] = field(default_factory=list)
    #: what every connection of a seat shares at the current ply (``server/play.py``:
    #: bodies, their JSON, deltas), dropped when the match moves on
    shared: dict[Any, Any] = field(default_factory=dict)
    #: the match as the shared things were made for: (ply, adjudicated)
    shared_at: tuple[int, bool] = (-1, False)
    #: how many times a round deadline was set by hand in this process (its sockets
    #: then tell their pages, which show the deadline: ``server/frames.py``)
    deadlines_set: int = 0
    #: the JSON of each event, made once for every seat that may see it (by ``id``)
    jsons: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: bodies built so far (each is the view, events and legal actions of one seat)
    builds: int = 0
    #: the awaited seats this process wrote for the match, and at which ply (the
    #: table holds them while no other process wrote since: a step at that ply need
    #: not read them back)
    turns_written: tuple[int, frozenset[Seat]] | None = None

    def turns_before(self, ply: int) -> frozenset[Seat] | None:
        """The awaited seats the table holds before a step at ``ply``, if known."""
        written = self.turns_written
        return written[1] if written is not None and written[0] == ply else None

    def mark(self) -> None:
        """Note the event log's length at every ply not noted yet (after each action)."""
        if not self.marks:
            self.marks.append(len(self.state.events) if self.ply == 0 else 0)
        while len(self.marks) <= self.ply:
            self.marks.append(len(self.state.events))

    def events_since(self, ply: int) -> int:
        """The index in the event log of the first event after ``ply``."""
        self.mark()
        return self.marks[ply]

    def digest(self) -> str:
        """The digest of the event log so far (hashing only the events it has not seen)."""
        return self.running_digest.update(self.state.events).hexdigest()

    @property
    def ply(self) -> int:
        return len(self.state.history)

    @property
    def over(self) -> bool:
        return self.adjudicated is not None or self.state.is_over

    def outcome(self) -> dict[str, Any] | None:
        if self.adjudicated is not None:
            return self.adjudicated
        result = self.state.outcome()
        return None if result is None else result.to_json()

    @property
    def waiting_for_teams(self) -> bool:
        """Whether a seat's taker is still to pick a team (no one moves until then)."""
        return bool(self.settings.get(TEAMS_AWAITED))

    def deciding(self) -> tuple[Seat, ...]:
        """The seats the match waits on (none once over, or while teams are awaited)."""
        return () if self.over or self.waiting_for_teams else self.state.deciding()

    def bot_seats_awaited(self) -> list[Seat]:
        if self.over or self.waiting_for_teams:
            return []
        return [s for s in self.state.deciding() if self.seats[s].kind == "bot"]


class MatchStore:
    """The matches in memory (least recently used first), rebuilt from the database
    when needed and brought up to what other processes committed; and the one write
    path of a step (:meth:`commit`)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        on_change: Callable[[str], None],
        postgres: bool,
        *,
        idle_seconds: float = 600.0,
        max_live: int = 2000,
        snapshot_every: int = snapshots.SNAPSHOT_EVERY,
        group_commit: bool = True,
    ) -> None:
        self.sessions = sessions
        #: whether every commit of another process is told by a notice (PostgreSQL while
        #: this process listens; SQLite, whose file one server process owns): then a
        #: match not marked stale is up to date and no query checks it
        self.notices_trusted = not postgres
        #: writes each step's transaction, steps of several matches in one when they
        #: come together (group commit: ``server/writer.py``)
        self.writer = Writer(sessions, grouped=group_commit)
        #: plies between two snapshots of a match (0: none)
        self.snapshot_every = snapshot_every
        #: tells this process's connections and bot drivers that a match changed
        self.on_change = on_change
        self.postgres = postgres
        self.idle_seconds = idle_seconds
        self.max_live = max_live
        #: matches in memory, least recently used first
        self._live: OrderedDict[str, Live] = OrderedDict()
        self._guard = threading.Lock()

    # ----- loading -----------------------------------------------------------------
    def live(self, match_id: str) -> Live:
        """The match in memory, rebuilt from the database if needed and brought up to
        the newest ply another process may have committed."""
        live = self.held(match_id)
        if live is not None and live.waiting_for_teams and (live.stale or not self.notices_trusted):
            # a team brought elsewhere starts the match again from new options: read anew
            self.forget(match_id)
            live = None
        if live is None:
            live = self.hold(self._rebuild(match_id))
        self._catch_up(live)
        return live

    def held(self, match_id: str) -> Live | None:
        """The copy in memory, if any, marked as just used."""
        with self._guard:
            live = self._live.get(match_id)
            if live is not None:
                live.used = time.monotonic()
                self._live.move_to_end(match_id)
        return live

    def hold(self, live: Live) -> Live:
        """Keep ``live`` in memory (or the copy another thread kept first)."""
        with self._guard:
            kept = self._live.setdefault(live.id, live)
            kept.used = time.monotonic()
            self._live.move_to_end(live.id)
        return kept

    def forget(self, match_id: str) -> None:
        with self._guard:
            self._live.pop(match_id, None)

    def live_count(self) -> int:
        """How many matches are in memory."""
        with self._guard:
            return len(self._live)

    def sweep(self) -> int:
        """Let matches leave memory: those idle longer than ``idle_seconds``, then the
        least recently used over ``max_live``. A match whose lock is held stays (a
        later :meth:`live` rebuilds the others from their record). Returns how many left."""
        now, gone = time.monotonic(), 0
        with self._guard:
            over = len(self._live) - self.max_live
            for live in list(self._live.values()):  # least recently used first
                idle = now - live.used
                if idle < self.idle_seconds and (over - gone <= 0 or idle < RECENT_SECONDS):
                    break
                if not live.lock.acquire(blocking=False):
                    continue
                try:
                    del self._live[live.id]
                finally:
                    live.lock.release()
                gone += 1
            held = len(self._live)
        if gone:
            log.info("%d idle matches left memory; %d held", gone, held)
        return gone

    def _rebuild(self, match_id: str) -> Live:
        with self.sessions() as session:
            match = session.get(Match, match_id)
            if match is None:
                raise NotFound(f"no match {match_id!r}")
            game = get_game(match.game)
            if match.version != game.info.version:
                raise Conflict(
                    f"match {match_id} was played under {match.game} version {match.version}; "
                    f"this server runs version {game.info.version}"
                )
            found = snapshots.newest(session, match_id, match.version, match.ply)
            if found is None:
                start, marks = 0, list[int]()
                state = game.start(
                    match.options, match.players, match.seed, match.position, "match position"
                )
            else:
                start, state, marks = found
            actions = session.scalars(
                select(MatchAction)
                .where(MatchAction.match_id == match_id, MatchAction.ply >= start)
                .order_by(MatchAction.ply)
            ).all()
            marks = [*marks[:start], len(state.events)]
            for row in actions:
                state.act(row.seat, row.action)
                marks.append(len(state.events))
            seats = session.scalars(select(MatchSeat).where(MatchSeat.match_id == match_id)).all()
            live = Live(
                match_id,
                game,
                state,
                {s.seat: s for s in seats},
                dict(match.settings),
                match.outcome if match.outcome and match.outcome.get("adjudicated") else None,
                rebuilt_from=start,
                marks=marks,
            )
            if start + len(actions) == match.ply and live.digest() != match.digest:
                log.error("match=%s rebuilt events differ from the stored digest", match_id)
                raise Conflict(f"match {match_id}: replay differs from the stored digest")
        log.info("match=%s rebuilt at ply %d (from ply %d)", match_id, live.ply, start)
        return live

    def trust_notices(self, trusted: bool) -> None:
        """The listener is (or is no longer) connected: while it is, a match is read
        again only when a notice says another process wrote it. When it connects, every
        match held is read again once (notices sent while it was away are lost)."""
        if trusted:
            with self._guard:
                for live in self._live.values():
                    live.stale = True
        self.notices_trusted = trusted

    def _catch_up(self, live: Live) -> None:
        """Apply actions other processes committed since this copy was built (none
        unless a notice said so, while notices are trusted)."""
        if not live.stale and self.notices_trusted:
            return
        # cleared first: a notice during the query marks again
        stale, live.stale = live.stale, False
        beyond, live.stale_beyond_steps = live.stale_beyond_steps, False
        if stale and not beyond and self.notices_trusted:  # only steps: the actions after
            with live.lock, self.sessions() as session:
                self._apply_missing(session, live)
            return
        with self.sessions() as session:
            row = session.execute(
                select(Match.ply, Match.outcome).where(Match.id == live.id)
            ).one_or_none()
            if row is None:
                raise NotFound(f"no match {live.id!r}")
            ply, outcome = row
            if ply == live.ply and (outcome is None or not outcome.get("adjudicated")):
                if stale:  # a notice without a new ply: seats changed (a new invitation)
                    seats = session.scalars(select(MatchSeat).where(MatchSeat.match_id == live.id))
                    with live.lock:
                        live.seats = {s.seat: s for s in seats}
                return
            with live.lock:
                self._apply_missing(session, live)
                if outcome is not None and outcome.get("adjudicated"):
                    live.adjudicated = outcome
                seats = session.scalars(select(MatchSeat).where(MatchSeat.match_id == live.id))
                live.seats = {s.seat: s for s in seats}

    @staticmethod
    def _apply_missing(session: Session, live: Live) -> None:
        """Read and apply the actions another process appended after this copy's ply
        (the caller holds the copy's lock)."""
        missing = session.execute(_MISSING, {"match": live.id, "ply": live.ply}).all()
        live.mark()
        for seat, action in missing:
            live.state.act(seat, action)
            live.mark()

    def reload_seats(self, match_id: str) -> None:
        live = self.live(match_id)
        with self.sessions() as session, live.lock:
            seats = session.scalars(select(MatchSeat).where(MatchSeat.match_id == match_id))
            live.seats = {s.seat: s for s in seats}

    def deadline_set(self, match_id: str) -> None:
        """A round's deadline of ``match_id`` was set (here or, told by a notice, in
        another process): its sockets send a ``deadline`` frame at the next push."""
        with self._guard:
            live = self._live.get(match_id)
        if live is not None:
            with live.lock:
                live.deadlines_set += 1

    def mark_stale(self, match_id: str, steps_only: bool = False) -> None:
        """Another process committed to ``match_id`` (``steps_only``: actions and
        nothing else, :data:`hub.STEP`): catch up before the next push."""
        with self._guard:
            live = self._live.get(match_id)
        if live is not None:
            live.stale_beyond_steps |= not steps_only
            live.stale = True

    def has_bot_seat(self, match_id: str) -> bool:
        """False only for a match in memory without a bot seat (no driver needed)."""
        with self._guard:
            live = self._live.get(match_id)
        return live is None or any(row.kind == "bot" for row in live.seats.values())

    # ----- committing: the one transaction of a step -----------------------------------
    def commit(
        self, live: Live, steps: list[tuple[Seat, Action]], claim: int | None = None
    ) -> list[dict[str, Any]]:
        """Apply ``steps`` to the live state and append them; on a clash with another
        process the in-memory copy is dropped and rebuilt from the database. With
        ``claim``, the deadline of that id is marked fired in the same transaction (of
        several processes, only the one whose claim counts appends)."""
        refuse_while_waiting(live)
        first_ply, first_event = live.ply, len(live.state.events)
        round_before = live.game.round_number(live.state)
        live.mark()
        try:
            for seat, action in steps:
                live.state.apply(seat, action)
                live.mark()
        except GladiatoriumError:
            self.forget(live.id)
            raise

        before = live.turns_before(first_ply)
        acted = {seat for seat, _ in steps}

        def work(session: Session) -> frozenset[Seat]:
            # rows are locked in one order by every transaction (actions, the match,
            # turns, deadlines), so that two processes never wait on each other for good
            awaited = append(session, live, steps, first_ply, acted, before, self.postgres)
            if live.over:  # this step ended it (the progress' update said it was not over)
                self.record_end(session, live, live.game.places(live.state))
            if claim is not None:
                self.claim(session, claim)
            self.plan_deadlines(session, live, round_before)
            return awaited

        try:
            awaited = self.writer.write(live.id, work)  # committed (with others' steps, maybe)
        except IntegrityError as err:
            self.forget(live.id)
            raise Clash("another action was committed first; look again and retry") from err
        except Exception:
            self.forget(live.id)
            raise
        live.turns_written = (live.ply, awaited)
        new = [e.to_json() for e in live.state.events[first_event:]]
        self._log(live, steps, first_ply, new)
        self.on_change(live.id)
        if snapshots.due(first_ply, live.ply, self.snapshot_every):
            live.mark()
            snapshots.write(self.sessions, live.id, live.game.info.version, live.state, live.marks)
        return new

    def record_end(
        self, session: Session, live: Live, places: list[tuple[tuple[Seat, ...], int]]
    ) -> None:
        """The end of the match, inside the transaction that ends it: its places kept
        and its players rated (``server/ratings.py``)."""
        casual = bool(live.settings.get("casual"))
        ratings.record_end(session, live.id, live.game.info.slug, places, live.seats, casual)

    def claim(self, session: Session, deadline_id: int) -> None:
        """Mark a deadline fired inside the caller's transaction, which goes on to apply
        it: both commit together or neither does, so a deadline fires exactly once
        whatever process dies when. Raises :class:`Claimed` when it fired already."""
        claimed = session.execute(
            update(Deadline)
            .where(Deadline.id == deadline_id, Deadline.fired.is_(False))
            .values(fired=True)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            raise Claimed(f"deadline {deadline_id} fired already")
        if os.environ.get(FAULT_EXIT_AFTER_CLAIM) == "1":
            log.warning("deadline %d claimed: exiting now (fault injection)", deadline_id)
            os._exit(70)

    def notify_others(self, session: Session, match_id: str, what: str = "") -> None:
        """On PostgreSQL, tell the other server processes at commit (LISTEN/NOTIFY);
        ``what``: a word for what changed (``hub.notice``)."""
        if self.postgres:
            session.connection().execute(_NOTICE, {"id": notice(match_id, what)})

    def _log(
        self,
        live: Live,
        steps: list[tuple[Seat, Action]],
        first_ply: int,
        events: list[dict[str, Any]],
    ) -> None:
        """One line per step: its plies and seats, then its public events (a private
        action or event is logged without its content: logs must hold no secret). A
        line per action and per event was 6 % of the server's time at 100 busy Pig
        matches."""
        if not log.isEnabledFor(logging.INFO):
            return
        acted = " ".join(f"ply={first_ply + n} seat={seat}" for n, (seat, _) in enumerate(steps))
        told = " | ".join(f"{e['kind']} {e['text']}" for e in events if "to" not in e)
        over = f"; over {live.outcome()}" if live.over else ""
        log.info("match=%s %s accepted%s%s", live.id, acted, f": {told}" if told else "", over)

    def plan_deadlines(self, session: Session, live: Live, round_before: int | None = None) -> None:
        """Set the deadline of a new round, and restart the move clock (inside the
        transaction of a step, or of a new match); none while teams are awaited.
        ``round_before``: the round the step began in, when the caller knows it (a step
        that stays in its round leaves the rounds' deadlines alone)."""
        if live.over or live.waiting_for_teams:
            return
        round_number = live.game.round_number(live.state)
        if round_number is not None and round_number != round_before:
            self._plan_round(session, live, round_number)
        days = live.settings.get("clock_days")
        if days:
            session.execute(
                update(Deadline)
                .where(Deadline.match_id == live.id, Deadline.kind == "clock")
                .values(fired=True)
            )
            due = utcnow() + timedelta(days=float(days))
            session.add(Deadline(match_id=live.id, kind="clock", ply=live.ply, due_at=due))

    def _plan_round(self, session: Session, live: Live, round_number: int) -> None:
        """A round opened: an earlier round's deadline is void (that round closed before
        it, all moved), and this round's is set where the match has round deadlines."""
        session.execute(
            update(Deadline)
            .where(
                Deadline.match_id == live.id,
                Deadline.kind == "round",
                Deadline.fired.is_(False),
                Deadline.ply < round_number,
            )
            .values(fired=True)
        )
        minutes = live.settings.get("round_minutes")
        if not minutes:
            return
        exists = session.scalar(
            select(Deadline.id).where(
                Deadline.match_id == live.id,
                Deadline.kind == "round",
                Deadline.ply == round_number,
            )
        )
        if exists is None:
            due = utcnow() + timedelta(minutes=float(minutes))
            session.add(Deadline(match_id=live.id, kind="round", ply=round_number, due_at=due))

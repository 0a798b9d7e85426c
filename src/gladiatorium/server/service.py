"""Matches on the server: created from the lobby, rebuilt from their record, and
advanced one committed action at a time.

Every accepted action is appended to ``match_actions`` (unique per match and ply) in
the same transaction that moves the match on, and only then is anyone told. A match
is rebuilt by replaying options, seed and actions, and the rebuilt event log must
equal the stored digest. Nothing here knows a game: it uses the core contract.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import exists, func, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from gladiatorium.core import (
    Action,
    Bot,
    Game,
    GameOver,
    GladiatoriumError,
    IllegalAction,
    NotYourTurn,
    Seat,
    State,
    get_bot,
    get_game,
)
from gladiatorium.core.record import EventsDigest, MatchRecord, RecordedAction
from gladiatorium.core.rng import Rng, derive_seed
from gladiatorium.server.db import Deadline, LibraryItem, Match, MatchAction, MatchSeat, utcnow
from gladiatorium.server.hub import notice
from gladiatorium.server.tokens import digest_token, new_token

log = logging.getLogger("gladiatorium.match")
_DIGITS = re.compile(r"(\d+)")

SEAT_KINDS = ("me", "invite", "open", "server")


class ServiceError(GladiatoriumError):
    """A request the server refuses; ``status`` is its HTTP status."""

    status = 400


class NotFound(ServiceError):
    status = 404


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    status = 409


class BadRequest(ServiceError):
    status = 422


class Clash(Conflict):
    """Another process appended the same ply first (the unique key refused ours)."""


class Claimed(Conflict):
    """A deadline another process (or an earlier tick) fired already."""


#: the longest deadline a moderator may set, in minutes (30 days)
DEADLINE_CAP_MINUTES = 60 * 24 * 30
#: tries of an action whose ply another process took meanwhile (:meth:`MatchService.submit`)
APPEND_TRIES = 5
#: tests only: exit the process right after a deadline's claim, before its transaction
#: commits (shows that a claim never outlives a crash); never set in production
_FAULT_EXIT_AFTER_CLAIM = os.environ.get("GLADIATORIUM_FAULT_EXIT_AFTER_CLAIM") == "1"


class Unauthorized(ServiceError):
    """Something only an account may do, asked without one; or a bearer token (or a
    session cookie where an account is needed) that is not, or no longer, a session."""

    status = 401


class TooMany(ServiceError):
    """A limit per account reached; ``retry_after``: seconds until there is room (if known)."""

    status = 429

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


#: seat kinds that no person plays: a match of only these is a match of bots
NOBODY = ("bot", "server")
#: a match used this recently may be in a bot's or a deadline's hands: it stays in
#: memory even over the cap (it could leave safely, but would be rebuilt at once)
RECENT_SECONDS = 1.0


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
    #: when this copy was last asked for (time.monotonic): idle copies leave memory
    used: float = field(default_factory=time.monotonic)

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

    def bot_seats_awaited(self) -> list[Seat]:
        if self.over:
            return []
        return [s for s in self.state.deciding() if self.seats[s].kind == "bot"]


@dataclass(frozen=True)
class Created:
    id: str
    #: seat -> invitation token (the link to send holds it)
    invites: dict[Seat, str]


@dataclass(frozen=True)
class Accepted:
    """An invitation taken (or opened again by whoever took it)."""

    match_id: str
    seat: Seat
    #: a guest's new seat secret, for its cookie (None: an account, or nothing new)
    secret: str | None


USED = "this invitation was already used: ask whoever sent it for a new link"


@dataclass(frozen=True)
class MatchSettings:
    """What the server keeps beside the game's options."""

    #: minutes per round for games played in rounds (the round closes at the deadline)
    round_minutes: float | None = None
    #: days per move for two-seat games (who runs out loses)
    clock_days: float | None = None

    @classmethod
    def parse(cls, data: Mapping[str, Any] | None, shortest: float = 0.001) -> MatchSettings:
        """The settings sent at creation; ``shortest``: the fewest minutes a round or a
        move clock may last (a deadline no person could meet is refused)."""
        data = dict(data or {})
        values: dict[str, float | None] = {}
        bounds = (("round_minutes", shortest, 60 * 24 * 30), ("clock_days", shortest / 1440, 60))
        for name, low, high in bounds:
            raw = data.pop(name, None)
            if raw in (None, ""):
                values[name] = None
                continue
            try:
                number = float(raw)
            except (TypeError, ValueError):
                raise BadRequest(f"{name}: expected a number, got {raw!r}") from None
            if not low <= number <= high:
                raise BadRequest(f"{name}: must be between {low:g} and {high:g}")
            values[name] = number
        if data:
            raise BadRequest(f"unknown match setting {sorted(data)[0]!r}")
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if v is not None}


class MatchService:
    """Creates matches, rebuilds them, checks and commits actions, fires deadlines."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        on_change: Callable[[str], None],
        postgres: bool,
        *,
        bot_only_limit: int | None = None,
        idle_seconds: float = 600.0,
        max_live: int = 2000,
        shortest_round: float = 0.001,
    ) -> None:
        self.sessions = sessions
        #: the shortest round (minutes) or move clock a new match may set
        self.shortest_round = shortest_round
        self.on_change = on_change
        self.postgres = postgres
        #: running matches of bots only per account (None: no limit)
        self.bot_only_limit = bot_only_limit
        self.idle_seconds = idle_seconds
        self.max_live = max_live
        #: matches in memory, least recently used first
        self._live: OrderedDict[str, Live] = OrderedDict()
        self._guard = threading.Lock()
        #: one bot-only creation at a time: counting and adding are one step
        self._bot_only = threading.Lock()

    # ----- creating --------------------------------------------------------------
    def create(
        self,
        user_id: int | None,
        slug: str,
        players: int | None,
        options: Mapping[str, Any] | None,
        seats: Mapping[str, str],
        settings: Mapping[str, Any] | None = None,
        library: Mapping[Seat, list[int]] | None = None,
        seed: int | None = None,
    ) -> Created:
        """A new match; ``seats`` maps a seat to ``me``, ``bot:NAME``, ``invite``,
        ``open`` or ``server``. Options are checked by the game, errors name them.
        ``seed`` is for tests only (never taken over HTTP): a random one otherwise."""
        try:
            game = get_game(slug)
        except GladiatoriumError as err:
            raise BadRequest(str(err)) from err
        values = dict(options or {})
        if library:
            values.update(self._library_options(game, user_id, library))
        try:
            state = game.start(values, players, secrets.randbits(63) if seed is None else seed)
        except GladiatoriumError as err:
            raise BadRequest(str(err)) from err
        kept = MatchSettings.parse(settings, self.shortest_round)
        if kept.clock_days is not None and len(state.seats) != 2:
            raise BadRequest("clock_days: a move clock is for two-seat matches")
        if kept.round_minutes is not None and game.round_number(state) is None:
            raise BadRequest(f"round_minutes: {game.info.name} is not played in rounds")
        rows, invites = self._seat_rows(game, state, user_id, seats)
        if kept.round_minutes is None and any(r.kind == "server" for r in rows):
            raise BadRequest("round_minutes: a seat the server runs needs a round deadline")
        match_id = secrets.token_urlsafe(9)
        bots_only = all(r.kind in NOBODY for r in rows)
        with self._bot_only if bots_only else nullcontext(), self.sessions.begin() as session:
            if bots_only:
                self._check_bot_only(session, user_id)
            session.add(
                Match(
                    id=match_id,
                    game=slug,
                    version=game.info.version,
                    players=state.players,
                    options=state.options.model_dump(mode="json"),
                    seed=state.seed,
                    created_by=user_id,
                    status="running",
                    ply=0,
                    digest=EventsDigest().update(state.events).hexdigest(),
                    settings=kept.to_json(),
                )
            )
            session.flush()
            for row in rows:
                row.match_id = match_id
                session.add(row)
            live = Live(match_id, game, state, {r.seat: r for r in rows}, kept.to_json())
            self._plan_deadlines(session, live)
        self._hold(live)
        log.info("match=%s created game=%s players=%d", match_id, slug, state.players)
        return Created(match_id, invites)

    def _check_bot_only(self, session: Session, user_id: int | None) -> None:
        """A match of bots only needs an account, and room under the limit per account."""
        if self.bot_only_limit is None:
            return
        if user_id is None:
            raise Unauthorized("log in to create a match of bots only")
        if self.postgres:  # one count at a time per account across server processes too
            session.execute(text("SELECT pg_advisory_xact_lock(7132, :id)"), {"id": user_id})
        person = exists().where(MatchSeat.match_id == Match.id, MatchSeat.kind.not_in(NOBODY))
        running = session.scalar(
            select(func.count())
            .select_from(Match)
            .where(Match.created_by == user_id, Match.status == "running", ~person)
        )
        if (running or 0) >= self.bot_only_limit:
            raise TooMany(
                f"seats: you already have {running} matches of bots only running (at most "
                f"{self.bot_only_limit} at once); wait for one to end, or take a seat yourself"
            )

    def _library_options(
        self, game: Game[Any], user_id: int | None, library: Mapping[Seat, list[int]]
    ) -> dict[str, Any]:
        if user_id is None:
            raise Forbidden("log in to use your library")
        chosen: dict[Seat, list[dict[str, Any]]] = {}
        with self.sessions() as session:
            for seat, ids in library.items():
                items = []
                for item_id in ids:
                    item = session.get(LibraryItem, item_id)
                    if item is None or item.user_id != user_id or item.game != game.info.slug:
                        raise BadRequest(f"library item {item_id} is not in your library")
                    items.append(item.data)
                chosen[seat] = items
        try:
            return game.library_options(chosen)
        except GladiatoriumError as err:
            raise BadRequest(str(err)) from err

    def _seat_rows(
        self, game: Game[Any], state: State[Any], user_id: int | None, seats: Mapping[str, str]
    ) -> tuple[list[MatchSeat], dict[Seat, str]]:
        unknown = sorted(set(seats) - set(state.seats))
        if unknown:
            raise BadRequest(f"seats: no seat {unknown[0]!r}; seats are {', '.join(state.seats)}")
        rows, invites = [], {}
        for seat in state.seats:
            spec = seats.get(seat, "open")
            row = MatchSeat(seat=seat, kind=spec, guest=False)
            if spec == "me":
                if user_id is None:
                    raise Forbidden("log in to take a seat as yourself")
                row.kind, row.user_id = "user", user_id
            elif spec.startswith("bot:"):
                try:
                    get_bot(game, spec[4:])
                except GladiatoriumError as err:
                    raise BadRequest(f"seats.{seat}: {err}") from err
                row.kind, row.bot = "bot", spec[4:]
            elif spec == "invite":
                token = new_token()
                row.token_hash = digest_token(token)
                invites[seat] = token
            elif spec == "server":
                if not game.timeout_actions(state, seat) and game.round_number(state) is None:
                    raise BadRequest(f"seats.{seat}: the server can only run a moderator seat")
            elif spec != "open":
                raise BadRequest(
                    f"seats.{seat}: {spec!r} is not me, bot:NAME, invite, open or server"
                )
            rows.append(row)
        return rows, invites

    # ----- loading -----------------------------------------------------------------
    def live(self, match_id: str) -> Live:
        """The match in memory, rebuilt from the database if needed and brought up to
        the newest ply another process may have committed."""
        live = self._held(match_id)
        if live is None:
            live = self._hold(self._rebuild(match_id))
        self._catch_up(live)
        return live

    def _held(self, match_id: str) -> Live | None:
        """The copy in memory, if any, marked as just used."""
        with self._guard:
            live = self._live.get(match_id)
            if live is not None:
                live.used = time.monotonic()
                self._live.move_to_end(match_id)
        return live

    def _hold(self, live: Live) -> Live:
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
            state = game.start(match.options, match.players, match.seed)
            actions = session.scalars(
                select(MatchAction)
                .where(MatchAction.match_id == match_id)
                .order_by(MatchAction.ply)
            ).all()
            for row in actions:
                state.act(row.seat, row.action)
            seats = session.scalars(select(MatchSeat).where(MatchSeat.match_id == match_id)).all()
            live = Live(
                match_id,
                game,
                state,
                {s.seat: s for s in seats},
                dict(match.settings),
                match.outcome if match.outcome and match.outcome.get("adjudicated") else None,
            )
            if len(actions) == match.ply and live.digest() != match.digest:
                log.error("match=%s rebuilt events differ from the stored digest", match_id)
                raise Conflict(f"match {match_id}: replay differs from the stored digest")
        log.info("match=%s rebuilt at ply %d", match_id, live.ply)
        return live

    def _catch_up(self, live: Live) -> None:
        """Apply actions other processes committed since this copy was built."""
        stale, live.stale = (
            live.stale,
            False,
        )  # cleared first: a notice during the query marks again
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
                missing = session.scalars(
                    select(MatchAction)
                    .where(MatchAction.match_id == live.id, MatchAction.ply >= live.ply)
                    .order_by(MatchAction.ply)
                ).all()
                for step in missing:
                    live.state.act(step.seat, step.action)
                if outcome is not None and outcome.get("adjudicated"):
                    live.adjudicated = outcome
                seats = session.scalars(select(MatchSeat).where(MatchSeat.match_id == live.id))
                live.seats = {s.seat: s for s in seats}

    def reload_seats(self, match_id: str) -> None:
        live = self.live(match_id)
        with self.sessions() as session, live.lock:
            seats = session.scalars(select(MatchSeat).where(MatchSeat.match_id == match_id))
            live.seats = {s.seat: s for s in seats}

    # ----- what a seat sees ----------------------------------------------------------
    def body(self, match_id: str, seat: Seat | None) -> dict[str, Any]:
        """The GET body for ``seat`` (None: a spectator), built from its view only."""
        live = self.live(match_id)
        with live.lock:
            return body_of(live, seat)

    def push_body(self, match_id: str, seat: Seat | None) -> dict[str, Any]:
        """:meth:`body` for a push after a change: the database is asked only when a
        notice said another process may have moved the match on (this process's own
        commits are in memory already), which saves a query per connection per change."""
        live = self._held(match_id)
        if live is None or live.stale:
            return self.body(match_id, seat)
        with live.lock:
            return body_of(live, seat)

    def mark_stale(self, match_id: str) -> None:
        """Another process committed to ``match_id``: catch up before the next push."""
        with self._guard:
            live = self._live.get(match_id)
        if live is not None:
            live.stale = True

    def has_bot_seat(self, match_id: str) -> bool:
        """False only for a match in memory without a bot seat (no driver needed)."""
        with self._guard:
            live = self._live.get(match_id)
        return live is None or any(row.kind == "bot" for row in live.seats.values())

    # ----- acting ----------------------------------------------------------------------
    def submit(self, match_id: str, seat: Seat, notation: str) -> list[dict[str, Any]]:
        """Check ``notation`` for ``seat``, commit it, then tell everyone; returns the
        new events ``seat`` may see. Refusals change nothing. When another process
        appended the same ply first with other seats' actions in the same round (seats
        acting side by side), this one catches up and applies the action after them
        while it is still legal; a 409 when it no longer is, or when the seat itself
        acted meanwhile or the round moved on (the action was meant for what it saw)."""
        if len(notation) > 2000:
            raise ServiceError("action: longer than 2000 characters")
        seen: tuple[int, int | None] | None = None
        for attempt in range(1, APPEND_TRIES + 1):
            live = self.live(match_id)
            with live.lock:
                if live.adjudicated is not None:
                    raise Conflict("the match is over; no more actions")
                if seen is None:
                    seen = (live.ply, live.game.round_number(live.state))
                else:
                    _still_as_seen(live, seat, *seen)
                try:
                    action = live.state.parse(seat, notation)
                except (NotYourTurn, GameOver) as err:
                    raise Conflict(str(err)) from err
                except IllegalAction as err:
                    if attempt > 1:  # legal before another process moved the match on
                        raise Conflict(f"the match moved on: {err}") from err
                    raise ServiceError(str(err)) from err
                try:
                    events = self._commit(live, [(seat, action)])
                except Clash:
                    if attempt == APPEND_TRIES:
                        raise
                    log.info("match=%s seat=%s ply taken by another process", match_id, seat)
                    continue
            return [e for e in events if _visible(e, seat)]
        raise AssertionError("unreachable")  # pragma: no cover

    def submit_action(self, match_id: str, seat: Seat, action: Action, ply: int) -> None:
        """A bot's move, valid only if the match is still at ``ply``."""
        live = self.live(match_id)
        with live.lock:
            if live.ply != ply or live.over or seat not in live.state.awaiting():
                raise Conflict("the match moved on")
            self._commit(live, [(seat, action)])

    def _commit(
        self, live: Live, steps: list[tuple[Seat, Action]], claim: int | None = None
    ) -> list[dict[str, Any]]:
        """Apply ``steps`` to the live state and append them; on a clash with another
        process the in-memory copy is dropped and rebuilt from the database. With
        ``claim``, the deadline of that id is marked fired in the same transaction (of
        several processes, only the one whose claim counts appends)."""
        first_ply, first_event = live.ply, len(live.state.events)
        try:
            for seat, action in steps:
                live.state.apply(seat, action)
        except GladiatoriumError:
            self.forget(live.id)
            raise
        try:
            with self.sessions.begin() as session:
                # rows are locked in one order by every transaction (actions, the match,
                # deadlines), so that two processes never wait on each other for good
                for offset, (seat, action) in enumerate(steps):
                    session.add(
                        MatchAction(
                            match_id=live.id, ply=first_ply + offset, seat=seat, action=str(action)
                        )
                    )
                session.flush()
                self._store_progress(session, live)
                if claim is not None:
                    self._claim(session, claim)
                self._plan_deadlines(session, live)
                self._notify_others(session, live.id)
        except IntegrityError as err:
            self.forget(live.id)
            raise Clash("another action was committed first; look again and retry") from err
        except Exception:
            self.forget(live.id)
            raise
        new = [e.to_json() for e in live.state.events[first_event:]]
        self._log(live, steps, first_ply, new)
        self.on_change(live.id)
        return new

    def _claim(self, session: Session, deadline_id: int) -> None:
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
        if _FAULT_EXIT_AFTER_CLAIM:
            log.warning("deadline %d claimed: exiting now (fault injection)", deadline_id)
            os._exit(70)

    def _notify_others(self, session: Session, match_id: str) -> None:
        """On PostgreSQL, tell the other server processes at commit (LISTEN/NOTIFY)."""
        if self.postgres:
            session.execute(text("SELECT pg_notify('gladiatorium', :id)"), {"id": notice(match_id)})

    def _store_progress(self, session: Session, live: Live) -> None:
        outcome = live.outcome()
        changed = session.execute(
            update(Match)
            .where(Match.id == live.id, Match.status != "over")
            .values(
                ply=live.ply,
                digest=live.digest(),
                status="over" if live.over else "running",
                outcome=outcome,
            )
        )
        if changed.rowcount != 1:  # type: ignore[attr-defined]
            # another process ended the match (a clock ran out) after this copy looked;
            # raising rolls the append back and drops this copy
            raise Conflict("the match is over; no more actions")

    def _log(
        self,
        live: Live,
        steps: list[tuple[Seat, Action]],
        first_ply: int,
        events: list[dict[str, Any]],
    ) -> None:
        """One line per accepted action and per public event; a private action or
        event is logged without its content (logs must hold no secret)."""
        for offset, (seat, _action) in enumerate(steps):
            log.info("match=%s ply=%d seat=%s accepted", live.id, first_ply + offset, seat)
        for event in events:
            if "to" not in event:
                log.info("match=%s event=%s %s", live.id, event["kind"], event["text"])
        if live.over:
            log.info("match=%s over %s", live.id, live.outcome())

    # ----- seats -----------------------------------------------------------------------
    def held_seats(
        self, match_id: str, user_id: int | None, seat_tokens: Iterable[str]
    ) -> set[Seat]:
        """Seats that a user (or the holder of guest seat secrets) may act for."""
        hashes = {digest_token(t) for t in seat_tokens}
        live = self.live(match_id)
        with live.lock:
            return {s for s, row in live.seats.items() if _holder(row, user_id, hashes)}

    def still_holds(
        self, match_id: str, seat: Seat, user_id: int | None, seat_tokens: Iterable[str]
    ) -> bool:
        """Whether ``seat`` is still held, asked of the copy in memory (no query when
        the match is there and no notice came): checked before each push to a seat's
        connection."""
        live = self._held(match_id)
        if live is None or live.stale:
            live = self.live(match_id)
        hashes = {digest_token(t) for t in seat_tokens}
        with live.lock:
            row = live.seats.get(seat)
            return row is not None and _holder(row, user_id, hashes)

    def join(self, match_id: str, seat: Seat, user_id: int) -> None:
        """Take an open seat."""
        with self.sessions.begin() as session:
            row = session.get(MatchSeat, (match_id, seat))
            if row is None:
                raise NotFound(f"match {match_id} has no seat {seat!r}")
            if row.kind != "open":
                raise Conflict(f"seat {seat} is not open")
            row.kind, row.user_id = "user", user_id
        self.reload_seats(match_id)
        self.on_change(match_id)

    def accept_invite(
        self, token: str, user_id: int | None, seat_tokens: Mapping[str, str]
    ) -> Accepted:
        """An invitation link opened. It is used once: the first to open it takes the
        seat (an account for good; a guest gets a new seat secret, for its cookie), and
        anyone opening it after is refused, except the one who took it (sent on to
        the match). ``seat_tokens``: the caller's guest seat secrets by match."""
        link = digest_token(token)
        with self.sessions.begin() as session:
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
            self._notify_others(session, match_id)
        self.reload_seats(match_id)
        log.info("match=%s seat=%s invitation taken", match_id, seat)
        return Accepted(match_id, seat, secret)

    def reissue_invite(self, match_id: str, seat: Seat, user_id: int | None) -> str:
        """A new invitation link for a seat given by invitation, by the match's creator:
        the old link stops working and whoever took it loses the seat, which is an open
        invitation again. Returns the new link's token."""
        if user_id is None:
            raise Unauthorized("log in as the match's creator to issue a new invitation")
        token = new_token()
        with self.sessions.begin() as session:
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
            self._notify_others(session, match_id)
        self.reload_seats(match_id)
        log.info("match=%s seat=%s new invitation", match_id, seat)
        self.on_change(match_id)
        return token

    def creator(self, match_id: str) -> int | None:
        """The account that created the match (None: created without one)."""
        with self.sessions() as session:
            return session.scalar(select(Match.created_by).where(Match.id == match_id))

    # ----- libraries -------------------------------------------------------------------
    def add_library_item(self, user_id: int, slug: str, text: str, source: str) -> LibraryItem:
        """Check an uploaded item (a hero YAML) as the game's checker does; keep it."""
        try:
            game = get_game(slug)
        except GladiatoriumError as err:
            raise BadRequest(str(err)) from err
        if game.library_kind is None:
            raise BadRequest(f"{slug} keeps no library")
        try:
            name, data = game.check_library_item(text, source)
        except GladiatoriumError as err:
            problems = str(err)
            if source not in problems:  # say which upload, as `hero check FILE` does
                problems = f"{source}: {problems}"
            raise BadRequest(problems) from err
        with self.sessions.begin() as session:
            item = LibraryItem(user_id=user_id, game=slug, name=name[:80], text=text, data=data)
            session.add(item)
            session.flush()
        return item

    def library(self, user_id: int, slug: str | None) -> list[dict[str, Any]]:
        with self.sessions() as session:
            query = select(LibraryItem).where(LibraryItem.user_id == user_id)
            if slug is not None:
                query = query.where(LibraryItem.game == slug)
            return [
                {"id": i.id, "game": i.game, "name": i.name}
                for i in session.scalars(query.order_by(LibraryItem.id))
            ]

    # ----- records ---------------------------------------------------------------------
    def record(self, match_id: str) -> MatchRecord:
        """The full record (seed included): only once the match is over."""
        live = self.live(match_id)
        with live.lock:
            if not live.over:
                raise Forbidden("the record (with its seed) is given out once the match is over")
            seats = {s: row.bot or row.kind for s, row in live.seats.items()}
            outcome = live.outcome()
            return MatchRecord(
                game=live.game.info.slug,
                version=live.game.info.version,
                options=live.state.options.model_dump(mode="json"),
                players=live.state.players,
                seed=live.state.seed,
                seats=seats,
                actions=[RecordedAction(seat=s, action=str(a)) for s, a in live.state.history],
                outcome=outcome if live.adjudicated is None else None,
                digest=live.digest(),
            )

    # ----- deadlines ---------------------------------------------------------------------
    def _plan_deadlines(self, session: Session, live: Live) -> None:
        """Set the deadline of a new round, and restart the move clock."""
        if live.over:
            return
        minutes = live.settings.get("round_minutes")
        round_number = live.game.round_number(live.state)
        if round_number is not None:
            # a round that closed before its deadline (all moved): that deadline is void
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
        if minutes and round_number is not None:
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
        days = live.settings.get("clock_days")
        if days:
            session.execute(
                update(Deadline)
                .where(Deadline.match_id == live.id, Deadline.kind == "clock")
                .values(fired=True)
            )
            due = utcnow() + timedelta(days=float(days))
            session.add(Deadline(match_id=live.id, kind="clock", ply=live.ply, due_at=due))

    def require_deadline_setter(
        self, match_id: str, user_id: int | None, seat: Seat | None, held: set[Seat]
    ) -> None:
        """Who may set a round's deadline: the moderator, that is whoever holds a seat
        the game names a moderator seat (``Game.moderator_seats``), giving that seat;
        in a match whose moderator seat no person holds (the game has none, or the
        server or a bot runs it), the match's creator. Anyone else: Forbidden."""
        live = self.live(match_id)
        with live.lock:
            moderators = [
                s
                for s in live.game.moderator_seats(live.state)
                if live.seats[s].kind not in ("server", "bot")
            ]
        if moderators:
            if seat not in moderators or seat not in held:
                raise Forbidden(
                    f"seat: only the moderator (seat {' or '.join(moderators)}) "
                    "sets this match's deadlines"
                )
            return
        with self.sessions() as session:
            creator = session.scalar(select(Match.created_by).where(Match.id == match_id))
        if user_id is None or creator != user_id:
            raise Forbidden("only the match's creator sets this match's deadlines")

    def set_round_deadline(self, match_id: str, minutes: float, shortest: float = 1.0) -> None:
        """The moderator sets (or moves) the deadline of the round in progress: not
        sooner than ``shortest`` minutes, nor later than the match's ``round_minutes``
        (30 days without it). The caller checks who asks (:meth:`require_deadline_setter`)."""
        live = self.live(match_id)
        round_number = live.game.round_number(live.state)
        if round_number is None or live.over:
            raise Conflict("this match has no round in progress")
        longest = float(live.settings.get("round_minutes") or DEADLINE_CAP_MINUTES)
        if not minutes >= shortest:  # NaN too
            raise BadRequest(f"minutes: at least {shortest:g}")
        if not minutes <= longest:
            what = "this match's round_minutes" if longest < DEADLINE_CAP_MINUTES else "30 days"
            raise BadRequest(f"minutes: at most {longest:g} ({what})")
        with self.sessions.begin() as session:
            session.execute(
                update(Deadline)
                .where(Deadline.match_id == match_id, Deadline.kind == "round")
                .values(fired=True)
            )
            due = utcnow() + timedelta(minutes=minutes)
            session.add(Deadline(match_id=match_id, kind="round", ply=round_number, due_at=due))
        self.on_change(match_id)

    def deadlines(self, match_id: str) -> list[dict[str, Any]]:
        with self.sessions() as session:
            rows = session.scalars(
                select(Deadline).where(Deadline.match_id == match_id, Deadline.fired.is_(False))
            ).all()
            return [{"kind": d.kind, "due_at": d.due_at.isoformat()} for d in rows]

    def fire(self, deadline: Deadline) -> bool:
        """A due deadline: time out the seats awaited in its round, or end the match
        against the seat whose clock ran out. The deadline is claimed (marked fired)
        in the transaction that applies it; False when it had fired already."""
        live = self.live(deadline.match_id)
        with live.lock:
            if not live.over:
                if deadline.kind == "round":
                    steps = self._round_time_outs(live, deadline.ply)
                    if steps:
                        log.info("match=%s round %d deadline passed", live.id, deadline.ply)
                        try:
                            self._commit(live, steps, claim=deadline.id)
                        except Claimed:
                            return False
                        return True
                elif deadline.kind == "clock" and deadline.ply == live.ply:
                    return self._flag(live, deadline.id)
        return self.claim_alone(deadline.id)

    def claim_alone(self, deadline_id: int) -> bool:
        """Mark a deadline fired with nothing to apply (its round is over, its match
        ended, or applying it fails for good); False when it had fired already."""
        try:
            with self.sessions.begin() as session:
                self._claim(session, deadline_id)
        except Claimed:
            return False
        return True

    def _round_time_outs(self, live: Live, round_number: int) -> list[tuple[Seat, Action]]:
        """What the seats still awaited in round ``round_number`` do at its deadline."""
        if live.game.round_number(live.state) != round_number:
            return []
        trial = live.state.clone()
        steps: list[tuple[Seat, Action]] = []
        for seat in live.state.awaiting():
            if seat not in trial.awaiting():
                continue
            for action in live.game.timeout_actions(trial, seat):
                trial.apply(seat, action)
                steps.append((seat, action))
        return steps

    def _flag(self, live: Live, deadline_id: int) -> bool:
        """The awaited seat ran out of time: the other seat wins. The clock's claim
        and the loss on time commit together; False when it had fired already."""
        late = set(live.state.awaiting())
        winners = [s for s in live.state.seats if s not in late]
        outcome: dict[str, Any] = {
            "winners": winners,
            "team": None,
            "draw": not winners,
            "lost": False,
            "reason": "time",
            "scores": {},
            "adjudicated": True,
        }
        try:
            with self.sessions.begin() as session:
                changed = session.execute(
                    update(Match)
                    .where(Match.id == live.id, Match.ply == live.ply, Match.status != "over")
                    .values(status="over", outcome=outcome)
                )
                self._claim(session, deadline_id)  # after the match: the order of _commit
                if changed.rowcount != 1:  # type: ignore[attr-defined]
                    return True  # the match moved on meanwhile: the clock is void
                self._notify_others(session, live.id)
        except Claimed:
            return False
        live.adjudicated = outcome
        log.info("match=%s over on time: %s ran out", live.id, ", ".join(sorted(late)))
        self.on_change(live.id)
        return True

    # ----- bots ----------------------------------------------------------------------------
    def bot_for(self, live: Live, seat: Seat) -> Bot:
        bot = live.bots.get(seat)
        if bot is None:
            name = live.seats[seat].bot or "random"
            bot = get_bot(live.game, name)(Rng(derive_seed(live.state.seed, "bot", seat, name)))
            live.bots[seat] = bot
        return bot


def _still_as_seen(live: Live, seat: Seat, ply: int, round_number: int | None) -> None:
    """After a clash: what other processes appended since ``ply`` must be other seats'
    actions in the same round, else the seat's action was meant for a match that is
    gone (409)."""
    between = live.state.history[ply:]
    if any(s == seat for s, _ in between) or live.game.round_number(live.state) != round_number:
        raise Conflict("the match moved on while you acted; look again")


def _holder(row: MatchSeat, user_id: int | None, hashes: set[str]) -> bool:
    """Whether an account, or a guest with one of the seat secret digests, holds ``row``."""
    if user_id is not None and row.kind == "user" and row.user_id == user_id:
        return True
    return row.kind == "invite" and row.secret_hash is not None and row.secret_hash in hashes


def _visible(event: dict[str, Any], seat: Seat | None) -> bool:
    return "to" not in event or (seat is not None and seat in event["to"])


def _natural(text: str) -> list[tuple[int, int | str]]:
    """Sort key: numbers by value, the rest by text ("guess Ant=2" before "=10")."""
    return [(0, int(part)) if part.isdigit() else (1, part) for part in _DIGITS.split(text)]


def body_of(live: Live, seat: Seat | None) -> dict[str, Any]:
    """What a seat receives: built from ``view(seat)`` and the events it may see."""
    state = live.state
    awaiting = set(state.awaiting()) if live.adjudicated is None else set()
    legal: list[str] = []
    if seat is not None and seat in awaiting:
        legal = [str(a) for a in state.legal_actions(seat)]
        if live.game.info.hidden_information:
            # the engine's order may follow hidden state (Hero Battle listed guesses in
            # the order of the secret identities): a seat gets its actions sorted
            legal.sort(key=_natural)
    return {
        "game": live.game.info.slug,
        "awaiting": [s for s in state.seats if s in awaiting],
        "legal": legal,
        "view": state.view(seat),
        "events": [e.to_json() for e in state.events_for(seat)],
        "outcome": live.adjudicated
        if live.adjudicated is not None
        else live.game.outcome_seen_by(state, seat),
    }

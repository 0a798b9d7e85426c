"""Work the server does on its own: bots thinking in their seats, and deadlines.

Both survive a restart because they start from the database: on start every match
whose awaited seat is a bot gets a driver, and every unfired deadline is still there.
"""

from __future__ import annotations

import concurrent.futures
import logging
import threading
import time
from typing import Any

from sqlalchemy import select, update

from gladiatorium.core import Action, GladiatoriumError, Observation
from gladiatorium.core.rng import Rng, derive_seed
from gladiatorium.server.config import Settings
from gladiatorium.server.db import Deadline, Match, MatchSeat, utcnow
from gladiatorium.server.service import Live, MatchService, ServiceError

log = logging.getLogger("gladiatorium.workers")


#: how often a driver tries a match again after an unexpected failure
DRIVER_TRIES = 4


class BotDrivers:
    """One driver at a time per match moves its bots until a person is awaited."""

    def __init__(self, service: MatchService, settings: Settings) -> None:
        self.service = service
        self.settings = settings
        self._pool = concurrent.futures.ThreadPoolExecutor(4, thread_name_prefix="bot-driver")
        self._thinkers = concurrent.futures.ThreadPoolExecutor(4, thread_name_prefix="bot-think")
        self._driving: set[str] = set()
        self._again: set[str] = set()
        self._guard = threading.Lock()
        self.stopping = threading.Event()

    def kick(self, match_id: str) -> None:
        """Make sure a driver looks at ``match_id`` (cheap when no bot is awaited)."""
        if not self.service.has_bot_seat(match_id):
            return
        with self._guard:
            if match_id in self._driving:
                self._again.add(match_id)
                return
            self._driving.add(match_id)
        self._pool.submit(self._drive, match_id)

    def resume(self) -> None:
        """After a start: drive every running match that has a bot seat."""
        with self.service.sessions() as session:
            ids = session.scalars(
                select(Match.id)
                .join(MatchSeat, MatchSeat.match_id == Match.id)
                .where(Match.status == "running", MatchSeat.kind == "bot")
                .distinct()
            ).all()
        for match_id in ids:
            self.kick(match_id)

    def _drive(self, match_id: str) -> None:
        failures = 0
        while not self.stopping.is_set():
            try:
                moved = self._move_once(match_id)
            except Exception:  # a driver must never take the server down
                failures += 1
                log.exception("match=%s bot driver failed (%d)", match_id, failures)
                if failures < DRIVER_TRIES and not self.stopping.wait(0.2 * 2**failures):
                    continue  # a passing fault (a busy database): look again
                moved = False
            if not moved:
                with self._guard:
                    if match_id not in self._again:
                        self._driving.discard(match_id)
                        return
                    self._again.discard(match_id)

    def _move_once(self, match_id: str) -> bool:
        live = self.service.live(match_id)
        with live.lock:
            seats = live.bot_seats_awaited()
            if not seats:
                return False
            seat, ply = seats[0], live.ply
            bot = self.service.bot_for(live, seat)
            observation = Observation.for_bot(live.game, live.state, seat, bot)
        if self.settings.bot_delay_seconds:
            self.stopping.wait(self.settings.bot_delay_seconds)
        action = self._think(live, bot, observation, ply)
        try:
            self.service.submit_action(match_id, seat, action, ply)
        except ServiceError as err:
            log.info("match=%s bot %s move dropped: %s", match_id, seat, err)
        return True

    def _think(self, live: Live, bot: Any, observation: Observation, ply: int) -> Action:
        """The bot's choice, made from the seat's observation within the thinking-time
        cap, else a random legal action."""
        seat = observation.seat
        future = self._thinkers.submit(bot.choose, observation)
        try:
            return future.result(timeout=self.settings.bot_think_seconds)
        except concurrent.futures.TimeoutError:
            log.warning("match=%s bot %s over its thinking time; random move", live.id, seat)
        except GladiatoriumError as err:
            log.warning("match=%s bot %s failed (%s); random move", live.id, seat, err)
        legal = list(observation.legal_actions)
        return Rng(derive_seed(live.state.seed, "fallback", ply)).choice(legal)

    def close(self) -> None:
        self.stopping.set()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._thinkers.shutdown(wait=False, cancel_futures=True)


class Scheduler(threading.Thread):
    """Fires due deadlines; a deadline is claimed in the database, so that of several
    server processes exactly one fires it."""

    def __init__(self, service: MatchService, settings: Settings) -> None:
        super().__init__(name="gladiatorium-deadlines", daemon=True)
        self.service = service
        self.settings = settings
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.wait(self.settings.scheduler_interval):
            try:
                self.tick()
            except Exception:
                log.exception("deadline scheduler tick failed")

    def tick(self) -> int:
        """Fire every due deadline now; returns how many fired."""
        with self.service.sessions() as session:
            due = session.scalars(
                select(Deadline)
                .where(Deadline.fired.is_(False), Deadline.due_at <= utcnow())
                .order_by(Deadline.due_at)
            ).all()
        fired = 0
        for deadline in due:
            with self.service.sessions.begin() as session:
                claimed = session.execute(
                    update(Deadline)
                    .where(Deadline.id == deadline.id, Deadline.fired.is_(False))
                    .values(fired=True)
                )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                continue
            started = time.monotonic()
            try:
                self.service.fire(deadline)
            except GladiatoriumError as err:
                log.warning("match=%s deadline failed: %s", deadline.match_id, err)
            fired += 1
            log.info(
                "match=%s %s deadline fired in %.1f ms",
                deadline.match_id,
                deadline.kind,
                (time.monotonic() - started) * 1000,
            )
        return fired

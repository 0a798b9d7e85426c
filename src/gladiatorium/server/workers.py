"""Work the server does on its own: bots thinking in their seats, and deadlines.

Both survive a restart because they start from the database: on start every running
match with a bot seat joins the drivers' queue, and every unfired deadline is still there
(a deadline is marked fired only in the transaction that applies it).
"""

from __future__ import annotations

import concurrent.futures
import heapq
import itertools
import logging
import threading
import time
from typing import Any

from sqlalchemy import select

from gladiatorium.core import Action, Bot, GladiatoriumError, Observation, Seat, get_bot
from gladiatorium.core.rng import Rng, derive_seed
from gladiatorium.server.config import Settings
from gladiatorium.server.db import Deadline, Match, MatchSeat, utcnow
from gladiatorium.server.errors import Clash, ServiceError
from gladiatorium.server.service import MatchService
from gladiatorium.server.store import Live, MatchStore

log = logging.getLogger("gladiatorium.workers")


#: bot actions carried out at once (each for a different match)
DRIVERS = 4
#: how often a match is tried again after an unexpected failure
DRIVER_TRIES = 4


class BotDrivers:
    """Bots act one action at a time per match, in turn, from one queue.

    A match joins the queue when a bot seat is awaited (``kick``), ready at the time it
    joined plus the bot delay (not before: people can follow a match of bots). The
    drivers take the match that has been ready longest, make one bot action, and put
    the match at the back of the queue if a bot is still awaited. So a match waits
    behind at most one action of each other match, whatever runs beside it, and a
    match is never in the queue twice nor driven by two drivers at once.
    """

    def __init__(self, service: MatchService, settings: Settings) -> None:
        self.service = service
        self.settings = settings
        self._thinkers = concurrent.futures.ThreadPoolExecutor(4, thread_name_prefix="bot-think")
        #: (ready at, arrival number, match id): the earliest first
        self._queue: list[tuple[float, int, str]] = []
        self._arrivals = itertools.count()
        #: matches in the queue or being driven now
        self._driving: set[str] = set()
        #: matches kicked while being driven: look again after this action
        self._again: set[str] = set()
        #: failures in a row, per match
        self._failures: dict[str, int] = {}
        self._ready = threading.Condition()
        self._threads: list[threading.Thread] = []
        self.stopping = threading.Event()

    def kick(self, match_id: str) -> None:
        """Make sure a driver looks at ``match_id`` (cheap when no bot is awaited)."""
        if not self.service.store.has_bot_seat(match_id):
            return
        with self._ready:
            if match_id in self._driving:
                self._again.add(match_id)
                return
            self._driving.add(match_id)
            self._enqueue(match_id, self._pause(match_id))
            self._start()

    def resume(self) -> None:
        """After a start: drive every running match that has a bot seat."""
        with self.service.store.sessions() as session:
            ids = session.scalars(
                select(Match.id)
                .join(MatchSeat, MatchSeat.match_id == Match.id)
                .where(Match.status == "running", MatchSeat.kind == "bot")
                .distinct()
            ).all()
        for match_id in ids:
            self.kick(match_id)

    def _pause(self, match_id: str) -> float:
        """The seconds a bot waits before each action of ``match_id``: the match's
        ``bot_seconds`` setting, else the server's ``bot_delay_seconds``."""
        try:
            store = self.service.store
            live = store.held(match_id) or store.live(match_id)
            chosen = live.settings.get("bot_seconds")
        except Exception:  # a match gone or not loadable: the server's pause
            chosen = None
        return self.settings.bot_delay_seconds if chosen is None else float(chosen)

    def _enqueue(self, match_id: str, delay: float) -> None:
        """Join the back of the queue (the caller holds ``_ready``)."""
        heapq.heappush(self._queue, (time.monotonic() + delay, next(self._arrivals), match_id))
        self._ready.notify()

    def _start(self) -> None:
        """Start the driver threads on the first kick (the caller holds ``_ready``)."""
        while len(self._threads) < DRIVERS and not self.stopping.is_set():
            thread = threading.Thread(
                target=self._work, name=f"bot-driver-{len(self._threads)}", daemon=True
            )
            self._threads.append(thread)
            thread.start()

    def _next(self) -> str | None:
        """The match ready longest, once its time has come; None when stopping."""
        with self._ready:
            while not self.stopping.is_set():
                if self._queue:
                    wait = self._queue[0][0] - time.monotonic()
                    if wait <= 0:
                        return heapq.heappop(self._queue)[2]
                    self._ready.wait(wait)
                else:
                    self._ready.wait()
        return None

    def _work(self) -> None:
        while (match_id := self._next()) is not None:
            self._step(match_id)

    def _step(self, match_id: str) -> None:
        """One bot action of ``match_id``, then back in the queue or out of it."""
        delay = self._pause(match_id)
        try:
            moved = self._move_once(match_id)
            self._failures.pop(match_id, None)
        except Exception:  # a driver must never take the server down
            failures = self._failures[match_id] = self._failures.get(match_id, 0) + 1
            log.exception("match=%s bot driver failed (%d)", match_id, failures)
            moved = failures < DRIVER_TRIES  # a passing fault (a busy database): look again
            delay = max(delay, 0.2 * 2**failures)
            if not moved:
                self._failures.pop(match_id, None)
        with self._ready:
            if (moved or match_id in self._again) and not self.stopping.is_set():
                self._again.discard(match_id)
                self._enqueue(match_id, delay)
            else:
                self._again.discard(match_id)
                self._driving.discard(match_id)

    def _move_once(self, match_id: str) -> bool:
        """One action of the first bot awaited; False when no bot is awaited."""
        live = self.service.store.live(match_id)
        with live.lock:
            seats = live.bot_seats_awaited()
            if not seats:
                return False
            seat, ply = seats[0], live.ply
            bot = bot_for(live, seat)
            observation = Observation.for_bot(live.game, live.state, seat, bot)
        action = self._think(live, bot, observation, ply)
        try:
            self.service.play.submit_action(match_id, seat, action, ply)
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
        with self._ready:
            self._ready.notify_all()
        self._thinkers.shutdown(wait=False, cancel_futures=True)


def bot_for(live: Live, seat: Seat) -> Bot:
    """The bot in ``seat`` of the match, made once per match in memory, its randomness
    drawn from the match's seed, the seat and the bot's name."""
    bot = live.bots.get(seat)
    if bot is None:
        name = live.seats[seat].bot or "random"
        bot = get_bot(live.game, name)(Rng(derive_seed(live.state.seed, "bot", seat, name)))
        live.bots[seat] = bot
    return bot


class Periodic(threading.Thread):
    """A daemon thread that calls :meth:`tick` every ``interval`` seconds until
    ``stopping`` is set; a failing tick is logged, and the next one comes as usual."""

    def __init__(self, name: str, interval: float) -> None:
        super().__init__(name=name, daemon=True)
        self.interval = interval
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.wait(self.interval):
            try:
                self.tick()
            except Exception:
                log.exception("%s: a tick failed", self.name)

    def tick(self) -> object:
        raise NotImplementedError


class Sweeper(Periodic):
    """Lets idle matches leave memory (:meth:`MatchStore.sweep`)."""

    def __init__(self, store: MatchStore, interval: float) -> None:
        super().__init__("gladiatorium-sweeper", interval)
        self.store = store

    def tick(self) -> None:
        self.store.sweep()


class Scheduler(Periodic):
    """Fires due deadlines. A deadline is claimed in the database in the transaction
    that applies it (:meth:`Deadlines.fire`): of several server processes exactly
    one fires it, and a process killed on the way leaves it to fire after a restart."""

    def __init__(self, service: MatchService, settings: Settings) -> None:
        super().__init__("gladiatorium-deadlines", settings.scheduler_interval)
        self.service = service
        self.settings = settings

    def tick(self) -> int:
        """Fire every due deadline now; returns how many fired."""
        with self.service.store.sessions() as session:
            due = session.scalars(
                select(Deadline)
                .where(Deadline.fired.is_(False), Deadline.due_at <= utcnow())
                .order_by(Deadline.due_at)
            ).all()
        fired = 0
        for deadline in due:
            started = time.monotonic()
            try:
                if not self.service.deadlines.fire(deadline):
                    continue  # another process fired it
            except Clash:
                # another process appended first: the claim was rolled back with the
                # time-outs; the next tick tries again on the caught-up match
                log.info("match=%s deadline met a concurrent action", deadline.match_id)
                continue
            except GladiatoriumError as err:
                # applying it fails for good (the match is gone or refuses the
                # time-outs): mark it fired rather than fail at every tick
                log.warning("match=%s deadline failed: %s", deadline.match_id, err)
                if not self.service.deadlines.claim_alone(deadline.id):
                    continue
            fired += 1
            log.info(
                "match=%s %s deadline fired in %.1f ms",
                deadline.match_id,
                deadline.kind,
                (time.monotonic() - started) * 1000,
            )
        return fired

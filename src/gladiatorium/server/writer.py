"""Group commit: the steps of different matches that wait to be written at the same
moment share one transaction, so one commit (one flush of the database's log) serves
them all, as databases themselves do with a commit delay. Persist-before-acknowledge
holds: a step's caller is answered only after the transaction holding its step
committed.

No thread of its own writes: a caller whose step waits while nobody writes becomes
the writer (the leader) and writes the steps waiting, oldest first and its own among
them, in transactions of up to :data:`GROUP_MOST` steps each in the order of their
match ids (every process locks rows in one order, so two processes' groups cannot
deadlock), commits, answers each; once its own step is answered it lets go and wakes
the oldest step still waiting, whose caller leads next. A leader that wrote for
everyone as long as steps kept coming would hold its own caller's answer back for as
long as the load lasts (a benchmark's action waited the whole 20 s of its run). When
the group's transaction fails, each of its steps is written again alone, so that a
step that fails (another process appended the same ply first) fails alone and the
others are kept. No step waits for a group to form: an uncontended step is written at
once by its own caller, and groups form by themselves when steps come faster than
commits.

The leaders write on one connection the writer keeps (only the leader writes, so one is
enough): a transaction takes no connection from the pool, whose liveness query
(``pool_pre_ping``) was a round trip to the database per step. A connection the
database dropped (a restart) fails its transaction, which is written again once on a
new one: the failed transaction committed nothing, unless the connection went during
the ``COMMIT`` itself, and then the step's second append clashes with its first (the
same match and ply) and is refused as any clash is, its match read again."""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

log = logging.getLogger("gladiatorium.match")

T = TypeVar("T")

#: the most steps one transaction holds
GROUP_MOST = 64


@dataclass
class _Step(Generic[T]):
    """One step waiting to be written: its transaction's work, the match it belongs to
    (the order of a group), its answer, and the event its caller waits on (set when it
    is answered, or when it is its turn to lead)."""

    work: Callable[[Session], T]
    match_id: str
    done: Future[T] = field(default_factory=Future)
    woken: threading.Event = field(default_factory=threading.Event)


class Writer:
    """Writes steps in their own transaction (``grouped`` False) or in groups, each
    written by the caller leading at the time (see the module's description). Counts
    the transactions and steps written, for tests and benchmarks."""

    def __init__(self, sessions: sessionmaker[Session], grouped: bool = True) -> None:
        self.sessions = sessions
        self.grouped = grouped
        #: steps not yet taken into a group, the oldest first (only the leader takes)
        self._waiting: deque[_Step[Any]] = deque()
        #: held by the caller writing for everyone (the leader)
        self._leading = threading.Lock()
        #: the leaders' connection (see the module's description), made when first needed
        self._connection: Connection | None = None
        #: transactions committed and steps written in them, by this writer
        self.transactions = 0
        self.steps = 0

    def write(self, match_id: str, work: Callable[[Session], T]) -> T:
        """Run ``work`` in a transaction that commits before this returns; its result,
        or its exception."""
        step: _Step[T] = _Step(work, match_id)
        if not self.grouped:
            return self._alone(step)
        self._waiting.append(step)
        while not step.done.done():
            if self._leading.acquire(blocking=False):
                try:
                    self._lead(step)
                finally:
                    self._leading.release()
                self._hand_over()
            else:
                step.woken.wait()
                step.woken.clear()
        return step.done.result()

    def close(self) -> None:
        """Give the leaders' connection back (once the step being written, if any, is);
        every step is written by a caller before it returns, so nothing else waits."""
        with self._leading:
            self._let_go()

    def _lead(self, mine: _Step[Any]) -> None:
        """Write groups of the oldest steps until ``mine`` is answered (it waits in
        the queue until then: only the leader takes from it)."""
        while not mine.done.done():
            group = [self._waiting.popleft() for _ in range(min(GROUP_MOST, len(self._waiting)))]
            self._write_group(group)

    def _hand_over(self) -> None:
        """After letting go: wake the oldest step still waiting, so that its caller
        leads (a step put while the lock was held found it taken and waits to be told;
        one put after this look finds the lock free and leads by itself)."""
        try:
            self._waiting[0].woken.set()
        except IndexError:
            return

    def _write_group(self, group: list[_Step[Any]]) -> None:
        if len(group) == 1:
            self._answer(group[0])
            return
        group.sort(key=lambda step: step.match_id)
        try:
            results = self._transaction(lambda session: [step.work(session) for step in group])
        except Exception as err:  # one step failed: each is written again, alone
            log.info("a group of %d steps failed (%s); writing each alone", len(group), err)
            for step in group:
                self._answer(step)
            return
        self.transactions += 1
        self.steps += len(group)
        for step, result in zip(group, results, strict=True):
            step.done.set_result(result)
            step.woken.set()

    def _answer(self, step: _Step[Any]) -> None:
        try:
            step.done.set_result(self._alone(step))
        except BaseException as err:  # the caller gets it, as if it had written itself
            step.done.set_exception(err)
        step.woken.set()

    def _alone(self, step: _Step[T]) -> T:
        if self.grouped:  # the leader, on the writer's connection
            result = self._transaction(step.work)
        else:  # any caller, on a connection of the pool
            with self.sessions.begin() as session:
                result = step.work(session)
        self.transactions += 1
        self.steps += 1
        return result

    def _transaction(self, work: Callable[[Session], T]) -> T:
        """``work`` in a transaction on the leaders' connection, committed; written again
        once on a new connection when the database dropped this one (the leader lock is
        held)."""
        for attempt in (1, 2):
            if self._connection is None:
                bind = self.sessions.kw.get("bind")
                assert isinstance(bind, Engine), "the writer's sessions are bound to an engine"
                self._connection = bind.connect()
            try:
                with self.sessions(bind=self._connection) as session, session.begin():
                    return work(session)
            except DBAPIError as err:
                if not (err.connection_invalidated or self._connection.invalidated):
                    raise  # a refusal (a clash, say): the transaction rolled back
                self._let_go()
                if attempt == 2:
                    raise
                log.warning("the database dropped the writer's connection; writing again")
        raise AssertionError("unreachable")

    def _let_go(self) -> None:
        """Close the leaders' connection (the next transaction makes a new one)."""
        if self._connection is not None:
            connection, self._connection = self._connection, None
            connection.close()

"""Group commit: the steps of different matches that wait to be written at the same
moment share one transaction, so one commit (one flush of the database's log) serves
them all, as databases themselves do with a commit delay. Persist-before-acknowledge
holds: a step's caller is answered only after the transaction holding its step
committed.

No thread of its own writes: a caller whose step waits while nobody writes becomes
the writer (the leader) and writes every step waiting, its own among them, in one
transaction in the order of their match ids (every process locks rows in one order, so
two processes' groups cannot deadlock), commits, answers each, and goes on while steps
wait; the others wait for their answer. When the group's transaction fails, each of
its steps is written again alone, so that a step that fails (another process appended
the same ply first) fails alone and the others are kept. No step waits for a group to
form: an uncontended step is written at once by its own caller, and groups form by
themselves when steps come faster than commits."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from sqlalchemy.orm import Session, sessionmaker

log = logging.getLogger("gladiatorium.match")

T = TypeVar("T")

#: the most steps one transaction holds
GROUP_MOST = 64


@dataclass
class _Step(Generic[T]):
    """One step waiting to be written: its transaction's work, the match it belongs to
    (the order of a group), and where its caller waits."""

    work: Callable[[Session], T]
    match_id: str
    done: Future[T] = field(default_factory=Future)


class Writer:
    """Writes steps in their own transaction (``grouped`` False) or in groups, each
    written by the caller leading at the time (see the module's description). Counts
    the transactions and steps written, for tests and benchmarks."""

    def __init__(self, sessions: sessionmaker[Session], grouped: bool = True) -> None:
        self.sessions = sessions
        self.grouped = grouped
        self._waiting: queue.SimpleQueue[_Step[Any]] = queue.SimpleQueue()
        #: held by the caller writing for everyone (the leader)
        self._leading = threading.Lock()
        #: transactions committed and steps written in them, by this writer
        self.transactions = 0
        self.steps = 0

    def write(self, match_id: str, work: Callable[[Session], T]) -> T:
        """Run ``work`` in a transaction that commits before this returns; its result,
        or its exception."""
        step: _Step[T] = _Step(work, match_id)
        if not self.grouped:
            return self._alone(step)
        self._waiting.put(step)
        self._drain()
        return step.done.result()

    def close(self) -> None:
        """Nothing to stop: every step is written by a caller before it returns."""

    def _drain(self) -> None:
        """Write what waits unless someone else does. The leader looks again after
        letting go: a step put while it held the lock, whose caller could not lead, is
        then written by it (or by whoever leads next, who finds it waiting)."""
        while self._leading.acquire(blocking=False):
            try:
                self._lead()
            finally:
                self._leading.release()
            if self._waiting.empty():
                return

    def _lead(self) -> None:
        while True:
            group: list[_Step[Any]] = []
            while len(group) < GROUP_MOST:
                try:
                    group.append(self._waiting.get_nowait())
                except queue.Empty:
                    break
            if not group:
                return
            self._write_group(group)

    def _write_group(self, group: list[_Step[Any]]) -> None:
        if len(group) == 1:
            self._answer(group[0])
            return
        group.sort(key=lambda step: step.match_id)
        try:
            with self.sessions.begin() as session:
                results = [step.work(session) for step in group]
        except Exception as err:  # one step failed: each is written again, alone
            log.info("a group of %d steps failed (%s); writing each alone", len(group), err)
            for step in group:
                self._answer(step)
            return
        self.transactions += 1
        self.steps += len(group)
        for step, result in zip(group, results, strict=True):
            step.done.set_result(result)

    def _answer(self, step: _Step[Any]) -> None:
        try:
            step.done.set_result(self._alone(step))
        except BaseException as err:  # the caller gets it, as if it had written itself
            step.done.set_exception(err)

    def _alone(self, step: _Step[T]) -> T:
        with self.sessions.begin() as session:
            result = step.work(session)
        self.transactions += 1
        self.steps += 1
        return result

"""Telling connections that a match changed, in this process and in every other
server process on the same PostgreSQL database (LISTEN/NOTIFY).

A notice carries only the match id (and, between processes, a public word on what
changed: a round's deadline set): each connection then builds its own seat's body, so
nothing a seat may not see ever travels through the hub.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import threading
from collections import defaultdict
from collections.abc import Callable

import psycopg

log = logging.getLogger("gladiatorium.hub")

CHANNEL = "gladiatorium"
#: names each process in its notices, by process id, so that its listener skips its own
#: (the hub was told already, in process): one body per connection per change, not two;
#: a forked server process (``serve --workers``) gets a name of its own
_ORIGINS: dict[int, str] = {}


def origin() -> str:
    """This process's name in the notices it sends."""
    pid = os.getpid()
    name = _ORIGINS.get(pid)
    if name is None:
        name = _ORIGINS.setdefault(pid, secrets.token_hex(6))
    return name


#: what a notice may say changed beyond "something": only a round's deadline was set
DEADLINE = "deadline"
#: ... only steps were appended (a copy in memory reads the actions it lacks, nothing else)
STEP = "step"


def notice(match_id: str, what: str = "") -> str:
    """The NOTIFY payload for a change of ``match_id`` made by this process; ``what``:
    a word saying what changed where it is nothing a copy catches up on by itself
    (:data:`DEADLINE`: a round's deadline set, which the pages fetch again)."""
    return f"{match_id} {origin()} {what}" if what else f"{match_id} {origin()}"


class Changes:
    """The matches that changed since a watcher last looked (a person's socket, which
    then asks whether one of them is theirs), and an event set when there are some."""

    def __init__(self) -> None:
        self.ids: set[str] = set()
        self.event = asyncio.Event()

    def take(self) -> set[str]:
        """The changed matches, forgotten: the next change sets the event again."""
        ids, self.ids = self.ids, set()
        self.event.clear()
        return ids


class Hub:
    """Subscribers per match: asyncio queues that hold at most one pending notice; the
    watchers of every match (:class:`Changes`); and the open sockets per session (the
    digest of a login token), told when it is logged out."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._subscribers: dict[str, set[asyncio.Queue[None]]] = defaultdict(set)
        self._sessions: dict[str, set[asyncio.Event]] = defaultdict(set)
        self._watchers: set[Changes] = set()

    def watch_all(self) -> Changes:
        """Told of every match's change (a person's socket: its turns may have changed)."""
        changes = Changes()
        self._watchers.add(changes)
        return changes

    def unwatch_all(self, changes: Changes) -> None:
        self._watchers.discard(changes)

    def watch_session(self, digest: str) -> asyncio.Event:
        """An event set when the session ``digest`` ends (its socket then closes, 4401)."""
        ended = asyncio.Event()
        self._sessions[digest].add(ended)
        return ended

    def unwatch_session(self, digest: str, ended: asyncio.Event) -> None:
        self._sessions[digest].discard(ended)
        if not self._sessions[digest]:
            del self._sessions[digest]

    def end_session(self, digest: str) -> None:
        """Thread-safe: close every socket of session ``digest`` in this process (a logout
        here, or in another process: told by the listener, ``accounts.LOGOUTS``)."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._end, digest)

    def _end(self, digest: str) -> None:
        for ended in self._sessions.get(digest, ()):
            ended.set()

    def subscribe(self, match_id: str) -> asyncio.Queue[None]:
        queue: asyncio.Queue[None] = asyncio.Queue(maxsize=1)
        self._subscribers[match_id].add(queue)
        return queue

    def unsubscribe(self, match_id: str, queue: asyncio.Queue[None]) -> None:
        self._subscribers[match_id].discard(queue)
        if not self._subscribers[match_id]:
            del self._subscribers[match_id]

    def notify(self, match_id: str) -> None:
        """Thread-safe: wake every connection of ``match_id`` in this process."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._wake, match_id)

    def _wake(self, match_id: str) -> None:
        for queue in self._subscribers.get(match_id, ()):
            if queue.empty():
                queue.put_nowait(None)
        for changes in self._watchers:
            changes.ids.add(match_id)
            changes.event.set()


class PostgresListener(threading.Thread):
    """LISTENs on the database and wakes local connections for changes committed by
    other processes (this process's own notices are skipped)."""

    def __init__(
        self,
        conninfo: str,
        on_notice: Callable[[str, str], None],
        also: dict[str, Callable[[str], None]] | None = None,
        on_listening: Callable[[bool], None] | None = None,
    ) -> None:
        super().__init__(name="gladiatorium-listen", daemon=True)
        self.conninfo = conninfo
        #: told each other process's notice: the match, and what changed ('' or a word,
        #: :func:`notice`)
        self.on_notice = on_notice
        #: other channels listened to, each with what to do with a payload (talk's)
        self.also = dict(also or {})
        self.stopping = threading.Event()
        self.ready = threading.Event()
        #: told True when the listener listens, False when its connection is lost
        self.on_listening = on_listening or (lambda _listening: None)

    def run(self) -> None:
        own = origin()
        while not self.stopping.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    for channel in self.also:
                        conn.execute(f"LISTEN {channel}")
                    self.on_listening(True)
                    self.ready.set()
                    while not self.stopping.is_set():
                        for message in conn.notifies(timeout=0.5):
                            if message.channel in self.also:
                                self.also[message.channel](message.payload)
                                continue
                            match_id, _, rest = message.payload.partition(" ")
                            sender, _, what = rest.partition(" ")
                            if sender != own:
                                self.on_notice(match_id, what)
            except psycopg.Error as err:
                self.on_listening(False)
                log.warning("listen connection lost (%s); reconnecting", err)
                self.stopping.wait(1.0)

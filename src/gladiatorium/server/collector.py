"""The garbage collector of a server process. Python's full collections walk every
object the process tracks, and a server holding a thousand live matches and their
connections tracks millions: a pause of hundreds of milliseconds every few tens of
seconds, which every action in flight waits out (benchmarks/server_load.py counts the
pauses). What a server keeps is long-lived (matches, connections, the code itself), so
every second the objects tracked so far are frozen (``gc.freeze``: the collector no
longer walks them; objects freed by their reference count are freed as ever), and
only what is newer is collected. Garbage made of cycles among frozen objects waits for
the full collection made every ``full_seconds``, on purpose, with its size logged.

Used by ``gladiatorium serve`` only (a test process keeps Python's own collector)."""

from __future__ import annotations

import gc
import logging
import time

from gladiatorium.server.workers import Periodic

log = logging.getLogger("gladiatorium.server")

#: seconds between two freezes of what the process tracks
FREEZE_EVERY = 1.0


class Collector(Periodic):
    """Freezes what the process tracks every second; a full collection every
    ``full_seconds`` (the frozen objects thawed, collected, and frozen again)."""

    def __init__(self, full_seconds: float) -> None:
        super().__init__("gladiatorium-collector", FREEZE_EVERY)
        self.full_seconds = full_seconds
        self.last_full = time.monotonic()

    def tick(self) -> None:
        if time.monotonic() - self.last_full >= self.full_seconds:
            self.full()
        gc.freeze()

    def full(self) -> int:
        """Collect everything, the frozen objects included; how many were garbage."""
        started = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        self.last_full = time.monotonic()
        took = (time.perf_counter() - started) * 1000
        log.info("a full collection freed %d objects in %.0f ms", freed, took)
        return freed

"""The garbage collector of a server process (server/collector.py): what it holds is
frozen every second, and garbage among frozen objects waits for the full collection,
which frees it."""

from __future__ import annotations

import gc
import weakref

from gladiatorium.server.collector import Collector


class Node:
    """A part of a cycle (freed only by a collection, not by reference counts)."""

    def __init__(self) -> None:
        self.other: Node | None = None


def test_a_cycle_frozen_waits_for_the_full_collection() -> None:
    collector = Collector(full_seconds=3600.0)
    try:
        first, second = Node(), Node()
        first.other, second.other = second, first
        watch = weakref.ref(first)
        collector.tick()  # frozen
        assert gc.get_freeze_count() > 0
        del first, second
        gc.collect()
        assert watch() is not None  # frozen: Python's collections leave it alone
        assert collector.full() >= 2
        assert watch() is None
        assert gc.get_freeze_count() > 0  # frozen again after the full collection
    finally:
        gc.unfreeze()  # the test process keeps Python's own collector


def test_a_tick_past_the_period_collects_in_full() -> None:
    collector = Collector(full_seconds=0.0)
    try:
        first = Node()
        first.other = first
        watch = weakref.ref(first)
        del first
        collector.tick()
        assert watch() is None
    finally:
        gc.unfreeze()

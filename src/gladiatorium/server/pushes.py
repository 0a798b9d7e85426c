"""The frames of one match's connections built together, in one worker-thread call.

A change wakes every connection of the match (a hundred and one in a hundred-player
round), and each builds its own frame off the event loop (a large body is milliseconds
of encoding). One worker-thread call per connection made a hundred thread hand-overs
per action, each waking a thread and passing the interpreter's lock back and forth; here
the connections of a match queue their builders and one call builds every frame queued,
each with its own seat's builder (nothing is shared but the thread). Builders queued
while a call runs make the next calls: two in the first, then twice as many in each
next one up to sixteen (the first frames go out while the next are built, and the
clients decode them meanwhile), so a burst of changes costs a few calls, not one per
connection per change; matches do not wait on each other.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from gladiatorium.server.threads import Threads

#: builders per worker-thread call: a hundred seats' frames go out in a few calls, the
#: first sent while the next are built (one call for all would hold every frame back
#: until the last was built)
CALL_SIZE = 16

#: builders in the first call of a burst, doubled in each next call up to
#: :data:`CALL_SIZE`: the first frames go out as soon as they are built, and the
#: clients decode them while the server builds the rest
FIRST_CALL_SIZE = 2

#: a builder's outcome: True and its value, or False and the exception it raised
Outcome = tuple[bool, Any]


class Pushes:
    """Builders of frames waiting per match, and the matches whose call is running."""

    def __init__(self, threads: Threads) -> None:
        self._threads = threads
        self._waiting: dict[str, list[tuple[Callable[[], Any], asyncio.Future[Any]]]] = {}
        #: the call of each match whose builders are being built (kept: a task nobody
        #: holds may be collected)
        self._running: dict[str, asyncio.Task[None]] = {}

    async def build(self, match_id: str, builder: Callable[[], Any]) -> Any:
        """What ``builder()`` returns (or raises), run in a worker thread together with
        the other builders of ``match_id`` queued by then."""
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(match_id, []).append((builder, done))
        if match_id not in self._running:
            self._running[match_id] = asyncio.ensure_future(self._drain(match_id))
        return await done

    async def _drain(self, match_id: str) -> None:
        queued: list[tuple[Callable[[], Any], asyncio.Future[Any]]] = []
        size = FIRST_CALL_SIZE
        try:
            while queued := self._next(match_id, size):
                size = min(2 * size, CALL_SIZE)
                outcomes = await self._threads.run(_run_all, [b for b, _ in queued])
                for (_, done), (ok, value) in zip(queued, outcomes, strict=True):
                    if done.done():  # its connection went away meanwhile
                        continue
                    if ok:
                        done.set_result(value)
                    else:
                        done.set_exception(value)
        except BaseException as err:  # the call itself failed: tell whoever still waits
            for _, done in [*queued, *self._waiting.pop(match_id, [])]:
                if done.done():
                    continue
                if isinstance(err, Exception):
                    done.set_exception(err)
                else:  # cancelled (the server stopping)
                    done.cancel()
            raise
        finally:
            self._running.pop(match_id, None)

    def _next(
        self, match_id: str, size: int
    ) -> list[tuple[Callable[[], Any], asyncio.Future[Any]]]:
        """The next call's builders: at most ``size``, the oldest first."""
        waiting = self._waiting.get(match_id, [])
        taken, rest = waiting[:size], waiting[size:]
        if rest:
            self._waiting[match_id] = rest
        else:
            self._waiting.pop(match_id, None)
        return taken


def _run_all(builders: list[Callable[[], Any]]) -> list[Outcome]:
    outcomes: list[Outcome] = []
    for builder in builders:
        try:
            outcomes.append((True, builder()))
        except Exception as err:  # one seat's failure is that seat's answer
            outcomes.append((False, err))
    return outcomes

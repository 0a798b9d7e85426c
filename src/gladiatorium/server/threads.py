"""The worker threads of a match socket's hot path: an action's step (its database write
waits on the disk) and the frames its connections are pushed (``server/pushes.py``).

They run on a thread pool of the server's own through asyncio's ``run_in_executor``,
not Starlette's ``run_in_threadpool``, whose every call goes through anyio's capacity
limiter, cancel scope and context lookups: at a hundred busy Pig matches that was a
tenth of the event loop's samples, and this pool gives 5 to 9 % more actions per second
of the server's CPU (docs/server.md, "The latest figures"). The rest of the server (its
HTTP routes, rarer socket messages) keeps Starlette's.

A call whose awaiting task is cancelled runs on to its end in its thread (a step is
written, or not, whole), as with anyio; its caller is told at once."""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

#: threads at most: as many as anyio lends Starlette's calls by default
SIZE = 40


class Threads:
    """A pool of worker threads, started as calls need them."""

    def __init__(self, size: int = SIZE) -> None:
        self._pool = ThreadPoolExecutor(size, thread_name_prefix="gladiatorium-socket")

    async def run(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``function(*args, **kwargs)`` in a worker thread, in a copy of the caller's
        context (as Starlette's calls are)."""
        call = functools.partial(contextvars.copy_context().run, function, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._pool, call)

    def close(self) -> None:
        """Start no more calls; the threads end once their calls have."""
        self._pool.shutdown(wait=False)

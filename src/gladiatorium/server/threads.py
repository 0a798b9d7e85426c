"""The worker threads of a match socket's hot path: an action's step (its database write
waits on the disk) and the frames its connections are pushed (``server/pushes.py``).

They run on a thread pool of the server's own, not Starlette's ``run_in_threadpool``,
whose every call goes through anyio's capacity limiter, cancel scope and context
lookups (at a hundred busy Pig matches a tenth of the event loop's samples), nor
asyncio's ``run_in_executor``, whose every call makes a ``concurrent.futures.Future``
(with a lock and a condition of its own) and chains it to an asyncio future: a sixth of
the event loop's samples at a hundred busy Pig matches (docs/server.md, "The latest
figures"). Here a call is put on a queue with the asyncio future it settles, and its
thread hands the outcome back with one ``call_soon_threadsafe``. The rest of the server
(its HTTP routes, rarer socket messages) keeps Starlette's.

A call whose awaiting task is cancelled runs on to its end in its thread (a step is
written, or not, whole), as with anyio; its caller is told at once."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import queue
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

#: threads at most: as many as anyio lends Starlette's calls by default
SIZE = 40

#: a call waiting for a thread: where to answer, and what to run
Call = tuple[
    asyncio.AbstractEventLoop, "asyncio.Future[Any]", contextvars.Context, Callable[[], Any]
]


class Threads:
    """A pool of worker threads, started as calls need them (a new one only when no
    thread is idle), at most ``size``."""

    def __init__(self, size: int = SIZE) -> None:
        self._size = size
        self._calls: queue.SimpleQueue[Call | None] = queue.SimpleQueue()
        self._idle = threading.Semaphore(0)  # released by each thread waiting for a call
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._closed = False

    async def run(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``function(*args, **kwargs)`` in a worker thread, in a copy of the caller's
        context (as Starlette's calls are)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        context = contextvars.copy_context()
        with self._lock:  # never behind the calls that end the threads
            if self._closed:
                raise RuntimeError("the worker threads are closed")
            self._calls.put((loop, done, context, lambda: function(*args, **kwargs)))
        if not self._idle.acquire(blocking=False):
            self._start_one()
        return await done

    def _start_one(self) -> None:
        with self._lock:
            if len(self._threads) >= self._size:
                return  # the call waits for a thread to be free
            name = f"gladiatorium-socket_{len(self._threads)}"
            thread = threading.Thread(target=self._work, name=name, daemon=True)
            self._threads.append(thread)
        thread.start()

    def _work(self) -> None:
        while (call := self._calls.get()) is not None:
            loop, done, context, function = call
            try:
                outcome: tuple[bool, Any] = (True, context.run(function))
            except BaseException as err:  # the caller's to handle, as an executor does
                outcome = (False, err)
            with contextlib.suppress(RuntimeError):  # a loop closed meanwhile: nobody waits
                loop.call_soon_threadsafe(_settle, done, outcome)
            del call, loop, done, context, function, outcome
            self._idle.release()
        self._calls.put(None)  # the pool is closed: the next thread ends too

    def close(self) -> None:
        """Start no more calls; the threads end once their calls have."""
        with self._lock:  # after every call taken so far
            self._closed = True
            self._calls.put(None)


def _settle(done: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    """Give the call's outcome to its caller, unless the caller stopped waiting."""
    if done.cancelled():
        return
    ok, value = outcome
    if ok:
        done.set_result(value)
    else:
        done.set_exception(value)

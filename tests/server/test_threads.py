"""The socket's worker threads (``server/threads.py``): a call's value or exception
comes back to its caller, in a copy of the caller's context; a cancelled caller is told
at once while its call runs on to its end; no more threads than the pool's size run at
once, each started only when none is idle; a closed pool takes no more calls and its
threads end."""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time

import pytest

from gladiatorium.server.threads import Threads

CALLER = contextvars.ContextVar("caller", default="nobody")


def test_a_call_gives_its_value_or_its_exception_in_the_callers_context() -> None:
    def named(suffix: str) -> str:
        return f"{CALLER.get()}{suffix}"

    def failing() -> None:
        raise ValueError("seat 3 no longer held")

    async def scenario() -> tuple[str, BaseException | None]:
        pool = Threads()
        CALLER.set("seat 1")
        value = await pool.run(named, suffix="!")
        try:
            await pool.run(failing)
        except ValueError as err:
            return value, err
        finally:
            pool.close()
        return value, None

    value, err = asyncio.run(scenario())
    assert value == "seat 1!"
    assert isinstance(err, ValueError) and str(err) == "seat 3 no longer held"


def test_a_cancelled_caller_is_told_at_once_and_the_call_runs_to_its_end() -> None:
    began, release, ended = threading.Event(), threading.Event(), threading.Event()

    def step() -> str:
        began.set()
        release.wait(5)
        ended.set()
        return "written"

    async def scenario() -> float:
        pool = Threads()
        waiting = asyncio.ensure_future(pool.run(step))
        await asyncio.to_thread(began.wait, 5)
        started = time.monotonic()
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        told = time.monotonic() - started
        release.set()
        await asyncio.to_thread(ended.wait, 5)
        await asyncio.sleep(0.05)  # its outcome reaches a future nobody waits for
        pool.close()
        return told

    assert asyncio.run(scenario()) < 1.0
    assert ended.is_set()


def test_no_more_threads_than_its_size_and_a_new_one_only_when_none_is_idle() -> None:
    running, most = 0, 0
    lock = threading.Lock()
    names: set[str] = set()

    def slow(n: int) -> int:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
            names.add(threading.current_thread().name)
        time.sleep(0.05)
        with lock:
            running -= 1
        return n

    async def scenario() -> tuple[list[int], set[str]]:
        pool = Threads(size=2)
        values = await asyncio.gather(*(pool.run(slow, n) for n in range(6)))
        first = set(names)
        for n in range(4):  # one at a time: the idle thread takes each
            await pool.run(slow, n)
        pool.close()
        return list(values), first

    values, first = asyncio.run(scenario())
    assert values == list(range(6))
    assert most == 2 and len(first) == 2 and names == first


def test_a_closed_pool_takes_no_more_calls_and_its_threads_end() -> None:
    together = threading.Barrier(3, timeout=5)

    def met() -> threading.Thread:
        together.wait()  # three calls at once: three threads
        return threading.current_thread()

    async def scenario() -> list[threading.Thread]:
        pool = Threads()
        workers = await asyncio.gather(*(pool.run(met) for _ in range(3)))
        pool.close()
        with pytest.raises(RuntimeError, match="closed"):
            await pool.run(lambda: 8)
        return list(workers)

    workers = asyncio.run(scenario())
    assert len(set(workers)) == 3 and threading.current_thread() not in workers
    for worker in workers:
        worker.join(5)
        assert not worker.is_alive()

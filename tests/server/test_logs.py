"""A server process's log lines go through a queue to one writing thread
(``server/logs.py``): every line logged by any thread comes out, whole, formatted by the
handler as before, each thread's lines in their order; stopping writes what is queued
and gives the handlers back."""

from __future__ import annotations

import io
import logging
import threading

from gladiatorium.server.logs import log_through_a_thread


def test_lines_of_many_threads_come_out_whole_and_in_order() -> None:
    root = logging.getLogger()
    before = list(root.handlers)
    written = io.StringIO()
    mine = logging.StreamHandler(written)
    mine.setFormatter(logging.Formatter("%(name)s %(message)s"))
    for handler in before:
        root.removeHandler(handler)
    root.addHandler(mine)
    level = root.level
    root.setLevel(logging.INFO)
    try:
        lines = log_through_a_thread()
        assert mine not in root.handlers  # behind the queue now

        def log(n: int) -> None:
            for i in range(200):
                logging.getLogger(f"t{n}").info("line %d of %d", i, n)
            if n == 0:
                try:
                    raise ValueError("told in full")
                except ValueError:
                    logging.getLogger("t0").exception("a failure")

        threads = [threading.Thread(target=log, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        lines.stop()
        assert root.handlers == [mine]  # given back
    finally:
        root.handlers[:] = before
        root.setLevel(level)
    text = written.getvalue()
    for n in range(4):
        mine_only = [line for line in text.splitlines() if line.startswith(f"t{n} line")]
        assert mine_only == [f"t{n} line {i} of {n}" for i in range(200)]
    assert "t0 a failure\nTraceback (most recent call last):" in text
    assert "ValueError: told in full" in text

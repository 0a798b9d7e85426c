"""Several server processes on one port (``serve --workers N``): the parent forks the
processes before anything starts a thread, and each runs the whole server
(:func:`gladiatorium.server.app.serve`) on its own socket bound to the port with
``SO_REUSEPORT``: the kernel spreads new connections over them (by their addresses and
ports), so that no process takes them all while the others sleep. With ``--worker-ports
BASE`` each process also listens on a port of its own, ``BASE + i``: a front that routes a
match's connections to one process by the match's id (nginx's ``hash ... consistent``
over those ports) keeps each match in one process, which then never catches up on it.
They share one PostgreSQL database: every process can serve every match (it catches up
on what the others committed, told by NOTIFY), and deadlines, bots and mail are claimed
in the database, so each fires once. SQLite has no NOTIFY: several processes are refused
there."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import traceback
from collections.abc import Callable
from functools import partial
from types import FrameType

from sqlalchemy.engine import make_url

from gladiatorium.core.jobs import die_with_parent
from gladiatorium.server.config import Settings

#: connections waiting to be accepted, shared by the processes
BACKLOG = 2048


class WorkersRefused(ValueError):
    """``--workers`` asked of a setting that cannot share matches between processes."""


def check_workers(settings: Settings, workers: int) -> None:
    """Several processes need a database that tells each of the others' commits."""
    if workers < 1:
        raise WorkersRefused(f"--workers {workers}: at least 1")
    backend = make_url(settings.database_url).get_backend_name()
    if workers > 1 and backend != "postgresql":
        raise WorkersRefused(
            f"--workers {workers}: several processes share matches through PostgreSQL "
            f"(LISTEN/NOTIFY); this database is {backend}"
        )


def listening_socket(host: str, port: int, shared: bool = True) -> socket.socket:
    """A socket bound and listening: one process's on the shared port (``shared``), or
    the port of its own."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if shared:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(BACKLOG)
    return sock


def serve_processes(
    settings: Settings, host: str, port: int, workers: int, own_ports: int | None = None
) -> int:
    """Run ``workers`` server processes on ``host:port`` (and process ``i`` on port
    ``own_ports + i`` too, when given) until interrupted or until one of them exits;
    returns the exit status (the first failing process's)."""
    # the server's modules are imported once, here, before the processes are forked
    import gladiatorium.server.app  # noqa: F401

    check_workers(settings, workers)
    owns = [] if own_ports is None else [own_ports + i for i in range(workers)]
    for free in (port, *owns):  # every port is free (else: fail here, at once)
        listening_socket(host, free, shared=free == port).close()
    children: list[int] = []
    parent = os.getpid()
    for index in range(workers):
        pid = os.fork()
        if pid == 0:  # a server process: nothing of the parent's runs on
            _die_with(parent)
            own = owns[index] if owns else None
            _run_child(partial(_serve_one, settings, host, port, own))
        children.append(pid)
    ports = f"; each also on its own port, {owns[0]} to {owns[-1]}" if owns else ""
    print(
        f"Gladiatorium is serving on http://{host}:{port}/ with {workers} processes "
        f"({', '.join(map(str, children))}{ports}; Ctrl+C to stop)",
        flush=True,
    )
    return _supervise(children)


def _serve_one(settings: Settings, host: str, port: int, own: int | None) -> None:
    """One server process: its socket on the shared port, and on its own port if any."""
    from gladiatorium.server.app import serve

    sockets = [listening_socket(host, port)]
    sockets += [] if own is None else [listening_socket(host, own, shared=False)]
    serve(settings, host, port, sockets)


def _die_with(parent: int) -> None:
    """Stop this server process when the parent does, even by ``kill -9`` (which it
    cannot pass on): the kernel sends SIGTERM (Linux; elsewhere the processes outlive
    a killed parent)."""
    die_with_parent(parent, signal.SIGTERM)


def _run_child(run: Callable[[], None]) -> None:
    """A forked server process: run it, then leave without the parent's clean-up."""
    code = 0
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        run()
    except KeyboardInterrupt:
        pass
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _supervise(children: list[int]) -> int:
    """Wait for the processes; a signal to the parent is passed on to each, and when
    one process ends the others are stopped too (the port is served whole or not)."""

    def pass_on(signum: int, _frame: FrameType | None) -> None:
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signum)

    signal.signal(signal.SIGTERM, pass_on)
    signal.signal(signal.SIGINT, pass_on)
    status, left = 0, set(children)
    while left:
        try:
            pid, code = os.wait()
        except ChildProcessError:
            break
        left.discard(pid)
        exited = os.waitstatus_to_exitcode(code)
        if exited not in (0, -signal.SIGTERM, -signal.SIGINT) and status == 0:
            status = exited if exited > 0 else 1
        if left:
            pass_on(signal.SIGTERM, None)
    return status

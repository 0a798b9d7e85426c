"""``gladiatorium`` processes forked from one that has imported the program already: the
servers of the server tests, and the command lines run by test_hostile_input.py.

A server's start is about 2.5 s of CPU, two thirds of it imports (FastAPI, SQLAlchemy,
Alembic, the games); the suite starts a few hundred. Each pytest worker keeps one
preloading process (run as this file): it imports what ``serve`` imports, starts no
thread, and forks a child per server asked for. The child sets its working folder, its
environment and its log, then runs the command line exactly as the ``gladiatorium``
script does (``gladiatorium.cli.main.run``): a real server process on its own port,
as ``serve --workers`` forks its processes, whose start is the server's own (its app,
its lifespan, uvicorn). What the interpreter reads only when it starts (``PYTHONPATH``,
the hash seed) is the preloader's: one is kept per distinct set of those. A command line
is forked the same way from a preloader of the command line's modules alone, started with
the whole environment of its runs (the commands' rich consoles, made at import, read
``COLUMNS`` and ``NO_COLOR``), its input from a file and its limits (CPU, memory) set in
the child before it runs.

The tests hold a :class:`Forked` where they held a ``subprocess.Popen``: its pid (a real
process: signals, ``/proc``), and its exit status, which only its parent, the preloading
process, can collect, asked for over the pipe."""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import IO, Any

#: the modules a server imports (the command line, the app, uvicorn's protocols)
PRELOADED = (
    "gladiatorium.cli.main",
    "gladiatorium.server.app",
    "uvicorn.lifespan.on",
    "uvicorn.protocols.http.httptools_impl",
    "uvicorn.protocols.websockets.websockets_sansio_impl",
)

#: environment variables that the interpreter reads when it starts, never after
STARTUP_VARIABLES = ("PYTHONPATH", "PYTHONHASHSEED", "PYTHONSAFEPATH", "PYTHONNOUSERSITE")


#: the modules a command line imports
COMMAND_LINE = ("gladiatorium.cli.main",)


class Preloader:
    """The pytest worker's side: one preloading process and its pipe."""

    def __init__(self, env: dict[str, str], modules: tuple[str, ...] = PRELOADED) -> None:
        self._lock = threading.Lock()
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), *modules],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        ready = self._reply()
        if not ready.get("ready"):
            raise RuntimeError(f"the preloading process did not start: {ready}")

    def spawn(
        self,
        argv: list[str],
        env: dict[str, str],
        cwd: Path,
        log: Path,
        stdin: Path | None = None,
        limits: dict[str, int] | None = None,
    ) -> Forked:
        """A process running ``argv`` (after the program's name) in ``cwd``, with ``env``,
        its output to ``log``, its input from ``stdin`` (else nothing), and ``limits``
        (``resource`` names: ``{"RLIMIT_CPU": seconds}``) on itself."""
        request = {"start": argv, "env": env, "cwd": str(cwd), "log": str(log)}
        request["limits"] = limits or {}
        if stdin is not None:
            request["stdin"] = str(stdin)
        return Forked(self, int(self._ask(request)["pid"]))

    def status(self, pid: int) -> int | None:
        """The exit status of ``pid`` (as ``Popen.returncode``), None while it runs."""
        code = self._ask({"poll": pid})["code"]
        return None if code is None else int(code)

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()  # the preloading process ends at end of input
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            assert self.process.stdin is not None
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            answer = self._reply()
        if "error" in answer:
            raise RuntimeError(f"the preloading process refused {request}: {answer['error']}")
        return answer

    def _reply(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the preloading process ended ({self.process.wait()})")
        return dict(json.loads(line))


class Forked:
    """A forked process, as much of ``subprocess.Popen`` as the tests use."""

    def __init__(self, preloader: Preloader, pid: int) -> None:
        self.preloader = preloader
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.preloader.status(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"server {self.pid}", timeout or 0.0)
            time.sleep(0.02)
        return code

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


_PRELOADERS: dict[tuple[object, ...], Preloader] = {}


def preloader_for(env: dict[str, str]) -> Preloader:
    """This worker's preloading process of servers for ``env``'s startup variables (made
    once)."""
    key = ("serve", *(env.get(name) for name in STARTUP_VARIABLES))
    if key not in _PRELOADERS:
        _PRELOADERS[key] = Preloader(env)
    return _PRELOADERS[key]


def command_line_preloader(env: dict[str, str]) -> Preloader:
    """This worker's preloading process of command lines run with exactly ``env``."""
    key = ("command line", *sorted(env.items()))
    if key not in _PRELOADERS:
        _PRELOADERS[key] = Preloader(env, COMMAND_LINE)
    return _PRELOADERS[key]


def close_all() -> None:
    """End every preloading process of this worker (its servers were killed before)."""
    for preloader in _PRELOADERS.values():
        preloader.close()
    _PRELOADERS.clear()


# ----- the preloading process ---------------------------------------------------------------
def _preload(modules: list[str]) -> None:
    """Import ``modules`` (what ``gladiatorium serve`` imports before it starts its first
    thread, or the command line's); what they made is frozen out of the collector's reach
    (each server's own ``gc.collect`` at its start then walks only what the server made,
    as ``serve`` freezes it after)."""
    for name in modules:
        importlib.import_module(name)
    from gladiatorium.games import load

    load()
    gc.collect()
    gc.freeze()


def _child(request: dict[str, Any], channels: tuple[IO[str], IO[str]]) -> None:
    """The forked process (a server, a command line): never returns."""
    code = 1
    try:
        for channel in channels:
            channel.close()
        signal.signal(signal.SIGINT, signal.default_int_handler)
        from gladiatorium.core.jobs import die_with_parent

        die_with_parent(os.getppid())  # no server outlives the preloading process
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        if "stdin" in request:
            typed = os.open(request["stdin"], os.O_RDONLY)
            os.dup2(typed, 0)
            os.close(typed)
        for name, most in request["limits"].items():
            resource.setrlimit(getattr(resource, name), (most, most))
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        sys.argv = [str(Path(sys.executable).parent / "gladiatorium"), *request["start"]]
        from gladiatorium.cli.main import run

        try:
            run()
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)


def main() -> None:
    """Read requests (JSON lines) until the input ends: ``start`` forks a server,
    ``poll`` reports a child's exit status."""
    requests = os.fdopen(os.dup(0), "r")
    replies = os.fdopen(os.dup(1), "w")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)  # stray output must not reach the pipe
    os.close(null)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the worker's Ctrl+C is the worker's

    def reply(answer: dict[str, Any]) -> None:
        replies.write(json.dumps(answer) + "\n")
        replies.flush()

    _preload(sys.argv[1:])
    if threading.active_count() != 1:  # a fork would copy locks other threads hold
        reply({"error": f"{threading.active_count()} threads after the imports"})
        return
    reply({"ready": True})
    codes: dict[int, int] = {}
    for line in requests:
        request = json.loads(line)
        if "start" in request:
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _child(request, (requests, replies))
            reply({"pid": pid})
        elif "poll" in request:
            pid = int(request["poll"])
            try:
                if pid not in codes:
                    done, status = os.waitpid(pid, os.WNOHANG)
                    if done:
                        codes[pid] = os.waitstatus_to_exitcode(status)
            except ChildProcessError:
                reply({"error": f"{pid} is not a server this process started"})
                continue
            reply({"code": codes.get(pid)})
        else:
            reply({"error": f"unknown request {sorted(request)}"})


if __name__ == "__main__":
    main()

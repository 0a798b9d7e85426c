"""Server load: concurrent Pig matches over loopback WebSockets against a real server.

For each backend (a SQLite file, and PostgreSQL from a throwaway cluster) this starts
``gladiatorium serve`` as a subprocess on a free loopback port, then for each N plays
N concurrent Pig matches (target 100) from one asyncio process: every match has two
WebSocket connections, one per seat, both held by one account, and each side plays a
random legal action from the body the server pushed to it. Reported per (backend, N):
action round trip (send ``{"action"}`` -> receive the ``{"events"}`` reply) p50/p99/max,
actions/s, server CPU (share of one core) and the client's own event-loop lag (so a
saturated client is visible). Actions refused or timed out count in the percentiles
(a timed-out action as the whole wait it took, a lower bound), and any refused or stalled
action, or a scenario that cannot run, makes the benchmark exit non-zero after the table.
Then the time to fan out one round of a 100-player Super Dice Heroes match (every hero
plays its round out, all four dice; the last hero's last action closes the round) and of
a 100-player Hero Battle (every player moves, then the moderator closes the round): 100
or 101 connections, one per seat; from the send of the action that closes the round to
each client holding the new round's body (median and max over the clients), and the
bytes each push carried to each seat.

With ``--workers N`` (PostgreSQL) the server runs N processes on one port, the kernel
sharing connections out among them, so the two seats of a match often sit in different
processes; with ``--worker-ports`` too, each process also listens on a port of its own and
both sockets of a match connect to one of them, as behind a front that routes a match's
connections by its id (the row is named ``postgresqlxNr``).

The anchor for the ratio is measured in the same run: the same Pig actions applied
in-process through ``Play.submit`` on the same backend, each followed by the
two seat bodies a push builds, without HTTP, WebSockets or the event loop.

Every loop is capped in count and in time; all traffic goes to 127.0.0.1. Clients
keep under the server's per-connection message rate (20/s), so no action is refused.

    nice .venv/bin/python benchmarks/server_load.py --matches 10,100,1000 \\
        --backends sqlite,postgresql --actions-per-match 60 --duration 20 [--think 0] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import glob
import json
import multiprocessing
import os
import queue
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonpatch
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

HOST = "127.0.0.1"
WS_RATE = 20.0  # the server's Settings.ws_rate: messages per second per connection
PIG_OPTIONS = {"target": 100}
STEP_TIMEOUT = 30.0  # seconds any single wait may take before the slot gives up
ACK_EVERY = 8  # a typed connection acknowledges every 8th frame, as the page does
SETUP_CONCURRENCY = 16  # match creations / handshakes in flight while setting up
PASSWORD = "load-test-password"
FANOUT_TIMEOUT = 900.0  # seconds the whole fan-out measurement may take


# The server process: ``gladiatorium serve`` with one addition, a garbage-collector
# callback that notes every collection pause of 5 ms or more (wall time, generation,
# seconds) in the file named by SERVER_LOAD_GC_LOG, so that tails can be matched to them.
SERVER_CODE = """
import gc, os, time
_log = open(os.environ["SERVER_LOAD_GC_LOG"], "a", buffering=1)
_began = [0.0]
def _pause(phase, info):
    if phase == "start":
        _began[0] = time.perf_counter()
    elif (took := time.perf_counter() - _began[0]) >= 0.005:
        _log.write(f"{time.time():.3f} {info['generation']} {took:.4f}\\n")
gc.callbacks.append(_pause)
from gladiatorium.cli.main import run
run()
"""


def gc_pauses(path: Path, start: float, end: float) -> dict[str, Any]:
    """Server collection pauses of 5 ms or more between two wall-clock times."""
    pauses = []
    if path.exists():
        for line in path.read_text().splitlines():
            when, _generation, seconds = line.split()
            if start <= float(when) <= end:
                pauses.append(float(seconds))
    return {
        "gc_pauses": len(pauses),
        "gc_max_ms": round(max(pauses, default=0.0) * 1000, 1),
        "gc_total_ms": round(sum(pauses) * 1000, 1),
    }


# ----- HTTP (stdlib, no proxy: loopback only) -------------------------------------------
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def http_json(base: str, path: str, body: dict[str, Any] | None = None, token: str = "") -> Any:
    """GET (no body) or POST JSON to the server; the decoded JSON reply."""
    data = None if body is None else json.dumps(body).encode()
    method = "GET" if data is None else "POST"
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with _OPENER.open(request, timeout=STEP_TIMEOUT) as reply:
            return json.loads(reply.read())
    except urllib.error.HTTPError as err:
        raise SystemExit(f"{method} {path}: {err.code} {err.read()[:300]!r}") from None


# ----- processes ------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive free loopback ports."""
    while True:
        first = free_port()
        if first + count > 65536:
            continue
        try:
            for port in range(first + 1, first + count):
                with socket.socket() as sock:
                    sock.bind((HOST, port))
        except OSError:
            continue
        return first


def processes() -> Iterator[tuple[str, str, str, float]]:
    """Every process of the machine (Linux /proc): its id, its parent's, its name and
    its user + system CPU time in seconds."""
    tick = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # ended meanwhile
        name, _, rest = text.partition("(")[2].rpartition(")")
        fields = rest.split()
        yield stat.parent.name, fields[1], name, (int(fields[11]) + int(fields[12])) / tick


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children (``serve --workers``)."""
    return sum(cpu for own, parent, _, cpu in processes() if str(pid) in (own, parent))


def postgres_cpu_seconds() -> float:
    """User + system CPU time of every PostgreSQL process on the machine (the cluster the
    benchmark started, and any other running then)."""
    return sum(cpu for _, _, name, cpu in processes() if name == "postgres")


def idle_ticks() -> tuple[int, int]:
    """The machine's idle and total CPU ticks so far, all cores (Linux /proc/stat)."""
    ticks = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return ticks[3] + ticks[4], sum(ticks)  # idle and waiting on I/O


@contextlib.contextmanager
def postgres_cluster() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on a free loopback port (fsync off); its URL."""
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not bins:
        raise SystemExit("PostgreSQL binaries not found (apt-get install postgresql)")
    bindir = Path(bins[-1]).parent
    root = Path(tempfile.mkdtemp(prefix="gladiatorium-pg-"))
    shutil.chown(root, "postgres", "postgres")
    data, port = root / "data", free_port()
    run_as = ["runuser", "-u", "postgres", "--"]
    subprocess.run(
        [*run_as, str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    opts = (
        f"-c fsync=off -c port={port} -c listen_addresses={HOST} -c unix_socket_directories={root}"
    )
    pg_ctl = [*run_as, str(bindir / "pg_ctl"), "-D", str(data)]
    subprocess.run(
        [*pg_ctl, "-o", opts, "-l", str(root / "log"), "-w", "-t", "60", "start"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    try:
        yield f"postgresql+psycopg://postgres@{HOST}:{port}/postgres"
    finally:
        subprocess.run(
            [*run_as, str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"],
            check=False,
            stdout=subprocess.DEVNULL,
        )
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def server(
    database_url: str,
    workdir: Path,
    profile: Path | None = None,
    workers: int = 1,
    settings: dict[str, str] | None = None,
    own_ports: int | None = None,
) -> Iterator[tuple[str, int]]:
    """``gladiatorium serve`` in a subprocess (``workers`` processes); yields (base URL,
    pid). With ``profile`` py-spy samples every thread of the server into that file
    (collapsed stacks); ``settings``: more environment variables of the server
    (``GLADIATORIUM_...``, server/config.py)."""
    port = free_port()
    log = (workdir / f"server-{port}.log").open("wb")
    command = [sys.executable, "-c", SERVER_CODE, "serve"]
    command += ["--host", HOST, "--port", str(port), "--database-url", database_url]
    command += ["--workers", str(workers)]
    command += [] if own_ports is None else ["--worker-ports", str(own_ports)]
    # every client is this process on 127.0.0.1 and one account creates every match: no
    # connection caps (server/edge.py) and no creation rate (server/quota.py); no gauntlet
    # runner (server/gauntlet_runner.py: a fresh server queues the samples' gauntlets, a
    # core's work for minutes, which would be measured as the matches' cost)
    env = {
        **os.environ,
        "GLADIATORIUM_GAUNTLETS": "0",
        "SERVER_LOAD_GC_LOG": str(workdir / "gc.log"),
        "GLADIATORIUM_MAX_CONNECTIONS": "0",
        "GLADIATORIUM_MAX_CONNECTIONS_PER_ADDRESS": "0",
        "GLADIATORIUM_MATCH_RATE": "1000000/minute",
        **(settings or {}),
    }
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=workdir, env=env)
    base = f"http://{HOST}:{port}"
    sampler: subprocess.Popen[bytes] | None = None
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                tail = Path(log.name).read_text(errors="replace")[-3000:]
                raise SystemExit(f"server exited with {process.returncode}:\n{tail}")
            with contextlib.suppress(OSError):
                if http_json(base, "/healthz").get("ok"):
                    break
            if time.monotonic() > deadline:
                raise SystemExit("server did not answer /healthz within 60 s")
            time.sleep(0.2)
        if profile is not None:
            spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
            sampler = subprocess.Popen(
                [
                    *(spy, "record", "-p", str(process.pid), "-f", "raw", "-o", str(profile)),
                    *("-r", "100", "--nonblocking", "--gil"),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        try:
            yield base, process.pid
        except BaseException:  # what the server said last, to tell why
            log.flush()
            tail = Path(log.name).read_text(errors="replace")[-3000:]
            print(f"server log (the end):\n{tail}", file=sys.stderr, flush=True)
            raise
    finally:
        if sampler is not None:
            sampler.send_signal(signal.SIGINT)
            try:
                sampler.wait(60)
            except subprocess.TimeoutExpired:
                sampler.kill()
        process.send_signal(signal.SIGINT)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        log.close()


def profile_summary(raw: Path, top: int = 30) -> str:
    """Share of samples (inclusive) per function in py-spy's collapsed stacks."""
    counts: dict[str, int] = {}
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, number = line.rpartition(" ")
        if not number.isdigit():
            continue
        total += int(number)
        names: set[str] = set()
        for frame in stack.split(";"):
            function, _, where = frame.partition(" (")
            names.add(f"{function} {where.rsplit('/', 1)[-1].split(':')[0]}")
        for name in names:
            counts[name] = counts.get(name, 0) + int(number)
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])[:top]
    return "\n".join(f"{100 * n / max(total, 1):5.1f}%  {name}" for name, n in ranked)


# ----- client side ------------------------------------------------------------------------
class Seat:
    """One WebSocket connection holding one seat: the newest pushed body, and the
    reply to the action in flight."""

    def __init__(self, ws: ClientConnection, seat: str, typed: bool = False) -> None:
        self.ws = ws
        self.seat = seat
        #: the connection speaks typed frames (a body, then deltas it acknowledges)
        self.typed = typed
        self._ids = 0
        self._acks: set[asyncio.Future[None]] = set()  # acknowledgements being sent
        self.unacked = 0  # frames applied since the last acknowledgement
        #: the view and the number of events at each recent ply (a delta's base)
        self._views: dict[int, tuple[Any, int]] = {}
        self.body: dict[str, Any] = {}
        self.arrived = 0.0  # time.monotonic() when the newest body came (one clock for
        # every process of the machine: the fan-out's client processes compare them)
        self.pushed: list[int] = []  # the bytes of every push received
        self.changed = asyncio.Event()
        self.reply: asyncio.Future[dict[str, Any]] | None = None
        self.last_send = 0.0  # time.monotonic() when its last action went out
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for message in self.ws:
                data = json.loads(message)
                kind = data.get("type")
                if kind in ("body", "delta"):
                    self.body, self.arrived = self._applied(data), time.monotonic()
                    self.pushed.append(len(message))
                    self.changed.set()
                    self.unacked += 1
                    if self.unacked >= ACK_EVERY:  # as the page does (static/match.js)
                        ack = {"type": "ack", "ply": data["ply"]}
                        self._acks.add(asyncio.ensure_future(self._send(ack)))
                        self.unacked = 0
                elif "game" in data:
                    self.body, self.arrived = data, time.monotonic()
                    self.pushed.append(len(message))
                    self.changed.set()
                elif self.reply is not None and not self.reply.done():
                    data.pop("type", None), data.pop("id", None)
                    self.reply.set_result(data)

    async def _send(self, frame: dict[str, Any]) -> None:
        """Send a frame off the reading loop (a reader that waits on its own send while
        the server waits on its send to the reader would stall both)."""
        with contextlib.suppress(Exception):
            await self.ws.send(json.dumps(frame))

    def _applied(self, frame: dict[str, Any]) -> dict[str, Any]:
        """The seat's whole body after a typed frame, as the page builds it: a body as it
        is; a delta's view patched (RFC 6902) from the view kept at its ``since`` and its
        events added after that ply's, the rest replaced. A delta from a ply not kept
        asks for a body (``sync``) and leaves the body as it was."""
        if frame["type"] == "body":
            body = dict(frame["body"])
        else:
            kept = self._views.get(frame["since"])
            if kept is None:
                self._acks.add(asyncio.ensure_future(self._send({"type": "sync"})))
                return self.body
            view, count = kept
            body = dict(self.body)
            body["view"] = patched(view, frame["view"])
            body["events"] = [*self.body["events"][:count], *frame["events"]]
            for key in ("awaiting", "legal", "legal_form", "outcome"):
                if key in frame:  # the legal actions are left out when unchanged
                    body[key] = frame[key]
        self._views[frame["ply"]] = (body["view"], len(body["events"]))
        for old in sorted(self._views)[:-16]:  # the views of the last 16 plies
            del self._views[old]
        return body

    async def until(self, fresh: Any, timeout: float = STEP_TIMEOUT) -> dict[str, Any]:
        """Wait until the newest body satisfies ``fresh(body)``."""
        end = time.monotonic() + timeout
        while not (self.body and fresh(self.body)):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.001, end - time.monotonic()))
        return self.body

    async def act(self, notation: str) -> tuple[float, dict[str, Any]]:
        """Send an action (keeping under the server's message rate); (seconds, reply).
        A reply that does not come within :data:`STEP_TIMEOUT` is :class:`Stalled`,
        carrying the seconds waited."""
        wait = self.last_send + 1.05 / WS_RATE - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self.reply = asyncio.get_running_loop().create_future()
        self.last_send = time.monotonic()
        started = time.perf_counter()
        self._ids += 1
        sent = {"action": notation} | ({"type": "action", "id": self._ids} if self.typed else {})
        await self.ws.send(json.dumps(sent))
        try:
            reply = await asyncio.wait_for(self.reply, STEP_TIMEOUT)
        except TimeoutError:
            raise Stalled(time.perf_counter() - started) from None
        return time.perf_counter() - started, reply

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 5)
        self.reader.cancel()


def patched(document: Any, patch: list[dict[str, Any]]) -> Any:
    """``document`` after the RFC 6902 ``patch``, sharing every part the patch leaves
    alone with ``document``, which stays as it was (the client keeps the views of recent
    plies as the bases of later deltas): the objects and arrays on each operation's path
    are copied once, the rest is not. As a page applies a delta (a C++ structured clone
    and fast-json-patch) at a fraction of the cost of Python's ``copy.deepcopy`` of a
    hundred-hero view, which jsonpatch makes for every patch: the client's share of the
    fan-out's delay would otherwise be mostly deep copies. The container at each path
    walked is kept by its path, so that the operations on one hero (a round's close: six
    each, for a hundred heroes) find it at once rather than walk the view from its root
    each. The server's patches hold ``add``, ``remove`` and ``replace`` only; any other
    operation goes to jsonpatch."""
    if any(op["op"] not in ("add", "remove", "replace") for op in patch):
        return jsonpatch.apply_patch(document, patch)
    holder = [document]
    #: the container at each path walked, copied once by this patch (a path's parents
    #: are walked, and kept, before it)
    held: dict[str, Any] = {}

    def container(path: str) -> Any:
        found = held.get(path)
        if found is None:
            if not path:
                found = holder[0] = copy_of(holder[0])
            else:
                above, _, token = path.rpartition("/")
                parent = container(above)
                key = _token(token) if isinstance(parent, dict) else int(token)
                found = parent[key] = copy_of(parent[key])
            held[path] = found
        return found

    for op in patch:
        kind, path = op["op"], op["path"]
        if not path:  # the whole document
            if kind == "remove":
                raise ValueError("a patch cannot remove the whole document")
            holder[0], held = op["value"], {}
            continue
        above, _, token = path.rpartition("/")
        parent = held.get(above)
        if parent is None:
            parent = container(above)
        if kind != "replace" and isinstance(parent, list):  # the items after it move
            held = _without(held, above + "/")
        elif path in held:  # the container kept at this path goes
            held = _without(held, path + "/")
            del held[path]
        key = (
            _token(token)
            if isinstance(parent, dict)
            else len(parent)
            if token == "-"
            else int(token)
        )
        if kind == "remove":
            del parent[key]
        elif kind == "add" and isinstance(parent, list):
            parent.insert(key, op["value"])
        else:
            parent[key] = op["value"]
    return holder[0]


def _token(token: str) -> str:
    """A JSON Pointer token (RFC 6901) as the key it names."""
    return token.replace("~1", "/").replace("~0", "~") if "~" in token else token


def _without(held: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The containers kept by :func:`patched` but those whose paths begin with ``prefix``."""
    return {path: found for path, found in held.items() if not path.startswith(prefix)}


def copy_of(container: Any) -> Any:
    """A shallow copy of a JSON object or array (a patch's path runs through nothing else)."""
    if isinstance(container, dict):
        return dict(container)
    if isinstance(container, list):
        return list(container)
    raise ValueError(f"a patch's path runs through {type(container).__name__}, not a container")


class Stalled(Exception):
    """An action whose reply never came; ``seconds``: how long it was waited for."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"no reply after {seconds:.1f} s")
        self.seconds = seconds


class ScenarioFailed(Exception):
    """A measured scenario could not run as written: the benchmark fails loudly."""


#: whether the clients speak typed frames (``--frames typed``) or take whole bodies
TYPED = [True]


async def open_seat(base: str, token: str, match_id: str, seat: str) -> Seat:
    frames = "&frames=2" if TYPED[0] else ""
    uri = base.replace("http://", "ws://") + f"/ws/matches/{match_id}?seat={seat}{frames}"
    ws = await connect(
        uri,
        additional_headers={"Authorization": f"Bearer {token}"},
        proxy=None,
        max_size=2**24,
        open_timeout=STEP_TIMEOUT,
        ping_interval=None,
    )
    return Seat(ws, seat, TYPED[0])


async def account(base: str, name: str) -> str:
    body = {"username": name, "password": PASSWORD}
    return str((await asyncio.to_thread(http_json, base, "/api/register", body))["token"])


async def create_match(
    base: str,
    token: str,
    game: str,
    players: int,
    options: dict[str, Any],
    extra_seats: tuple[str, ...] = (),
) -> str:
    seats = {str(n): "me" for n in range(1, players + 1)} | dict.fromkeys(extra_seats, "me")
    body = {"game": game, "players": players, "options": options, "seats": seats}
    reply = await asyncio.to_thread(http_json, base, "/api/matches", body, token)
    return str(reply["id"])


@dataclass
class Tally:
    """Every action's round trip, refused and stalled ones included (a stalled one as
    the seconds waited), and how many of each."""

    round_trips: list[float] = field(default_factory=list)
    refused: int = 0
    stalled: int = 0
    finished: int = 0


async def play_slot(
    base: str,
    token: str,
    first: dict[str, Seat],
    actions: int,
    until: float,
    think: float,
    rng: random.Random,
    tally: Tally,
    route: str | None = None,
) -> None:
    """Play Pig matches in one slot (a new one when one ends) for ``actions`` actions
    or until ``until`` (monotonic), whichever comes first; ``route``: where the slot's
    sockets connect (:func:`open_match`)."""
    seats: dict[str, Seat] | None = first
    done = 0
    while seats is not None:
        try:
            expected = 0  # events a body must hold to show the newest state
            if think:
                await asyncio.sleep(rng.uniform(0, think))
            while done < actions and time.monotonic() < until:
                body = await seats["1"].until(lambda b, n=expected: len(b["events"]) >= n)
                if body["outcome"] is not None:
                    tally.finished += 1
                    break
                actor = seats[body["awaiting"][0]]
                body = await actor.until(lambda b, n=expected: len(b["events"]) >= n)
                if think:
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                try:
                    seconds, reply = await actor.act(rng.choice(body["legal"]))
                except Stalled as stalled:
                    tally.round_trips.append(stalled.seconds)
                    raise
                tally.round_trips.append(seconds)
                if "events" not in reply:
                    tally.refused += 1
                    await asyncio.sleep(0.1)
                    continue
                done += 1
                expected = len(body["events"]) + len(reply["events"])
        except (TimeoutError, OSError, Stalled):
            tally.stalled += 1
            return
        finally:
            for seat in seats.values():
                await seat.close()
        seats = None
        if done < actions and time.monotonic() < until:
            seats = await open_match(base, token, route)


async def open_match(base: str, token: str, route: str | None = None) -> dict[str, Seat]:
    """A new Pig match with both seats connected (through ``route``, a process's own
    port, when given) and their first bodies received."""
    match_id = await create_match(base, token, "pig", 2, PIG_OPTIONS)
    seats = {s: await open_seat(route or base, token, match_id, s) for s in ("1", "2")}
    for seat in seats.values():
        await seat.until(lambda b: True)
    return seats


async def loop_lag(stop: asyncio.Event, lags: list[float]) -> None:
    """How late the client's own event loop wakes (10 ms ticks)."""
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(time.perf_counter() - started - 0.01)


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def load_run(
    base: str,
    pid: int,
    gc_log: Path,
    matches: int,
    actions: int,
    duration: float,
    think: float,
    seed: int,
    routes: tuple[str | None, ...] = (None,),
) -> dict[str, Any]:
    """``routes``: where the sockets of the k-th slot connect, ``routes[k % len]`` (a
    process's own port: both seats of a match in one process), None: ``base``."""
    rng = random.Random(seed)
    token = await account(base, f"load{matches}x{seed}")
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def one(route: str | None) -> dict[str, Seat]:
        async with gate:
            return await open_match(base, token, route)

    setup = time.monotonic()
    route_of = [routes[k % len(routes)] for k in range(matches)]
    opened = await asyncio.gather(*(one(route) for route in route_of))
    setup = time.monotonic() - setup
    await asyncio.sleep(1.0)  # let the set-up's last work (and collections) settle
    tally, lags, stop = Tally(), [], asyncio.Event()
    lag_task = asyncio.create_task(loop_lag(stop, lags))
    cpu_before, started, wall_start = cpu_seconds(pid), time.monotonic(), time.time()
    client_before, db_before, idle_before = (
        time.process_time(),
        postgres_cpu_seconds(),
        idle_ticks(),
    )
    until = started + duration
    slots = [
        play_slot(base, token, seats, actions, until, think, rng, tally, route)
        for seats, route in zip(opened, route_of, strict=True)
    ]
    await asyncio.wait_for(asyncio.gather(*slots), duration + 4 * STEP_TIMEOUT)
    wall = time.monotonic() - started
    server_cpu = (cpu_seconds(pid) - cpu_before) / wall
    client_cpu = (time.process_time() - client_before) / wall
    db_cpu = (postgres_cpu_seconds() - db_before) / wall
    idle_after = idle_ticks()
    idle = (idle_after[0] - idle_before[0]) / max(idle_after[1] - idle_before[1], 1)
    stop.set()
    await lag_task
    await asyncio.sleep(0.2)  # the last pause lines
    pauses = gc_pauses(gc_log, wall_start, time.time())
    trips = tally.round_trips
    return {
        "matches": matches,
        "think_s": think,
        "actions": len(trips),
        "seconds": round(wall, 2),
        "actions_per_s": round(len(trips) / wall, 1),
        "p50_ms": round(quantile(trips, 0.5) * 1000, 2),
        "p99_ms": round(quantile(trips, 0.99) * 1000, 2),
        "max_ms": round(max(trips, default=float("nan")) * 1000, 2),
        "server_cpu": round(server_cpu, 2),
        "client_cpu": round(client_cpu, 2),
        # every PostgreSQL process's CPU, and the cores the machine left idle
        "db_cpu": round(db_cpu, 2),
        "idle_cores": round(idle * (os.cpu_count() or 1), 2),
        "client_lag_p99_ms": round(quantile(lags, 0.99) * 1000, 2),
        "matches_finished": tally.finished,
        "refused": tally.refused,
        "stalled": tally.stalled,
        "setup_s": round(setup, 1),
        **pauses,
    }


@dataclass(frozen=True)
class Fanout:
    """A round to fan out: the game, its options, the seats beyond the players, how a
    seat plays its part of a round, and which seat closes it."""

    game: str
    options: dict[str, Any]
    extra_seats: tuple[str, ...]
    closer: str
    #: actions each other seat makes in a round (None: until it is no longer awaited)
    moves: int | None
    #: the kind of action a seat prefers (its notation's first word; any if none)
    prefer: str | None = None


def fanouts(players: int) -> dict[str, Fanout]:
    """The fan-out scenarios: Super Dice Heroes (seat 1's last action closes the round)
    and Hero Battle (every player moves, then the moderator closes the round)."""
    names = [f"Hero {n}" for n in range(1, players + 1)]
    return {
        "super-dice-heroes": Fanout("super-dice-heroes", {}, (), "1", None),
        "hero-battle": Fanout(
            "hero-battle",
            {"signups": names, "close_when_all_moved": False},
            ("moderator",),
            "moderator",
            1,
            "hit",
        ),
    }


async def play_out(seat: Seat, rng: random.Random, scenario: Fanout) -> None:
    """Play ``seat``'s part of the round: the scenario's number of moves, or until
    it is no longer awaited."""
    name, made_moves = seat.seat, 0
    while scenario.moves is None or made_moves < scenario.moves:
        body = await seat.until(lambda b: bool(b))
        if name not in body["awaiting"]:
            return
        try:
            await acted(seat, chosen(body, rng, scenario.prefer))
        except NotAwaited:  # another seat's action ended this one's round meanwhile
            return
        except Outdated:  # another seat's action changed what this one may do
            STALE[0] += 1
            await seat.until(lambda b, old=body: b is not old)
            continue
        made_moves += 1


def chosen(body: dict[str, Any], rng: random.Random, prefer: str | None) -> str:
    """A random legal action of the body, of the kind ``prefer`` names where there is
    one: from its list, or from the game's compact form of it (``legal_form``,
    ``core/legal_form.py``: a hundred-player Hero Battle's moves are choices)."""
    legal = body["legal"]
    if legal is None:
        return drawn(body["legal_form"], rng, prefer)
    preferred = [a for a in legal if a.split(" ")[0] == prefer]
    return str(rng.choice(preferred or legal))


def drawn(form: dict[str, Any], rng: random.Random, prefer: str | None) -> str:
    """A random action of a compact form: a choice of distinct names (always allowed)
    for a part whose first word is ``prefer``, else a listed action."""
    for part in form["parts"]:
        picks = part.get("choose") or []
        if picks and picks[0]["word"] == prefer:
            used: set[str] = set()
            words = []
            for pick in (p for p in picks if p["count"]):
                free = [n for n in pick["names"] if not (part["apart"] and n in used)]
                names = sorted(rng.sample(free, pick["count"]), key=pick["names"].index)
                used.update(names)
                words.append(f"{pick['word']} {', '.join(names)}")
            return " ".join(words)
    return str(rng.choice(form["listed"]))


#: actions refused because the body they were chosen from was already out of date
#: (heroes share the board: another's action took the minion this one meant)
STALE = [0]


class NotAwaited(ScenarioFailed):
    """The seat is no longer awaited (409): its body was older than the match."""


class Outdated(ScenarioFailed):
    """The action is no longer legal (400): its body was older than the match."""


async def acted(seat: Seat, notation: str) -> tuple[float, dict[str, Any]]:
    """``seat`` plays ``notation``, then waits for a push that shows it (one made after
    the reply, holding the reply's events): (the reply's seconds, the new body)."""
    before = seat.body
    seconds, reply = await seat.act(notation)
    if "events" not in reply:
        status = reply.get("status")
        refused = {409: NotAwaited, 400: Outdated}.get(status, ScenarioFailed)
        raise refused(f"fan-out: seat {seat.seat}'s {notation!r} refused: {reply}")
    made = len(before["events"]) + len(reply["events"])

    def shows(body: dict[str, Any]) -> bool:
        if body is before or len(body["events"]) < made:
            return False
        return bool(reply["events"]) or body["legal"] != before["legal"]

    return seconds, await seat.until(shows)


def round_of(body: dict[str, Any]) -> int:
    return int(body["view"]["round"])


def moved_on(body: dict[str, Any], closing: int) -> bool:
    """Whether ``body`` shows the round after ``closing`` (or the end)."""
    return round_of(body) > closing or body["outcome"] is not None


async def close_round(closer: Seat, rng: random.Random) -> tuple[float, float] | None:
    """The closer's actions until one opens a new round (the moderator's ``close``, or
    the last hero's last action): (its send time, its reply's seconds), or None when
    the match ended instead. The send time is when the action went out, after the
    client's own wait to keep under the server's message rate (``Seat.act``): the
    closer's earlier actions of the round may hold it back by up to 1/20 s, which is
    the client's doing, not the server's."""
    closing = round_of(closer.body)
    while True:
        body = await closer.until(lambda b: bool(b))
        if body["outcome"] is not None:
            return None
        if closer.seat not in body["awaiting"]:
            raise ScenarioFailed(f"fan-out: seat {closer.seat} cannot close round {closing}")
        legal = body["legal"]
        seconds, after = await acted(closer, "close" if "close" in legal else rng.choice(legal))
        if moved_on(after, closing):
            return closer.last_send, seconds


async def fanout_run(
    base: str, players: int, rounds: int, scenario: Fanout, clients: int = 1
) -> dict[str, Any]:
    """One match of ``players`` seats (and the scenario's extra seats), one connection
    per seat, the connections shared out over ``clients`` client processes (this one
    and ``clients - 1`` more, so that a hundred pushes are decoded in parallel, as a
    hundred browsers would: one process decodes them one after another): for each of
    ``rounds`` rounds every seat but the closer plays its part, then the closer's action
    closes the round; the delay from its send to each client holding the new round's
    body (``time.monotonic``: one clock for every process on the machine), and the
    bytes of that push, are recorded."""
    token = await account(base, f"fan{players}{scenario.game[:4]}x{os.getpid()}")
    match_id = await create_match(
        base, token, scenario.game, players, scenario.options, scenario.extra_seats
    )
    names = [str(n) for n in range(1, players + 1)] + list(scenario.extra_seats)
    names.remove(scenario.closer)  # the closer is this process's
    shares = [names[i::clients] for i in range(clients)]
    shares[0].insert(0, scenario.closer)
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(clients, timeout=FANOUT_TIMEOUT / 3)
    answers = context.Queue()
    job = FanoutJob(base, token, match_id, scenario.game, players, rounds, TYPED[0])
    others = [
        context.Process(target=fanout_client, args=(job, share, barrier, answers), daemon=True)
        for share in shares[1:]
    ]
    for process in others:
        process.start()
    try:
        mine = await fanout_part(job, shares[0], barrier)
        theirs = [await asyncio.to_thread(answers.get, True, FANOUT_TIMEOUT) for _ in others]
    except (threading.BrokenBarrierError, queue.Empty) as err:
        raise ScenarioFailed(f"fan-out {scenario.game}: a client process failed ({err!r})") from err
    finally:
        barrier.abort()  # a client still waiting gives up
        for process in others:
            process.join(10)
            if process.is_alive():
                process.kill()
    failed = [answer for answer in theirs if isinstance(answer, str)]
    if failed:
        raise ScenarioFailed(failed[0])
    return fanout_figures(scenario, players, mine, [a for a in theirs if isinstance(a, dict)])


@dataclass(frozen=True)
class FanoutJob:
    """What every client process of a fan-out needs to play its share of the seats."""

    base: str
    token: str
    match_id: str
    game: str
    players: int
    rounds: int
    typed: bool


def fanout_client(job: FanoutJob, names: list[str], barrier: Any, answers: Any) -> None:
    """A client process's whole life: its seats' part of every round; its figures, or
    why it failed, put on ``answers``."""
    TYPED[0] = job.typed
    try:
        part = fanout_part(job, names, barrier)
        answers.put(asyncio.run(asyncio.wait_for(part, FANOUT_TIMEOUT)))
    except BaseException as err:  # every failure is reported, loudly
        barrier.abort()
        answers.put(f"fan-out {job.game}: client process of seats {names[:3]}...: {err!r}")


async def fanout_part(job: FanoutJob, names: list[str], barrier: Any) -> dict[str, Any]:
    """One client process's seats through every round (the closer's process closes it):
    per round, when each of its seats held the new round and that push's bytes, and
    the close's send time and reply where the closer is here."""
    scenario = fanouts(job.players)[job.game]
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)
    rng = random.Random(f"{job.players} {names[0]}")

    async def opened(seat: str) -> Seat:
        async with gate:
            return await open_seat(job.base, job.token, job.match_id, seat)

    async def part(seat: Seat) -> None:
        async with gate:
            await play_out(seat, rng, scenario)

    async def together() -> None:  # every client process at the same point
        await asyncio.to_thread(barrier.wait)

    seats = await asyncio.gather(*(opened(name) for name in names))
    closer = next((s for s in seats if s.seat == scenario.closer), None)
    rounds: list[dict[str, Any]] = []
    try:
        for _ in range(job.rounds):
            await asyncio.gather(*(s.until(lambda b: bool(b)) for s in seats))
            closing = round_of(seats[0].body)
            if seats[0].body["outcome"] is not None:
                break
            await together()
            await asyncio.gather(*(part(s) for s in seats if s is not closer))
            await together()  # every seat has played its part
            # what this process holds so far is frozen, as the server's collector does
            # every second (server/collector.py): a client process holds the views of a
            # quarter of the seats, whose full collections would otherwise land in the
            # close and be counted as the server's delay (a browser holds one seat's)
            gc.freeze()
            closed = None
            if closer is not None:
                await asyncio.sleep(0.5)  # let the last pushes drain
                closed = await close_round(closer, rng)
            await asyncio.gather(
                *(
                    s.until(lambda b, r=closing: round_of(b) > r or bool(b["outcome"]))
                    for s in seats
                )
            )
            arrivals = [(s.arrived, s.pushed[-1]) for s in seats]
            rounds.append({"round": closing, "closed": closed, "arrivals": arrivals})
            await together()  # the round measured everywhere before the next begins
    except (TimeoutError, Stalled) as err:
        raise ScenarioFailed(f"fan-out {scenario.game}: a wait timed out ({err})") from err
    except ConnectionClosed as err:
        raise ScenarioFailed(f"fan-out {scenario.game}: a connection closed ({err})") from err
    finally:
        await asyncio.gather(*(s.close() for s in seats))
    stale, STALE[0] = STALE[0], 0
    return {"rounds": rounds, "stale": stale}


def fanout_figures(
    scenario: Fanout, players: int, mine: dict[str, Any], theirs: list[dict[str, Any]]
) -> dict[str, Any]:
    """The fan-out's row: per round the delays from the close's send to each client
    holding the new round (first, median, max) and the bytes of that push per seat."""
    per_round: list[dict[str, Any]] = []
    delays_all: list[float] = []
    for index, measured in enumerate(mine["rounds"]):
        if measured["closed"] is None:  # the match ended instead
            break
        sent, reply_s = measured["closed"]
        arrivals = [a for part in (mine, *theirs) for a in part["rounds"][index]["arrivals"]]
        delays = [arrived - sent for arrived, _ in arrivals]
        pushed = [size for _, size in arrivals]
        delays_all += delays
        per_round.append(
            {
                "round": measured["round"],
                "reply_ms": round(reply_s * 1000, 1),
                # the first client to hold it: the server's share, before the clients
                # have decoded a hundred pushes
                "first_ms": round(min(delays) * 1000, 1),
                "median_ms": round(statistics.median(delays) * 1000, 1),
                "max_ms": round(max(delays) * 1000, 1),
                "push_bytes_median": int(statistics.median(pushed)),
                "push_bytes_max": max(pushed),
            }
        )
    if not per_round:
        raise ScenarioFailed(f"fan-out {scenario.game}: no round closed")
    return {
        "game": scenario.game,
        "players": players,
        "clients": 1 + len(theirs),
        "rounds": per_round,
        "median_ms": round(statistics.median(delays_all) * 1000, 1),
        "max_ms": round(max(delays_all) * 1000, 1),
        "stale_refusals": mine["stale"] + sum(part["stale"] for part in theirs),
    }


# ----- the in-process anchor ------------------------------------------------------------
def baseline_run(database_url: str, actions: int, seconds: float, seed: int) -> dict[str, Any]:
    """Pig actions through ``Play.submit`` plus the two seat bodies a push
    builds, in this process, sequentially: the server's work without HTTP/WebSockets."""
    from gladiatorium.games import load
    from gladiatorium.server.db import make_engine, make_sessions, migrate
    from gladiatorium.server.service import MatchService

    load()
    engine = make_engine(database_url)
    migrate(engine)
    service = MatchService(
        make_sessions(engine), lambda _id: None, engine.dialect.name == "postgresql"
    )
    # as a server whose listener is connected (app.py): a match is read again only when
    # a notice says another process wrote it; without it, every read of a match on
    # PostgreSQL would ask the database first
    service.store.trust_notices(True)
    rng = random.Random(seed)
    times: list[float] = []
    end = time.monotonic() + seconds
    match_id = service.creation.create(None, "pig", 2, PIG_OPTIONS, {"1": "open", "2": "open"}).id
    body = service.play.body(match_id, "1")
    while len(times) < actions and time.monotonic() < end:
        if body["outcome"] is not None:
            match_id = service.creation.create(
                None, "pig", 2, PIG_OPTIONS, {"1": "open", "2": "open"}
            ).id
            body = service.play.body(match_id, "1")
        seat = body["awaiting"][0]
        legal = service.play.body(match_id, seat)["legal"]
        started = time.perf_counter()
        service.play.submit(match_id, seat, rng.choice(legal))
        body = service.play.body(match_id, "1")
        service.play.body(match_id, "2")
        times.append(time.perf_counter() - started)
    engine.dispose()
    total = sum(times)
    return {
        "actions": len(times),
        "actions_per_s": round(len(times) / total, 1) if total else float("nan"),
        "p50_ms": round(quantile(times, 0.5) * 1000, 2),
        "p99_ms": round(quantile(times, 0.99) * 1000, 2),
    }


# ----- driving -------------------------------------------------------------------------------
def run_backend(backend: str, url: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    out: dict[str, Any] = {"backend": backend, "loads": []}
    print(f"[{backend}] in-process baseline", file=sys.stderr, flush=True)
    out["baseline"] = baseline_run(
        url if backend == "postgresql" else f"sqlite:///{workdir / 'baseline.db'}",
        args.baseline_actions,
        args.duration,
        args.seed,
    )
    server_url = url if backend == "postgresql" else f"sqlite:///{workdir / 'server.db'}"
    profile = None if args.py_spy is None else args.py_spy / f"server-{backend}.txt"
    workers = args.workers if backend == "postgresql" else 1
    out["workers"] = workers
    own = free_ports(workers) if workers > 1 and args.worker_ports else None
    routes: tuple[str | None, ...] = (None,)
    if own is not None:  # each match's sockets to one process's own port
        routes = tuple(f"http://{HOST}:{own + i}" for i in range(workers))
    if workers > 1:  # the row's name: processes, r when routed
        out["backend"] = f"{backend}x{workers}{'r' if own is not None else ''}"
    with server(server_url, workdir, profile, workers, own_ports=own) as (base, pid):
        for n in args.matches:
            print(f"[{backend}] {n} matches", file=sys.stderr, flush=True)
            row = asyncio.run(
                load_run(
                    base,
                    pid,
                    workdir / "gc.log",
                    n,
                    args.actions_per_match,
                    args.duration,
                    args.think,
                    args.seed + n,
                    routes,
                )
            )
            out["loads"].append(row)
        out["fanouts"] = []
        for game in args.fanout_games if args.fanout_players else []:
            print(f"[{backend}] fan-out {game}", file=sys.stderr, flush=True)
            scenario = fanouts(args.fanout_players)[game]
            try:
                fanout = fanout_run(
                    base, args.fanout_players, args.fanout_rounds, scenario, args.fanout_clients
                )
                out["fanouts"].append(asyncio.run(asyncio.wait_for(fanout, FANOUT_TIMEOUT)))
            except (TimeoutError, ScenarioFailed) as err:
                message = str(err) or "the whole fan-out timed out"
                for log in workdir.glob("server-*.log"):  # what the server said last
                    tail = log.read_text(errors="replace")[-2000:]
                    print(f"{log.name} (the end):\n{tail}", file=sys.stderr, flush=True)
                out["fanouts"].append(
                    {"game": game, "players": args.fanout_players, "error": message}
                )
    if profile is not None and profile.exists():
        print(f"[{backend}] py-spy, share of samples:", file=sys.stderr)
        print(profile_summary(profile), file=sys.stderr, flush=True)
    return out


def print_table(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    print(
        f"Pig over loopback WebSockets, think {args.think} s, <= {args.actions_per_match} "
        f"actions per match, <= {args.duration} s per row; round trip = send action -> reply "
        "(refused and timed-out actions included)"
    )
    head = (
        f"{'backend':<13}{'N':>6}{'actions':>9}{'act/s':>8}{'p50 ms':>9}{'p99 ms':>9}"
        f"{'max ms':>9}{'srv cpu':>9}{'act/cpu-s':>10}{'cli cpu':>9}{'cli lag':>9}{'gc max':>8}"
        f"{'db cpu':>8}{'idle':>6}"
    )
    print(head)
    for result in results:
        base = result["baseline"]
        print(
            f"{result['backend']:<13}{'anchor':>6}{base['actions']:>9}{base['actions_per_s']:>8}"
            f"{base['p50_ms']:>9}{base['p99_ms']:>9}   (in-process submit + 2 bodies)"
        )
        for row in result["loads"]:
            print(
                f"{result['backend']:<13}{row['matches']:>6}{row['actions']:>9}"
                f"{row['actions_per_s']:>8}{row['p50_ms']:>9}{row['p99_ms']:>9}"
                f"{row['max_ms']:>9}{row['server_cpu']:>9}"
                f"{row['actions_per_s'] / max(row['server_cpu'], 0.01):>10.0f}"
                f"{row['client_cpu']:>9}"
                f"{row['client_lag_p99_ms']:>9}{row.get('gc_max_ms', float('nan')):>8}"
                f"{row.get('db_cpu', float('nan')):>8}{row.get('idle_cores', float('nan')):>6}"
            )
            if row["refused"] or row["stalled"]:
                print(f"{'':19}refused {row['refused']}, stalled {row['stalled']}")
    for result in results:
        for fan in result.get("fanouts", []):
            said = f"{result['backend']:<13}fan-out {fan['game']}, {fan['players']} players"
            if "error" in fan:
                print(f"{said}: FAILED: {fan['error']}")
                continue
            rounds = ", ".join(
                f"r{r['round']} {r.get('first_ms', '-')}/{r['median_ms']}/{r['max_ms']} ms "
                f"{r['push_bytes_median']}/{r['push_bytes_max']} B"
                for r in fan["rounds"]
            )
            print(
                f"{said}: median {fan['median_ms']} ms, max {fan['max_ms']} ms "
                f"(per round: delay first/median/max, push bytes per seat median/max: {rounds}); "
                f"{fan['stale_refusals']} actions chosen from an outdated body refused"
            )


def failures(results: list[dict[str, Any]]) -> list[str]:
    """What went wrong in a run: refused or stalled actions, scenarios that failed."""
    found = []
    for result in results:
        for row in result["loads"]:
            if row["refused"] or row["stalled"] or not row["actions"]:
                found.append(
                    f"{result['backend']} N={row['matches']}: {row['actions']} actions, "
                    f"refused {row['refused']}, stalled {row['stalled']}"
                )
        found += [
            f"{result['backend']} fan-out {fan['game']}: {fan['error']}"
            for fan in result.get("fanouts", [])
            if "error" in fan
        ]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", default="10,100,1000", help="comma-separated N")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--actions-per-match", type=int, default=60)
    parser.add_argument("--duration", type=float, default=20.0, help="seconds per row (cap)")
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a client waits before acting"
    )
    parser.add_argument("--fanout-players", type=int, default=100, help="0 skips the fan-out")
    parser.add_argument("--fanout-rounds", type=int, default=3)
    parser.add_argument(
        "--fanout-clients",
        type=int,
        default=4,
        help="client processes sharing a fan-out's connections (decoding pushes in parallel)",
    )
    parser.add_argument(
        "--frames",
        choices=("typed", "whole"),
        default="typed",
        help="typed frames (a body, then deltas) or the whole body after every change",
    )
    parser.add_argument(
        "--fanout-games",
        default="super-dice-heroes,hero-battle",
        help="comma-separated games whose round is fanned out",
    )
    parser.add_argument("--baseline-actions", type=int, default=2000)
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes on PostgreSQL (serve --workers)"
    )
    parser.add_argument(
        "--worker-ports",
        action="store_true",
        help="with --workers: each process also on a port of its own (serve --worker-ports), "
        "both sockets of a match connected to one of them, as a front routing by match would "
        "(the row is named postgresqlxNr)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--py-spy", type=Path, help="folder for py-spy profiles of the server (needs py-spy)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--render", type=Path, help="print the table of a saved --json run")
    args = parser.parse_args()
    if args.render is not None:
        saved = json.loads(args.render.read_text())
        print_table(saved["results"], argparse.Namespace(**saved["args"]))
        meta = saved["meta"]
        print(f"machine: {meta['cpus']} cpus; load average at the start {meta['load_start']}")
        return
    args.matches = [int(n) for n in args.matches.split(",") if n]
    TYPED[0] = args.frames == "typed"
    args.fanout_games = [g for g in args.fanout_games.split(",") if g]
    unknown_games = set(args.fanout_games) - set(fanouts(1))
    if unknown_games:
        parser.error(f"no fan-out for {sorted(unknown_games)[0]!r}")
    backends = [b for b in args.backends.split(",") if b]
    unknown = set(backends) - {"sqlite", "postgresql"}
    if unknown:
        parser.error(f"unknown backend {sorted(unknown)[0]!r}")
    results = []
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="gladiatorium-load-") as tmp:
        workdir = Path(tmp)
        for backend in backends:
            if backend == "postgresql":
                with postgres_cluster() as url:
                    results.append(run_backend(backend, url, args, workdir))
            else:
                results.append(run_backend(backend, "", args, workdir))
    meta = {"cpus": os.cpu_count(), "load_start": load_start, "load_end": os.getloadavg()}
    if args.json:
        saved = {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}
        print(json.dumps({"meta": meta, "args": saved, "results": results}, indent=2))
    else:
        print_table(results, args)
        print(
            f"machine: {meta['cpus']} cpus; load average (1/5/15 min) at the start "
            f"{' '.join(f'{x:.1f}' for x in load_start)}, at the end "
            f"{' '.join(f'{x:.1f}' for x in meta['load_end'])}"
        )
    problems = failures(results)
    if problems:
        print("FAILED:\n  " + "\n  ".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

"""Memory per match of a real server: its resident set (``VmRSS`` from /proc) as stored
matches grow and as matches stay in or leave memory, and the time to bring a long match
back to memory from its snapshot and from its whole record.

A ``gladiatorium serve`` process (started as ``benchmarks/server_load.py`` starts one,
with its helpers) on a SQLite file (and PostgreSQL from a throwaway cluster with
``--backends sqlite,postgresql``), holding at most ``--live`` matches in memory
(``GLADIATORIUM_LIVE_MATCHES``; idle matches never time out here, so the cap decides
who leaves: the least recently used). Through its API, one account creates Pig matches
(target 100), each played ``--actions`` actions in: a warm-up of 100, then up to
``--live`` (all in memory), then up to ``--matches`` (the rest leave memory as they
come). Then a few hundred-player matches (Super Dice Heroes; Hero Battle with its
moderator), each with its spectator body built. Reported: RSS empty, after the
warm-up, with ``--live`` live, after ``--matches`` stored (``--live`` of them live), and
KiB per live match by game; what a match that left memory still holds (RSS growth per
match once the cap is reached: a leak shows here).

Then the long match of ``benchmarks/replay_pages.py`` (Superhero Gladiators, two random
bots, 4,344 plies) is stored through a service in this process, and a second server on
the same database (matches idle for a second leave memory) times the first request for
it (a spectator's body) after it left memory: from its newest snapshot, then, its
snapshots deleted, from its whole record (the server's log says which).

    nice -n 19 .venv/bin/python benchmarks/server_memory.py --matches 10000 --live 1000
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import delete

from gladiatorium.server.db import MatchSnapshot, make_engine, make_sessions

sys.path.insert(0, str(Path(__file__).parent))
from server_load import PIG_OPTIONS, http_json, postgres_cluster, server

PASSWORD = "memory-test-password"
WARM_UP = 100
#: requests in flight while creating matches
CONCURRENCY = 8
BIG = {"super-dice-heroes": (), "hero-battle": ("moderator",)}
LONG_OPTIONS = {"turn_limit": 700}


def rss_kib(pid: int) -> int:
    """The process's resident set size, KiB."""
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
    assert found, status
    return int(found.group(1))


def settled(base: str, live: int | None = None, seconds: float = 30.0) -> int:
    """Wait until the server holds at most ``live`` matches (the sweeper runs about
    every second), then a moment more; how many it holds."""
    deadline = time.monotonic() + seconds
    while True:
        held = int(http_json(base, "/healthz")["live_matches"])
        if live is None or held <= live:
            break
        if time.monotonic() > deadline:
            raise SystemExit(f"the server still holds {held} matches, over its cap of {live}")
        time.sleep(0.25)
    time.sleep(1.5)
    return int(http_json(base, "/healthz")["live_matches"])


def pig_match(base: str, token: str, actions: int) -> None:
    """A Pig match held by the account, ``actions`` rolls in."""
    body = {"game": "pig", "options": PIG_OPTIONS, "seats": {"1": "me", "2": "me"}}
    match = http_json(base, "/api/matches", body, token)["id"]
    for _ in range(actions):
        seat = http_json(base, f"/api/matches/{match}", None, token)["awaiting"][0]
        http_json(base, f"/api/matches/{match}/actions", {"seat": seat, "action": "roll"}, token)


def many(count: int, make: Callable[[], None]) -> float:
    """``make`` called ``count`` times, several at once; the seconds it took."""
    began = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(CONCURRENCY) as pool:
        for future in [pool.submit(make) for _ in range(count)]:
            future.result()
    return time.monotonic() - began


def big_match(base: str, token: str, game: str, players: int) -> str:
    """A hundred-player match, every seat held by the account, and its spectator body."""
    names = (
        {"signups": [f"Hero {n}" for n in range(1, players + 1)]} if game == "hero-battle" else {}
    )
    seats = {str(n): "me" for n in range(1, players + 1)} | dict.fromkeys(BIG[game], "me")
    body = {"game": game, "players": players, "options": names, "seats": seats}
    match = str(http_json(base, "/api/matches", body, token)["id"])
    http_json(base, f"/api/matches/{match}")
    return match


def memory_run(url: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    settings = {
        "GLADIATORIUM_LIVE_MATCHES": str(args.live),
        "GLADIATORIUM_MATCH_IDLE": "86400",
        "GLADIATORIUM_GAUNTLETS": "0",
    }
    found: dict[str, Any] = {}
    with server(url, workdir, settings=settings) as (base, pid):
        time.sleep(2)
        found["rss_empty"] = rss_kib(pid)
        token = http_json(base, "/api/register", {"username": "mem", "password": PASSWORD})["token"]

        def pig() -> None:
            pig_match(base, token, args.actions)

        many(WARM_UP, pig)
        found["live_warm"] = settled(base)
        found["rss_warm"] = rss_kib(pid)
        found["seconds_live"] = many(args.live - WARM_UP, pig)
        found["live_live"] = settled(base, args.live)
        found["rss_live"] = rss_kib(pid)
        found["seconds_rest"] = many(args.matches - args.live, pig)
        found["live_stored"] = settled(base, args.live)
        found["rss_stored"] = rss_kib(pid)
        for game in BIG:
            before = rss_kib(pid)
            for _ in range(args.big):
                big_match(base, token, game, args.players)
            settled(base, args.live)
            found[f"kib_per_{game}"] = (rss_kib(pid) - before) / args.big
    found["kib_per_pig"] = (found["rss_live"] - found["rss_warm"]) / (
        found["live_live"] - found["live_warm"]
    )
    found["kib_per_left"] = (found["rss_stored"] - found["rss_live"]) / (args.matches - args.live)
    return found


@contextmanager
def engine_of(url: str) -> Iterator[Any]:
    engine = make_engine(url)
    try:
        yield engine
    finally:
        engine.dispose()


def long_match(url: str) -> str:
    """The long match of ``benchmarks/replay_pages.py`` (Superhero Gladiators, two
    random bots, seed 3: 4,344 plies), its actions submitted in this process to a
    service on the server's database (snapshots every 200 plies, the two newest kept)."""
    from gladiatorium.games import load
    from gladiatorium.server.service import MatchService
    from replay_pages import GAME, OPTIONS, SEED, long_record

    load()
    with engine_of(url) as engine:
        service = MatchService(make_sessions(engine), lambda _id: None, url.startswith("postgres"))
        seats = {"1": "open", "2": "open"}
        match = str(service.creation.create(None, GAME, None, OPTIONS, seats, seed=SEED).id)
        for seat, action in long_record():
            service.play.submit(match, seat, action)
        assert service.store.live(match).over
        service.store.writer.close()
    return match


def comeback_run(url: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    """A long match, then the first request for it after it left memory: from its
    newest snapshot, then (its snapshots deleted) from its whole record."""
    match = long_match(url)
    settings = {"GLADIATORIUM_MATCH_IDLE": "1", "GLADIATORIUM_GAUNTLETS": "0"}
    found: dict[str, Any] = {}
    with server(url, workdir, settings=settings) as (base, _pid):
        found["from_snapshot_ms"] = comebacks(base, match, args.comebacks)
        with engine_of(url) as engine, engine.begin() as connection:
            connection.execute(delete(MatchSnapshot).where(MatchSnapshot.match_id == match))
        found["from_record_ms"] = comebacks(base, match, args.comebacks)
        log = "\n".join(p.read_text() for p in workdir.glob("server-*.log"))
        rebuilt = rf"match={match} rebuilt at ply \d+ \(from ply \d+\)"
        found["rebuilt"] = sorted(set(re.findall(rebuilt, log)))
    return found


def comebacks(base: str, match: str, count: int) -> float:
    """The median time of a spectator's body of ``match`` just after it left memory."""
    times = []
    for _ in range(count):
        settled(base, 0)
        began = time.perf_counter()
        http_json(base, f"/api/matches/{match}")
        times.append(time.perf_counter() - began)
    return round(statistics.median(times) * 1000, 1)


def run_backend(backend: str, url: str, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        workdir = Path(folder)
        if backend == "sqlite":
            url = f"sqlite:///{workdir / 'memory.db'}"
        found = {"backend": backend, **memory_run(url, args, workdir)}
        found |= comeback_run(url, args, workdir)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000, help="Pig matches stored")
    parser.add_argument("--live", type=int, default=1000, help="matches held in memory")
    parser.add_argument("--actions", type=int, default=2, help="actions per Pig match")
    parser.add_argument("--big", type=int, default=3, help="hundred-player matches per game")
    parser.add_argument("--players", type=int, default=100, help="players of the big matches")
    parser.add_argument("--comebacks", type=int, default=3, help="timed returns to memory")
    parser.add_argument("--backends", default="sqlite", help="sqlite,postgresql")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    for backend in args.backends.split(","):
        if backend == "postgresql":
            with postgres_cluster() as url:
                found = run_backend(backend, url, args)
        else:
            found = run_backend(backend, "", args)
        for key, value in found.items():
            print(
                f"{backend:<10} {key:<28} {round(value, 1) if isinstance(value, float) else value}"
            )
    print(f"load average (1 min) before {load:.2f}, after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

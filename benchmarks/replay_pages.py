"""The replay page of a long finished match: per-request time before (the whole record
played for every request) and after (a step from the match's snapshots and the seat's
index of steps, ``server/replay_steps.py``).

The match: Superhero Gladiators on its small map, a turn limit of 700, seed 3, both teams
played by the random bot (4,344 plies, won at turn 621), played here and then submitted
action by action to an in-process server on a SQLite file (a snapshot every 200 plies).
Timed: ``GET /matches/ID/replay?seat=S&step=N`` through an in-process TestClient (the
whole page: HTTP in memory, the step, the board and the template), for seat 1, seat 2 and
a spectator, at random steps:

- cold: the first request of a seat as a fresh process sees it (the match out of memory,
  no index kept; the replay snapshots already in the database, kept by the first replay
  ever, which is timed once on its own);
- warm: later steps of the same seat.

Before and after are measured interleaved, in the same process, on the same match (the
before is the whole-record replay, ``replays.replay_from_start``, put in the service's
place for its requests). Prints medians (ms) and ratios, and the load average.

    nice -n 19 .venv/bin/python benchmarks/replay_pages.py --rounds 5 --warm 6
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from gladiatorium import games
from gladiatorium.bots.random import RandomBot
from gladiatorium.core import Rng, Seat, get_game
from gladiatorium.core.match import run_match
from gladiatorium.server.app import create_app
from gladiatorium.server.config import Settings
from gladiatorium.server.db import MatchSnapshot, User
from gladiatorium.server.replay_steps import ReplaySteps
from gladiatorium.server.replays import WholeRecord

GAME = "superhero-gladiators"
OPTIONS = {"turn_limit": 700}
SEED = 3
SEATS: tuple[Seat | None, ...] = ("1", "2", None)


def long_record() -> list[tuple[Seat, str]]:
    """The random bots' match, played here: (seat, action) of every ply."""
    game = get_game(GAME)
    state = game.start(OPTIONS, None, SEED)
    run_match(state, {s: RandomBot(Rng(SEED + i)) for i, s in enumerate(state.seats)})
    return [(s, str(a)) for s, a in state.history]


def stored_match(client: TestClient, record: list[tuple[Seat, str]]) -> str:
    """The match on the server, every action submitted in order; over at the end."""
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.store.sessions() as session:
        rex = session.scalars(select(User.id).where(User.username == "rex")).one()
    seats = dict.fromkeys(("1", "2"), "me")
    match = str(service.creation.create(rex, GAME, None, OPTIONS, seats, seed=SEED).id)
    for seat, action in record:
        service.play.submit(match, seat, action)
    assert service.store.live(match).over
    return match


def timed(client: TestClient, match: str, seat: Seat | None, step: int) -> float:
    params: dict[str, Any] = {"step": step} | ({} if seat is None else {"seat": seat})
    began = time.perf_counter()
    answer = client.get(f"/matches/{match}/replay", params=params)
    took = time.perf_counter() - began
    assert answer.status_code == 200 and "of " in answer.text, answer.text[:500]
    return took


def measure(args: argparse.Namespace) -> None:
    games.load()
    load_before = os.getloadavg()
    record = long_record()
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            database_url=f"sqlite:///{Path(folder) / 'replays.db'}", gauntlets=False
        )
        with TestClient(create_app(settings)) as client:
            answer = client.post(
                "/api/register", json={"username": "rex", "password": "correct horse battery"}
            )
            assert answer.status_code == 201, answer.text
            service = client.app.state.service  # type: ignore[attr-defined]
            began = time.perf_counter()
            match = stored_match(client, record)
            print(f"match: {len(record)} plies, stored in {time.perf_counter() - began:.1f} s")
            totals = {
                seat: WholeRecord(service.store).step(service.store.live(match), seat, None)[1]
                for seat in SEATS
            }
            print("steps per seat:", {str(s): t for s, t in totals.items()})
            first = timed(client, match, "1", totals["1"] // 2)
            with service.store.sessions() as session:
                rows = session.execute(
                    select(func.count(), func.sum(func.length(MatchSnapshot.state))).where(
                        MatchSnapshot.match_id == match
                    )
                ).one()
            print(
                f"first replay ever (keeps the snapshots): {first * 1000:.0f} ms; "
                f"snapshots now {rows[0]}, {rows[1] / 1024:.0f} KiB"
            )
            rows_out = run_rounds(client, service, match, totals, args)
    load_after = os.getloadavg()
    report(rows_out)
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min)")


def run_rounds(
    client: TestClient, service: Any, match: str, totals: dict[Seat | None, int], args: Any
) -> dict[tuple[str, str], list[float]]:
    """Rounds of (before, after), their order alternating: per seat a cold request, then
    ``args.warm`` warm ones, at random steps."""
    rng = random.Random(1)
    times: dict[tuple[str, str], list[float]] = {}
    for round_ in range(args.rounds):
        for seat in SEATS:
            steps = [rng.randrange(1, totals[seat]) for _ in range(args.warm + 1)]
            order = ("before", "after") if (round_ + SEATS.index(seat)) % 2 else ("after", "before")
            for variant in order:
                service.store.forget(match)  # as a fresh process sees the match
                replays = WholeRecord(service.store) if variant == "before" else None
                service.replays = replays or ReplaySteps(
                    service.store, service.store.snapshot_every
                )
                times.setdefault((variant, "cold"), []).append(timed(client, match, seat, steps[0]))
                for step in steps[1:]:
                    times.setdefault((variant, "warm"), []).append(timed(client, match, seat, step))
    return times


def report(times: dict[tuple[str, str], list[float]]) -> None:
    print(f"{'request':<8} {'n':>4} {'before ms':>10} {'after ms':>10} {'ratio':>7}")
    for kind in ("cold", "warm"):
        before = statistics.median(times["before", kind]) * 1000
        after = statistics.median(times["after", kind]) * 1000
        count = len(times["after", kind])
        print(f"{kind:<8} {count:>4} {before:>10.1f} {after:>10.1f} {before / after:>6.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of cold + warm per seat")
    parser.add_argument("--warm", type=int, default=6, help="warm requests per seat and round")
    measure(parser.parse_args())


if __name__ == "__main__":
    main()

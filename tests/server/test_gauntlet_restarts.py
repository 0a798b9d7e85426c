"""``kill -9`` of a real ``gladiatorium serve`` while heroes' gauntlets run: its runner
process dies with it, and after a restart every job finishes once, none lost, with the
results of an uninterrupted run of the same seed. On SQLite and PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from server_helpers import LiveServer, wait_for
from sqlalchemy import select

from gladiatorium.core.gauntlet import GauntletSize
from gladiatorium.core.jobs import run_jobs
from gladiatorium.games.superhero_gladiators.hero_files import find_sample
from gladiatorium.games.superhero_gladiators.lab.gauntlet import HeroGauntlet
from gladiatorium.server.db import GauntletJob, make_engine, make_sessions, migrate
from gladiatorium.server.gauntlets import enqueue_gauntlet

#: three greedy games per pairing on two maps: 84 games a sample, played in chunks of 3
SIZE = GauntletSize((("greedy", 3),), ("small", "pillars"))
RUNNER = {
    "GLADIATORIUM_GAUNTLETS": "1",
    "GLADIATORIUM_GAUNTLET_CHUNK": "3",
    "GLADIATORIUM_GAUNTLET_HEARTBEAT": "0.2",
    "GLADIATORIUM_GAUNTLET_STALE": "2",
    "GLADIATORIUM_GAUNTLET_POLL": "0.1",
    # the other shipped samples, queued when the hall starts: one game a pairing
    "GLADIATORIUM_GAUNTLET_GAMES": "greedy=1",
    "GLADIATORIUM_GAUNTLET_MAPS": "small",
}
HEROES = {"hall:cowboy@1": "cowboy", "hall:perseus@1": "perseus", "hall:fred@1": "fred"}


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text()
        found += [int(word) for word in text.split()]
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_a_killed_server_loses_no_gauntlet_and_plays_none_twice(
    database_url: str, live_server: Callable[..., LiveServer]
) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    sessions = make_sessions(engine)
    texts = {}
    for ref, name in HEROES.items():
        path = find_sample(name)
        assert path is not None
        texts[ref] = path.read_text(encoding="utf-8")
        with sessions.begin() as session:
            enqueue_gauntlet(session, ref, texts[ref], seed=21, size=SIZE)

    def rows() -> dict[str, GauntletJob]:
        with sessions() as session:
            jobs = session.scalars(select(GauntletJob).where(GauntletJob.hero_ref.in_(HEROES)))
            return {row.hero_ref: row for row in jobs}

    server = live_server(database_url, **RUNNER)
    assert server.process is not None
    [runner] = wait_for(lambda: children(server.process.pid), 60, "the gauntlet runner")
    wait_for(
        lambda: any(0 < r.done < r.total for r in rows().values()), 120, "a gauntlet half-played"
    )
    server.kill()
    server.process.wait()
    wait_for(lambda: not alive(runner), 10, "the runner to die with its server")
    at_kill = rows()
    interrupted = [ref for ref, r in at_kill.items() if r.state == "running"]
    assert interrupted, "no gauntlet was running when the server was killed"
    assert any(r.state != "done" for r in at_kill.values())
    assert all(r.results is None for r in at_kill.values() if r.state != "done")

    server.start()
    wait_for(
        lambda: all(r.state == "done" for r in rows().values()), 300, "every gauntlet to finish"
    )
    after = rows()

    def logs() -> str:
        return "".join(p.read_text(errors="replace") for p in server.folder.glob("server-*.log"))

    # the runner logs a job's end just after its transaction commits
    wait_for(lambda: all(f"gauntlet {ref} done" in logs() for ref in HEROES), 30, "the logs")
    for ref, row in after.items():
        plan = HeroGauntlet(texts[ref], 21, SIZE)
        marks = "".join(plan.mark(r) for r in run_jobs(plan.jobs()))
        assert (row.done, row.total, row.marks) == (len(marks), len(marks), marks)
        assert row.results == plan.summary(marks)
        # finished once: one process stored its results, once
        assert len(re.findall(rf"gauntlet {re.escape(ref)} done", logs())) == 1, logs()
    for ref in interrupted:
        assert after[ref].attempts == 2  # taken up again once its claim went stale
        assert at_kill[ref].marks == after[ref].marks[: len(at_kill[ref].marks)]
    engine.dispose()

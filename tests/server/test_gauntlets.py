"""Heroes' gauntlets on the server: the queue is a table (one job per hero reference),
claimed in the database so that each job runs to its end once, with progress after
each chunk and the results stored with the job's end; the gauntlet as JSON, the panel,
the hero ladder. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from server_helpers import settings_for
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from gladiatorium.core.gauntlet import GauntletSize
from gladiatorium.core.jobs import run_jobs
from gladiatorium.games.superhero_gladiators.hero_files import find_sample
from gladiatorium.games.superhero_gladiators.lab.gauntlet import HeroGauntlet
from gladiatorium.server import gauntlets
from gladiatorium.server.app import create_app
from gladiatorium.server.config import Settings
from gladiatorium.server.db import GauntletJob, make_engine, make_sessions, migrate, utcnow
from gladiatorium.server.gauntlet_runner import GauntletRunner
from gladiatorium.server.gauntlets import (
    GauntletRefused,
    claim_next,
    enqueue_gauntlet,
    finish,
    heartbeat,
    new_claim,
    rate_marks,
    record_chunk,
    size_of,
)

TINY = GauntletSize((("greedy", 1),), ("small",))
STALE = timedelta(seconds=30)


def sample(name: str) -> str:
    path = find_sample(name)
    assert path is not None
    return path.read_text(encoding="utf-8")


MINE = """\
name: Lamp <b>Lighter</b>
attributes: {strength: 4, dexterity: 4, size: 4, perception: 3}
powers:
  - {name: Torch, type: distance, level: 2, uses: infinite}
"""


@pytest.fixture
def sessions(database_url: str) -> Iterator[sessionmaker[Session]]:
    engine = make_engine(database_url)
    migrate(engine)
    yield make_sessions(engine)
    engine.dispose()


def queue(sessions: sessionmaker[Session], ref: str, text: str, seed: int = 0) -> int:
    with sessions.begin() as session:
        return enqueue_gauntlet(session, ref, text, seed=seed, size=TINY).id


def expected(text: str, seed: int) -> tuple[str, dict[str, object]]:
    """The marks and results of an uninterrupted run of the same gauntlet."""
    plan = HeroGauntlet(text, seed, TINY)
    marks = "".join(plan.mark(r) for r in run_jobs(plan.jobs()))
    return marks, plan.summary(marks)


def runner_for(sessions: sessionmaker[Session], chunk: int = 4) -> GauntletRunner:
    settings = replace(
        settings_for("sqlite://"), gauntlet_chunk=chunk, gauntlet_heartbeat_seconds=0.05
    )
    return GauntletRunner(sessions, settings)


def row_of(sessions: sessionmaker[Session], job_id: int) -> GauntletJob:
    with sessions() as session:
        row = session.get(GauntletJob, job_id)
        assert row is not None
        return row


def test_a_hero_is_queued_once_per_reference(sessions: sessionmaker[Session]) -> None:
    first = queue(sessions, "hall:cowboy@1", sample("cowboy"), seed=4)
    assert queue(sessions, "hall:cowboy@1", sample("cowboy"), seed=4) == first
    row = row_of(sessions, first)
    assert (row.state, row.done, row.total, row.hero_name) == ("queued", 0, 14, "Cowboy")
    assert row.command == (
        "gladiatorium lab gauntlet cowboy.yaml --seed 4 --games greedy=1 --maps small"
    )
    with pytest.raises(GauntletRefused, match="hall:cowboy@1: queued already with another"):
        queue(sessions, "hall:cowboy@1", sample("perseus"))
    with pytest.raises(GauntletRefused, match=r"hall:bad@1: hero hero: powers\[0\]\.type"):
        queue(sessions, "hall:bad@1", MINE.replace("distance", "sneeze"))
    with pytest.raises(GauntletRefused, match="give 1 to 200 characters"):
        queue(sessions, "hall:" + "x" * 200, MINE)
    with pytest.raises(GauntletRefused, match="seed -1 is not in 0 to 2"):
        queue(sessions, "hall:mine@1", MINE, seed=-1)
    with sessions() as session:
        refs = session.scalars(select(GauntletJob.hero_ref)).all()
    assert refs == ["hall:cowboy@1"]


def test_a_job_is_claimed_by_one_process_until_its_claim_goes_stale(
    sessions: sessionmaker[Session],
) -> None:
    job_id = queue(sessions, "hall:cowboy@1", sample("cowboy"))
    mine = claim_next(sessions, new_claim(), STALE)
    assert mine is not None and mine.id == job_id and mine.attempts == 1
    assert claim_next(sessions, new_claim(), STALE) is None  # held, its heart beating
    assert heartbeat(sessions, mine)
    assert record_chunk(sessions, mine, "", "wl")
    assert not record_chunk(sessions, mine, "", "wl")  # written already: refused
    # its process stops beating: after the stale time another takes it, with the marks
    with sessions.begin() as session:
        old = utcnow() - timedelta(minutes=5)
        session.execute(update(GauntletJob).values(heartbeat_at=old))
    theirs = claim_next(sessions, new_claim(), STALE)
    assert theirs is not None and theirs.marks == "wl" and theirs.attempts == 2
    # the first process wakes up: it holds nothing any more and writes nothing
    assert not heartbeat(sessions, mine)
    assert not record_chunk(sessions, mine, "wl", "wlw")
    assert not finish(sessions, mine, "w" * 14, {"stolen": True})
    row = row_of(sessions, job_id)
    assert (row.state, row.marks, row.results) == ("running", "wl", None)


def test_a_job_runs_to_its_end_once_with_the_lab_s_results(
    sessions: sessionmaker[Session],
) -> None:
    job_id = queue(sessions, "hall:cowboy@1", sample("cowboy"), seed=9)
    runner = runner_for(sessions)
    assert runner.run_once()
    row = row_of(sessions, job_id)
    marks, results = expected(sample("cowboy"), 9)
    assert (row.state, row.done, row.marks, row.claim) == ("done", 14, marks, None)
    assert row.results == results
    assert (row.mu, row.sigma) == rate_marks(marks)
    assert row.finished_at is not None
    assert not runner.run_once()  # nothing left: a finished job never runs again
    assert row_of(sessions, job_id).finished_at == row.finished_at


def test_a_taken_up_job_goes_on_from_its_last_chunk(sessions: sessionmaker[Session]) -> None:
    job_id = queue(sessions, "hall:mine@1", MINE, seed=2)
    marks, results = expected(MINE, 2)
    dead = claim_next(sessions, new_claim(), STALE)
    assert dead is not None
    assert record_chunk(sessions, dead, "", marks[:6])  # then killed mid-chunk
    with sessions.begin() as session:
        session.execute(update(GauntletJob).values(heartbeat_at=utcnow() - timedelta(hours=1)))
    assert runner_for(sessions, chunk=5).run_once()
    row = row_of(sessions, job_id)
    assert (row.state, row.marks, row.attempts) == ("done", marks, 2)
    assert row.results == results


def test_a_job_stopped_too_often_fails_and_a_bad_one_fails_at_once(
    sessions: sessionmaker[Session],
) -> None:
    job_id = queue(sessions, "hall:cowboy@1", sample("cowboy"))
    with sessions.begin() as session:
        session.execute(update(GauntletJob).values(attempts=gauntlets.MAX_ATTEMPTS))
    assert claim_next(sessions, new_claim(), STALE) is None
    row = row_of(sessions, job_id)
    assert (row.state, row.error) == ("failed", "stopped 5 times without finishing")
    bad = queue(sessions, "hall:mine@1", MINE)
    with sessions.begin() as session:  # a hero that no longer plans (another version)
        session.execute(
            update(GauntletJob).where(GauntletJob.id == bad).values(hero_yaml="name: x\n")
        )
    assert runner_for(sessions).run_once()
    row = row_of(sessions, bad)
    assert row.state == "failed" and row.error is not None and "attributes" in row.error


def test_the_gauntlet_the_ladder_and_their_pages(database_url: str) -> None:
    with TestClient(create_app(settings_for(database_url))) as client:
        sessions = client.app.state.service.store.sessions  # type: ignore[attr-defined]
        assert client.get("/api/gauntlets/hall:nobody@1").status_code == 404
        assert client.get("/gauntlets/hall:nobody@1").status_code == 404
        queue(sessions, "hall:mine@1", MINE, seed=1)
        queue(sessions, "hall:cowboy-again@1", sample("cowboy"), seed=1)
        waiting = client.get("/api/gauntlets/hall:mine@1").json()
        assert waiting["state"] == "queued"
        assert waiting["progress"] == {"done": 0, "total": 16}
        assert waiting["results"] is None and waiting["ladder_place"] is None
        assert waiting["hero"] == "Lamp <b>Lighter</b>"
        panel = client.get("/gauntlets/hall:mine@1").text
        assert 'data-state="queued"' in panel and "0 of 16 games" in panel
        assert "<b>Lighter" not in panel and "Lamp &lt;b&gt;Lighter&lt;/b&gt;" in panel
        assert client.get("/api/gauntlets/ladder").json() == {"heroes": []}
        runner = runner_for(sessions)
        while runner.run_once():  # the shipped samples' (queued first), then these two
            pass
        done = client.get("/api/gauntlets/hall:mine@1").json()
        assert done["state"] == "done" and done["progress"] == {"done": 16, "total": 16}
        assert done["results"] == expected(MINE, 1)[1]
        assert done["badge"] == done["results"]["badge"]
        assert done["command"].startswith("gladiatorium lab gauntlet lamp-b-lighter-b.yaml")
        assert done["file_name"] == "lamp-b-lighter-b.yaml"
        ladder = client.get("/api/gauntlets/ladder").json()["heroes"]
        assert [h["place"] for h in ladder] == list(range(1, 11))
        refs = {h["hero_ref"] for h in ladder}
        assert {"hall:cowboy-again@1", "hall:mine@1", "hall:cowboy@1"} <= refs
        ratings = [h["rating"] for h in ladder]
        assert ratings == sorted(ratings, reverse=True)
        mine = next(h for h in ladder if h["hero_ref"] == "hall:mine@1")
        assert done["ladder_place"] == mine["place"]
        assert mine["rating"] == done["rating"]["rating"]
        page = client.get("/ladder/heroes").text
        assert "Lamp &lt;b&gt;Lighter&lt;/b&gt;" in page and "<b>Lighter" not in page
        assert "/gauntlets/hall%3Amine%401" in page
        panel = client.get("/gauntlets/hall:mine@1").text
        assert 'data-state="done"' in panel and done["badge"]["verdict"] in panel
        assert "lamp-b-lighter-b.yaml --seed 1 --games greedy=1 --maps small" in panel


def test_serve_takes_the_gauntlet_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from gladiatorium.cli.main import app
    from gladiatorium.core.jobs import Runner
    from gladiatorium.server import app as server_app

    seen: list[Settings] = []
    monkeypatch.setattr(server_app, "serve", lambda settings, host, port: seen.append(settings))
    monkeypatch.setenv("COLUMNS", "300")
    runner = CliRunner()
    given = ["serve", "--no-gauntlets", "--gauntlet-workers", "2"]
    result = runner.invoke(app, given)
    assert result.exit_code == 0, result.output
    assert (seen[0].gauntlets, seen[0].gauntlet_workers) == (False, 2)
    assert runner.invoke(app, ["serve"]).exit_code == 0
    assert (seen[1].gauntlets, seen[1].gauntlet_workers, seen[1].gauntlet_ray_address) == (
        True,
        1,
        None,
    )
    assert size_of(seen[1]) == GauntletSize((("greedy", 10), ("mcts", 1)), ())
    result = runner.invoke(app, ["serve", "--gauntlet-ray-address", "10.0.0.5:6379"])
    assert result.exit_code == 0, result.output
    sessions = make_sessions(make_engine("sqlite://"))
    chosen = GauntletRunner(sessions, seen[2]).runner()
    assert chosen == Runner("ray", 1, "10.0.0.5:6379")
    assert GauntletRunner(sessions, seen[0]).runner() == Runner("local", 2)
    monkeypatch.setenv("GLADIATORIUM_GAUNTLET_GAMES", "greedy=lots")
    refused = runner.invoke(app, ["serve"])
    assert refused.exit_code == 2, refused.output
    assert "GLADIATORIUM_GAUNTLET_GAMES 'greedy=lots'" in refused.output, refused.output

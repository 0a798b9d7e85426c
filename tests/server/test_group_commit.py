"""Group commit (server/writer.py): steps of different matches that wait together are
written in one transaction, each caller answered only after it committed; a step that
fails in a group fails alone."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import body, create, register, wait_for
from sqlalchemy import event, func, select, text
from sqlalchemy.orm import Session

from gladiatorium.server.db import MatchAction
from gladiatorium.server.writer import Writer


def held_writer(writer: Writer) -> threading.Event:
    """Keep the writer busy (a step whose caller leads, and waits) until the returned
    event is set: the steps handed to it meanwhile wait together."""
    release, busy = threading.Event(), threading.Event()

    def hold(_session: Session) -> None:
        busy.set()
        release.wait(30)

    threading.Thread(target=writer.write, args=("", hold), daemon=True).start()
    assert busy.wait(30)
    return release


def test_actions_of_matches_waiting_together_share_one_transaction(client: TestClient) -> None:
    register(client, "gus")
    matches = [create(client, "pig", {"1": "me", "2": "me"})["id"] for _ in range(8)]
    service = client.app.state.service  # type: ignore[attr-defined]
    writer: Writer = service.store.writer
    release = held_writer(writer)
    before = (writer.transactions, writer.steps)
    with ThreadPoolExecutor(8) as pool:
        sent = [pool.submit(service.play.submit, m, "1", "roll") for m in matches]
        wait_for(lambda: len(writer._waiting) == 8, what="eight steps waiting")
        assert not any(future.done() for future in sent)  # nobody answered before commit
        release.set()
        answers = [future.result(30) for future in sent]
    assert all(answer for answer in answers)  # each got its own events
    # the holder's transaction, then one for all eight
    assert (writer.transactions - before[0], writer.steps - before[1]) == (2, 9)
    with service.store.sessions() as session:
        stored = session.scalar(
            select(func.count()).select_from(MatchAction).where(MatchAction.match_id.in_(matches))
        )
    assert stored == 8
    for match in matches:
        assert len(body(client, match)["events"]) >= 1


def test_a_step_that_fails_in_a_group_fails_alone(database_url: str) -> None:
    from gladiatorium.server.db import make_engine, make_sessions, migrate

    engine = make_engine(database_url)
    migrate(engine)
    writer = Writer(make_sessions(engine))
    try:
        release = held_writer(writer)

        def step(number: int) -> Any:
            def work(session: Session) -> int:
                if number == 3:
                    raise ValueError("step 3 refuses")
                return (
                    int(session.scalar(select(func.count()).select_from(MatchAction)) or 0) + number
                )

            return work

        with ThreadPoolExecutor(5) as pool:
            sent = [pool.submit(writer.write, f"m{n}", step(n)) for n in range(5)]
            wait_for(lambda: len(writer._waiting) == 5, what="five steps waiting")
            release.set()
            with pytest.raises(ValueError, match="step 3 refuses"):
                sent[3].result(30)
            assert [sent[n].result(30) for n in (0, 1, 2, 4)] == [0, 1, 2, 4]
        # the group failed, then each was written alone: four commits and the refusal
        assert writer.steps == 1 + 4
    finally:
        writer.close()
        engine.dispose()


def test_a_leader_is_answered_once_its_own_step_is_written(database_url: str) -> None:
    """The caller writing for everyone lets go once its own step is written, and the
    oldest step still waiting leads next: a leader that went on writing while steps kept
    coming held its own caller's answer back for as long as they came (an action of a
    benchmark waited the whole 20 s of its run)."""
    from gladiatorium.server.db import make_engine, make_sessions, migrate

    engine = make_engine(database_url)
    migrate(engine)
    writer = Writer(make_sessions(engine))
    go = threading.Event()
    follower = ThreadPoolExecutor(1)
    later: list[Any] = []

    def next_step(_session: Session) -> str:  # written after the first caller let go
        assert go.wait(30)
        return "next"

    def first(_session: Session) -> str:  # a step comes while the first is written
        later.append(follower.submit(writer.write, "m2", next_step))
        wait_for(lambda: len(writer._waiting) == 1, what="the next step waiting")
        return "first"

    try:
        with ThreadPoolExecutor(1) as pool:
            mine = pool.submit(writer.write, "m1", first)
            assert mine.result(10) == "first"  # while the next step is being written
            assert not later[0].done()
            go.set()
            assert later[0].result(30) == "next"
        assert (writer.transactions, writer.steps) == (2, 2)
    finally:
        go.set()
        follower.shutdown()
        writer.close()
        engine.dispose()


def test_the_writer_keeps_one_connection_and_replaces_one_the_database_dropped(
    postgres_url: str,
) -> None:
    """Every leader writes on the writer's own connection (no connection taken from the
    pool, and no liveness query, per step); when the database drops it (a restart, an
    administrator), the step in hand is written again once on a new connection."""
    from gladiatorium.server.db import make_engine, make_sessions, migrate

    engine = make_engine(postgres_url)
    migrate(engine)
    writer = Writer(make_sessions(engine))

    def backend(session: Session) -> int:
        return int(session.scalar(select(func.pg_backend_pid())) or 0)

    def appended(ply: int) -> Any:
        def work(session: Session) -> int:
            session.add(MatchAction(match_id=match, ply=ply, seat="1", action="roll"))
            session.flush()
            return backend(session)

        return work

    try:
        match = create_bare_match(engine)
        checkouts: list[object] = []
        event.listen(engine, "checkout", lambda *args: checkouts.append(args))
        first = [writer.write(match, appended(ply)) for ply in range(3)]
        assert len(set(first)) == 1 and len(checkouts) == 1  # one connection for all
        with engine.begin() as connection:  # the database drops it
            assert connection.scalar(select(func.pg_terminate_backend(first[0])))
        wait_for(lambda: not backend_alive(engine, first[0]), what="the backend gone")
        again = writer.write(match, appended(3))  # written again, on a new connection
        assert again != first[0] and writer.write(match, appended(4)) == again
        with engine.connect() as connection:
            plies = connection.scalars(
                select(MatchAction.ply).where(MatchAction.match_id == match)
            ).all()
        assert sorted(plies) == [0, 1, 2, 3, 4]  # each step once
    finally:
        writer.close()
        engine.dispose()


def create_bare_match(engine: Any) -> str:
    """A match row of a Pig match (enough for its actions' foreign key)."""
    from gladiatorium.server.db import Match

    with Session(engine) as session, session.begin():
        session.add(
            Match(
                id="writer-test",
                game="pig",
                version="1",
                players=2,
                options={},
                seed=1,
                digest="",
            )
        )
    return "writer-test"


def backend_alive(engine: Any, pid: int) -> bool:
    """Whether the PostgreSQL backend ``pid`` still serves a connection."""
    with engine.connect() as connection:
        alive = text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid")
        return bool(connection.scalar(alive, {"pid": pid}))

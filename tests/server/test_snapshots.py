"""Snapshots of long matches: kept every few plies, a match comes back to memory from
the newest one that reads, and answers exactly as if replayed from its whole record."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from server_helpers import act, body, create, register, settings_for
from sqlalchemy import select, update

from gladiatorium.server.app import create_app
from gladiatorium.server.db import MatchSnapshot


@pytest.fixture
def snapping(database_url: str) -> Iterator[TestClient]:
    """The app with a snapshot every 5 plies."""
    settings = dataclasses.replace(settings_for(database_url), snapshot_every=5)
    with TestClient(create_app(settings)) as client:
        yield client


def played(client: TestClient, plies: int) -> str:
    """A Pig match for one person holding both seats, ``plies`` actions in."""
    register(client, "sam")
    match = create(client, "pig", {"1": "me", "2": "me"}, options={"target": 1000})["id"]
    for _ in range(plies):
        seat = body(client, match)["awaiting"][0]
        legal = body(client, match, seat)["legal"]
        assert act(client, match, seat, legal[len(legal) - 1]).status_code == 200
    return match


def kept(client: TestClient, match: str) -> list[int]:
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.store.sessions() as session:
        return list(
            session.scalars(
                select(MatchSnapshot.ply)
                .where(MatchSnapshot.match_id == match)
                .order_by(MatchSnapshot.ply)
            )
        )


def after_ply(client: TestClient, match: str, ply: int) -> list[dict[str, object]]:
    answer = client.get(f"/api/matches/{match}", params={"seat": "1", "after": ply})
    assert answer.status_code == 200, answer.text
    return list(answer.json()["events"])


def comes_back(client: TestClient, match: str) -> tuple[int, list[dict[str, object]]]:
    """The match leaves memory and comes back: (the ply it was rebuilt from, what
    each seat and a spectator are shown)."""
    service = client.app.state.service  # type: ignore[attr-defined]
    service.store.forget(match)
    shown = [body(client, match, seat) for seat in ("1", "2", None)]
    return service.store.held(match).rebuilt_from, shown


def test_a_long_match_comes_back_from_its_newest_snapshot(snapping: TestClient) -> None:
    match = played(snapping, 23)
    assert kept(snapping, match) == [15, 20]  # the newest two
    before = [body(snapping, match, seat) for seat in ("1", "2", None)]
    since = [after_ply(snapping, match, ply) for ply in (3, 21)]
    start, after = comes_back(snapping, match)
    assert start == 20
    assert after == before
    # the events after a ply before the snapshot too (a socket reconnecting from there)
    assert [after_ply(snapping, match, ply) for ply in (3, 21)] == since
    seat = after[2]["awaiting"][0]
    assert act(snapping, match, seat, "roll").status_code == 200  # and it plays on


def test_a_snapshot_that_does_not_read_or_is_of_another_version_is_passed_over(
    snapping: TestClient,
) -> None:
    match = played(snapping, 23)
    before = [body(snapping, match, seat) for seat in ("1", "2", None)]
    service = snapping.app.state.service  # type: ignore[attr-defined]
    with service.store.sessions.begin() as session:
        session.execute(
            update(MatchSnapshot)
            .where(MatchSnapshot.match_id == match, MatchSnapshot.ply == 20)
            .values(state=b"not a snapshot")
        )
    assert comes_back(snapping, match) == (15, before)
    with service.store.sessions.begin() as session:
        session.execute(
            update(MatchSnapshot)
            .where(MatchSnapshot.match_id == match, MatchSnapshot.ply == 15)
            .values(version="0.0-old")
        )
    assert comes_back(snapping, match) == (0, before)  # the whole record

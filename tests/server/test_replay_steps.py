"""A replay's steps come from an index kept per seat and the match's snapshots, and each
is exactly what playing the whole record from its start gives: for every seat of a
played match of each game with hidden information, at every step, in memory since
played or come back from a snapshot, and on the page itself."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import register, settings_for
from sqlalchemy import select

from gladiatorium import games
from gladiatorium.core import Seat, get_game
from gladiatorium.server import snapshots
from gladiatorium.server.app import create_app
from gladiatorium.server.db import MatchSnapshot, User
from gladiatorium.server.replay_steps import ReplaySteps, Step
from gladiatorium.server.replays import WholeRecord
from gladiatorium.server.store import Live

EVERY = 5
#: the games with hidden information: (players, options) of a short match
HIDDEN = {
    "hero-battle": (8, {"starting_hp": 4, "max_rounds": 4}),
    "super-dice-heroes": (3, {"rounds": 3}),
    "superhero-gladiators": (None, {"turn_limit": 12}),
}


@pytest.fixture
def snapping(database_url: str) -> Iterator[TestClient]:
    """The app with a snapshot every 5 plies, and an account ("rex") signed in."""
    settings = dataclasses.replace(settings_for(database_url), snapshot_every=EVERY)
    with TestClient(create_app(settings)) as client:
        register(client, "rex")
        yield client


def service_of(client: TestClient) -> Any:
    return client.app.state.service  # type: ignore[attr-defined]


def finished(client: TestClient, slug: str, seed: int) -> str:
    """A match of ``slug`` for rex holding every seat, played to its end by random
    legal actions."""
    games.load()
    service = service_of(client)
    players, options = HIDDEN[slug]
    seats = get_game(slug).start(options, players, seed).seats
    with service.store.sessions() as session:
        rex = session.scalars(select(User.id).where(User.username == "rex")).one()
    match = service.creation.create(
        rex, slug, players, options, dict.fromkeys(seats, "me"), seed=seed
    ).id
    rng = random.Random(seed)
    live = service.store.live(match)
    while not live.over:
        seat = rng.choice([s for s in live.state.awaiting() if live.state.legal_actions(s)])
        action = rng.choice(list(live.state.legal_actions(seat)))
        service.play.submit(match, seat, str(action))
        live = service.store.live(match)
    return str(match)


def told(step: Step, seat: Seat | None) -> tuple[Any, ...]:
    """A step as compared: its ply, the action as the seat knew it, what the seat is
    shown and the whole event log (secrets included)."""
    state = step.state
    shown = json.dumps(state.view(seat), sort_keys=True, default=str)
    return step.ply, step.played, len(state.history), shown, [e.to_json() for e in state.events]


def wanted_steps(total: int) -> list[int | None]:
    """The steps asked for, in order: the first one (in the middle) is the seat's first
    request, which copies its step while it plays the record once."""
    return [total // 2, None, -3, *range(total + 1), total + 1, total + 50]


def same_steps(service: Any, match: str, replays: ReplaySteps) -> int:
    """Every step of every seat's replay (and a spectator's) from ``replays`` against the
    whole record's; returns how many were compared."""
    live = service.store.live(match)
    whole = WholeRecord(service.store)
    compared = 0
    for seat in (None, *live.state.seats):
        total = whole.step(live, seat, None)[1]
        for wanted in wanted_steps(total):
            old, old_total = whole.step(live, seat, wanted)
            new, new_total = replays.step(live, seat, wanted)
            assert new_total == old_total == total, (seat, wanted)
            assert told(new, seat) == told(old, seat), (seat, wanted)
            compared += 1
    return compared


@pytest.mark.parametrize("slug", sorted(HIDDEN))
def test_every_step_of_every_seat_is_the_whole_records(snapping: TestClient, slug: str) -> None:
    service = service_of(snapping)
    match = finished(snapping, slug, 7)
    ply = service.store.live(match).ply
    assert ply > 4 * EVERY
    assert same_steps(service, match, service.replays) > ply  # in memory since played
    # the first replay kept a snapshot every 5 plies (the play kept only the newest two)
    with service.store.sessions() as session:
        kept = sorted(
            session.scalars(select(MatchSnapshot.ply).where(MatchSnapshot.match_id == match))
        )
    assert kept == list(range(EVERY, ply + 1, EVERY))
    # come back to memory from a snapshot, in a process that never replayed it
    service.store.forget(match)
    fresh = ReplaySteps(service.store, EVERY)
    assert same_steps(service, match, fresh) > ply
    assert service.store.held(match).rebuilt_from == ply - ply % EVERY


def test_a_step_is_a_snapshot_and_fewer_actions_than_their_spacing(
    snapping: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = service_of(snapping)
    match = finished(snapping, "superhero-gladiators", 3)
    live = service.store.live(match)
    passes: list[Seat | None] = []
    made = ReplaySteps._pass

    def counted(self: ReplaySteps, live: Live, seat: Seat | None, copy_at: int) -> Any:
        passes.append(seat)
        return made(self, live, seat, copy_at)

    monkeypatch.setattr(ReplaySteps, "_pass", counted)
    read: list[tuple[int, int]] = []
    newest = snapshots.newest

    def spied(session: Any, match_id: str, version: str, ply: int) -> Any:
        found = newest(session, match_id, version, ply)
        read.append((ply, -1 if found is None else found[0]))
        return found

    monkeypatch.setattr(snapshots, "newest", spied)
    replays = ReplaySteps(service.store, EVERY, max_steps=10_000)
    total = replays.step(live, "1", 0)[1]
    for wanted in range(1, total):
        replays.step(live, "1", wanted)
    assert passes == ["1"]  # one pass over the record for the seat, however many steps
    assert len(read) == total - 1
    assert all(0 <= ply - start < EVERY for ply, start in read if ply >= EVERY), read
    replays.step(live, "2", 3)
    assert passes == ["1", "2"]


def test_seats_steps_leave_memory_past_their_bound(snapping: TestClient) -> None:
    service = service_of(snapping)
    match = finished(snapping, "super-dice-heroes", 5)
    live = service.store.live(match)
    one = ReplaySteps(service.store, EVERY).known(live, "1")
    bounded = ReplaySteps(service.store, EVERY, max_steps=len(one.plies) + 1)
    first = bounded.known(live, "1")
    assert bounded.known(live, "1") is first  # kept
    bounded.known(live, "2")  # passes the bound: seat 1's steps leave
    assert bounded.known(live, "1") is not first
    assert bounded.known(live, "1") == first


def test_the_replay_page_is_the_same_as_from_the_whole_record(snapping: TestClient) -> None:
    service = service_of(snapping)
    match = finished(snapping, "hero-battle", 11)
    steps = [9, None, 0, 1, 10, 11, 500]  # the first: while the record is played once
    pages = {}
    for replays in (service.replays, WholeRecord(service.store)):
        service.replays = replays
        pages[type(replays)] = [
            snapping.get(f"/matches/{match}/replay", params=params(seat, step)).text
            for seat in (None, "3", "moderator")
            for step in steps
        ]
    new, old = pages.values()
    assert len(new) == 21
    assert sum("The start of the match." in page for page in new) == 3
    assert sum("Just played by seat" in page for page in new) == 18
    assert new == old


def params(seat: str | None, step: int | None) -> dict[str, Any]:
    return {
        **({} if seat is None else {"seat": seat}),
        **({} if step is None else {"step": step}),
    }


def test_replay_snapshots_are_bounded_per_match() -> None:
    assert snapshots.replay_spacing(200, 4344) == 200
    assert snapshots.replay_spacing(200, 10_000) == 200  # 50 snapshots
    assert snapshots.replay_spacing(200, 10_001) == 400
    assert snapshots.replay_spacing(200, 25_000) == 600
    assert snapshots.replay_spacing(0, 5000) == 0

"""Bots in seats move when the match waits on them, and only then."""

from __future__ import annotations

import heapq
import time
from pathlib import Path

from fastapi.testclient import TestClient

from gladiatorium.server.app import create_app
from gladiatorium.server.config import Settings
from gladiatorium.server.workers import DRIVER_TRIES, BotDrivers

ORIGIN = {"origin": "http://testserver"}


def test_bots_who_moved_in_a_hero_battle_round_do_not_edit_again(tmp_path: Path) -> None:
    """A Hero Battle player who moved stays awaited (to edit) but is not deciding: the
    bots make one move each and then wait for the person, however long it takes."""
    settings = Settings(database_url=f"sqlite:///{tmp_path}/b.db", bot_delay_seconds=0)
    seats = {"1": "me", **{str(n): "bot:random" for n in range(2, 9)}}
    with TestClient(create_app(settings)) as client:
        client.post("/api/register", json={"username": "mod", "password": "correct horse battery"})
        made = client.post(
            "/api/matches", json={"game": "hero-battle", "seats": seats}, headers=ORIGIN
        )
        match_id = made.json()["id"]
        service = client.app.state.service  # type: ignore[attr-defined]
        deadline = time.monotonic() + 30
        while service.store.live(match_id).state.deciding() != ("1",):
            assert time.monotonic() < deadline, "the bots did not move"
            time.sleep(0.05)
        moved = service.store.live(match_id).ply
        assert moved >= 7  # one move each, guesses perhaps before it
        time.sleep(0.5)  # a driver that re-edited would have added actions by now
        live = service.store.live(match_id)
        assert live.ply == moved
        assert "1" in live.state.awaiting() and "2" in live.state.awaiting()


def test_a_driver_tries_again_after_a_passing_failure(tmp_path: Path) -> None:
    """A fault while a bot moves (say the database is busy) does not leave the match
    waiting on that bot for good: the match goes back in the queue, and leaves it only
    after DRIVER_TRIES faults in a row."""
    settings = Settings(database_url=f"sqlite:///{tmp_path}/b.db", bot_delay_seconds=0)
    drivers = BotDrivers(None, settings)  # type: ignore[arg-type]  # no service is reached
    steps = iter([OSError("database is locked"), True, True, False])
    calls: list[str] = []

    def move_once(match_id: str) -> bool:
        calls.append(match_id)
        step = next(steps)
        if isinstance(step, Exception):
            raise step
        return step

    def drive(match_id: str) -> None:
        """What the driver threads do, here in this thread: one step at a time."""
        with drivers._ready:
            drivers._driving.add(match_id)
            drivers._enqueue(match_id, 0)
        while drivers._queue:
            drivers._step(heapq.heappop(drivers._queue)[2])

    drivers._move_once = move_once  # type: ignore[method-assign]
    drive("m1")
    assert calls == ["m1"] * 4 and "m1" not in drivers._driving

    failing: list[str] = []

    def always_fails(match_id: str) -> bool:
        failing.append(match_id)
        raise OSError("gone")

    drivers._move_once = always_fails  # type: ignore[method-assign]
    drive("m2")
    assert failing == ["m2"] * DRIVER_TRIES and "m2" not in drivers._driving
    drivers.close()

"""A hundred Super Dice Heroes players, bots and clients, finish a game on the server."""

from __future__ import annotations

import time
from pathlib import Path

from fastapi.testclient import TestClient

from gladiatorium.core.record import events_digest
from gladiatorium.server.app import create_app
from gladiatorium.server.config import Settings

ORIGIN = {"origin": "http://testserver"}
PEOPLE = ("1", "50", "100")


def test_a_hundred_heroes_finish_a_game(tmp_path: Path) -> None:
    """Three people over HTTP and 97 bots share every roll; each round waits for all of
    them, the game ends, and the stored digest is the replayed log's."""
    settings = Settings(database_url=f"sqlite:///{tmp_path}/c.db", bot_delay_seconds=0)
    seats = {str(n): "me" if str(n) in PEOPLE else "bot:random" for n in range(1, 101)}
    with TestClient(create_app(settings)) as client:
        client.post(
            "/api/register", json={"username": "crowd", "password": "correct horse battery"}
        )
        made = client.post(
            "/api/matches",
            json={
                "game": "super-dice-heroes",
                "players": 100,
                "options": {"rounds": 1},
                "seats": seats,
            },
            headers=ORIGIN,
        )
        assert made.status_code == 201, made.text
        match_id = made.json()["id"]
        deadline = time.monotonic() + 300
        outcome = None
        while outcome is None:
            assert time.monotonic() < deadline, "the game did not finish"
            acted = False
            for seat in PEOPLE:
                body = client.get(f"/api/matches/{match_id}?seat={seat}").json()
                outcome = body["outcome"]
                if body["legal"]:
                    sent = client.post(
                        f"/api/matches/{match_id}/actions",
                        json={"seat": seat, "action": body["legal"][0]},
                        headers=ORIGIN,
                    )
                    assert sent.status_code in (200, 409), sent.text
                    acted = True
            if not acted and outcome is None:
                time.sleep(0.02)
        assert len(outcome["scores"]) == 100
        live = client.app.state.service.store.live(match_id)  # type: ignore[attr-defined]
        assert live.state.is_over and live.ply > 100 * 4
        record = client.get(f"/api/matches/{match_id}/record")
        assert record.status_code == 200
        assert record.json()["digest"] == events_digest(live.state)

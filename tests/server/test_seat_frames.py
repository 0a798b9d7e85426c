"""A seat taken while pages are open is pushed to them: a ``seats`` frame when nothing
else changed for the seat (docs/server.md, "The WebSocket's frames")."""

from __future__ import annotations

from fastapi.testclient import TestClient
from server_helpers import create, recv, register

from gladiatorium.server.db import User


def test_a_seat_taken_sends_a_seats_frame(sqlite_client: TestClient) -> None:
    client = sqlite_client
    register(client, "ada")
    match = create(client, "pig", {"1": "me", "2": "open"})["id"]
    service = client.app.state.service  # type: ignore[attr-defined]
    register(client, "bob")  # the client is bob's now; ada's seat is watched as a spectator
    with service.store.sessions() as session:
        bob = session.query(User).filter_by(username="bob").one().id
    with client.websocket_connect(f"/ws/matches/{match}?frames=2") as ws:
        assert recv(ws)["type"] == "body"
        service.seats.join(match, "2", bob)
        assert recv(ws) == {"type": "seats", "ply": 0, "seats": {"1": "user", "2": "user"}}
        page = client.get(f"/matches/{match}?seat=spectator").text
        assert "<li><strong>2</strong>: bob (you)</li>" in page

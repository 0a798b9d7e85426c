"""Matches created from a written position (an API field and a form field): the match
starts there, survives leaving memory, and each seat sees only what it may know."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import ORIGIN, act, body, create, register
from sqlalchemy import func, select

import gladiatorium.games
from gladiatorium.server.db import Match

GAMES = Path(gladiatorium.games.__file__).parent
POWERPLANT = (GAMES / "super_dice_heroes/data/positions/powerplant.yaml").read_text()
TAKEOVER = (GAMES / "hero_battle/data/positions/takeover.yaml").read_text()


def seen(client: TestClient, match: str, seat: str) -> dict[str, Any]:
    """What a seat is shown of a match (its whole body) and of its record."""
    record = client.get(f"/api/matches/{match}/record", params={"seat": seat})
    return {**body(client, match, seat), "record": (record.status_code, "position" in record.text)}


def test_a_match_starts_from_a_position_and_is_rebuilt_from_it(client: TestClient) -> None:
    register(client, "ada")
    match = create(client, "super-dice-heroes", {"1": "me"}, players=1, position=POWERPLANT)["id"]
    view = body(client, match, "1")["view"]
    assert (view["round"], view["heroes"]["1"]["location"]) == (6, 4)
    assert view["heroes"]["1"]["wild_spent"] == 1
    move = next(a for a in body(client, match, "1")["legal"] if a.startswith("move"))
    assert act(client, match, "1", move).status_code == 200
    before = seen(client, match, "1")
    service = client.app.state.service  # type: ignore[attr-defined]
    service.store.forget(match)  # as an idle match leaves memory
    assert seen(client, match, "1") == before  # rebuilt from the position and the moves


def test_a_bad_position_is_refused_with_its_line_and_changes_nothing(client: TestClient) -> None:
    register(client, "bea")
    bad = POWERPLANT.replace("round: 6", "round: sixty")
    answer = client.post(
        "/api/matches",
        json={"game": "super-dice-heroes", "players": 1, "seats": {"1": "me"}, "position": bad},
        headers={"origin": ORIGIN},
    )
    assert answer.status_code == 422
    assert answer.json()["error"].startswith("position:5: round:")
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.store.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Match)) == 0
    for wrong, said in ((12, "position: expected"), ("x" * 200_000, "at most")):
        answer = client.post(
            "/api/matches",
            json={"game": "pig", "seats": {"1": "me"}, "position": wrong},
            headers={"origin": ORIGIN},
        )
        assert answer.status_code in (400, 422) and said in answer.json()["error"], answer.text
    answer = client.post(
        "/api/matches",
        json={"game": "pig", "seats": {"1": "me"}, "position": "score: 3"},
        headers={"origin": ORIGIN},
    )
    assert answer.status_code == 422 and "no position format" in answer.json()["error"]


def swapped(text: str, one: str, two: str) -> str:
    """The Battle position with the secret heroes (and nemeses) of two players swapped."""
    lines = text.splitlines()
    first, second = (
        next(i for i, line in enumerate(lines) if line.lstrip().startswith(f"- {{name: {who},"))
        for who in (one, two)
    )

    def secret(line: str) -> str:
        return line[line.index(", hero:") :]

    def public(line: str) -> str:
        return line[: line.index(", hero:")]

    lines[first], lines[second] = (
        public(lines[first]) + secret(lines[second]),
        public(lines[second]) + secret(lines[first]),
    )
    return "\n".join(lines) + "\n"


def test_a_seat_of_a_match_from_a_whole_truth_position_learns_no_other_secret(
    client: TestClient,
) -> None:
    register(client, "cyd")
    twin = swapped(TAKEOVER, "cy", "flo")
    assert twin != TAKEOVER
    seats = {"1": "me", **{str(s): "open" for s in range(2, 9)}, "moderator": "open"}
    shown = []
    for text in (TAKEOVER, twin):
        match = create(client, "hero-battle", seats, players=8, position=text)["id"]
        shown.append(seen(client, match, "1"))
    assert shown[0]["view"]["round"] == 6
    assert shown[0]["view"]["identities"]["Doctor Paradox"] == "2"  # outed: public
    assert shown[0] == shown[1]  # who plays which secret hero never reaches seat 1

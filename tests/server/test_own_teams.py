"""Teams brought by the people who take seats (server/teams.py): the match waits, no one
moves and no bot acts until every such seat is taken with its team, which each taker
picks from their own library and the samples; on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from server_helpers import ORIGIN, body, create, register

import gladiatorium

DATA = Path(gladiatorium.__file__).parent / "games" / "superhero_gladiators" / "data"
HEROES, MAPS = DATA / "heroes", DATA / "maps"


def upload(client: TestClient, name: str) -> int:
    text = (HEROES / name).read_text()
    answer = client.post(
        "/api/library",
        json={"game": "superhero-gladiators", "text": text, "filename": name},
        headers={"origin": ORIGIN},
    )
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])


def join(client: TestClient, match: str, seat: str, team: list[int | str] | None) -> object:
    data: dict[str, object] = {"seat": seat} | ({"team": team} if team is not None else {})
    return client.post(f"/api/matches/{match}/join", json=data, headers={"origin": ORIGIN})


def test_each_taker_brings_a_team_from_their_library(client: TestClient) -> None:
    register(client, "ann")
    mine = upload(client, "fred-the-giant.yaml")
    match = create(
        client,
        "superhero-gladiators",
        {"1": "me", "2": "open", "3": "open"},
        players=3,
        options={"map": (MAPS / "colosseum.txt").read_text(), "map_name": "colosseum"},
        library={"1": [mine]},
        own_teams=["2", "3"],
    )["id"]
    # the match waits: no one to move, no action taken
    waiting = body(client, match, "1")
    assert waiting["awaiting"] == [] and waiting["legal"] == []
    refused = client.post(
        f"/api/matches/{match}/actions",
        json={"seat": "1", "action": "pass"},
        headers={"origin": ORIGIN},
    )
    assert refused.status_code == 409
    assert "waits for the team of seat 2, 3" in refused.text
    bob = TestClient(client.app)
    register(bob, "bob")
    archer = upload(bob, "giant-rubber-cement-archer.yaml")
    # a seat that waits for a team needs one; someone else's item is refused
    assert join(bob, match, "2", None).status_code == 422  # type: ignore[attr-defined]
    stolen = join(bob, match, "2", [mine])
    assert stolen.status_code == 422 and "not in your library" in stolen.text  # type: ignore[attr-defined]
    brought = join(bob, match, "2", [archer, "sample:cowboy"])
    assert brought.status_code == 200, brought.text  # type: ignore[attr-defined]
    still = body(client, match, "1")
    assert still["awaiting"] == []  # seat 3's team is still to come
    carol = TestClient(client.app)
    register(carol, "carol")
    assert join(carol, match, "3", ["sample:perseus"]).status_code == 200  # type: ignore[attr-defined]
    started = body(client, match, "1")
    assert started["awaiting"]  # the placement begins
    names = {h["team"]: [] for h in started["view"]["heroes"]}
    for hero in started["view"]["heroes"]:
        names[hero["team"]].append(hero["name"])
    assert sorted(names.items()) == [
        ("1", ["Fred the Giant"]),
        ("2", ["Giant Rubber Cement Archer", "Cowboy"]),
        ("3", ["Perseus"]),
    ]
    # a seat that was not left to its taker takes no team
    late = join(carol, match, "1", ["sample:perseus"])
    assert late.status_code in (422, 409)  # type: ignore[attr-defined]


def test_own_teams_are_for_open_team_seats_only(client: TestClient) -> None:
    register(client, "dora")

    def refused(seats: dict[str, str], own: list[str], **extra: object) -> str:
        answer = client.post(
            "/api/matches",
            json={"game": "superhero-gladiators", "seats": seats, "own_teams": own, **extra},
            headers={"origin": ORIGIN},
        )
        assert answer.status_code == 422, answer.text
        return str(answer.json()["error"])

    assert "must be open" in refused({"1": "me", "2": "bot:random"}, ["2"])
    assert "has no team" in refused({"1": "me", "2": "open"}, ["7"])
    assert "library.1: pick the team of seat 1" in refused({"1": "me", "2": "open"}, ["2"])
    pig = client.post(
        "/api/matches",
        json={"game": "pig", "seats": {"1": "me", "2": "open"}, "own_teams": ["2"]},
        headers={"origin": ORIGIN},
    )
    assert pig.status_code == 422 and "no teams to bring" in pig.text

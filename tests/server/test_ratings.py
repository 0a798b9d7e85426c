"""Ratings of people per game (OpenSkill Plackett-Luce), rated when a match ends:
exact numbers against the library itself, sides sharing their result, casual matches
left alone, the leaderboard, profiles, and a rebuild from the stored results."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from server_helpers import ORIGIN, act, body, create, register, wait_for
from sqlalchemy import select
from typer.testing import CliRunner

from gladiatorium.cli.main import app as cli
from gladiatorium.server.db import Rating, RatingChange

MODEL = PlackettLuce()


def person(client: TestClient, name: str) -> TestClient:
    """Another browser on the same server, signed up as ``name``."""
    other = TestClient(client.app)
    register(other, name)
    return other


def finish(clients: dict[str, TestClient], match: str, pick: Any = None) -> dict[str, Any]:
    """Play the match to its end: each awaited seat's holder plays its first legal
    action (``pick`` chooses otherwise); bots play by themselves."""
    anyone = next(iter(clients.values()))
    for _ in range(500):
        now = body(anyone, match)
        if now["outcome"] is not None:
            return now
        mine = [s for s in now["awaiting"] if s in clients]
        if not mine:
            wait_for(lambda n=len(now["events"]): len(body(anyone, match)["events"]) > n)
            continue
        seat = mine[0]
        legal = body(clients[seat], match, seat)["legal"]
        answer = act(clients[seat], match, seat, pick(legal) if pick else legal[0])
        assert answer.status_code in (200, 409), answer.text
    raise AssertionError("the match did not end")


def ratings(client: TestClient, game: str) -> dict[str, tuple[float, float, int]]:
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.store.sessions() as session:
        rows = session.scalars(select(Rating).where(Rating.game == game))
        return {row.player: (row.mu, row.sigma, row.games) for row in rows}


def user_id(client: TestClient, name: str) -> int:
    from gladiatorium.server.db import User

    service = client.app.state.service  # type: ignore[attr-defined]
    with service.store.sessions() as session:
        found = session.scalar(select(User.id).where(User.username == name))
        assert found is not None
        return int(found)


def hold_at_ten(legal: list[str]) -> str:
    return "hold" if "hold" in legal else "roll"


def test_a_person_against_a_bot_is_rated_as_the_library_says(client: TestClient) -> None:
    register(client, "ada")
    match = create(client, "pig", {"1": "me", "2": "bot:random"}, options={"target": 5})["id"]
    end = finish({"1": client}, match, hold_at_ten)
    ada = f"user:{user_id(client, 'ada')}"
    won = "1" in end["outcome"]["winners"]
    [[mine], [bot]] = MODEL.rate(
        [[MODEL.rating()], [MODEL.rating()]], ranks=[1.0, 2.0] if won else [2.0, 1.0]
    )
    assert ratings(client, "pig") == {
        ada: (mine.mu, mine.sigma, 1),
        "bot:random": (bot.mu, bot.sigma, 1),
    }
    changes = client.get(f"/api/matches/{match}/ratings").json()["changes"]
    assert [c["name"] for c in changes] == (["ada", "bot:random"] if won else ["bot:random", "ada"])
    assert changes[0]["change"] > 0 > changes[1]["change"]
    page = client.get(f"/matches/{match}").text
    assert 'id="rating-changes"' in page and "ada" in page
    # the leaderboard, best first; ada is provisional
    board = client.get("/api/leaderboard/pig").json()["players"]
    assert [p["name"] for p in board] == (["ada", "bot:random"] if won else ["bot:random", "ada"])
    assert board[0]["rating"] > board[1]["rating"] and board[0]["provisional"]
    assert "ada" in client.get("/leaderboard/pig").text
    # her profile: the match and its result, nothing else about it
    profile = client.get("/api/users/ada").json()
    assert profile["recent"] == [
        {
            "id": match,
            "game": "pig",
            "ended": profile["recent"][0]["ended"],
            "result": "won" if won else "lost",
        }
    ]
    assert profile["games"] == {"pig": {"won" if won else "lost": 1}}
    assert profile["ratings"]["pig"]["games"] == 1
    assert client.get("/users/ada").status_code == 200
    assert client.get("/api/users/nobody").status_code == 404


def test_a_casual_match_and_a_match_of_bots_are_not_rated(client: TestClient) -> None:
    register(client, "bea")
    casual = create(
        client,
        "pig",
        {"1": "me", "2": "bot:random"},
        options={"target": 5},
        settings={"casual": True},
    )["id"]
    finish({"1": client}, casual, hold_at_ten)
    assert ratings(client, "pig") == {}
    assert "A casual match: not rated." in client.get(f"/matches/{casual}").text


def test_both_people_of_each_gladiator_chess_side_are_rated_together(client: TestClient) -> None:
    names = {
        "ann": ("white-king", "white-queen"),
        "ben": ("white-black-knight", "white-kings-knight"),
    }
    names |= {
        "cat": ("black-king", "black-queen"),
        "dov": ("black-black-knight", "black-kings-knight"),
    }
    first = person(client, "ann")
    seats = {seat: "open" for pair in names.values() for seat in pair}
    match = create(first, "gladiator-chess", seats, options={"turn_limit": 1})["id"]
    clients: dict[str, TestClient] = {}
    for name, pair in names.items():
        holder = first if name == "ann" else person(client, name)
        for seat in pair:
            joined = holder.post(
                f"/api/matches/{match}/join", json={"seat": seat}, headers={"origin": ORIGIN}
            )
            assert joined.status_code == 200, joined.text
            clients[seat] = holder
    end = finish(clients, match)
    assert end["outcome"]["draw"]
    [white, black] = MODEL.rate(
        [[MODEL.rating(), MODEL.rating()], [MODEL.rating(), MODEL.rating()]], ranks=[1.0, 1.0]
    )
    keys = {name: f"user:{user_id(client, name)}" for name in names}
    expected = {}
    for team, rated in (((keys["ann"], keys["ben"]), white), ((keys["cat"], keys["dov"]), black)):
        for key, new in zip(sorted(team), rated, strict=True):  # a side's players by key
            expected[key] = (new.mu, new.sigma, 1)
    assert ratings(client, "gladiator-chess") == expected


def test_ratings_rebuilt_from_the_results_are_the_same(
    client: TestClient, database_url: str
) -> None:
    register(client, "eve")
    for target in (5, 6, 7):
        match = create(client, "pig", {"1": "me", "2": "bot:random"}, options={"target": target})
        finish({"1": client}, match["id"], hold_at_ten)
    service = client.app.state.service  # type: ignore[attr-defined]

    def changes() -> list[tuple[Any, ...]]:
        with service.store.sessions() as session:
            rows = session.scalars(select(RatingChange).order_by(RatingChange.id))
            return [
                (r.match_id, r.player, r.place, r.mu_after, r.sigma_after, r.games) for r in rows
            ]

    before, history = ratings(client, "pig"), changes()
    assert len(history) == 6
    result = CliRunner().invoke(cli, ["ratings", "rebuild", "--database-url", database_url])
    assert result.exit_code == 0, result.output
    assert "from 3 rated matches" in result.output
    assert ratings(client, "pig") == before
    assert changes() == history

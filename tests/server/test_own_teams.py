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


def test_own_teams_are_for_open_or_invited_team_seats_only(client: TestClient) -> None:
    register(client, "dora")

    def refused(seats: dict[str, str], own: list[str], **extra: object) -> str:
        answer = client.post(
            "/api/matches",
            json={"game": "superhero-gladiators", "seats": seats, "own_teams": own, **extra},
            headers={"origin": ORIGIN},
        )
        assert answer.status_code == 422, answer.text
        return str(answer.json()["error"])

    assert "must be open or given by invitation" in refused({"1": "me", "2": "bot:random"}, ["2"])
    assert "has no team" in refused({"1": "me", "2": "open"}, ["7"])
    assert "library.1: pick the team of seat 1" in refused({"1": "me", "2": "open"}, ["2"])
    pig = client.post(
        "/api/matches",
        json={"game": "pig", "seats": {"1": "me", "2": "open"}, "own_teams": ["2"]},
        headers={"origin": ORIGIN},
    )
    assert pig.status_code == 422 and "no teams to bring" in pig.text


def test_an_invited_seat_brings_its_team_after_the_link_is_opened(client: TestClient) -> None:
    register(client, "erin")
    mine = upload(client, "fred-the-giant.yaml")
    created = create(
        client,
        "superhero-gladiators",
        {"1": "me", "2": "invite"},
        library={"1": [mine]},
        own_teams=["2"],
    )
    match, link = created["id"], "/invite/" + created["invites"]["2"].rsplit("/", 1)[1]
    frank = TestClient(client.app)
    register(frank, "frank")
    archer = upload(frank, "giant-rubber-cement-archer.yaml")
    # the link is taken at once: its taker holds the seat and picks the team first
    opened = frank.get(link, follow_redirects=False)
    assert opened.status_code == 303
    assert opened.headers["location"] == f"/matches/{match}/seats/2/team"
    picking = frank.get(opened.headers["location"])
    assert picking.status_code == 200 and "Pick my team for seat 2" in picking.text
    assert f'value="{archer}"' in picking.text and f'value="{mine}"' not in picking.text
    assert body(client, match, "1")["awaiting"] == []  # the match waits for the team
    # the invitation stays used; only its taker brings the team, from their own library
    gail = TestClient(client.app)
    register(gail, "gail")
    assert gail.get(link).status_code == 409
    assert gail.get(f"/matches/{match}/seats/2/team").status_code == 403
    url = f"/api/matches/{match}/seats/2/team"
    other = gail.post(url, json={"team": ["sample:perseus"]}, headers={"origin": ORIGIN})
    assert other.status_code == 409 and "open its invitation link" in other.text
    stolen = frank.post(url, json={"team": [mine]}, headers={"origin": ORIGIN})
    assert stolen.status_code == 422 and "not in your library" in stolen.text
    empty = frank.post(url, json={"team": []}, headers={"origin": ORIGIN})
    assert empty.status_code == 422 and "at least one" in empty.text
    # an invited seat is not open: joining it is refused
    assert join(gail, match, "2", ["sample:perseus"]).status_code == 409  # type: ignore[attr-defined]
    brought = frank.post(url, json={"team": [archer]}, headers={"origin": ORIGIN})
    assert brought.status_code == 200, brought.text
    started = body(client, match, "1")
    assert started["awaiting"] in (["1"], ["2"])  # the placement begins (its seed says who)
    teams = sorted((h["team"], h["name"]) for h in started["view"]["heroes"])
    assert teams == [("1", "Fred the Giant"), ("2", "Giant Rubber Cement Archer")]
    again = frank.post(url, json={"team": [archer]}, headers={"origin": ORIGIN})
    assert again.status_code == 409 and "does not wait for a team" in again.text
    assert frank.get(link, follow_redirects=False).headers["location"].endswith("?seat=2")


def test_a_guest_with_the_link_brings_a_team_of_samples(client: TestClient) -> None:
    register(client, "hana")
    created = create(
        client,
        "superhero-gladiators",
        {"1": "me", "2": "invite"},
        library={"1": ["sample:cowboy"]},
        own_teams=["2"],
    )
    match, token = created["id"], created["invites"]["2"].rsplit("/", 1)[1]
    guest = TestClient(client.app)
    opened = guest.get(f"/invite/{token}", follow_redirects=False)
    assert opened.headers["location"] == f"/matches/{match}/seats/2/team"
    page = guest.get(opened.headers["location"])
    assert "Perseus (sample)" in page.text and "log in</a> to bring" in page.text
    url = f"/api/matches/{match}/seats/2/team"
    library = guest.post(url, json={"team": [1]}, headers={"origin": ORIGIN})
    assert library.status_code == 403 and "log in to use your library" in library.text
    # the page's form, a team of nothing first: the page again, the problem on it
    form = f"/matches/{match}/seats/2/team"
    csrf = str(guest.cookies.get("gladiatorium_csrf"))
    empty = guest.post(form, data={"csrf": csrf, "seat": "2"}, follow_redirects=False)
    assert empty.status_code == 422 and "pick at least one hero for your team" in empty.text
    brought = guest.post(
        form,
        data={"csrf": csrf, "seat": "2", "library.2": "sample:perseus"},
        follow_redirects=False,
    )
    assert brought.status_code == 303, brought.text
    assert brought.headers["location"] == f"/matches/{match}?seat=2"
    heroes = body(client, match, "1")["view"]["heroes"]
    assert sorted((h["team"], h["name"]) for h in heroes) == [("1", "Cowboy"), ("2", "Perseus")]


def test_a_team_for_no_such_match_is_refused_plainly(client: TestClient) -> None:
    """A team posted for a match that does not exist is a 404 page, empty or not."""
    register(client, "nobody-s-team")
    client.get("/")  # the pages' security cookie
    csrf = str(client.cookies.get("gladiatorium_csrf"))
    for team in ({}, {"library.0": "sample:perseus"}):
        answer = client.post(
            "/matches/0/seats/0/team", data={"csrf": csrf, **team}, follow_redirects=False
        )
        assert answer.status_code == 404, answer.text
        assert "no match &#39;0&#39;" in answer.text

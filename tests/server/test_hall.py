"""The hall over the API, on SQLite and PostgreSQL: publishing heroes (a file, a library
item, a new version), the shipped samples and themes, the rate, using a published hero
and theme in a match, search, reports and the operators' hiding."""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import ORIGIN, PASSWORD, create, register, settings_for

from gladiatorium.server import hall as hall_module
from gladiatorium.server.app import create_app
from gladiatorium.server.db import Match
from gladiatorium.server.gauntlet_runner import GauntletRunner
from gladiatorium.server.hall import HALL_AUTHOR

HERO = """name: Tin Heron
attributes: {strength: 4, dexterity: 5, size: 3, perception: 3}
powers:
  - name: Beak
    type: close
    level: 3
    uses: infinite
  - name: Wings
    type: movement
    styles: [flight]
    level: 2
    uses: 10
"""


@pytest.fixture
def hall_client(database_url: str) -> Iterator[TestClient]:
    """The app with a small publishing rate and one operator, ``olga``."""
    settings = replace(settings_for(database_url), hall_publish_rate="3/hour", operators=("olga",))
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def publish(client: TestClient, text: str, kind: str = "hero", status: int = 201) -> Any:
    answer = client.post(
        "/api/hall",
        json={"kind": kind, "text": text, "filename": "mine.yaml"},
        headers={"origin": ORIGIN},
    )
    assert answer.status_code == status, answer.text
    return answer.json()


def match_row(client: TestClient, match_id: str) -> Match:
    """The match as stored (its options, as it was created)."""
    sessions = client.app.state.service.store.sessions  # type: ignore[attr-defined]
    with sessions() as session:
        row = session.get(Match, match_id)
    assert row is not None
    return row


def login(client: TestClient, name: str) -> None:
    answer = client.post("/api/login", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text


def test_samples_and_themes_are_the_first_items(hall_client: TestClient) -> None:
    heroes = hall_client.get("/api/hall", params={"sort": "name"}).json()["items"]
    assert [h["name"] for h in heroes][:3] == ["Barbarian", "Cowboy", "Fred the Giant"]
    assert {h["author"] for h in heroes} == {HALL_AUTHOR}
    assert len(heroes) == 8 and {h["version"] for h in heroes} == {1}
    themes = hall_client.get("/api/hall", params={"kind": "theme"}).json()["items"]
    assert sorted((t["name"], t["numbers"]["heroes"]) for t in themes) == [
        ("Myth and Machine", 120),
        ("The Hundred", 120),
    ]
    # publishing the shipped files again changes nothing (each server start does)
    assert hall_client.app.state.service.library.hall.publish_shipped() == []  # type: ignore[attr-defined]
    again = hall_client.get("/api/hall", params={"sort": "name"}).json()["items"]
    assert [h["ref"] for h in again] == [h["ref"] for h in heroes]


def test_publish_versions_and_old_matches_keep_theirs(hall_client: TestClient) -> None:
    register(hall_client, "ann")
    first = publish(hall_client, HERO)
    assert first == {
        "slug": "tin-heron-ann",
        "version": 1,
        "ref": "hall:tin-heron-ann@1",
        "name": "Tin Heron",
    }
    match = create(
        hall_client,
        "superhero-gladiators",
        {"1": "me", "2": "bot:greedy"},
        library={"1": [first["ref"]], "2": ["hall:cowboy@1"]},
    )
    second = publish(hall_client, HERO.replace("level: 3", "level: 4"))
    assert second["ref"] == "hall:tin-heron-ann@2"
    found = hall_client.get("/api/hall", params={"author": "ann"}).json()["items"]
    assert [(i["name"], i["version"]) for i in found] == [("Tin Heron", 2)]
    detail = hall_client.get("/api/hall/tin-heron-ann").json()
    assert detail["version"]["number"] == 2 and "level: 4" in detail["version"]["text"]
    assert [v["number"] for v in detail["versions"]] == [2, 1]
    assert [(m["id"], m["version"]) for m in detail["matches"]] == [(match["id"], 1)]
    old = hall_client.get("/api/hall/tin-heron-ann", params={"version": 1}).json()
    assert "level: 3" in old["version"]["text"]
    options = match_row(hall_client, match["id"]).options
    assert options["teams"][0][0]["powers"][0]["level"] == 3


def test_bad_hero_is_refused_with_every_problem(hall_client: TestClient) -> None:
    register(hall_client, "bea")
    answer = publish(hall_client, HERO.replace("level: 3", "level: 99"), status=422)
    assert answer["error"].startswith("mine.yaml")
    assert "powers[0].level" in answer["error"]
    assert hall_client.get("/api/hall", params={"author": "bea"}).json()["items"] == []


def test_publish_from_the_library(hall_client: TestClient) -> None:
    register(hall_client, "cid")
    added = hall_client.post(
        "/api/library",
        json={"game": "superhero-gladiators", "text": HERO},
        headers={"origin": ORIGIN},
    ).json()
    answer = hall_client.post(
        "/api/hall", json={"kind": "hero", "library_item": added["id"]}, headers={"origin": ORIGIN}
    )
    assert answer.status_code == 201 and answer.json()["ref"] == "hall:tin-heron-cid@1"
    register(hall_client, "dot")
    stranger = hall_client.post(
        "/api/hall", json={"kind": "hero", "library_item": added["id"]}, headers={"origin": ORIGIN}
    )
    assert stranger.status_code == 404


def test_publishing_is_rate_limited(hall_client: TestClient) -> None:
    register(hall_client, "eve")
    for level in (1, 2, 3):
        publish(hall_client, HERO.replace("level: 3", f"level: {level}"))
    answer = hall_client.post(
        "/api/hall", json={"kind": "hero", "text": HERO}, headers={"origin": ORIGIN}
    )
    assert answer.status_code == 429
    assert answer.json()["error"].startswith("too many published: at most 3 per hour")
    assert 3500 <= int(answer.headers["retry-after"]) <= 3600


def test_publishing_needs_an_account(hall_client: TestClient) -> None:
    answer = hall_client.post("/api/hall", json={"kind": "hero", "text": HERO})
    assert answer.status_code == 403
    assert answer.json() == {"error": "log in to publish"}


def test_search(hall_client: TestClient) -> None:
    def names(**params: Any) -> list[str]:
        answer = hall_client.get("/api/hall", params=params)
        assert answer.status_code == 200, answer.text
        return [i["name"] for i in answer.json()["items"]]

    assert names(q="giant", sort="name") == ["Fred the Giant", "Giant Rubber Cement Archer"]
    assert names(power="flight") == ["Perseus"]
    assert names(power=["distance", "speedy"]) == ["Cowboy"]
    assert names(power="distance  speedy", trait="speed:20 combat:15-15") == ["Cowboy"]
    assert names(cost_min=185, cost_max=195, sort="cost") == [
        "Fred the Giant",
        "Wizard of the Wild Hair Cult",
        "Giant Rubber Cement Archer",
    ]
    assert names(sort="-cost")[0] == "Giant Rubber Cement Archer"
    assert names(trait="oomph:80", sort="name") == ["Porcupine Boar Guy"]
    assert names(trait="combat:-8") == ["Fred the Giant"]
    assert names(trait="speed:24-24") == ["Stranger of Solarium"]
    assert names(q="100%_") == []
    bad = hall_client.get("/api/hall", params={"sort": "loudest"})
    assert bad.status_code == 422 and bad.json()["error"].startswith("sort: 'loudest'")
    bad = hall_client.get("/api/hall", params={"trait": "speed>3"})
    assert bad.status_code == 422 and bad.json()["error"].startswith("trait: ")
    bad = hall_client.get("/api/hall", params={"cost_min": "lots"})
    assert bad.status_code == 422 and bad.json()["error"].startswith("cost_min: ")


def test_a_hundred_player_battle_from_a_published_theme(hall_client: TestClient) -> None:
    register(hall_client, "mod")
    seats = {"moderator": "me", **{str(n): "open" for n in range(1, 101)}}
    created = create(
        hall_client,
        "hero-battle",
        seats,
        players=100,
        theme="hall:the-hundred@1",
        settings={"round_minutes": 60},
    )
    record = match_row(hall_client, created["id"])
    assert record.players == 100
    assert record.options["theme"] == "The Hundred"
    assert len(record.options["signups"]) == 100
    assert record.options["signups"][99] == "Major Tempest"
    assert hall_client.get(f"/api/matches/{created['id']}").status_code == 200
    detail = hall_client.get("/api/hall/the-hundred").json()
    assert [m["id"] for m in detail["matches"]] == [created["id"]]


def test_publish_a_theme_and_its_errors(hall_client: TestClient) -> None:
    register(hall_client, "moe")
    heroes = "".join(f"  - Hero {chr(65 + n)}\n" for n in range(10))
    theme = f"name: Letters\nrestrictions:\n  starting_hp: 9\nheroes:\n{heroes}"
    done = publish(hall_client, theme, kind="theme")
    assert done["ref"] == "hall:letters-moe@1"
    created = create(
        hall_client,
        "hero-battle",
        {"moderator": "me"},
        players=8,
        theme=done["ref"],
        settings={"round_minutes": 60},
    )
    options = match_row(hall_client, created["id"]).options
    assert options["starting_hp"] == 9 and options["extra_heroes"] == ["Hero I", "Hero J"]
    bad = theme.replace("starting_hp: 9", "starting_hp: 0").replace("Hero C", "Hero [C]")
    answer = publish(hall_client, bad, kind="theme", status=422)
    assert answer["error"] == ("mine.yaml:7: heroes[2]: 'Hero [C]' may not contain '[]'")
    answer = publish(
        hall_client, theme.replace("starting_hp: 9", "starting_hp: 0"), kind="theme", status=422
    )
    assert answer["error"] == (
        "mine.yaml:3: restrictions.starting_hp: Input should be greater than or equal to 1"
    )
    too_many = create_answer = hall_client.post(
        "/api/matches",
        json={
            "game": "hero-battle",
            "players": 11,
            "theme": done["ref"],
            "seats": {"moderator": "me"},
            "settings": {"round_minutes": 60},
        },
        headers={"origin": ORIGIN},
    )
    assert too_many.status_code == 422
    assert create_answer.json()["error"] == (
        "players: the theme 'Letters' lists 10 heroes; a Battle of 11 players needs 11"
    )


def test_reports_and_hiding(hall_client: TestClient) -> None:
    register(hall_client, "fay")
    done = publish(hall_client, HERO)
    match = create(
        hall_client,
        "superhero-gladiators",
        {"1": "me", "2": "bot:greedy"},
        library={"1": [done["ref"]], "2": [done["ref"]]},
    )
    register(hall_client, "gus")
    report = hall_client.post(
        f"/api/hall/{done['slug']}/report",
        json={"reason": "<b>rude</b> name"},
        headers={"origin": ORIGIN},
    )
    assert report.status_code == 201
    again = hall_client.post(
        f"/api/hall/{done['slug']}/report", json={"reason": "again"}, headers={"origin": ORIGIN}
    )
    assert again.status_code == 409 and again.json() == {"error": "you reported it already"}
    refused = hall_client.post(f"/api/hall/{done['slug']}/hide", headers={"origin": ORIGIN})
    assert refused.status_code == 403
    register(hall_client, "olga")
    hidden = hall_client.post(f"/api/hall/{done['slug']}/hide", headers={"origin": ORIGIN})
    assert hidden.status_code == 200
    assert hall_client.get(f"/api/hall/{done['slug']}").json()["reports"] == 1
    login(hall_client, "gus")
    assert hall_client.get("/api/hall", params={"author": "fay"}).json()["items"] == []
    gone = hall_client.get(f"/api/hall/{done['slug']}")
    assert gone.status_code == 410 and gone.json()["hidden"] is True
    assert "Tin Heron" not in gone.text
    # the match that used it goes on; a new one may not use it
    assert hall_client.get(f"/api/matches/{match['id']}").status_code == 200
    answer = hall_client.post(
        "/api/matches",
        json={
            "game": "superhero-gladiators",
            "seats": {"1": "me", "2": "bot:greedy"},
            "library": {"1": [done["ref"]], "2": ["hall:cowboy"]},
        },
        headers={"origin": ORIGIN},
    )
    assert answer.status_code == 422
    assert answer.json()["error"] == "hall:tin-heron-fay@1: hidden by the server's operators"
    login(hall_client, "fay")
    assert hall_client.get(f"/api/hall/{done['slug']}").status_code == 200
    login(hall_client, "olga")
    shown = hall_client.post(f"/api/hall/{done['slug']}/unhide", headers={"origin": ORIGIN})
    assert shown.status_code == 200
    assert len(hall_client.get("/api/hall", params={"author": "fay"}).json()["items"]) == 1


def test_long_names_and_the_servers_own(hall_client: TestClient) -> None:
    """A slug fits its column however long the names; an account named as the server
    publishes no version of the server's items."""
    author = "x" * 40
    register(hall_client, author)
    long = publish(hall_client, HERO.replace("Tin Heron", "Tin Heron " * 8 + "End"))
    assert len(long["slug"]) <= 100 and long["slug"].endswith(f"-{author}")
    assert hall_client.get(f"/api/hall/{long['slug']}").status_code == 200
    register(hall_client, HALL_AUTHOR)
    cowboy = hall_client.get("/api/hall/cowboy").json()["version"]["text"]
    answer = hall_client.post(
        "/api/hall", json={"kind": "hero", "text": cowboy}, headers={"origin": ORIGIN}
    )
    assert answer.status_code == 409
    assert hall_client.get("/api/hall/cowboy").json()["latest"] == 1


def test_each_hero_version_is_handed_on_once(
    hall_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``on_hero_published`` gets every new hero version in its own transaction (where
    the lab's gauntlet is to be queued); a theme, or a refused hero, is not handed on."""
    handed: list[tuple[str, str]] = []

    def seen(session: Any, hero_ref: str, hero_yaml: str, size: Any) -> None:
        assert session.in_transaction()
        handed.append((hero_ref, hero_yaml.splitlines()[0]))

    monkeypatch.setattr(hall_module, "on_hero_published", seen)
    register(hall_client, "hal")
    publish(hall_client, HERO)
    publish(hall_client, HERO.replace("level: 3", "level: 2"))
    publish(hall_client, HERO.replace("level: 3", "level: 99"), status=422)
    heroes = "".join(f"  - Hero {chr(65 + n)}\n" for n in range(8))
    publish(hall_client, f"name: Eight\nheroes:\n{heroes}", kind="theme")
    assert handed == [
        ("hall:tin-heron-hal@1", "name: Tin Heron"),
        ("hall:tin-heron-hal@2", "name: Tin Heron"),
    ]


def test_a_published_hero_is_weighed_and_ranked(database_url: str) -> None:
    """Publishing queues the hero's gauntlet, of the server's size; once the runner has
    played it, the hero's page shows the results, the reproducing command and its place
    on the ladder, and the hall sorts by its rating."""
    settings = replace(settings_for(database_url), gauntlet_games="greedy=1", gauntlet_maps="small")
    with TestClient(create_app(settings)) as client:
        register(client, "hal")
        publish(client, HERO)
        ref = "hall:tin-heron-hal@1"
        queued = client.get(f"/api/gauntlets/{ref}").json()
        assert (queued["state"], queued["progress"]) == ("queued", {"done": 0, "total": 16})
        assert "Tin Heron" in client.get("/hall/tin-heron-hal").text
        sessions = client.app.state.service.store.sessions  # type: ignore[attr-defined]
        runner = GauntletRunner(sessions, settings)
        while runner.run_once():  # the eight samples, published first, then Tin Heron
            pass
        done = client.get(f"/api/gauntlets/{ref}").json()
        assert done["state"] == "done" and done["progress"] == {"done": 16, "total": 16}
        assert done["ladder_place"] in range(1, 10)
        page = client.get("/hall/tin-heron-hal").text
        assert done["command"] in html.unescape(page)
        assert f"place {done['ladder_place']} on" in page
        listed = client.get("/api/hall", params={"sort": "rating", "kind": "hero"}).json()
        ratings = [item["lab_rating"] for item in listed["items"]]
        assert len(ratings) == 9 and None not in ratings
        assert ratings == sorted(ratings, reverse=True)


def test_a_hidden_heros_gauntlet_leaves_the_ladder(hall_client: TestClient) -> None:
    """Hiding an item takes its heroes off the hero ladder and their gauntlets off the
    gauntlet pages and API; unhiding brings them back at their place."""
    register(hall_client, "fay")
    done = publish(hall_client, HERO)
    sessions = hall_client.app.state.service.store.sessions  # type: ignore[attr-defined]
    settings = replace(settings_for("sqlite://"), gauntlet_games="greedy=1", gauntlet_maps="small")
    runner = GauntletRunner(sessions, settings)
    while runner.run_once():
        pass

    def ladder() -> list[str]:
        return [h["hero_ref"] for h in hall_client.get("/api/gauntlets/ladder").json()["heroes"]]

    shown = ladder()
    assert done["ref"] in shown and len(shown) == 9
    register(hall_client, "olga")
    assert hall_client.post(f"/api/hall/{done['slug']}/hide", headers={"origin": ORIGIN}).is_success
    assert ladder() == [ref for ref in shown if ref != done["ref"]]
    for path in (f"/api/gauntlets/{done['ref']}", f"/gauntlets/{done['ref']}"):
        assert hall_client.get(path).status_code == 404
    assert "Tin Heron" not in hall_client.get("/ladder/heroes").text
    assert hall_client.post(
        f"/api/hall/{done['slug']}/unhide", headers={"origin": ORIGIN}
    ).is_success
    assert ladder() == shown
    assert hall_client.get(f"/api/gauntlets/{done['ref']}").json()["state"] == "done"

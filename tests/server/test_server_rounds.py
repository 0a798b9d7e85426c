"""Libraries, rounds, moderators and deadlines through the API, on both backends.

Deadlines are made due by moving their time into the past in the database (what the
passing of time would do), so that nothing waits on the wall clock."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import ORIGIN, act, body, create, register, wait_for
from sqlalchemy import event, select, update

from gladiatorium.server.db import Deadline, utcnow
from gladiatorium.server.service import MatchService

HEROES = Path(__file__).parents[2] / "src/gladiatorium/games/superhero_gladiators/data/heroes"


def service_of(client: TestClient) -> MatchService:
    return client.app.state.service  # type: ignore[attr-defined,no-any-return]


def expire(client: TestClient, match_id: str, kind: str) -> int:
    """Make the match's pending deadlines of ``kind`` due now."""
    with service_of(client).store.sessions.begin() as session:
        changed = session.execute(
            update(Deadline)
            .where(Deadline.match_id == match_id, Deadline.kind == kind, Deadline.fired.is_(False))
            .values(due_at=utcnow() - timedelta(seconds=1))
        )
        return int(changed.rowcount)  # type: ignore[attr-defined]


def pending(client: TestClient, match_id: str) -> list[Deadline]:
    with service_of(client).store.sessions() as session:
        return list(
            session.scalars(
                select(Deadline).where(Deadline.match_id == match_id, Deadline.fired.is_(False))
            )
        )


def test_superhero_gladiators_with_heroes_from_an_uploaded_library(client: TestClient) -> None:
    register(client, "ada")

    def upload(text: str, filename: str) -> tuple[int, dict[str, object]]:
        answer = client.post(
            "/api/library",
            json={"game": "superhero-gladiators", "text": text, "filename": filename},
            headers={"origin": ORIGIN},
        )
        return answer.status_code, answer.json()

    ids = {}
    for name in ("cowboy", "perseus", "barbarian"):
        status, answer = upload((HEROES / f"{name}.yaml").read_text(), f"{name}.yaml")
        assert status == 201, answer
        assert set(answer) == {"id", "name"}
        ids[name] = answer["id"]
    broken = (HEROES / "cowboy.yaml").read_text().replace("level: 3", "level: 99")
    broken = broken.replace("type: close", "type: nonsense")
    status, answer = upload(broken, "broken.yaml")
    assert status == 422
    assert "broken.yaml" in str(answer["error"])
    assert "powers[0].level" in str(answer["error"]) and "nonsense" in str(answer["error"])
    status, answer = upload("a: [", "bad.yaml")
    assert status == 422 and "bad.yaml" in str(answer["error"])
    assert upload("x", "x.yaml")[0] == 422
    no_library = client.post(
        "/api/library",
        json={"game": "pig", "text": "x", "filename": "x.yaml"},
        headers={"origin": ORIGIN},
    )
    assert no_library.status_code == 422
    listed = client.get("/api/library", params={"game": "superhero-gladiators"}).json()["items"]
    assert [i["name"] for i in listed] == ["Cowboy", "Perseus", "Barbarian"]

    bob = TestClient(client.app)
    register(bob, "bob")
    assert bob.get("/api/library").json() == {"items": []}
    stolen = bob.post(
        "/api/matches",
        json={"game": "superhero-gladiators", "library": {"1": [ids["cowboy"]], "2": [1]}},
        headers={"origin": ORIGIN},
    )
    assert stolen.status_code == 422 and "not in your library" in stolen.json()["error"]

    match = create(
        client,
        "superhero-gladiators",
        {"1": "me", "2": "bot:greedy"},
        library={"1": [ids["barbarian"]], "2": [ids["perseus"], ids["cowboy"]]},
    )["id"]
    first = wait_for(lambda: (b := body(client, match, "1"))["awaiting"] == ["1"] and b)
    text = str(first["view"])
    assert "Barbarian" in text and "Perseus" in text and "Cowboy" in text
    assert act(client, match, "1", first["legal"][0]).status_code == 200


def test_super_dice_heroes_round_deadline_times_out_a_player(client: TestClient) -> None:
    register(client, "ada")
    match = create(
        client,
        "super-dice-heroes",
        {"1": "me", "2": "me"},
        settings={"round_minutes": 60},
    )["id"]
    first = body(client, match, "1")
    assert first["awaiting"] == ["1", "2"]
    assert [d.kind for d in pending(client, match)] == ["round"]
    # seat 1 plays its round; seat 2 misses the deadline and is timed out by the rules
    service = service_of(client)
    start_round = first["view"]["round"]
    for _ in range(50):
        current = body(client, match, "1")
        if "1" not in current["awaiting"]:
            break
        assert act(client, match, "1", current["legal"][0]).status_code == 200
    plies = len(service.store.live(match).state.history)
    assert expire(client, match, "round") == 1
    after = wait_for(
        lambda: (b := body(client, match, "1"))["view"]["round"] != start_round and b,
        what="the round deadline to end the round",
    )
    history = service.store.live(match).state.history
    assert len(history) > plies
    assert {seat for seat, _ in history[plies:]} == {"2"}
    assert after["awaiting"] == ["1", "2"] or after["outcome"] is not None
    # the next round has its own deadline
    assert any(d.kind == "round" for d in pending(client, match))
    refused = client.post(
        "/api/matches",
        json={"game": "pig", "settings": {"round_minutes": 5}},
        headers={"origin": ORIGIN},
    )
    assert refused.status_code == 422 and "round_minutes" in refused.json()["error"]


def test_a_new_match_refuses_rounds_and_clocks_shorter_than_a_minute(client: TestClient) -> None:
    register(client, "ada")
    for game, setting, value in (
        ("super-dice-heroes", "round_minutes", 0.5),
        ("pig", "clock_days", 0.0001),
    ):
        refused = client.post(
            "/api/matches",
            json={"game": game, "seats": {"1": "me"}, "settings": {setting: value}},
            headers={"origin": ORIGIN},
        )
        assert refused.status_code == 422, refused.text
        assert refused.json()["error"].startswith(f"{setting}: must be between"), refused.text
    assert create(client, "pig", {"1": "me", "2": "me"}, settings={"clock_days": 1 / 1440})


def test_correspondence_clock_flags_the_awaited_seat(client: TestClient) -> None:
    register(client, "ada")
    match = create(client, "pig", {"1": "me", "2": "me"}, settings={"clock_days": 3})["id"]
    assert act(client, match, "1", "roll").status_code == 200
    if body(client, match)["awaiting"] == ["1"]:
        assert act(client, match, "1", "hold").status_code == 200
    assert body(client, match)["awaiting"] == ["2"]
    clocks = [d for d in pending(client, match) if d.kind == "clock"]
    assert len(clocks) == 1
    assert expire(client, match, "clock") == 1
    over = wait_for(
        lambda: (b := body(client, match))["outcome"] is not None and b,
        what="the clock to flag seat 2",
    )
    assert over["outcome"]["winners"] == ["1"] and over["outcome"]["reason"] == "time"
    assert over["awaiting"] == []
    assert act(client, match, "2", "roll").status_code == 409
    assert client.get(f"/api/matches/{match}/record").status_code == 200
    refused = client.post(
        "/api/matches",
        json={"game": "hero-battle", "settings": {"clock_days": 1}},
        headers={"origin": ORIGIN},
    )
    assert refused.status_code == 422 and "clock_days" in refused.json()["error"]


def battle_run_by_the_server(client: TestClient) -> tuple[str, list[str]]:
    """A Hero Battle of ada's eight players (the fewest it has), the server moderating,
    with round deadlines: its id and the players' seats."""
    register(client, "ada")
    players = [str(n) for n in range(1, 9)]
    match = create(
        client,
        "hero-battle",
        {p: "me" for p in players} | {"moderator": "server"},
        settings={"round_minutes": 60},
    )["id"]
    return str(match), players


def test_hero_battle_run_by_the_server_closes_rounds_and_posts(client: TestClient) -> None:
    match, players = battle_run_by_the_server(client)
    assert client.get(f"/api/matches/{match}/posts").json()["posts"] == {}
    for seat in players[:3]:
        legal = body(client, match, seat)["legal"]
        move = next(a for a in legal if a.startswith("hit"))
        assert act(client, match, seat, move).status_code == 200
    assert body(client, match)["view"]["round"] == 1
    # a person may not act for the server's moderator seat
    assert act(client, match, "moderator", "close").status_code == 403
    assert expire(client, match, "round") == 1
    wait_for(lambda: body(client, match)["view"]["round"] == 2, what="the server to close round 1")
    answer = client.get(f"/api/matches/{match}/posts")
    posts = answer.json()
    assert set(posts) == {"posts", "deadlines"}
    assert set(posts["posts"]) == {"BBCode", "Markdown"}
    assert "[b]" in posts["posts"]["BBCode"] or "[" in posts["posts"]["BBCode"]
    assert posts["posts"]["Markdown"] != posts["posts"]["BBCode"]
    assert [d["kind"] for d in posts["deadlines"]] == ["round"]
    for seat in ("1", "5"):
        assert client.get(f"/api/matches/{match}/posts", params={"seat": seat}).json() == posts
    history = service_of(client).store.live(match).state.history
    assert [str(a) for s, a in history if s == "moderator"] == ["close"]
    # when everyone has moved the round closes before its deadline
    for seat in players:
        moves = [a for a in body(client, match, seat)["legal"] if a.startswith("hit")]
        assert act(client, match, seat, moves[0]).status_code == 200
    assert body(client, match)["view"]["round"] == 3
    assert [d.kind for d in pending(client, match)] == ["round"]
    assert len(client.get(f"/api/matches/{match}/posts").json()["deadlines"]) == 1


def test_only_a_step_that_opens_a_round_touches_the_rounds_deadlines(client: TestClient) -> None:
    """A move within a round leaves the deadlines alone (no statement on the table); the
    server moderator's close, once everyone moved, voids the round's deadline and sets
    the next round's."""
    match, players = battle_run_by_the_server(client)
    first = [d.id for d in pending(client, match)]
    statements: list[str] = []
    engine = service_of(client).store.sessions.kw["bind"]

    def seen(*args: Any) -> None:
        if "deadlines" in args[2] and "due_at <=" not in args[2]:  # not the scheduler's look
            statements.append(args[2])

    event.listen(engine, "before_cursor_execute", seen)
    try:
        for seat in players:
            statements.clear()
            move = next(a for a in body(client, match, seat)["legal"] if a.startswith("hit"))
            assert act(client, match, seat, move).status_code == 200
            if seat != players[-1]:
                assert statements == []
        wait_for(lambda: body(client, match)["view"]["round"] == 2, what="the close")
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert any(s.startswith("UPDATE deadlines") for s in statements), statements
    assert any(s.startswith("INSERT INTO deadlines") for s in statements), statements
    now = pending(client, match)
    assert len(first) == len(now) == 1 and now[0].id != first[0] and now[0].ply == 2


def test_hero_battle_moderator_held_by_a_person_sets_the_deadline(client: TestClient) -> None:
    register(client, "mod")
    players = [str(n) for n in range(1, 9)]
    # two bots move; the other players' seats stay open, so only the deadline closes the round
    match = create(
        client,
        "hero-battle",
        {"moderator": "me", "1": "bot:random", "2": "bot:random"}
        | {p: "open" for p in players[2:]},
    )
    match_id = match["id"]
    assert pending(client, match_id) == []
    bob = TestClient(client.app)
    register(bob, "bob")
    for caller, seat in ((client, "1"), (bob, "moderator")):
        bad = caller.post(
            f"/api/matches/{match_id}/deadline",
            json={"seat": seat, "minutes": 30},
            headers={"origin": ORIGIN},
        )
        assert bad.status_code == 403
    no_minutes = client.post(
        f"/api/matches/{match_id}/deadline",
        json={"seat": "moderator"},
        headers={"origin": ORIGIN},
    )
    assert no_minutes.status_code == 422
    answer = client.post(
        f"/api/matches/{match_id}/deadline",
        json={"seat": "moderator", "minutes": 30},
        headers={"origin": ORIGIN},
    )
    assert answer.status_code == 200
    assert [d["kind"] for d in answer.json()["deadlines"]] == ["round"]
    moved = client.post(
        f"/api/matches/{match_id}/deadline",
        json={"seat": "moderator", "minutes": 90},
        headers={"origin": ORIGIN},
    )
    assert len(moved.json()["deadlines"]) == 1
    assert expire(client, match_id, "round") == 1
    wait_for(
        lambda: body(client, match_id, "moderator")["view"]["round"] == 2,
        what="the moderator's deadline to close round 1",
    )
    assert client.get(f"/api/matches/{match_id}/posts").json()["posts"]
    # a deadline set for a round that then closes early is void
    client.post(
        f"/api/matches/{match_id}/deadline",
        json={"seat": "moderator", "minutes": 30},
        headers={"origin": ORIGIN},
    )
    assert len(pending(client, match_id)) == 1
    assert act(client, match_id, "moderator", "close").status_code == 200
    assert pending(client, match_id) == []
    history = service_of(client).store.live(match_id).state.history
    assert [str(a) for s, a in history if s == "moderator"] == ["close", "close"]
    assert {s for s, _ in history} == {"1", "2", "moderator"}

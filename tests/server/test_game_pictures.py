"""The games' web pictures without a browser: what they may show (the leak idea of the
server tests run on the page HTML), escaping, and the interaction data they carry."""

from __future__ import annotations

import copy
import json
import random
import re
import secrets
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

import gladiatorium.games
from gladiatorium.core import Choose, GladiatoriumError, LegalForm, get_game
from gladiatorium.games.superhero_gladiators.options import DEFAULT_TEAMS
from gladiatorium.server.app import create_app
from gladiatorium.server.config import Settings
from gladiatorium.server.db import User

gladiatorium.games.load()


@pytest.fixture
def pages_app(tmp_path: Path) -> Iterator[Any]:
    app = create_app(
        Settings(database_url=f"sqlite:///{tmp_path / 'pictures.db'}", bot_delay_seconds=0)
    )
    with TestClient(app):
        yield app


def teams(harpe_gizmo: str) -> list[list[dict[str, Any]]]:
    chosen = copy.deepcopy([list(team) for team in DEFAULT_TEAMS])
    for power in chosen[1][0]["powers"]:
        if power["name"] == "Harpe":
            power["gizmo"] = harpe_gizmo
    return chosen


def signed_in(app: Any, name: str) -> TestClient:
    client = TestClient(app)
    client.get("/register")
    token = client.cookies.get("gladiatorium_csrf")
    reply = client.post(
        "/register", data={"username": name, "password": "correct horse battery", "csrf": token}
    )
    assert reply.status_code in (200, 303), reply.text
    return client


def test_superhero_gladiators_pages_hide_which_power_is_a_hidden_gizmo(
    pages_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two matches that differ only in Perseus's Harpe being a hidden gizmo (or no
    gizmo), same seed, same moves: seat 1's page and a spectator's page are the same
    HTML, and so are the web pictures, the squares each power reaches included (drawn
    when seat 1 chooses a power)."""
    monkeypatch.setattr(secrets, "randbits", lambda bits: 1234)
    client = signed_in(pages_app, "cowboyfan")
    service = pages_app.state.service
    with service.store.sessions() as session:  # the user who holds every seat
        user_id = session.scalars(select(User.id).where(User.username == "cowboyfan")).one()
    options = {"power_points": 300}
    a = service.creation.create(
        user_id,
        "superhero-gladiators",
        2,
        {**options, "teams": teams("hidden")},
        {"1": "me", "2": "me"},
    ).id
    b = service.creation.create(
        user_id,
        "superhero-gladiators",
        2,
        {**options, "teams": teams("none")},
        {"1": "me", "2": "me"},
    ).id
    game = get_game("superhero-gladiators")
    rng = random.Random(5)
    compared = reached = 0
    for _ in range(60):
        live_a, live_b = service.store.live(a), service.store.live(b)
        if live_a.over:
            break
        awaited = list(live_a.state.awaiting())
        for seat in ("spectator", "1"):
            page_a = client.get(f"/matches/{a}?seat={seat}").text.replace(a, "ID")
            page_b = client.get(f"/matches/{b}?seat={seat}").text.replace(b, "ID")
            assert page_a == page_b, f"seat {seat} tells the two matches apart"
            picture = None if seat == "spectator" else seat
            assert game.web.picture(live_a.state, picture) == game.web.picture(
                live_b.state, picture
            )
            compared += 1
            reached += "data-marks" in page_a
        seat = awaited[0]
        legal = [str(x) for x in live_a.state.legal_actions(seat) if "notice" not in str(x)]
        choice = rng.choice(legal)
        service.play.submit(a, seat, choice)
        service.play.submit(b, seat, choice)
    assert compared >= 20 and reached >= 1


def test_web_pictures_escape_every_name() -> None:
    game = get_game("superhero-gladiators")
    chosen = teams("hidden")
    chosen[0][0]["name"] = '<script>alert("x")</script>'
    state = game.start({"teams": chosen, "power_points": 300}, 2, 1)
    for seat in (None, "1", "2"):
        html = game.web.picture(state, seat) or ""
        assert "<script>" not in html and "&lt;script&gt;" in html


@pytest.mark.parametrize(
    ("slug", "players"),
    [
        ("superhero-gladiators", 2),
        ("gladiator-chess", 8),
        ("super-dice-heroes", 3),
        ("electron-gladiators", 2),
        ("hero-battle", 8),
    ],
)
def test_pictures_carry_exactly_the_legal_actions(slug: str, players: int) -> None:
    """Every legal action of the seat can be clicked in its picture, and nothing else."""
    game = get_game(slug)
    state = game.start(None, players, 3)
    for _ in range(40):
        seat = state.awaiting()[0]
        legal = {str(a) for a in state.legal_actions(seat)}
        html = game.web.picture(state, seat) or ""
        found: set[str] = set()
        for raw in re.findall(r'data-acts="([^"]*)"', html):
            found |= set(json.loads(raw.replace("&quot;", '"').replace("&amp;", "&")))
        form = game.legal_form(state, seat)
        if form is not None:  # buttons pick the names of its choices (static/board.js)
            picks = re.findall(r'data-pick="([^"]*)"', html)
            assert {tuple(json.loads(unescape(raw))) for raw in picks} == form_picks(form)
            found |= set(form.actions())
        assert found <= legal  # only this seat's legal actions
        assert legal <= found  # and every one of them can be clicked
        state.apply(seat, random.Random(len(state.events)).choice(state.legal_actions(seat)))
        if not state.awaiting():
            break


def form_picks(form: LegalForm) -> set[tuple[str, ...]]:
    """The (word, name) buttons a picture of the seat's compact form should have: each
    name of a pick with a count, each left name of a pair with a right one still open."""
    picks: set[tuple[str, ...]] = set()
    for part in form.parts:
        if isinstance(part, Choose):
            picks |= {(p.word, n) for p in part.picks if p.count for n in p.names}
        else:
            taken = set(part.taken)
            picks |= {
                (part.word, left)
                for left in part.left
                if any((left, right) not in taken for right in part.right)
            }
    return picks


def test_gladiator_chess_picture_shows_the_odds_of_each_fight() -> None:
    game = get_game("gladiator-chess")
    state = game.start({"turn_limit": 30}, 8, 2)
    rng = random.Random(2)
    for _ in range(600):
        seat = state.awaiting()[0]
        legal = [str(a) for a in state.legal_actions(seat)]
        fights = [a for a in legal if re.search(r"[a-l]\d+x[a-l]\d+", a)]
        if fights:
            html = game.web.picture(state, seat) or ""
            assert re.search(r'class="hint"[^>]*data-acts=[^>]*>.*?win \d+%', html)
            assert game.web.picture(state, None) is not None
            assert "data-acts" not in (game.web.picture(state, None) or "")
            return
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    pytest.fail("no fight came up")


IRON_NUN = {
    "name": "Iron Nun",
    "attributes": {"strength": 4, "dexterity": 5, "size": 4, "perception": 2},
    "powers": [
        {"name": "Ruler slap", "type": "close", "level": 3, "uses": "infinite"},
        {
            "name": "Habit of steel",
            "type": "defense",
            "styles": ["toughness"],
            "level": 4,
            "uses": 8,
        },
    ],
}


def test_superhero_gladiators_defence_question_with_the_attacks_roll() -> None:
    """The defender's seat gets the question with the roll and a button per defence;
    the attacker's seat and a spectator see who is hit but get no buttons."""
    game = get_game("superhero-gladiators")
    chosen = [list(DEFAULT_TEAMS[0]), [IRON_NUN]]
    for seed in range(20):
        state = game.start({"teams": chosen}, 2, seed)
        rng = random.Random(seed)
        for _ in range(200):
            awaited = state.awaiting()
            if not awaited:
                break
            seat = awaited[0]
            legal = [str(a) for a in state.legal_actions(seat)]
            if "use Habit of steel" in legal:
                html = game.web.picture(state, seat) or ""
                assert "is hit</strong>" in html and "how do you defend?" in html
                assert re.search(r'class="roll">Roll: [^<]*d20 = \d+, needs', html)
                assert 'data-act="use Habit of steel"' in html
                assert 'data-act="take hit"' in html
                for other in (None, "1"):
                    seen = game.web.picture(state, other) or ""
                    assert "is hit</strong>" in seen and "data-act" not in seen
                return
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    pytest.fail("no defence question came up")


def test_designer_check_fragment_and_forms(pages_app: Any) -> None:
    """The htmx check answers with the cost and every error slot out of band; a save
    needs an account and a valid hero; names are escaped; games without a designer
    refuse."""
    guest = TestClient(pages_app)
    page = guest.get("/heroes/new?sample=cowboy")
    assert page.status_code == 200 and 'value="Cowboy"' in page.text
    token = guest.cookies.get("gladiatorium_csrf")
    fields = {
        "csrf": token,
        "game": "superhero-gladiators",
        "name": "<b>Bad</b>",
        "attr.strength": "4",
        "attr.dexterity": "5",
        "attr.size": "4",
        "attr.perception": "2",
        "p0.name": "Punch",
        "p0.type": "close",
        "p0.level": "9",
        "p0.uses": "infinite",
    }
    check = guest.post("/heroes/check", data=fields)
    assert check.status_code == 200
    assert 'id="err-p0-level" role="alert" hx-swap-oob="true">level must be 1 to 8' in check.text
    assert 'id="err-name" role="alert" hx-swap-oob="true" hidden>' in check.text
    assert 'data-valid="no"' in check.text
    assert guest.post("/heroes/check", data={**fields, "csrf": "forged"}).status_code == 403
    download = guest.post("/heroes/new", data={**fields, "do": "download"})
    assert download.status_code == 200 and "attachment" in download.headers["content-disposition"]
    assert "name: <b>Bad</b>" in download.text
    refused = guest.post("/heroes/new", data={**fields, "do": "save", "p0.level": "3"})
    assert refused.status_code == 401 and "&lt;b&gt;Bad&lt;/b&gt;" in refused.text
    member = signed_in(pages_app, "designer2")
    fields["csrf"] = member.cookies.get("gladiatorium_csrf")
    invalid = member.post("/heroes/new", data={**fields, "do": "save"})
    assert invalid.status_code == 422 and "fix the problems" in invalid.text
    saved = member.post(
        "/heroes/new", data={**fields, "do": "save", "p0.level": "3"}, follow_redirects=False
    )
    assert saved.status_code == 303
    assert "&lt;b&gt;Bad&lt;/b&gt;" in member.get("/library").text
    published = member.post(
        "/heroes/new", data={**fields, "do": "publish", "p0.level": "3"}, follow_redirects=False
    )
    assert published.status_code == 303
    assert published.headers["location"] == "/hall/b-bad-b-designer2"
    for path in ("/hall", "/hall?q=bad", "/hall/b-bad-b-designer2"):
        html = member.get(path).text
        assert "<b>Bad" not in html and "&lt;b&gt;Bad&lt;/b&gt;" in html, path
    assert get_game("pig").web.design_samples() == {}
    with pytest.raises(GladiatoriumError):
        get_game("pig").web.design()


def test_replay_only_once_over_and_only_my_seats(pages_app: Any) -> None:
    client = signed_in(pages_app, "replayer")
    service = pages_app.state.service
    with service.store.sessions() as session:
        user_id = session.scalars(select(User.id).where(User.username == "replayer")).one()
    match = service.creation.create(user_id, "pig", 2, {"target": 5}, {"1": "me", "2": "me"}).id
    assert client.get(f"/matches/{match}/replay").status_code == 403
    rng = random.Random(1)
    while not service.store.live(match).over:
        state = service.store.live(match).state
        seat = state.awaiting()[0]
        service.play.submit(match, seat, rng.choice([str(a) for a in state.legal_actions(seat)]))
    total = len(service.store.live(match).state.history)
    page = client.get(f"/matches/{match}/replay?step=1&seat=1")
    assert page.status_code == 200 and f"step 1 of {total}" in page.text
    assert f"step {total} of {total}" in client.get(f"/matches/{match}/replay?step=999").text
    stranger = signed_in(pages_app, "stranger")
    # Pig hides nothing: once over, anyone may replay it as either seat saw it (a seat of
    # a game with secrets stays the holder's: tests/server/test_strangers_replay.py)
    assert stranger.get(f"/matches/{match}/replay?seat=1").status_code == 200
    assert stranger.get(f"/matches/{match}/replay").status_code == 200


def test_hero_battle_pictures_hide_who_plays_which_hero() -> None:
    """Two battles that differ only in which of seats 3 and 4 plays which hero, moved
    alike: the spectator's and seat 1's pictures are the same."""
    game = get_game("hero-battle")
    heroes = [
        "Captain Comet",
        "Night Heron",
        "Iron Tortoise",
        "Lady Lightning",
        "The Quiet Storm",
        "Doctor Paradox",
        "Silver Sparrow",
        "Granite Jack",
    ]
    dealt = [heroes[(i + 2) % 8] for i in range(8)]  # nobody plays their own sign-up
    swapped = [*dealt[:2], dealt[3], dealt[2], *dealt[4:]]
    nemeses = [(heroes[(i + 4) % 8], heroes[(i + 5) % 8]) for i in range(8)]
    nemeses_b = list(nemeses)
    nemeses_b[2], nemeses_b[3] = nemeses[3], nemeses[2]
    common = {"starting_hp": 4, "max_rounds": 3}
    a = game.start({**common, "assign_heroes": dealt, "assign_nemeses": nemeses}, 8, 9)
    b = game.start({**common, "assign_heroes": swapped, "assign_nemeses": nemeses_b}, 8, 9)
    rng = random.Random(9)
    for _ in range(3):
        for seat in [s for s in a.awaiting() if s != "moderator"]:
            if seat not in a.awaiting():
                continue
            moves = [str(x) for x in a.legal_actions(seat) if not str(x).startswith("guess")]
            choice = rng.choice(moves)
            a.act(seat, choice)
            b.act(seat, choice)
        for seat in (None, "1"):
            assert game.web.picture(a, seat) == game.web.picture(b, seat)
        if not a.awaiting():
            break


def test_electron_gladiators_picture_draws_each_vehicles_reach_and_its_controls() -> None:
    """Every vehicle carries its reach as ``look`` gives it (d/p/s/a marks); the seat
    to move gets drive/turn/fly buttons with their cost and the points left, and shots
    with a second gun naming how they reach (direct, or the spotters); a spectator gets
    the reach but no controls."""
    from gladiatorium.games.electron_gladiators.board import square_name
    from gladiatorium.games.electron_gladiators.render import reach_marks

    game = get_game("electron-gladiators")
    state: Any = game.start(None, 2, 3)
    rng = random.Random(1)
    second = False
    for _ in range(300):
        seat = state.awaiting()[0]
        html = game.web.picture(state, seat) or ""
        for vehicle in state.arena.vehicles.values():
            name = square_name(vehicle.square)
            found = re.search(rf'data-sq="{name}"[^>]*data-marks="([^"]*)"', html)
            assert found, name
            drawn = json.loads(found[1].replace("&quot;", '"'))
            expected: dict[str, list[str]] = {}
            for square, mark in reach_marks(state.arena, vehicle, state.options).items():
                if not state.arena.is_obstacle(square):
                    expected.setdefault(mark, []).append(square_name(square))
            assert {k: sorted(v) for k, v in drawn.items()} == {
                k: sorted(v) for k, v in expected.items()
            }
        steps = re.findall(r'class="secondary pic-button step \w+"[^>]*>([^<]*)<', html)
        legal = [str(a) for a in state.legal_actions(seat)]
        if any(" fwd " in a or " fly " in a for a in legal):
            assert steps and all(re.search(r" · (free|\d+ pts?)$", s) for s in steps)
            assert "speed points left" in html
        if any(" with " in a for a in legal):
            assert re.search(r"\+ second gun [A-U]\d+ \((direct|parabolic, spotted by)", html)
            spectator = game.web.picture(state, None) or ""
            assert "data-marks" in spectator and "vehicle-controls" not in spectator
            second = True
            break
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert second, "no attack with a second gun came up"


def test_superhero_gladiators_picture_shows_altitude_and_entanglement() -> None:
    """A flying hero is drawn lifted over its shadow with its altitude; an entangled
    one with a dashed ring and its level (in words too, not by colour alone)."""
    game = get_game("superhero-gladiators")
    seen: set[str] = set()
    for seed in range(30):
        state: Any = game.start(None, 2, seed)
        rng = random.Random(seed)
        for _ in range(300):
            if not state.awaiting():
                break
            html = game.web.picture(state, None) or ""
            for hero in state.view(None)["heroes"]:
                if not hero["square"] or hero["fainted"]:
                    continue
                token = re.search(rf'<g class="token" data-hero="{hero["id"]}".*?</g>', html)
                assert token
                if hero["altitude"]:
                    assert f"flying at altitude {hero['altitude']}" in token[0]
                    assert "<ellipse" in token[0] and f"^{hero['altitude']}" in token[0]
                    seen.add("altitude")
                if hero["entangled"]:
                    assert f"entangled {hero['entangled']}" in token[0]
                    assert "stroke-dasharray" in token[0]
                    seen.add("entangled")
            seat = state.awaiting()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if seen == {"altitude", "entangled"}:
            return
    pytest.fail(f"only {seen} came up")


def test_super_dice_heroes_spends_revealed_only_once_the_round_is_over(pages_app: Any) -> None:
    """Two matches, same seed, seat 1 spends differently in round 1: seat 2's page and a
    spectator's are the same HTML until the last hero is done; then everyone's spends
    of the round are on the scoreboard, seat 1's as it made them."""
    client = signed_in(pages_app, "dicewatcher")
    service = pages_app.state.service
    with service.store.sessions() as session:
        user_id = session.scalars(select(User.id).where(User.username == "dicewatcher")).one()
    seats = {"1": "me", "2": "me", "3": "me"}
    options = {"rounds": 2, "may_waste_dice": True}  # "done" with dice left
    ids = [
        service.creation.create(user_id, "super-dice-heroes", 3, options, seats, seed=11).id
        for _ in "ab"
    ]

    def pages(seat: str) -> list[str]:
        return [client.get(f"/matches/{m}?seat={seat}").text.replace(m, "ID") for m in ids]

    def both(seat: str, action: str | tuple[str, str]) -> None:
        each = (action, action) if isinstance(action, str) else action
        for match, chosen in zip(ids, each, strict=True):
            service.play.submit(match, seat, chosen)

    for seat in ("1", "2", "3"):  # the powers (secret until the round is revealed too)
        both(seat, str(service.store.live(ids[0]).state.legal_actions(seat)[0]))
    spends = [
        str(a) for a in service.store.live(ids[0]).state.legal_actions("1") if str(a) != "done"
    ]
    chosen = (spends[0], spends[-1])
    both("1", chosen)
    for match in ids:  # then done (unless that spend left nothing to do)
        if "1" in service.store.live(match).state.awaiting():
            service.play.submit(match, "1", "done")
    both("2", "done")
    for seat in ("2", "spectator"):
        a, b = pages(seat)
        assert a == b, f"seat {seat} tells seat 1's spends apart before the reveal"
        assert "spends (revealed)" not in a
    both("3", "done")  # the round is over: revealed together
    for seat in ("2", "spectator"):
        for page, spend in zip(pages(seat), chosen, strict=True):
            assert "Round 1 spends (revealed)" in page
            row = re.search(r"<tr[^>]*><td>\d+</td><td>Hero 1</td>.*?</tr>", page)
            assert row and f'class="spends">{spend}' in row[0]


def test_super_dice_heroes_scoreboard_at_a_hundred_players() -> None:
    """Every hero has a row, but only the top ten and mine are shown until the search
    box finds others."""
    game = get_game("super-dice-heroes")
    state = game.start({"rounds": 1}, 100, 2)
    html = game.web.picture(state, "57") or ""
    rows = re.findall(r"<tr( class=me)?( data-extra hidden)?><td>(\d+)</td>", html)
    assert len(rows) == 100
    shown = [(me, rank) for me, extra, rank in rows if not extra]
    assert len(shown) == 11 and shown[-1][0] == " class=me"
    assert 'data-filter="sdh-scores"' in html and 'id="sdh-scores"' in html
    assert "89 more not shown" in html
    # my sheet ends as the printed one does: bystanders, minions, wild dice, power, honor
    bottom = re.search(r'<table class="sheet-bottom">.*?</table>', html)
    assert bottom and "0 of 18 defeated" in bottom[0] and "Honor</th>" in bottom[0]
    assert "sheet-bottom" not in (game.web.picture(state, None) or "")


def test_electron_gladiators_picture_asks_the_scouts_owner_to_dodge() -> None:
    """A missed Scout: its owner is asked where to dodge (a button and a lit square per
    choice); the attacker and spectators see that it may dodge, with nothing to click."""
    game = get_game("electron-gladiators")
    state: Any = game.start(None, 2, 0)
    rng = random.Random(0)
    for _ in range(400):
        seat = state.awaiting()[0]
        dodge = state.view(seat)["pending_dodge"]
        if dodge:
            html = game.web.picture(state, seat) or ""
            assert f"Your Scout on {dodge['scout']} was missed" in html
            for square in dodge["squares"]:
                assert f">Dodge to {square}</button>" in html
                assert re.search(rf'data-sq="{square}" data-acts="[^"]*dodge {square}', html)
            for other in (None, "1" if seat == "2" else "2"):
                seen = game.web.picture(state, other) or ""
                assert f"the Scout on {dodge['scout']} was missed and may dodge" in seen
                assert "Dodge to" not in seen and "data-acts" not in seen
            return
        legal = state.legal_actions(seat)
        fires = [a for a in legal if str(a).startswith("fire")]
        state.apply(seat, rng.choice(fires) if fires and rng.random() < 0.7 else rng.choice(legal))
    pytest.fail("no dodge came up")

"""The server-rendered pages without a browser (Starlette's TestClient): CSRF on every
form, the options form of every game, invitations, the hero library, the moderator
console, and what each seat's page may show."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import gladiatorium
from gladiatorium.core import games
from gladiatorium.server.app import create_app
from gladiatorium.server.config import Settings
from gladiatorium.server.db import Match
from gladiatorium.server.pages.pictures import picture_html

HEROES = Path(gladiatorium.__file__).parent / "games" / "superhero_gladiators" / "data" / "heroes"
PASSWORD = "correct horse battery"


@pytest.fixture
def pages_app(tmp_path: Path) -> Iterator[object]:
    app = create_app(
        Settings(database_url=f"sqlite:///{tmp_path / 'pages.db'}", bot_delay_seconds=0)
    )
    with TestClient(app):
        yield app


def visitor(app: object) -> TestClient:
    client = TestClient(app)  # type: ignore[arg-type]
    client.get("/login")
    return client


def csrf(client: TestClient) -> str:
    token = client.cookies.get("gladiatorium_csrf")
    assert token
    return token


def signed_in(app: object, username: str) -> TestClient:
    client = visitor(app)
    reply = client.post(
        "/register",
        data={"username": username, "password": PASSWORD, "csrf": csrf(client), "next": "/"},
    )
    assert reply.status_code == 200, reply.text
    assert f"Signed in as <strong>{username}</strong>" in reply.text
    return client


def create(client: TestClient, **fields: str) -> str:
    """Create a match from the form; returns the redirect (or the created page)."""
    data = {"csrf": csrf(client), **fields}
    reply = client.post("/matches/new", data=data, follow_redirects=False)
    assert reply.status_code in (201, 303), reply.text
    return reply.headers.get("location") or reply.text


def match_id_of(location: str) -> str:
    found = re.search(r'href="/matches/([A-Za-z0-9_-]+)" id="to-match"', location) or re.search(
        r"^/matches/([A-Za-z0-9_-]+)", location
    )
    assert found
    return found.group(1)


# ----- CSRF -------------------------------------------------------------------------------
def test_form_posts_without_the_csrf_token_are_refused(pages_app: object) -> None:
    client = signed_in(pages_app, "alice")
    for path, data in [
        ("/login", {"username": "alice", "password": PASSWORD}),
        ("/register", {"username": "mallory", "password": PASSWORD}),
        ("/logout", {}),
        ("/matches/new", {"game": "pig", "seat.1": "me"}),
        ("/library", {"game": "superhero-gladiators", "text": "name: x"}),
        ("/matches/abc/act", {"seat": "1", "action": "roll"}),
        ("/matches/abc/join", {"seat": "1"}),
    ]:
        missing = client.post(path, data=data, follow_redirects=False)
        assert missing.status_code == 403, path
        assert "security token" in missing.text
        wrong = client.post(path, data={**data, "csrf": "x" * 32}, follow_redirects=False)
        assert wrong.status_code == 403, path
    # a cross-site form cannot read the cookie, and a form without the cookie fails too
    stranger = TestClient(pages_app)  # type: ignore[arg-type]
    reply = stranger.post("/register", data={"username": "eve", "password": PASSWORD, "csrf": "a"})
    assert reply.status_code == 403
    assert "Signed in as" in client.get("/").text  # nothing happened to alice


def test_pages_set_the_csrf_cookie_http_only(pages_app: object) -> None:
    client = TestClient(pages_app)  # type: ignore[arg-type]
    reply = client.get("/")
    cookie = reply.headers["set-cookie"]
    assert "gladiatorium_csrf=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert f'name="csrf" value="{csrf(client)}"' not in reply.text  # no form when logged out
    assert f'value="{csrf(client)}"' in client.get("/login").text


# ----- accounts ---------------------------------------------------------------------------
def test_register_login_logout(pages_app: object) -> None:
    client = signed_in(pages_app, "bob")
    taken = client.post(
        "/register", data={"username": "bob", "password": PASSWORD, "csrf": csrf(client)}
    )
    assert taken.status_code == 409 and "taken" in taken.text
    out = client.post("/logout", data={"csrf": csrf(client)})
    assert "Log in" in out.text and "Signed in as" not in out.text
    bad = client.post("/login", data={"username": "bob", "password": "nope", "csrf": csrf(client)})
    assert bad.status_code == 401 and "wrong username or password" in bad.text
    good = client.post(
        "/login",
        data={"username": "bob", "password": PASSWORD, "csrf": csrf(client), "next": "//evil"},
        follow_redirects=False,
    )
    assert good.status_code == 303 and good.headers["location"] == "/"


# ----- creating matches -----------------------------------------------------------------------
def test_every_game_gets_a_form_with_every_option(pages_app: object) -> None:
    client = signed_in(pages_app, "carol")
    for game in games():
        reply = client.get(f"/matches/new?game={game.info.slug}")
        assert reply.status_code == 200, game.info.slug
        # every option has a control of its own, but those a pick or the teams set
        set_by_others = {"teams", "map_name"}
        for name in set(game.options_type.model_fields) - set_by_others:
            assert re.search(f'name="opt.{name}[".]', reply.text), (game.info.slug, name)
        assert "JSON" not in reply.text, game.info.slug  # no option is typed as JSON
    pig = client.get("/matches/new?game=pig").text
    assert re.search(r'type="number" name="opt.target"[^>]*value="30"[^>]*min="1"', pig)
    chess = client.get("/matches/new?game=gladiator-chess").text
    assert re.search(r'type="checkbox" name="opt.king_may_override"[^>]* checked', chess)
    assert re.search(r'<select name="opt.order"', chess)
    assert re.search(r'<textarea name="opt.back_rank"', chess)  # a list: one per line
    assert re.search(r'type="number" name="opt.dice.K" value="5"', chess)  # a number per piece
    assert 'name="clock_days"' not in chess  # eight seats: no move clock
    battle = client.get("/matches/new?game=hero-battle").text
    assert 'name="round_minutes"' in battle
    assert 'value="server"' in battle  # the moderator seat may be run by the server
    assert client.get("/matches/new?game=pig").text.count('value="bot:random"') == 2
    assert 'name="clock_days"' in client.get("/matches/new?game=pig").text


def test_invalid_options_are_shown_back_with_the_option_named(pages_app: object) -> None:
    client = signed_in(pages_app, "dave")
    base = {"csrf": csrf(client), "game": "gladiator-chess", "players": "2"}
    reply = client.post(
        "/matches/new",
        data={**base, "opt.turn_limit": "0", "opt.dice.K": "six", "opt.order": "x"},
    )
    assert reply.status_code == 422
    errors = re.findall(r"field-error[^>]*>Option <code>(\w+)</code>: ([^<]*)<", reply.text)
    named = dict(errors)
    assert set(named) == {"turn_limit", "dice", "order"}, errors
    assert named["dice"] == "K: expected a whole number, got &#39;six&#39;"
    assert 'name="opt.dice.K" value="six"' in reply.text  # the value is shown back
    teams = client.get("/matches/new?game=superhero-gladiators&players=12")
    assert teams.status_code == 200  # the form for the default players, and why
    assert "players: Superhero Gladiators takes 2 to 9 players" in teams.text
    assert "Seats (2 players)" in teams.text
    too_many = client.post("/matches/new", data={**base, "players": "9"})
    assert too_many.status_code == 422 and "2 to 8 players" in too_many.text
    bad_setting = client.post("/matches/new", data={**base, "clock_days": "-1"})
    assert bad_setting.status_code == 422 and "clock_days" in bad_setting.text


def test_a_match_against_a_bot_from_the_form(pages_app: object) -> None:
    client = signed_in(pages_app, "erin")
    location = create(client, game="pig", players="2", **{"seat.1": "me", "seat.2": "bot:random"})
    match_id = match_id_of(location)
    page = client.get(location)
    assert page.status_code == 200
    assert 'data-seat="1"' in page.text and "Your move (seat 1)" in page.text
    assert '<button type="submit" name="action" value="roll"' in page.text
    lobby = client.get("/").text
    assert "Your move" in lobby and match_id in lobby
    # an illegal action through the plain form: the engine's reason, nothing changes
    reply = client.post(
        f"/matches/{match_id}/act", data={"csrf": csrf(client), "seat": "1", "action": "hold"}
    )
    assert reply.status_code == 400 and 'role="alert" id="errors">' in reply.text
    played = client.post(
        f"/matches/{match_id}/act",
        data={"csrf": csrf(client), "seat": "1", "action": "roll"},
        follow_redirects=False,
    )
    assert played.status_code == 303
    # another person sees only the spectator view and may not take seat 1
    other = signed_in(pages_app, "frank")
    assert other.get(f"/matches/{match_id}?seat=1").status_code == 403
    spectator = other.get(f"/matches/{match_id}").text
    assert 'data-seat=""' in spectator and "Spectating." in spectator
    assert "Download the record" not in spectator


def test_invitations_for_an_account_and_for_a_guest(pages_app: object) -> None:
    host = signed_in(pages_app, "gina")
    created = create(
        host, game="pig", players="3", **{"seat.1": "me", "seat.2": "invite", "seat.3": "invite"}
    )
    links = re.findall(r'value="(http://testserver/invite/[^"]+)"', created)
    assert len(links) == 2
    match_id = match_id_of(created)
    guest_link, account_link = (link.removeprefix("http://testserver") for link in links)

    friend = signed_in(pages_app, "hank")
    taken = friend.get(account_link, follow_redirects=False)
    assert taken.status_code == 303
    assert taken.headers["location"] == f"/matches/{match_id}?seat=3"
    assert not any(c.startswith("gladiatorium_seat_") for c in friend.cookies)
    assert match_id in friend.get("/").text
    # the link is used up: its taker is sent on to the match, anyone else is refused
    again = friend.get(account_link, follow_redirects=False)
    assert again.headers["location"] == f"/matches/{match_id}?seat=3"
    assert "already used" in visitor(pages_app).get(account_link).text

    guest = visitor(pages_app)
    joined = guest.get(guest_link, follow_redirects=False)
    assert joined.headers["location"] == f"/matches/{match_id}?seat=2"
    assert guest.cookies.get(f"gladiatorium_seat_{match_id}")
    page = guest.get(joined.headers["location"]).text
    assert 'data-seat="2"' in page
    assert guest.get(f"/matches/{match_id}?seat=1").status_code == 403
    assert guest.get(f"/matches/{match_id}?seat=3").status_code == 403
    assert match_id in guest.get("/").text  # the guest's lobby lists it by the cookie
    labels = host.get(f"/matches/{match_id}").text
    assert "<strong>3</strong>: hank" in labels and "<strong>2</strong>: invited guest" in labels


def test_joining_an_open_seat_from_the_lobby(pages_app: object) -> None:
    host = signed_in(pages_app, "ivy")
    match_id = match_id_of(create(host, game="pig", **{"seat.1": "me", "seat.2": "open"}))
    joiner = signed_in(pages_app, "jack")
    lobby = joiner.get("/").text
    assert f'action="/matches/{match_id}/join"' in lobby
    reply = joiner.post(
        f"/matches/{match_id}/join",
        data={"csrf": csrf(joiner), "seat": "2"},
        follow_redirects=False,
    )
    assert reply.status_code == 303
    assert f'action="/matches/{match_id}/join"' not in joiner.get("/").text
    again = signed_in(pages_app, "kim")
    refused = again.post(f"/matches/{match_id}/join", data={"csrf": csrf(again), "seat": "2"})
    assert refused.status_code == 409


# ----- the hero library ----------------------------------------------------------------------
def test_library_upload_shows_errors_and_feeds_the_teams(pages_app: object) -> None:
    client = signed_in(pages_app, "lena")
    bad = client.post(
        "/library",
        data={"csrf": csrf(client), "game": "superhero-gladiators"},
        files={"file": ("broken.yaml", b"name: <b>Broken</b>\nattributes: {strength: 99}\n")},
    )
    assert bad.status_code == 422
    assert "broken.yaml" in bad.text and "<b>Broken" not in bad.text
    for name in ("cowboy.yaml", "perseus.yaml"):
        good = client.post(
            "/library",
            data={"csrf": csrf(client), "game": "superhero-gladiators"},
            files={"file": (name, (HEROES / name).read_bytes())},
        )
        assert good.status_code == 200 and "Added" in good.text
    library = client.get("/library").text
    assert "Cowboy" in library and "Perseus" in library
    form = client.get("/matches/new?game=superhero-gladiators").text
    ids = re.findall(r'name="library.1" value="(\d+)"', form)
    assert len(ids) == 2
    location = create(
        client,
        game="superhero-gladiators",
        players="2",
        **{"seat.1": "me", "seat.2": "bot:random", "library.1": ids[0], "library.2": ids[1]},
    )
    assert "Cowboy" in client.get(location).text
    half = client.post(
        "/matches/new",
        data={
            "csrf": csrf(client),
            "game": "superhero-gladiators",
            "seat.1": "me",
            "library.1": ids[0],
        },
    )
    # one team picked: the form comes back with the problem on the other team's field
    assert half.status_code == 422
    assert re.findall(r'field-error" role="alert">([^<]*)<', half.text) == [
        "Team 2: pick at least one hero for this team"
    ]
    assert re.search(f'name="library.1" value="{ids[0]}" checked', half.text)
    stranger = signed_in(pages_app, "thief")
    stolen = stranger.post(f"/library/{ids[0]}/delete", data={"csrf": csrf(stranger)})
    assert stolen.status_code == 404
    removed = client.post(f"/library/{ids[0]}/delete", data={"csrf": csrf(client)})
    assert removed.status_code == 200 and "Cowboy" not in removed.text and "Perseus" in removed.text


def test_teams_from_samples_and_the_map_from_the_shipped_maps(pages_app: object) -> None:
    client = signed_in(pages_app, "maya")
    form = client.get("/matches/new?game=superhero-gladiators").text
    # the default teams are the samples they are made of, ticked; the default map picked
    assert re.search(r'name="library.1" value="sample:cowboy" checked', form)
    assert re.search(r'name="library.2" value="sample:perseus" checked', form)
    assert re.search(r'type="radio" name="opt.map" value="small" checked', form)
    assert 'name="opt.map" value="colosseum"' in form and "teams" not in re.findall(
        r'name="opt\.(\w+)"', form
    )
    preview = client.get("/matches/new/preview?game=superhero-gladiators&option=map&key=chasm")
    assert preview.status_code == 200 and 'aria-label="Arena chasm, 18 by 6 squares"' in (
        preview.text
    )
    assert client.get("/matches/new/preview?game=pig&option=map&key=chasm").status_code == 404
    teams = {"library.1": ["sample:barbarian", "sample:cowboy"], "library.2": "sample:perseus"}
    location = create(
        client,
        game="superhero-gladiators",
        **{"seat.1": "me", "seat.2": "bot:random", "opt.map": "chasm", "options": "all"},
        **teams,  # type: ignore[arg-type]
    )
    page = client.get(location).text
    assert "Arena chasm, 18 by 6 squares" in page and "Barbarian" in page and "Perseus" in page
    own = client.post(
        "/matches/new",
        data={
            "csrf": csrf(client),
            "game": "superhero-gladiators",
            "opt.map": "",
            "opt.map.own": "",
        },
    )
    assert own.status_code == 422
    assert "Option <code>map</code>: write your own, or pick one above" in own.text
    walled = client.post(
        "/matches/new",
        data={
            "csrf": csrf(client),
            "game": "superhero-gladiators",
            "opt.map": "",
            "opt.map.own": "1..#\n...2\nxx",
        },
    )
    assert walled.status_code == 422
    assert "unknown map character &#39;x&#39;" in walled.text
    assert ">1..#\n...2\nxx</textarea>" in walled.text


def test_three_to_nine_teams_from_the_form(pages_app: object) -> None:
    """More players than the default two: a sample ticked for every team (the default
    two, then the others by name, from the first again past the eighth) and the smallest
    shipped map with a start square for each; the match made from it has every team."""
    client = signed_in(pages_app, "tove")
    form = client.get("/matches/new?game=superhero-gladiators&players=3").text
    assert "with the default options" not in form
    ticked = re.findall(r'name="library\.(\d)" value="sample:([\w-]+)" checked', form)
    assert ticked == [("1", "cowboy"), ("2", "perseus"), ("3", "barbarian")]
    assert re.search(r'type="radio" name="opt.map" value="pillars" checked', form)
    teams = {f"library.{seat}": f"sample:{stem}" for seat, stem in ticked}
    seats = {"seat.1": "me", "seat.2": "bot:random", "seat.3": "bot:random"}
    location = create(
        client,
        game="superhero-gladiators",
        players="3",
        **{**seats, **teams, "opt.map": "pillars", "options": "all"},
    )
    page = client.get(location).text
    assert "Arena pillars, 12 by 7 squares" in page
    for label in ("Cowboy (1A)", "Perseus (2A)", "Barbarian (3A)"):
        assert label in page
    # a map picked that is the two-team default is kept (not taken for "no choice")
    fields = {**seats, **teams, "opt.map": "small", "options": "all"}
    data = {"csrf": csrf(client), "game": "superhero-gladiators", "players": "3", **fields}
    walled = client.post("/matches/new", data=data)
    assert walled.status_code == 422 and "map small has 0 start squares marked 3" in walled.text
    nine = client.get("/matches/new?game=superhero-gladiators&players=9").text
    ticked = re.findall(r'name="library\.(\d)" value="sample:([\w-]+)" checked', nine)
    assert [seat for seat, _ in ticked] == [str(n) for n in range(1, 10)]
    assert ticked[8] == ("9", "cowboy") and len({stem for _, stem in ticked}) == 8
    assert re.search(r'type="radio" name="opt.map" value="nine" checked', nine)


def test_every_list_option_is_read_from_its_control(pages_app: object) -> None:
    client = signed_in(pages_app, "nils")
    base = {"csrf": csrf(client), "game": "hero-battle", "players": "8", "seat.moderator": "me"}
    bad = client.post(
        "/matches/new",
        data={**base, "opt.anonymous_rounds": "2, x", "opt.assign_nemeses": "Thor"},
    )
    assert bad.status_code == 422
    errors = dict(re.findall(r"field-error[^>]*>Option <code>(\w+)</code>: ([^<]*)<", bad.text))
    assert errors == {
        "anonymous_rounds": "expected whole numbers separated by commas, got &#39;x&#39;",
        "assign_nemeses": "line 1: expected two names separated by a comma",
    }
    location = create(
        client,
        **base,
        **{f"seat.{n}": "bot:random" for n in range(1, 9)},
        **{
            "opt.anonymous_rounds": "2, 4",
            "opt.player_names": "Ann\r\nBo\n\nCy\nDi\nEd\nFay\nGus\nHal",
        },
    )
    match_id = match_id_of(location)
    with pages_app.state.service.store.sessions() as session:  # type: ignore[attr-defined]
        options = session.get(Match, match_id).options
    assert options["anonymous_rounds"] == [2, 4]
    assert options["player_names"][:3] == ["Ann", "Bo", "Cy"]  # blank lines left out
    assert len(options["player_names"]) == 8


def test_a_battle_of_a_hundred_from_the_form(pages_app: object) -> None:
    """More players than the default hero list holds (forty): the heroes of the shipped
    theme The Hundred sign up, in the form as in the match made from it."""
    client = signed_in(pages_app, "mona")
    form = client.get("/matches/new?game=hero-battle&players=100").text
    assert "with the default options" not in form and "Seats (100 players)" in form
    signups = re.search(r'name="opt.signups"[^>]*>([^<]*)</textarea>', form)
    assert signups is not None and len(signups.group(1).split()) >= 100
    base = {"game": "hero-battle", "players": "100", "seat.moderator": "me"}
    location = create(
        client, **base, round_minutes="60", **{f"seat.{n}": "open" for n in range(1, 101)}
    )
    with pages_app.state.service.store.sessions() as session:  # type: ignore[attr-defined]
        options = session.get(Match, match_id_of(location)).options
    assert len(options["signups"]) == 100
    assert options["signups"][0] == "Captain Aurora" and options["signups"][99] == "Major Tempest"


class DesignFields(HTMLParser):
    """The values the designer's form would post (inputs, ticked boxes, chosen options)."""

    def __init__(self) -> None:
        super().__init__()
        self.values: list[tuple[str, str]] = []
        self.inside = False
        self.select = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        got = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = got.get("id") == "design-form"
        elif self.inside and tag == "input" and got.get("name") not in (None, "csrf", "game"):
            if got.get("type") not in ("checkbox", "radio") or "checked" in got:
                self.values.append((got["name"], got.get("value", "")))
        elif self.inside and tag == "select":
            self.select = got.get("name", "")
        elif self.inside and tag == "option" and "selected" in got and self.select:
            self.values.append((self.select, got.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def design_fields(html: str) -> dict[str, list[str]]:
    parser = DesignFields()
    parser.feed(html)
    out: dict[str, list[str]] = {}
    for name, value in parser.values:
        out.setdefault(name, []).append(value)
    return out


def test_designer_save_refused_is_the_form_and_items_are_edited_in_place(
    pages_app: object,
) -> None:
    client = signed_in(pages_app, "otto")
    base = {"csrf": csrf(client), "game": "superhero-gladiators"}
    bad = client.post("/heroes/new", data={**base, "do": "save", "name": "Half", "p0.level": "9"})
    assert bad.status_code == 422
    assert 'id="design-form" class="design-form" data-tried="yes"' in bad.text
    assert "fix the problems below before saving" in bad.text and 'value="Half"' in bad.text
    fields = design_fields(client.get("/heroes/new?sample=cowboy").text)
    saved = client.post(
        "/heroes/new", data={**base, **fields, "do": "save"}, follow_redirects=False
    )
    assert saved.status_code == 303
    item = re.search(r"item=(\d+)", saved.headers["location"])
    assert item
    editing = client.get(saved.headers["location"]).text
    assert "Edit Cowboy" in editing and f'name="item" value="{item[1]}"' in editing
    renamed = {**base, **fields, "name": ["Cowboy Kid"], "item": item[1], "do": "replace"}
    assert client.post("/heroes/new", data=renamed, follow_redirects=False).status_code == 303
    library = client.get("/library").text
    assert "Cowboy Kid" in library and ">Cowboy<" not in library
    stranger = signed_in(pages_app, "peeker")
    assert stranger.get(f"/heroes/new?item={item[1]}").status_code == 404
    theft = {**renamed, "csrf": csrf(stranger), "name": "Mine"}
    refused = stranger.post("/heroes/new", data=theft)
    assert refused.status_code == 404 and "not in your library" in refused.text
    assert "Cowboy Kid" in client.get("/library").text


# ----- the moderator console ---------------------------------------------------------------
def test_moderator_console_deadline_close_and_posts(pages_app: object) -> None:
    client = signed_in(pages_app, "mod")
    seats = {f"seat.{n}": "open" for n in range(2, 9)}
    location = create(
        client, game="hero-battle", players="8", **seats, **{"seat.1": "me", "seat.moderator": "me"}
    )
    match_id = match_id_of(location)
    page = client.get(f"/matches/{match_id}?seat=moderator").text
    assert "Moderator console" in page
    # players by name with their seat; an open seat by its number
    assert "Still to move: mod (seat 1), seat 2, seat 3, seat 4, seat 5, seat 6, seat 7, " in page
    assert "Close the round now (close)" in page
    player = client.get(f"/matches/{match_id}?seat=1").text
    assert "Moderator console" not in player and 'id="notation"' in player
    move = re.findall(r'<option value="(hit [^"]+)">', player)[0]
    client.post(
        f"/matches/{match_id}/act", data={"csrf": csrf(client), "seat": "1", "action": move}
    )
    page = client.get(f"/matches/{match_id}?seat=moderator").text
    assert "Still to move: seat 2, seat 3, seat 4, seat 5, seat 6, seat 7, seat 8." in page
    assert "Moved (or out): mod (seat 1)." in page
    # the page's events name the player as the server does, not as the engine's "Player 1"
    assert "Round 1: mod (seat 1) hits " in html.unescape(page)
    assert "Player 1 " not in page
    spectator = client.get(f"/matches/{match_id}?seat=spectator").text
    assert "Round 1: mod (seat 1) hits " in html.unescape(spectator)
    assert "(mod (seat 1))" not in spectator  # the secret identity stays secret
    set_it = client.post(
        f"/matches/{match_id}/deadline",
        data={"csrf": csrf(client), "seat": "moderator", "minutes": "90"},
        follow_redirects=False,
    )
    assert set_it.status_code == 303
    assert "round at" in client.get(f"/matches/{match_id}?seat=moderator").text
    bad = client.post(
        f"/matches/{match_id}/deadline",
        data={"csrf": csrf(client), "seat": "moderator", "minutes": "soon"},
    )
    assert bad.status_code == 400 and "minutes" in bad.text
    closed = client.post(
        f"/matches/{match_id}/act",
        data={"csrf": csrf(client), "seat": "moderator", "action": "close"},
        follow_redirects=False,
    )
    assert closed.status_code == 303
    after = client.get(f"/matches/{match_id}?seat=moderator").text
    assert "Round post" in after and "BBCode" in after and "Markdown" in after
    assert "[b]" in after or "[B]" in after or "[u]" in after  # BBCode in a textarea
    # a spectator never sees the moderator's secrets (the assignment of heroes)
    spectator = visitor(pages_app).get(f"/matches/{match_id}").text
    assert "Moderator console" not in spectator and "nemeses" not in spectator


# ----- the picture ---------------------------------------------------------------------------
def test_picture_markup_becomes_escaped_html_with_classes() -> None:
    html = str(picture_html("[bold cyan]1A[/] <script>x</script> [1] [...] [red]R[/red]"))
    assert '<span class="b fg-cyan">1A</span>' in html
    assert "&lt;script&gt;" in html and "<script>" not in html
    assert "[1] [...]" in html
    assert '<span class="fg-red">R</span>' in html
    assert str(picture_html("[/oops] <b>")) == "[/oops] &lt;b&gt;"


def test_a_match_from_a_position_through_the_form(pages_app: object) -> None:
    client = signed_in(pages_app, "fern")
    assert 'name="position"' not in client.get("/matches/new?game=pig").text  # no format
    form = client.get("/matches/new?game=super-dice-heroes&players=1").text
    assert '<textarea name="position" id="position"' in form
    position = (
        Path(gladiatorium.__file__).parent
        / "games/super_dice_heroes/data/positions/powerplant.yaml"
    ).read_text()
    base = {"csrf": csrf(client), "game": "super-dice-heroes", "players": "1", "seat.1": "me"}
    bad = client.post("/matches/new", data={**base, "position": "round: [\n"})
    assert bad.status_code == 422 and "position:" in bad.text
    assert "round: [\n</textarea>" in bad.text  # shown back to be mended
    location = create(client, **{**base, "position": position})
    page = client.get(location).text
    assert re.search(r"[Rr]ound 6\b", page), page[:2000]

"""The hall's pages: browsing, a hero's page and its buttons (use in a match, copy into
my library, open in the designer), publishing from the library and a theme's form (its
errors by field and line), a Battle created with a theme from the form, reports and the
operators' hiding; markup in every field stays text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import settings_for
from test_pages_forms import csrf, signed_in, visitor

from gladiatorium.server.app import create_app
from gladiatorium.server.db import Match

THEME = "name: <script>x</script> Battle\nheroes:\n" + "".join(
    f"  - <i>Hero</i> {n}\n" for n in range(1, 13)
)


@pytest.fixture
def hall_app(database_url: str) -> Iterator[Any]:
    settings = replace(settings_for(database_url), operators=("opal",))
    app = create_app(settings)
    with TestClient(app):
        yield app


def test_browse_and_a_heros_page(hall_app: Any) -> None:
    guest = visitor(hall_app)
    listing = guest.get("/hall", params={"sort": "cost"})
    assert listing.status_code == 200
    names = re.findall(r'<a href="/hall/([a-z0-9-]+)">', listing.text)
    assert names[:2] == ["porcupine-boar-guy", "cowboy"]
    page = guest.get("/hall/cowboy").text
    assert "A Superhero Gladiators hero by <strong>Gladiatorium</strong>, version 1" in page
    assert "name: Cowboy" in page and 'class="hall-card"' in page
    assert 'href="/matches/new?game=superhero-gladiators&amp;hero=hall%3Acowboy%401"' in page
    assert 'href="/heroes/new?game=superhero-gladiators&amp;hall=hall%3Acowboy%401"' in page
    assert "Copy into my library" not in page and "Report it" not in page
    designer = guest.get("/heroes/new?game=superhero-gladiators&hall=hall:cowboy@1")
    assert designer.status_code == 200 and 'value="Cowboy"' in designer.text
    assert guest.get("/hall/nosuch").status_code == 404
    bad = guest.get("/hall", params={"trait": "fast"})
    assert bad.status_code == 422 and "trait: &#39;fast&#39;" in bad.text


def test_use_in_a_match_and_copy(hall_app: Any) -> None:
    member = signed_in(hall_app, "uma")
    form = member.get("/matches/new?game=superhero-gladiators&hero=hall:cowboy@1").text
    assert (
        '<input type="checkbox" name="library.1" value="hall:cowboy@1" checked> '
        "Cowboy (published, version 1)" in form
    )
    data = {
        "csrf": csrf(member),
        "game": "superhero-gladiators",
        "seat.1": "me",
        "seat.2": "bot:greedy",
        "library.1": "hall:cowboy@1",
        "library.2": "hall:perseus@1",
    }
    made = member.post("/matches/new", data=data, follow_redirects=False)
    assert made.status_code == 303, made.text
    match_id = made.headers["location"].removeprefix("/matches/")
    with hall_app.state.service.store.sessions() as session:
        row = session.get(Match, match_id)
        assert [team[0]["name"] for team in row.options["teams"]] == ["Cowboy", "Perseus"]
    assert f'href="/matches/{match_id}"' in member.get("/hall/perseus").text
    copied = member.post(
        "/hall/cowboy/copy", data={"csrf": csrf(member), "version": "1"}, follow_redirects=False
    )
    assert copied.headers["location"] == "/hall/cowboy?done=copied"
    library = member.get("/library").text
    assert 'aria-label="Open Cowboy in the designer">Cowboy</a></td>' in library
    item = re.search(r'name="item" value="(\d+)"', library)
    assert item is not None
    published = member.post(
        "/hall/publish", data={"csrf": csrf(member), "item": item.group(1)}, follow_redirects=False
    )
    assert published.headers["location"] == "/hall/cowboy-uma"
    page = member.get("/hall/cowboy-uma").text
    assert "by <strong>uma</strong>, version 1" in page


def test_a_theme_published_and_picked(hall_app: Any) -> None:
    guest = visitor(hall_app)
    assert guest.get("/hall/themes/new", follow_redirects=False).status_code == 303
    member = signed_in(hall_app, "mona")
    broken = THEME.replace("<i>Hero</i> 3", "Hero (3)")
    refused = member.post("/hall/themes/new", data={"csrf": csrf(member), "text": broken})
    assert refused.status_code == 422
    assert "<li>theme.yaml:5: heroes[2]: &#39;Hero (3)&#39; may not contain &#39;()&#39;</li>" in (
        refused.text
    )
    done = member.post(
        "/hall/themes/new", data={"csrf": csrf(member), "text": THEME}, follow_redirects=False
    )
    assert done.headers["location"] == "/hall/script-x-script-battle-mona"
    for path in ("/hall?kind=theme", done.headers["location"], "/matches/new?game=hero-battle"):
        html = member.get(path).text
        assert "<script>x" not in html and "<i>Hero" not in html, path
        assert "&lt;script&gt;x&lt;/script&gt; Battle" in html, path
    ref = "hall:script-x-script-battle-mona@1"
    data = {
        "csrf": csrf(member),
        "game": "hero-battle",
        "players": "10",
        "theme": ref,
        "seat.moderator": "me",
        "round_minutes": "60",
    }
    made = member.post("/matches/new", data=data, follow_redirects=False)
    assert made.status_code == 303, made.text
    with hall_app.state.service.store.sessions() as session:
        row = session.get(Match, made.headers["location"].removeprefix("/matches/"))
        assert row.options["signups"][9] == "<i>Hero</i> 10"
        assert row.options["extra_heroes"] == ["<i>Hero</i> 11", "<i>Hero</i> 12"]


def test_reports_and_hiding_from_the_pages(hall_app: Any) -> None:
    reader = signed_in(hall_app, "rex")
    reported = reader.post(
        "/hall/barbarian/report",
        data={"csrf": csrf(reader), "reason": "<b>too</b> strong"},
        follow_redirects=False,
    )
    assert reported.headers["location"] == "/hall/barbarian?done=reported"
    again = reader.post("/hall/barbarian/report", data={"csrf": csrf(reader), "reason": "x"})
    assert again.status_code == 409 and "you reported it already" in again.text
    refused = reader.post("/hall/barbarian/hide", data={"csrf": csrf(reader)})
    assert refused.status_code == 403
    operator = signed_in(hall_app, "opal")
    page = operator.get("/hall/barbarian").text
    assert "<li><strong>rex</strong>: &lt;b&gt;too&lt;/b&gt; strong</li>" in page
    hidden = operator.post(
        "/hall/barbarian/hide", data={"csrf": csrf(operator)}, follow_redirects=False
    )
    assert hidden.headers["location"] == "/hall/barbarian?done=hidden"
    assert "Hidden by the server's operators" in operator.get("/hall/barbarian").text
    gone = reader.get("/hall/barbarian")
    assert gone.status_code == 410 and "hidden by the server&#39;s operators" in gone.text
    assert "Barbarian" not in gone.text.split("<main", 1)[1].replace("barbarian:", "")
    assert "/hall/barbarian" not in reader.get("/hall").text
    shown = operator.post("/hall/barbarian/unhide", data={"csrf": csrf(operator)})
    assert shown.status_code == 200
    assert "/hall/barbarian" in reader.get("/hall").text

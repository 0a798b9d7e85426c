"""The rules pages: each game's own rules text as a page of the site, with anchors."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from gladiatorium.core import games


@pytest.mark.parametrize("slug", sorted(g.info.slug for g in games()))
def test_every_game_has_a_rules_page(sqlite_client: TestClient, slug: str) -> None:
    game = next(g for g in games() if g.info.slug == slug)
    response = sqlite_client.get(f"/rules/{slug}")
    assert response.status_code == 200
    assert f"<title>Rules of {game.info.name}" in response.text
    if slug != "pig":
        assert '<h2 id="rulings">Rulings</h2>' in response.text
        assert "<table>" in response.text and "<td>" in response.text
    assert 'href="#' in response.text


def test_anchors_of_known_headings(sqlite_client: TestClient) -> None:
    text = sqlite_client.get("/rules/gladiator-chess").text
    for anchor in ("positions", "options", "notation", "the-rules-in-our-words"):
        assert f'id="{anchor}"' in text
        assert f'href="#{anchor}"' in text


def test_raw_html_in_the_text_is_escaped(sqlite_client: TestClient) -> None:
    text = sqlite_client.get("/rules/superhero-gladiators").text
    assert "<script" not in text.split("<article", 1)[1].split("</article>", 1)[0]


@pytest.mark.parametrize(
    "path", ["/rules/chess", "/rules/../../etc/passwd", "/rules/%2e%2e%2f%2e%2e%2fetc%2fpasswd"]
)
def test_unknown_game_is_not_found(sqlite_client: TestClient, path: str) -> None:
    response = sqlite_client.get(path)
    assert response.status_code == 404
    assert "root:" not in response.text


def test_the_lobby_the_form_and_a_match_link_the_rules(sqlite_client: TestClient) -> None:
    client = sqlite_client
    client.get("/login")
    token = client.cookies.get("gladiatorium_csrf")
    assert token
    password = "correct horse battery"
    reply = client.post(
        "/register", data={"username": "rhea", "password": password, "csrf": token, "next": "/"}
    )
    assert reply.status_code == 200
    for game in games():
        assert f'href="/rules/{game.info.slug}"' in reply.text
    form = client.get("/matches/new?game=gladiator-chess").text
    assert 'href="/rules/gladiator-chess"' in form
    assert 'href="/rules/gladiator-chess#positions"' in form
    created = client.post(
        "/matches/new",
        data={"csrf": token, "game": "pig", "players": "2", "seat.1": "me", "seat.2": "bot:random"},
        follow_redirects=True,
    )
    assert created.status_code in (200, 201)
    match = re.search(r"/matches/([A-Za-z0-9_-]+)", str(created.url)) or re.search(
        r'href="/matches/([A-Za-z0-9_-]+)" id="to-match"', created.text
    )
    assert match
    assert 'href="/rules/pig"' in client.get(f"/matches/{match.group(1)}").text

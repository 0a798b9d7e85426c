"""'Play a bot now' on the home page: one click creates a casual match of the game
against its best bots (the person in seat 1) and opens it; the bots' pace is a match
setting (``bot_seconds``) of the form and of ``POST /api/matches``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, expect
from test_pages import browser, new_page, page_server, register
from test_pages_forms import csrf, signed_in

from gladiatorium.core import games
from gladiatorium.server.app import create_app
from gladiatorium.server.config import Settings
from gladiatorium.server.pages.new_match import QUICK_BOT_SECONDS

ORIGIN = {"origin": "http://testserver"}

__all__ = ["browser", "page_server"]


@pytest.fixture
def quick_app(tmp_path: Path) -> Iterator[object]:
    app = create_app(
        Settings(database_url=f"sqlite:///{tmp_path / 'quick.db'}", bot_delay_seconds=0)
    )
    with TestClient(app):
        yield app


SLUGS = [g.info.slug for g in games()]


@pytest.mark.parametrize("slug", SLUGS)
def test_play_a_bot_now_opens_a_match_against_bots(quick_app: object, slug: str) -> None:
    client = signed_in(quick_app, "quick")
    home = client.get("/").text
    assert f'<button type="submit" id="quick-{slug}">Play a bot now' in home
    reply = client.post(
        "/matches/quick", data={"csrf": csrf(client), "game": slug}, follow_redirects=False
    )
    assert reply.status_code == 303, reply.text
    match_id = re.fullmatch(r"/matches/([A-Za-z0-9_-]+)", reply.headers["location"])
    assert match_id is not None
    live = client.app.state.service.store.live(match_id.group(1))  # type: ignore[attr-defined]
    first, *others = live.state.seats
    assert live.seats[first].kind == "user"
    kinds = {live.seats[seat].kind for seat in others}
    assert kinds <= {"bot", "server"} and "bot" in kinds
    assert live.settings["bot_seconds"] == QUICK_BOT_SECONDS
    assert live.settings["casual"] is True
    assert client.get(reply.headers["location"]).status_code == 200
    drivers = client.app.state.drivers  # type: ignore[attr-defined]
    assert drivers._pause(match_id.group(1)) == QUICK_BOT_SECONDS


def test_play_a_bot_now_needs_an_account_and_a_known_game(quick_app: object) -> None:
    client = signed_in(quick_app, "quick")
    reply = client.post("/matches/quick", data={"csrf": csrf(client), "game": "chess"})
    assert reply.status_code == 404
    assert "no such game" in reply.text


def test_the_bots_pace_is_a_match_setting(quick_app: object) -> None:
    client = TestClient(quick_app)  # type: ignore[arg-type]
    client.post("/api/register", json={"username": "pace", "password": "correct horse battery"})
    body = {"game": "pig", "seats": {"1": "me", "2": "bot:random"}}
    paced = client.post(
        "/api/matches", json={**body, "settings": {"bot_seconds": 1.5}}, headers=ORIGIN
    )
    assert paced.status_code == 201, paced.text
    plain = client.post("/api/matches", json=body, headers=ORIGIN)
    drivers = client.app.state.drivers  # type: ignore[attr-defined]
    assert drivers._pause(paced.json()["id"]) == 1.5
    assert drivers._pause(plain.json()["id"]) == 0  # the server's bot_delay_seconds
    for bad, message in ((11, "bot_seconds: must be between 0 and 10"), ("soon", "expected")):
        refused = client.post(
            "/api/matches", json={**body, "settings": {"bot_seconds": bad}}, headers=ORIGIN
        )
        assert refused.status_code == 422 and message in refused.text, refused.text


def test_the_creation_form_offers_the_bots_pace(quick_app: object) -> None:
    client = signed_in(quick_app, "former")
    form = client.get("/matches/new?game=pig").text
    assert "Seconds each bot pauses before each of its actions (empty: the server's 0 s)" in form
    assert '<input type="number" name="bot_seconds" min="0" max="10"' in form
    reply = client.post(
        "/matches/new",
        data={
            "csrf": csrf(client),
            "game": "pig",
            "seat.1": "me",
            "seat.2": "bot:random",
            "bot_seconds": "2",
        },
        follow_redirects=False,
    )
    assert reply.status_code == 303, reply.text
    match_id = reply.headers["location"].rsplit("/", 1)[1]
    live = client.app.state.service.store.live(match_id)  # type: ignore[attr-defined]
    assert live.settings["bot_seconds"] == 2


def test_play_a_bot_now_from_the_home_page(browser: Browser, page_server: str) -> None:
    """One click on the home page: a match of the game against its best bot, opened."""
    context, page = new_page(browser, page_server)
    register(page, "quickly")
    page.goto("/")
    page.locator("#quick-super-dice-heroes").click()
    page.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+$"))
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator("#match")).to_have_attribute("data-seat", "1")
    expect(page.locator("#legend summary")).to_have_text("Legend: what every code means")
    assert not page.js_errors  # type: ignore[attr-defined]
    context.close()

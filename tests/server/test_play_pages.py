"""During a match, in a real browser (Debian's chromium, see test_pages.py): seat lists
follow joins without a move, Hero Battle names its players and shows its deadline,
Superhero Gladiators shows the chance to hit by each attack, and a move clicked while the
server is away is refused in place."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, expect
from server_helpers import LiveServer
from test_game_pages import MAX_STEPS, create, sg_turn, wait_turn
from test_pages import browser, new_page, over, page_server, register

__all__ = ["browser", "page_server"]


def seat_item(page: Page, seat: str) -> str:
    return page.locator(".seatlist li", has=page.locator(f"strong:text-is('{seat}')")).inner_text()


def test_the_seat_list_follows_a_join_without_a_move(browser: Browser, page_server: str) -> None:
    context, page = new_page(browser, page_server)
    register(page, "seatada")
    match = create(page, "pig", {"2": "open"}, {})
    expect(page.locator(".seatlist")).to_contain_text("2: open")
    other, joiner = new_page(browser, page_server)
    register(joiner, "seatbob")
    joiner.goto("/")
    card = joiner.locator(".card", has=joiner.locator(f'a[href="/matches/{match}"]'))
    card.get_by_role("button", name="Join").click()
    joiner.wait_for_url(re.compile(rf"/matches/{match}\?seat=2$"))
    expect(page.locator(".seatlist")).to_contain_text("2: seatbob")  # no reload, no move
    assert seat_item(page, "1") == "1: seatada (you)"
    assert not page.js_errors  # type: ignore[attr-defined]
    other.close()
    context.close()


def test_hero_battle_names_players_and_shows_the_deadline(
    browser: Browser, page_server: str
) -> None:
    """Players by name (guesses too, never by seat number alone), the round's deadline
    pushed to a player's open page, and one close button on the moderator's console."""
    context, mod = new_page(browser, page_server)
    register(mod, "hbhost")
    match = create(mod, "hero-battle", {"1": "me", "moderator": "me"}, {})
    player = context.new_page()
    player.goto(f"/matches/{match}?seat=1")
    expect(player.locator("#conn")).to_have_text("live")
    table = player.locator("#webpic table.hb-players")
    expect(table).to_contain_text("hbhost (seat 1)")
    expect(table.locator("tr", has_text=re.compile(r"^2"))).to_contain_text(
        re.compile(r"bot \S+ \(seat 2\)")
    )
    player.locator("#webpic button.guess").first.click()
    choice = player.locator("#picking .pick-choice").first
    expect(choice).to_have_text(re.compile(r"^.+ is (hbhost|bot \S+) \(seat \d\)$"))
    assert "=" not in choice.inner_text()
    player.locator("#pick-clear").click()
    assert player.locator("#deadlines").count() == 0
    mod.goto(f"/matches/{match}?seat=moderator")
    expect(mod.locator("#conn")).to_have_text("live")
    closes = mod.locator("#live button", has_text=re.compile(r"\bclose\b", re.I))
    expect(closes).to_have_count(1)
    assert mod.locator("#webpic th", has_text="My move").count() == 0
    mod.get_by_label("Round deadline in").fill("45")
    mod.get_by_role("button", name="Set the deadline").click()
    expect(mod.locator(".console")).to_contain_text("round at")
    # the player's page was open all along: the deadline reaches it without a reload
    expect(player.locator("#deadlines")).to_contain_text(re.compile(r"round 1 closes at .+ UTC"))
    assert not mod.js_errors  # type: ignore[attr-defined]
    context.close()


def test_superhero_gladiators_attacks_show_their_chance_in_view(
    browser: Browser, page_server: str
) -> None:
    """The acting hero's attack powers show each target's chance to hit; once a power
    is picked, its choices of target stay in view (and say their chance too)."""
    context, page = new_page(browser, page_server)
    page.set_viewport_size({"width": 1200, "height": 640})
    register(page, "oddsfan")
    create(page, "superhero-gladiators", {"1": "bot:greedy", "2": "me"}, {})
    seen = {"defence": 0, "attack": 0, "aim": 0, "move": 0, "other": 0}
    for _ in range(MAX_STEPS):
        wait_turn(page)
        if over(page):
            break
        powers = page.locator('#webpic .hero-card.acting button.pic-button[data-acts*="attack"]')
        if powers.count():
            power = powers.first
            odds = power.locator("xpath=..").locator(".odds")
            expect(odds).to_contain_text(re.compile(r"\d+% to hit"))
            if (power.get_attribute("data-acts") or "").count("attack") > 1:
                power.click()  # several targets: the choices light up and stay in view
                page.evaluate("window.scrollTo(0, 0)")  # the board's top, as a person sees it
                expect(page.locator("#picking")).to_be_in_viewport()
                expect(page.locator("#picking .pick-choice").first).to_contain_text("% to hit")
                page.locator("#pick-clear").click()
                seen["aim"] += 1
                break
        sg_turn(page, seen)
        if seen["attack"] >= 3:
            break
    assert seen["attack"] + seen["aim"] >= 1, seen
    assert not page.js_errors  # type: ignore[attr-defined]
    context.close()


def test_a_move_clicked_while_the_server_is_down_is_refused_in_place(
    browser: Browser, live_server: Callable[..., LiveServer], tmp_path: Path
) -> None:
    """The page says the move was not sent and stays; no browser error page."""
    server = live_server(f"sqlite:///{tmp_path / 'down.db'}")
    context, page = new_page(browser, server.url)
    register(page, "downada")
    match = create(page, "pig", {"1": "me", "2": "me"}, {})
    expect(page.locator("#live button.act", has_text="roll")).to_be_visible()
    server.stop()
    expect(page.locator("#conn")).to_have_text("reconnecting…")
    page.locator("#live button.act", has_text="roll").click()
    expect(page.locator("#errors")).to_contain_text("cannot be reached right now")
    assert page.url == f"{server.url}/matches/{match}"  # still the match page
    expect(page.locator("#live button.act", has_text="roll")).to_be_enabled()
    refused = [e for e in page.js_errors if "ERR_CONNECTION_REFUSED" not in e]  # type: ignore[attr-defined]
    assert not [e for e in refused if "WebSocket" not in e], refused
    context.close()

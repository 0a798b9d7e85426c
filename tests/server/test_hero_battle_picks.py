"""The match page of a Hero Battle picks its moves from the seat's compact legal form
(``data-form``, ``data-pick``: static/board.js): a guess is a hero, then one of the
players offered, each named."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect
from test_game_pages import acked, create, wait_turn
from test_pages import browser, new_page, page_server, register

__all__ = ["browser", "page_server"]


def test_a_guess_is_picked_hero_first_then_player(browser: Browser, page_server: str) -> None:
    context, page = new_page(browser, page_server)
    register(page, "guesser")
    seats = {str(n): "bot:random" for n in range(2, 9)}
    seats.update({"1": "me", "moderator": "me"})
    create(page, "hero-battle", seats, {"starting_hp": "30"})
    wait_turn(page)
    form = page.locator("#webpic").get_attribute("data-form") or ""
    assert '"pair"' in form and "data-acts" not in page.locator("#webpic .hb-heroes").inner_html()
    guess = page.locator("#webpic button.guess").first
    hero = guess.locator("xpath=ancestor::tr").get_attribute("data-hero")
    answered = acked(page)
    guess.click()
    expect(page.locator("#picking")).to_be_visible()
    choices = page.locator("#picking .pick-choice")
    assert choices.count() == 7  # the other seven players
    first = choices.first
    expect(first).to_have_text(re.compile(rf"^{re.escape(hero or '')} is .+\(seat \d\)$"))
    said = first.inner_text()
    first.click()
    page.wait_for_function(
        "n => +(document.getElementById('match').dataset.acked || 0) > n", arg=answered
    )
    assert page.locator("#errors").is_hidden()
    expect(page.locator("#webpic .my-hero")).to_contain_text(f"My guess: {said}")
    assert not page.js_errors  # type: ignore[attr-defined]
    context.close()

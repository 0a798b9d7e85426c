"""Turns, open seats and rematches in a real browser (Debian's chromium, see
test_pages.py): one browser, two people, three pages. The title's count of a second
page of bob's changes when alice moves, with no reload, and that page, in the
background, shows a notification; the lobby lists open seats by
game and joins one with a click; "Rematch" at the end rotates the seats."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, expect
from test_pages import browser, new_page, page_server, register

__all__ = ["browser", "page_server"]


#: a page in the background whose person allowed notifications, which it records
BACKGROUND = """
window.told = [];
Object.defineProperty(document, "hidden", { get: () => true });
window.Notification = class {
  constructor(title, options) { window.told.push([title, options.body]); }
  static requestPermission() { return Promise.resolve("granted"); }
};
window.Notification.permission = "granted";
"""


def api(page: Page, base: str, method: str, path: str, data: Any = None) -> Any:
    """A JSON call with the page's cookies, from the page's own origin."""
    answer = page.request.fetch(base + path, method=method, data=data, headers={"origin": base})
    assert answer.ok, answer.text()
    return answer.json()


def pass_turn(page: Page, base: str, match: str, seat: str) -> None:
    """``seat`` rolls until the turn passes (a one) or it may hold, then holds."""
    for _ in range(100):
        view = api(page, base, "GET", f"/api/matches/{match}?seat={seat}")
        if view["awaiting"] != [seat] or view["outcome"] is not None:
            return
        action = "hold" if "hold" in view["legal"] else "roll"
        api(page, base, "POST", f"/api/matches/{match}/actions", {"seat": seat, "action": action})
    raise AssertionError("the turn never passed")


def test_turns_open_seats_and_rematch_in_browsers(browser: Browser, page_server: str) -> None:
    base = page_server
    alice_context, alice = new_page(browser, base)
    bob_context, bob = new_page(browser, base)
    register(alice, "alice-turns")
    register(bob, "bob-turns")
    seats = {"1": "me", "2": "open"}
    match = api(alice, base, "POST", "/api/matches", {"game": "pig", "seats": seats})["id"]
    api(alice, base, "POST", "/api/matches", {"game": "gladiator-chess", "seats": {}})

    # open seats: bob filters the lobby by game and joins with a click
    bob.goto("/?game=pig")
    cards = bob.locator("#open-h ~ ul .card")
    expect(cards).to_have_count(1)
    expect(cards.first).to_contain_text(match)
    cards.first.get_by_role("button", name="Join").click()
    bob.wait_for_url(re.compile(rf"/matches/{match}\?seat=2"))
    bob.goto("/")
    expect(bob.locator("#your-turn-none")).to_be_visible()
    expect(bob).to_have_title("Lobby · Gladiatorium")
    second = bob_context.new_page()  # another page of bob's, where the count must change
    second.add_init_script(BACKGROUND)  # in the background, notifications allowed
    second.goto("/library")
    expect(second.locator("#turn-alerts")).to_be_hidden()  # allowed already: no button
    expect(second).to_have_title(re.compile(r"^My library"))

    alice.goto("/")
    expect(alice).to_have_title("(1) Lobby · Gladiatorium")
    # the button that asks for notifications: shown only while nothing was decided
    asked = alice.evaluate("Notification.permission") != "default"
    expect(alice.locator("#turn-alerts")).to_be_visible(visible=not asked)
    expect(alice.locator("#your-turn-list a")).to_have_attribute("href", f"/matches/{match}?seat=1")
    pass_turn(alice, base, match, "1")
    # no reload: the pushes of /ws/me
    expect(second).to_have_title(re.compile(r"^\(1\) My library"))
    told = second.evaluate("window.told")
    assert told == [["Your turn · Gladiatorium", f"Pig #{match}, seat 2"]]
    expect(bob.locator("#your-turn-list a")).to_have_attribute("href", f"/matches/{match}?seat=2")
    expect(alice).to_have_title("Lobby · Gladiatorium")
    expect(alice.locator("#your-turn-none")).to_be_visible()
    pass_turn(bob, base, match, "2")
    expect(second).to_have_title(re.compile(r"^My library"))

    # a rematch: the same people, seats rotated, nothing to accept
    short = {"game": "pig", "seats": seats, "options": {"target": 1}}
    done = api(alice, base, "POST", "/api/matches", short)["id"]
    api(bob, base, "POST", f"/api/matches/{done}/join", {"seat": "2"})
    for _ in range(100):
        view = api(alice, base, "GET", f"/api/matches/{done}")
        if view["outcome"] is not None:
            break
        seat = view["awaiting"][0]
        pass_turn(alice if seat == "1" else bob, base, done, seat)
    alice.goto(f"/matches/{done}")
    alice.get_by_role("button", name="Rematch").click()
    alice.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+$"))
    rematch = alice.url.rsplit("/", 1)[1]
    assert rematch != done
    # bob held seat 2: in the rematch he holds seat 1, and it is his turn
    expect(second).to_have_title(re.compile(r"^\(1\) My library"))
    bob.goto("/")
    expect(bob.locator("#your-turn-list a")).to_have_attribute("href", f"/matches/{rematch}?seat=1")
    alice.goto(f"/matches/{done}")
    expect(alice.locator("#rematch-link")).to_have_attribute("href", f"/matches/{rematch}")
    for page in (alice, bob):
        assert page.js_errors == [], page.js_errors  # type: ignore[attr-defined]
    alice_context.close()
    bob_context.close()

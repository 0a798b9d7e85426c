"""Talk in real browsers (Debian's chromium, see test_pages.py): three people and a
moderator play a Hero Battle, two of them make a private deal nobody else sees, the
thread shows the messages, the moves and the round post in order; a Gladiator Chess
side talks in its team channel. With ``make screenshots``, pictures of the thread panel go
to $GLADIATORIUM_SCREENSHOTS (default out/screenshots: gladiatorium-talk-*.png)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect
from test_pages import browser, new_page, page_server, register, shoot

__all__ = ["browser", "page_server"]

DEAL = "Deal: I never hit Night Heron if you spare me"


def api(page: Page, base: str, method: str, path: str, data: Any = None) -> Any:
    """A JSON call with the page's cookies, from the page's own origin."""
    answer = page.request.fetch(base + path, method=method, data=data, headers={"origin": base})
    assert answer.ok, answer.text()
    return answer.json()


def phone(browser: Browser, base: str) -> tuple[BrowserContext, Page]:
    """A page the size of a phone (390 x 844)."""
    context, page = new_page(browser, base)
    page.set_viewport_size({"width": 390, "height": 844})
    return context, page


def tab(page: Page, name: str) -> Any:
    return page.locator("#talk-tabs [role=tab]", has_text=name)


def write(page: Page, text: str) -> None:
    """Type a message and send it from the keyboard (Ctrl+Enter)."""
    box = page.locator("#talk-text")
    box.fill(text)
    box.press("Control+Enter")
    expect(box).to_have_value("")


def test_three_people_and_a_moderator_talk_in_browsers(browser: Browser, page_server: str) -> None:
    base = page_server
    dan_context, dan = new_page(browser, base)
    alice_context, alice = new_page(browser, base)
    bob_context, bob = phone(browser, base)
    carol_context, carol = new_page(browser, base)
    register(dan, "dan-moderator")
    register(alice, "alice-talks")
    register(bob, "bob-talks")
    bots = {str(n): "bot:random" for n in range(4, 9)}
    created = api(
        dan,
        base,
        "POST",
        "/api/matches",
        {
            "game": "hero-battle",
            "seats": {"1": "open", "2": "open", "3": "invite", "moderator": "me", **bots},
            "options": {"max_rounds": 2},
        },
    )
    match = created["id"]
    api(alice, base, "POST", f"/api/matches/{match}/join", {"seat": "1"})
    api(bob, base, "POST", f"/api/matches/{match}/join", {"seat": "2"})
    carol.goto(created["invites"]["3"])  # carol is a guest, through the invitation
    carol.wait_for_url(re.compile(r"/matches/.+seat=3"))
    for page in (dan, alice, bob):
        page.goto(f"/matches/{match}")
    for page in (dan, alice, bob, carol):
        expect(page.locator("#conn")).to_have_text("live")
        expect(tab(page, "Thread")).to_be_visible()

    # the thread: markup shows as text, Markdown as formatting
    write(alice, "**Hello** everyone <b>not bold</b>")
    for page in (dan, bob, carol):
        said = page.locator("#talk-list article.msg", has_text="everyone").last
        expect(said.locator("strong")).to_have_text("Hello")
        expect(said).to_contain_text("<b>not bold</b>")
    write(carol, "A guest says hello")
    expect(alice.locator("#talk-list")).to_contain_text("A guest says hello")

    # a private deal between seats 1 and 2, found from the keyboard
    tab(alice, "Private: bob-talks (2)").click()
    write(alice, DEAL)
    expect(tab(bob, "Private: alice-talks (1)")).to_contain_text("1 new")
    tab(bob, "Private: alice-talks (1)").focus()
    bob.keyboard.press("Enter")
    expect(bob.locator("#talk-list")).to_contain_text(DEAL)
    write(bob, "Deal.")
    expect(alice.locator("#talk-list")).to_contain_text("Deal.")
    carol.locator("#talk-tabs [role=tab]").first.focus()
    carol.keyboard.press("ArrowRight")
    expect(carol.locator("#talk-tabs [aria-selected=true]")).to_have_text(re.compile("Private"))
    shoot(bob.locator("#talk"), "gladiatorium-talk-private-phone")

    # the round: moves, then the moderator's close; the thread shows them in order
    for page, seat in ((alice, "1"), (bob, "2"), (carol, "3")):
        legal = api(page, base, "GET", f"/api/matches/{match}?seat={seat}")["legal"]
        move = next(a for a in legal if a.startswith("hit"))
        api(page, base, "POST", f"/api/matches/{match}/actions", {"seat": seat, "action": move})
    dan.get_by_role("button", name="Close the round now (close)").click()
    thread = alice.locator("#talk-list")
    tab(alice, "Thread").click()
    expect(thread.locator("article.post").first).to_contain_text("Round 1")
    order = [a.get_attribute("class") or "" for a in thread.locator("article").all()]
    first_post = order.index("post")
    assert "msg" in order[:first_post] and "move" in order[:first_post], order
    expect(thread.locator("article.move", has_text="alice-talks: hit")).to_have_count(1)
    shoot(alice.locator("#talk"), "gladiatorium-talk-thread")

    # nobody but alice and bob ever saw the deal: not the guest, the moderator, a stranger
    stranger_context, stranger = new_page(browser, base)
    stranger.goto(f"/matches/{match}")
    expect(tab(stranger, "Thread")).to_be_visible()
    for page in (carol, dan, stranger):
        tabs = page.locator("#talk-tabs [role=tab]")
        for index in range(tabs.count()):
            tabs.nth(index).click()
            assert DEAL not in page.content()
    stranger_context.close()

    for page in (dan, alice, bob, carol):
        assert not getattr(page, "js_errors", []), page.js_errors  # type: ignore[attr-defined]
    for context in (dan_context, alice_context, bob_context, carol_context):
        context.close()


def test_a_gladiator_chess_side_talks_in_its_team_channel(
    browser: Browser, page_server: str
) -> None:
    base = page_server
    king_context, king = new_page(browser, base)
    queen_context, queen = new_page(browser, base)
    black_context, black = new_page(browser, base)
    register(king, "white-king-talks")
    register(queen, "white-queen-talks")
    register(black, "black-king-talks")
    seats = {"white-king": "me", "white-queen": "open", "black-king": "open"}
    others = ("white-black-knight", "white-kings-knight", "black-queen")
    others += ("black-black-knight", "black-kings-knight")
    seats |= {s: "bot:random" for s in others}
    match = api(king, base, "POST", "/api/matches", {"game": "gladiator-chess", "seats": seats})[
        "id"
    ]
    api(queen, base, "POST", f"/api/matches/{match}/join", {"seat": "white-queen"})
    api(black, base, "POST", f"/api/matches/{match}/join", {"seat": "black-king"})
    for page in (king, queen, black):
        page.goto(f"/matches/{match}")
        expect(page.locator("#conn")).to_have_text("live")
    expect(tab(black, "Team")).to_be_visible()
    tab(king, "Team").click()
    write(king, "Queen: take the left flank")
    tab(queen, "Team").click()
    expect(queen.locator("#talk-list")).to_contain_text("take the left flank")
    tab(black, "Team").click()
    expect(black.locator("#talk-list")).to_contain_text("No messages yet.")
    assert "left flank" not in black.content()
    shoot(queen.locator("#talk"), "gladiatorium-talk-team")
    for context in (king_context, queen_context, black_context):
        context.close()

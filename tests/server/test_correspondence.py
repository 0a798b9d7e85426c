"""A correspondence match as two people play it: a Superhero Gladiators match in two
browsers, each page closed between moves; each person is mailed "your turn" when the
other has moved (once per turn, not per action), reminded of the one-hour move clock,
and told the result; both are then rated, on the leaderboard and on their profiles
(a real server process, a real SMTP server, Chromium; SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable

import httpx2
from mail_helpers import SmtpServer, choose, confirm
from playwright.sync_api import Browser, Page, expect
from server_helpers import PASSWORD, LiveServer, wait_for
from talk_helpers import Person
from test_game_pages import sg_turn, wait_turn
from test_mail import EVERYTHING, mail_env
from test_pages import browser, new_page, over

__all__ = ["browser"]

Start = Callable[..., LiveServer]
#: decisions at most before the match is called stuck
MOST_STEPS = 400


def log_in(page: Page, name: str) -> None:
    page.goto("/login")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".top .who")).to_contain_text(name)


def play_my_turn(page: Page, match: str, seat: str, seen: dict[str, int]) -> None:
    """Open the match, play every decision of this seat's turn, close the page."""
    page.goto(f"/matches/{match}?seat={seat}")
    wait_turn(page)
    while not over(page) and page.locator("#webpic[data-legal]").count():
        sg_turn(page, seen)
        page.wait_for_timeout(50)
    page.goto("about:blank")  # nobody keeps the page open between moves


def test_two_people_play_by_mail_and_are_rated(
    live_server: Start, database_url: str, smtp_server: SmtpServer, browser: Browser
) -> None:
    sink = smtp_server.sink
    server = live_server(database_url, **mail_env(smtp_server))
    people = {"1": Person(server, "ada"), "2": Person(server, "bob")}
    address = {"1": "ada@example.org", "2": "bob@example.org"}
    for seat, someone in people.items():
        choose(someone, address=address[seat], **EVERYTHING)
        confirm(someone, sink, address[seat])
    match = people["1"].create(
        "superhero-gladiators",
        {"1": "me", "2": "open"},
        options={"turn_limit": 2},
        settings={"clock_days": 1 / 24},  # a one-hour move clock
    )
    people["2"].join(match, "2")
    pages: dict[str, Page] = {}
    contexts = []
    for seat, someone in people.items():
        context, page = new_page(browser, server.url)
        log_in(page, str(someone.name))
        pages[seat] = page
        contexts.append(context)
    seen = {"defence": 0, "attack": 0, "aim": 0, "move": 0, "other": 0}
    turns = {"1": 0, "2": 0}
    last = None
    for _ in range(MOST_STEPS):
        awaiting = people["1"].body(match)["awaiting"]
        if not awaiting:
            break
        seat = awaiting[0]
        if seat != last:  # the turn passed: one mail tells its player
            turns[seat] += 1
            wait_for(lambda s=seat: len(sink.to(address[s], "Your turn")) >= turns[s] or None)
            last = seat
        play_my_turn(pages[seat], match, seat, seen)
    else:
        raise AssertionError("the match did not end")
    for seat in people:
        # once per turn, never per action (a turn is many decisions)
        assert len(sink.to(address[seat], "Your turn")) == turns[seat], (seat, turns)
        assert sink.to(address[seat], "Deadline soon"), seat  # the one-hour clock
        sink.wait(address[seat], "Match over")
    assert sum(seen.values()) > turns["1"] + turns["2"]  # more actions than turns
    # both rated: the leaderboard, and each on the other's profile page
    board = httpx2.get(server.url + "/api/leaderboard/superhero-gladiators").json()["players"]
    assert sorted(p["name"] for p in board) == ["ada", "bob"]
    assert all(p["games"] == 1 and p["rating"] != 0 for p in board)
    for seat, other in (("1", "bob"), ("2", "ada")):
        profile = pages[seat]
        profile.goto(f"/users/{other}")
        expect(profile.locator("#recent")).to_contain_text("Superhero Gladiators")
        expect(profile.locator(f'#recent a[href="/matches/{match}/replay"]')).to_have_count(1)
        expect(profile.locator("#profile-ratings")).to_contain_text("?")  # provisional
    pages["1"].goto(f"/matches/{match}")
    expect(pages["1"].locator("#rating-changes")).to_contain_text("bob")
    for context in contexts:
        context.close()

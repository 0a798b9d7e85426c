"""Real-browser smoke test: Debian's Chromium driven by Playwright against a real
``gladiatorium serve`` process. People register, create matches, take an invitation
and play by clicking until the end; the pages update live over the WebSocket.

Playwright's own browser download cannot work here, so the test drives the system's
``chromium``; when it is missing the test fails (it never skips).
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from server_helpers import LiveServer, server_env

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: where the browser tests save their screenshots of every page (out/ is not tracked)
SHOTS = Path(
    os.environ.get(
        "GLADIATORIUM_SCREENSHOTS", Path(__file__).resolve().parents[2] / "out" / "screenshots"
    )
)
#: whether they save them (``make screenshots``); a plain test run takes none
SAVING = os.environ.get("GLADIATORIUM_SAVE_SCREENSHOTS", "") == "1"


def shoot(target: Page | Locator, name: str) -> None:
    """A PNG of the whole page, or of one element, as ``SHOTS/name.png`` when screenshots
    are asked for (``SAVING``)."""
    if not SAVING:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = str(SHOTS / f"{name}.png")
    if isinstance(target, Page):
        target.screenshot(path=path, full_page=True, timeout=120_000)
    else:
        target.screenshot(path=path, timeout=120_000)


STEP_MS = 15_000


@pytest.fixture(scope="module")
def page_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server process on a fresh SQLite file, bots moving without delay; the
    samples' gauntlets wait, as in the other server tests (no runner playing them beside
    the browser)."""
    folder = tmp_path_factory.mktemp("pages")
    server = LiveServer(f"sqlite:///{folder / 'pages.db'}", folder, server_env()).start()
    yield server.url
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    path = shutil.which("chromium")
    if path is None:
        pytest.fail(
            "Debian's chromium is not installed, so the browser tests cannot run: "
            "install it with scripts/system-packages (apt-get install chromium). "
            "These tests never skip."
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def new_page(browser: Browser, base: str) -> tuple[BrowserContext, Page]:
    context = browser.new_context(base_url=base, viewport={"width": 1200, "height": 900})
    context.set_default_timeout(STEP_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on(
        "console",
        lambda msg: errors.append(f"{msg.text} {msg.location}") if msg.type == "error" else None,
    )
    page.js_errors = errors  # type: ignore[attr-defined]
    return context, page


def register(page: Page, username: str, password: str = "correct horse") -> None:
    page.goto("/register")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Create account").click()
    expect(page.locator(".top .who")).to_contain_text(username)


def stamp(page: Page) -> str:
    return page.locator("#live").get_attribute("data-stamp") or ""


def wait_changed(page: Page, old: str) -> None:
    """Until the live part changed and shows every action this page sent (a bot's move
    may change it first: see static/match.js, data-sending)."""
    try:
        page.wait_for_function(
            "old => { const live = document.getElementById('live');"
            " const match = document.getElementById('match');"
            " return live && live.dataset.stamp !== old"
            " && !(match && match.dataset.sending === 'yes'); }",
            arg=old,
            timeout=STEP_MS,
        )
    except PlaywrightTimeout as err:  # say what the page was waiting on
        raise AssertionError(f"the page did not change from {old}: {page_state(page)}") from err


def page_state(page: Page) -> str:
    return str(
        page.evaluate(
            "() => { const live = document.getElementById('live');"
            " const match = document.getElementById('match');"
            " const conn = document.getElementById('conn');"
            " return {stamp: live && live.dataset.stamp, over: live && live.dataset.over,"
            " match: match && {...match.dataset}, conn: conn && conn.textContent,"
            " buttons: live ? [...live.querySelectorAll('button.act')].map("
            "b => b.textContent.trim() + (b.disabled ? ' (disabled)' : '')) : null}; }"
        )
    )


def over(page: Page) -> bool:
    return page.locator("#live").get_attribute("data-over") == "yes"


def test_pig_against_a_bot_to_the_end(browser: Browser, page_server: str) -> None:
    context, page = new_page(browser, page_server)
    register(page, "pigfan")
    page.goto("/")
    shoot(page, "gladiatorium-lobby")
    page.get_by_role("link", name="New Pig match").click()
    page.locator('[name="seat.2"]').select_option("bot:random")
    page.locator("summary", has_text="Options of the game").click()
    page.locator('[name="opt.target"]').fill("8")
    page.get_by_role("button", name="Create the match").click()
    page.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+$"))
    expect(page.locator("#conn")).to_have_text("live")
    clicks = 0
    while True:
        before = stamp(page)  # read before over(): a change after it shows as a new stamp
        if over(page):
            break
        actions = page.locator("#live button.act:not([disabled])")
        if actions.count() == 0:
            wait_changed(page, before)
            continue
        hold = page.locator("#live button.act", has_text="hold")
        (hold if hold.count() else page.locator("#live button.act", has_text="roll")).click()
        clicks += 1
        assert clicks < 200, "the Pig match did not end"
        wait_changed(page, before)
    expect(page.locator("#result")).to_contain_text(re.compile(r"Won by|Draw"))
    expect(page.get_by_role("link", name="Download the record")).to_be_visible()
    shoot(page, "gladiatorium-match-pig")
    assert clicks >= 1
    page.goto("/")
    expect(page.locator(".card", has_text="Pig").first).to_contain_text("Over")
    assert not page.js_errors  # type: ignore[attr-defined]
    context.close()


def play_king(page: Page) -> None:
    """The awaited king lets a bot commander move (or moves himself)."""
    box = page.locator("#notation")
    options = page.locator("#legal-list option")
    values = [options.nth(i).get_attribute("value") or "" for i in range(options.count())]
    choice = next((v for v in values if v.startswith("let ")), values[0])
    box.fill(choice)
    page.get_by_role("button", name="Play").click()


def test_gladiator_chess_two_browsers_invite_and_bots(browser: Browser, page_server: str) -> None:
    white_context, white = new_page(browser, page_server)
    black_context, black = new_page(browser, page_server)
    register(white, "whiteking")
    white.goto("/matches/new?game=gladiator-chess")
    seats = white.locator('select[name^="seat."]')
    for index in range(seats.count()):
        select = seats.nth(index)
        name = select.get_attribute("name")
        value = {"seat.white-king": "me", "seat.black-king": "invite"}.get(name or "", "bot:random")
        select.select_option(value)
    white.locator("summary", has_text="Options of the game").click()
    white.locator('[name="opt.turn_limit"]').fill("1")
    white.get_by_role("button", name="Create the match").click()
    link = white.get_by_label("Invitation link for seat black-king").input_value()
    assert "/invite/" in link
    white.get_by_role("link", name="Go to the match").click()
    expect(white.locator("#conn")).to_have_text("live")

    black.goto(link)  # a guest: the invitation becomes a cookie for that seat
    black.wait_for_url(re.compile(r"/matches/.+seat=black-king"))
    expect(black.locator("#conn")).to_have_text("live")
    expect(black.locator("nav.seats")).to_contain_text("seat black-king")

    moves = {"white": 0, "black": 0}
    started = time.monotonic()
    while not (over(white) and over(black)):
        assert time.monotonic() - started < 60, "the Gladiator Chess match did not end"
        for side, page in (("white", white), ("black", black)):
            if over(page):
                continue
            if page.locator("#notation:not([disabled])").count():
                before = stamp(page)
                play_king(page)
                moves[side] += 1
                wait_changed(page, before)
        time.sleep(0.05)
    assert moves["white"] >= 2 and moves["black"] >= 2, moves
    for page in (white, black):
        expect(page.locator("#result")).to_contain_text("turn limit")
    shoot(white, "gladiatorium-match-chess")
    assert not white.js_errors and not black.js_errors  # type: ignore[attr-defined]
    white_context.close()
    black_context.close()


def test_form_post_without_csrf_token_is_refused(browser: Browser, page_server: str) -> None:
    context, page = new_page(browser, page_server)
    page.goto("/login")
    page.evaluate("document.querySelector('input[name=csrf]').remove()")
    page.get_by_label("Username").fill("nobody")
    page.get_by_label("Password").fill("whatever123")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("h1")).to_have_text("Refused")
    expect(page.locator(".error")).to_contain_text("security token")
    reply = page.request.post(
        "/register", form={"username": "mallory", "password": "password1", "csrf": "forged-x"}
    )
    assert reply.status == 403
    context.close()


def test_moderator_console_in_the_browser(browser: Browser, page_server: str) -> None:
    """A Hero Battle moderator sets the round deadline, closes the round from the
    console and gets the round post to copy (the players' seats left open)."""
    context, page = new_page(browser, page_server)
    register(page, "moderator1")
    page.goto("/matches/new?game=hero-battle")
    for seat in range(1, 9):
        page.locator(f'[name="seat.{seat}"]').select_option("open")
    page.locator('[name="seat.moderator"]').select_option("me")
    page.get_by_role("button", name="Create the match").click()
    page.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+$"))
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator("#to-move")).to_contain_text("seat 1, seat 2, seat 3, seat 4, seat 5")
    page.get_by_label("Round deadline in").fill("45")
    page.get_by_role("button", name="Set the deadline").click()
    expect(page.locator(".console")).to_contain_text("round at")
    expect(page.locator("#conn")).to_have_text("live")
    before = stamp(page)
    page.get_by_role("button", name="Close the round now (close)").click()
    wait_changed(page, before)
    expect(page.locator(".posts textarea").first).to_contain_text("Round 1")
    expect(page.get_by_role("button", name="Copy BBCode")).to_be_visible()
    shoot(page, "gladiatorium-match-moderator")
    assert not page.js_errors  # type: ignore[attr-defined]
    context.close()

"""A newcomer plays each game from the home page to the end, in a real browser (Debian's
chromium, see test_pages.py): no address typed but the home page's. They sign up through
the page, read the game's rules from the home page's link (a heading and the rulings
table), create a match through the form (a non-default option set by its own control,
the seats picked by their visible words, the bots' pace), read the match page's legend
(a code's full name shown on focus), then play by clicking the page's own controls until
the result names who won and the final summary shows.

Controls are found by their visible labels (``get_by_label``, ``get_by_role``), never by
their internal names, so the test reads the page as a person does."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from test_game_pages import MAX_STEPS, eg_turn, gc_turn, sdh_turn, sg_turn, wait_turn
from test_pages import browser, new_page, over, page_server, shoot, stamp, wait_changed

__all__ = ["browser", "page_server"]

Turn = Callable[[Page, dict[str, int]], None]


def hb_turn(page: Page, seen: dict[str, int]) -> None:
    """One Hero Battle decision: a hit, a second hit and a heal, each by clicking a hero
    (the first offered each time); once moved, wait for the round to close."""
    before = stamp(page)  # read before over(): a change after it shows as a new stamp
    if over(page):
        return
    mine = page.locator("#my-move")  # gone once my hero is out
    if mine.count() and mine.inner_text() != "none yet":
        wait_changed(page, before)
        return
    hits = page.locator("#webpic button.hit")
    if hits.count() == 0:  # my hero is out: the page's first offer (abstain), or wait
        prompt = page.locator("#webpic .pic-prompt button")
        if prompt.count():
            prompt.first.click()
        seen["out"] += 1
        wait_changed(page, before)
        return
    answered = int(page.locator("#match").get_attribute("data-acked") or 0)
    hits.first.click()
    if page.locator("#picking").is_visible():
        page.locator("#webpic button.hit.lit").nth(1).click()
    if page.locator("#picking").is_visible():
        page.locator("#webpic button.heal.lit").first.click()
    if page.locator("#picking:not([hidden]) .pick-choice").count():
        page.locator("#picking .pick-choice").first.click()
    seen["move"] += 1
    page.wait_for_function(
        "n => +(document.getElementById('match').dataset.acked || 0) > n", arg=answered
    )


@dataclass(frozen=True)
class Newcomer:
    """One game as a newcomer meets it: the seats they pick (seat -> the visible words
    of the choice), the options they change (each its label and its new value: a number,
    a choice's words, or "on" for a checkbox), what the match's record then says of
    them (Superhero Gladiators keeps its record from its players: hidden powers; its
    result says the turn it ended on instead), and how they play a turn."""

    slug: str
    name: str
    seats: dict[str, str]
    options: tuple[tuple[str, str], ...]
    recorded: dict[str, object]
    turn: Turn
    legend: bool = True
    ends: str = ""


ME, BOT = r"^me$", r"^a bot: random( |$)"
CHESS_SEATS = {
    f"{team}-{cmd}": ME if (team, cmd) == ("white", "king") else BOT
    for team in ("white", "black")
    for cmd in ("king", "queen", "black-knight", "kings-knight")
}
GAMES = [
    Newcomer(
        "superhero-gladiators",
        "Superhero Gladiators",
        {"1": r"^a bot: greedy\b", "2": ME},
        ((r"turn[ _]limit", "3"),),
        {},
        sg_turn,
        ends=r"\(turn [1-3]\)",  # by the turn limit of 3 at the latest
    ),
    Newcomer(
        "gladiator-chess",
        "Gladiator Chess",
        CHESS_SEATS,
        ((r"turn[ _]limit", "2"),),
        {"turn_limit": 2},
        gc_turn,
    ),
    Newcomer(
        "electron-gladiators",
        "Electron Gladiators",
        {"1": ME, "2": BOT},
        ((r"max[ _]turns", "3"), (r"self[ _]spotting", "on")),
        {"max_turns": 3, "self_spotting": True},
        eg_turn,
    ),
    Newcomer(
        "super-dice-heroes",
        "Super Dice Heroes",
        {"1": ME, "2": BOT},
        ((r"^rounds( |$)", "2"), (r"^ties( |$)", "^bystanders$")),
        {"rounds": 2, "ties": "bystanders"},
        sdh_turn,
    ),
    Newcomer(
        "hero-battle",
        "Hero Battle",
        {"1": ME, "moderator": ME, **{str(n): BOT for n in range(2, 9)}},
        ((r"max[ _]rounds", "3"),),
        {"max_rounds": 3},
        hb_turn,
        legend=False,  # Hero Battle's page shows no codes: its heroes and players by name
    ),
]


def choose(select: Locator, words: str) -> None:
    """Pick the choice of ``select`` whose visible words match ``words``."""
    option = select.locator("option").filter(has_text=re.compile(words))
    expect(option).not_to_have_count(0)
    select.select_option(label=option.first.inner_text().strip())


def set_option(field: Locator, value: str) -> None:
    """Change an option through its own control, away from its default."""
    if field.evaluate("el => el.tagName") == "SELECT":
        shown = field.locator("option:checked").inner_text()
        assert not re.search(value, shown), f"{value} is already the default"
        choose(field, value)
    elif field.get_attribute("type") == "checkbox":
        assert not field.is_checked(), "the box is already checked by default"
        field.check()
    else:
        assert field.input_value() != value, f"{value} is already the default"
        field.fill(value)


def sign_up(page: Page, username: str) -> None:
    page.goto("/")
    page.get_by_role("link", name="Register").first.click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("correct horse")
    page.get_by_role("button", name="Create account").click()
    expect(page.locator(".top .who")).to_contain_text(username)


def read_rules(page: Page, game: Newcomer) -> None:
    """From the home page's link: the game's rules, a heading and the rulings table."""
    page.get_by_role("link", name=f"{game.name} rules", exact=True).click()
    page.wait_for_url(re.compile(rf"/rules/{game.slug}$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text(game.name)
    rulings = page.locator("article.rules").get_by_role("heading", name="Rulings", exact=True)
    expect(rulings).to_be_visible()
    # the table after the heading (wrapped in a box that scrolls on a narrow screen)
    table = page.locator("article.rules h2#rulings ~ .wide table").first
    expect(table).to_be_visible()
    assert table.locator("tbody tr").count() >= 1
    page.get_by_role("link", name="Back to the lobby").click()
    page.wait_for_url(re.compile(r"/$"))


def create_match(page: Page, game: Newcomer) -> None:
    """Through the form: the seats, the option, the bots' pace, then Create."""
    page.get_by_role("link", name=f"New {game.name} match", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"New {game.name} match")
    for seat, words in game.seats.items():
        label = re.compile(rf"^Seat {re.escape(seat)}(\s|$)")
        choose(page.get_by_role("combobox", name=label), words)
    page.get_by_label("Casual").check()
    page.get_by_label(re.compile("Seconds each bot pauses")).fill("0")
    page.get_by_text(re.compile("^Options of the game")).click()
    for label, value in game.options:
        set_option(page.get_by_label(re.compile(label, re.I)), value)
    page.get_by_role("button", name="Create the match").click()
    page.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+(\?seat=[^&]+)?$"))
    expect(page.locator("#conn")).to_have_text("live")


def read_legend(page: Page) -> None:
    """Open the legend; focus its first code: its full name shows beside it."""
    page.get_by_text("Legend: what every code means").click()
    first = page.locator("#legend dt").first
    expect(first).to_be_visible()
    code = first.locator("abbr").inner_text()
    name = first.inner_text().removeprefix(code).strip()
    assert name and name != code
    first.locator("abbr").focus()
    tip = page.locator("#code-tip")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text(name)
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()


def play_to_the_end(page: Page, game: Newcomer) -> dict[str, int]:
    seen: dict[str, int] = defaultdict(int)
    steps = 0
    while True:
        steps += 1
        assert steps <= MAX_STEPS, f"the {game.name} match did not end: {dict(seen)}"
        wait_turn(page)
        if over(page):
            return seen
        game.turn(page, seen)


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_a_newcomer_plays_from_the_home_page_to_the_end(
    browser: Browser, page_server: str, game: Newcomer
) -> None:
    context, page = new_page(browser, page_server)
    short = "".join(word[0] for word in game.slug.split("-"))
    username = f"new-{short}"
    sign_up(page, username)
    read_rules(page, game)
    create_match(page, game)
    expect(page.get_by_role("link", name=f"The rules of {game.name}")).to_be_visible()
    if game.legend:
        read_legend(page)
    else:
        assert page.locator("#legend").count() == 0
    seen = play_to_the_end(page, game)
    assert sum(seen.values()) >= 1, dict(seen)
    # the end: the result says who by name, the final summary lists every side
    result = page.locator("#result")
    named = rf"Won by .*({re.escape(username)}|bot \S+ \(seat [^)]+\))"
    expect(result).to_have_text(re.compile(rf"^({named}|Draw|Everyone lost)"))
    places = page.locator("#final-places")
    expect(places).to_be_visible()
    expect(places.locator("tbody")).to_contain_text(username)
    expect(page.get_by_text("The final position is shown below.")).to_be_visible()
    expect(page.locator("#webpic")).to_be_visible()
    if game.ends:
        expect(result).to_contain_text(re.compile(game.ends))
    if game.recorded:  # the record the page offers holds the options set on the form
        record = page.get_by_role("link", name="Download the record").get_attribute("href")
        options = page.request.get(record or "").json()["options"]
        assert {key: options[key] for key in game.recorded} == game.recorded
    shoot(page, f"gladiatorium-newcomer-{short}-end")
    assert not page.js_errors  # type: ignore[attr-defined]
    context.close()

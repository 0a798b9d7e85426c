"""Every code a game's pages show is explained: its full name and one line on hover,
focus and tap, and a legend on the match page (and the designer's) whose entries link
to the rules section that governs them. The words come from the games, through
``WebPresenter.codes``."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, expect
from server_helpers import create, register
from test_game_pages import create as create_page
from test_pages import browser, new_page, page_server
from test_pages import register as register_page

from gladiatorium.core import Code, get_game
from gladiatorium.games import load
from gladiatorium.server.pages.rules import rules_anchors

load()

__all__ = ["browser", "page_server"]

#: each game's codes, as the issue names them
NAMED = {
    "gladiator-chess": {"W", "S", "F", "SQ", "MK", "C", "KK", "BK", "K", "Q"},
    "electron-gladiators": {"INV", "MT1", "MT2", "HT1", "HT2", "LT", "SC", "MQ"},
    "super-dice-heroes": {"shrink", "teleport", "ice", "fire", "shapeshift", "grow"},
}


@pytest.mark.parametrize("slug", [*sorted(NAMED), "superhero-gladiators"])
def test_every_code_has_a_name_a_line_and_a_rule_on_the_rules_page(slug: str) -> None:
    codes = get_game(slug).web.codes()
    assert len({c.code for c in codes}) == len(codes)
    if slug in NAMED:
        assert {c.code for c in codes} == NAMED[slug]
    for code in codes:
        assert code.name and len(code.line) > 10, code
        assert code.rule in rules_anchors(slug), code


def test_the_lines_come_from_the_games_tables() -> None:
    chess = {c.code: c for c in get_game("gladiator-chess").web.codes()}
    assert chess["SQ"].tip.startswith("Squire: the King's Knight's: a chess pawn")
    vehicles = {c.code: c for c in get_game("electron-gladiators").web.codes()}
    assert vehicles["MT1"].line.startswith(
        "tank; speed 4, armour 3-2-1 (front-sides-rear), gun 3, direct range 7, "
        "parabolic band 2-5, telemetry 7"
    )
    powers = {c.code: c for c in get_game("super-dice-heroes").web.codes()}
    assert powers["ice"] == Code(
        "ice", "Ice", "a die of this round goes down one (not a 1)", "the-rules-in-our-words"
    )
    design = {c.code: c for c in get_game("superhero-gladiators").web.codes()}
    assert design["superarea"].line.endswith("cost x3 on a distance power, x2.6 on a close power")
    assert design["unreliable"].line == (
        "the power works on a d20 roll of 15 or less; cost x0.8 on a distance power, "
        "x0.8 on a close power, x0.8 on a defense power, x0.8 on a movement power"
    )
    assert design["hidden"].line.endswith("cost x1.4")
    assert get_game("pig").web.codes() == ()


def legend_of(html: str) -> dict[str, tuple[str, str]]:
    """The legend's entries: code -> (its line, its rules link)."""
    found = re.findall(
        r'<abbr title="[^"]*" tabindex="0">([^<]+)</abbr> [^<]*</dt>\s*'
        r'<dd>([^<]*) <a href="([^"]+)"',
        html,
    )
    return {code: (line, link) for code, line, link in found}


@pytest.mark.parametrize(
    ("slug", "seats", "code", "line"),
    [
        (
            "electron-gladiators",
            {"1": "me", "2": "bot:random"},
            "INV",
            "flyer (no facing); speed 4, armour 3-3-3",
        ),
        ("super-dice-heroes", {"1": "me", "2": "bot:random"}, "grow", "a die of this round"),
    ],
)
def test_the_match_page_has_a_legend_linking_each_code_to_its_rule(
    sqlite_client: TestClient, slug: str, seats: dict[str, str], code: str, line: str
) -> None:
    register(sqlite_client, "ada")
    match = create(sqlite_client, slug, seats)
    html = sqlite_client.get(f"/matches/{match['id']}").text
    assert '<details class="legend-codes" id="legend">' in html
    legend = legend_of(html)
    assert set(legend) == {c.code for c in get_game(slug).web.codes()}
    assert legend[code][0].startswith(line)
    assert legend[code][1] == f"/rules/{slug}#the-rules-in-our-words"
    assert '<script src="/static/codes.js" defer></script>' in html


def test_the_designer_explains_each_style_flaw_and_gizmo_with_its_cost(
    sqlite_client: TestClient,
) -> None:
    register(sqlite_client, "ada")
    html = sqlite_client.get("/heroes/new?game=superhero-gladiators").text
    legend = legend_of(html)
    assert legend["entangling"] == (
        "holds the target instead of hurting it; cost x1.4 on a distance power, "
        "x1 on a close power",
        "/rules/superhero-gladiators#the-rules-in-our-words",
    )
    assert set(legend) == {c.code for c in get_game("superhero-gladiators").web.codes()}
    # each checkbox and gizmo choice carries its line as a tip
    assert (
        '<label class="check" title="wild (flaw): the power works on a d20 roll of 10 or less;'
        in html
    )
    assert 'title="invulnerable (gizmo): the power comes from a gizmo that cannot be' in html


# ----- in a real browser: hover words, focus and tap --------------------------------------
def test_a_tap_or_the_keyboard_shows_a_codes_words_and_the_legend_links_its_rule(
    browser: Browser, page_server: str
) -> None:
    context, page = new_page(browser, page_server)
    register_page(page, "coder")
    seats = {
        f"{team}-{cmd}": "me" if (team, cmd) == ("white", "king") else "bot:random"
        for team in ("white", "black")
        for cmd in ("king", "queen", "black-knight", "kings-knight")
    }
    match = create_page(page, "gladiator-chess", seats, {})
    square = page.locator('#webpic [data-sq="a1"]')
    title = square.locator("title").text_content() or ""
    assert "(W: the Queen's: moves as a chess rook" in title
    square.focus()
    tip = page.locator("#code-tip")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("a1 white Warrior, 6/6 hit points (W: the Queen's")
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()
    legend = page.locator("#legend")
    legend.locator("summary").click()
    expect(legend.locator("#code-sq")).to_contain_text("SQ Squire")
    legend.locator("#code-sq a").click()
    page.wait_for_url(re.compile(r"/rules/gladiator-chess#the-rules-in-our-words$"))
    expect(page.locator("#the-rules-in-our-words")).to_be_visible()
    assert not page.js_errors  # type: ignore[attr-defined]
    context.close()
    # a phone: a tap on a code shows its words (no hover there)
    phone = browser.new_context(
        base_url=page_server, viewport={"width": 390, "height": 844}, has_touch=True
    )
    tapped = phone.new_page()
    tapped.goto(f"/matches/{match}")
    tapped.locator("#legend summary").tap()
    tapped.locator("#code-kk abbr").tap()
    expect(tapped.locator("#code-tip")).to_have_text(
        "King's Knight: commands the King's Knight's slot: leaps as a chess knight; while "
        "he lives (and the Queen is free) his King is protected"
    )
    tapped.locator('#webpic [data-sq="f10"]').tap()
    expect(tapped.locator("#code-tip")).to_contain_text("f10 black King")
    phone.close()

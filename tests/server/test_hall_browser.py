"""Two people publish heroes to the hall in a real browser (Debian's chromium, see
test_pages.py), against a real ``gladiatorium serve`` with its gauntlet runner on and tiny
gauntlets (one greedy game a pairing, one arena): each opens the other's hero page while
its gauntlet waits or runs, and sees it finish there without reloading (the panel fetches
itself again: templates/gauntlet_panel.html): the results, the badge, the command that
plays the same games, a place on the hero ladder. Then one of them uses the other's hero
in a match from its page.

So that both pages are opened before their gauntlets finish (a gauntlet this small takes
about a second), the test pauses the server's runner (SIGSTOP) once it has played the
samples' gauntlets and sits idle, and lets it go on (SIGCONT) once both pages are open.
"""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, expect
from server_helpers import LiveServer, wait_for
from test_gauntlet_restarts import children
from test_pages import browser, new_page, register

__all__ = ["browser"]

HERO_GAME = "superhero-gladiators"
#: a gauntlet of these sizes is 16 games (8 samples, both sides of one arena)
GAUNTLETS = {
    "GLADIATORIUM_GAUNTLETS": "1",
    "GLADIATORIUM_GAUNTLET_GAMES": "greedy=1",
    "GLADIATORIUM_GAUNTLET_MAPS": "small",
    "GLADIATORIUM_GAUNTLET_CHUNK": "4",
    "GLADIATORIUM_GAUNTLET_POLL": "0.2",
    "GLADIATORIUM_GAUNTLET_HEARTBEAT": "1",
}
#: the samples whose gauntlets are queued when the server starts
SAMPLE_COUNT = 8
#: one hero's gauntlet, with room
FINISH_MS = 120_000
SAMPLES = Path(__file__).resolve().parents[2] / (
    "src/gladiatorium/games/superhero_gladiators/data/heroes"
)
#: Bob's hero: the sample Barbarian renamed, uploaded to his library
COPPER_STAG = (SAMPLES / "barbarian.yaml").read_text().replace("Barbarian", "Copper Stag", 1)


def design_and_publish(page: Page) -> str:
    """Ann: the designer, from the sample Perseus, renamed, published; the hero's page."""
    page.goto(f"/heroes/new?game={HERO_GAME}")
    page.get_by_role("link", name="perseus", exact=True).click()
    name = page.get_by_label("Hero name", exact=True)
    expect(name).to_have_value("Perseus")
    name.fill("Tin Heron")
    page.get_by_role("button", name="Publish to the hall").click()
    page.wait_for_url(re.compile(r"/hall/tin-heron-ann$"))
    return page.url


def upload_and_publish(page: Page) -> str:
    """Bob: the library's upload (the file's text pasted), then its Publish button."""
    page.goto("/library")
    page.get_by_label("Game").select_option(HERO_GAME)
    page.get_by_text("…or paste the text").click()
    page.locator('textarea[name="text"]').fill(COPPER_STAG)
    page.get_by_role("button", name="Upload").click()
    expect(page.get_by_role("status")).to_contain_text("Added Copper Stag")
    page.get_by_role("button", name="Publish Copper Stag to the hall").click()
    page.wait_for_url(re.compile(r"/hall/copper-stag-bob$"))
    return page.url


def open_while_it_waits(page: Page, url: str, hero: str) -> None:
    """Open a hero's page while its gauntlet waits (the runner paused): the panel says
    so and polls."""
    page.goto(url)
    panel = page.locator("#gauntlet")
    first = panel.get_attribute("data-state")
    assert first in ("queued", "running"), f"{hero}'s gauntlet was {first} at once"
    expect(panel).to_contain_text(f"The gauntlet of {hero} is")
    assert panel.get_attribute("hx-trigger") == "every 3s"
    page.evaluate("window.loadedOnce = 'yes'")


def see_it_finish(page: Page, hero: str) -> None:
    """The panel alone changes until the gauntlet is done: the results, the badge, the
    command, the ladder place (the page is never loaded again)."""
    panel = page.locator("#gauntlet")
    expect(panel).to_have_attribute("data-state", "done", timeout=FINISH_MS)
    assert page.evaluate("window.loadedOnce") == "yes", "the page was loaded again"
    rows = panel.locator("table.gauntlet-results tbody tr")
    expect(rows).to_have_count(8)
    expect(rows.first.locator("th")).to_have_text("Barbarian")
    expect(panel.locator(".gauntlet-badge")).to_contain_text(re.compile(r"priced|fair", re.I))
    expect(panel).to_contain_text(re.compile(r"won \d+\.\d% of 16 games"))
    command = panel.locator("pre.gauntlet-command")
    expect(command).to_contain_text("gladiatorium lab gauntlet")
    expect(command).to_contain_text("--games greedy=1 --maps small")
    expect(panel).to_contain_text(re.compile(r"place \d+ on the hero ladder"))
    found = re.search(r"place (\d+) on the hero ladder", panel.inner_text())
    assert found is not None
    assert panel.get_attribute("hx-trigger") is None, "a gauntlet done still polls"
    panel.get_by_role("link", name="the hero ladder").click()
    page.wait_for_url(re.compile(r"/ladder/heroes$"))
    row = page.locator("main table tbody tr").nth(int(found.group(1)) - 1)
    expect(row.locator("td").nth(1)).to_have_text(hero)
    assert page.js_errors == []  # type: ignore[attr-defined]


def use_in_a_match(page: Page, url: str, hero: str) -> None:
    """From the hero's page: Use in a match, a greedy bot on the other seat, Create;
    the match shows the hero."""
    page.goto(url)
    page.get_by_role("link", name="Use in a match").click()
    page.wait_for_url(re.compile(r"/matches/new\?"))
    picked = page.get_by_role("checkbox", name=f"{hero} (published, version 1)").first
    expect(picked).to_be_checked()
    page.locator('[name="seat.2"]').select_option("bot:greedy")
    page.get_by_role("button", name="Create the match").click()
    page.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+(\?seat=[^&]+)?$"))
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator("main")).to_contain_text(hero)


@contextmanager
def runner_paused(server: LiveServer, page: Page) -> Iterator[None]:
    """The server's gauntlet runner stopped while the block runs, once it has played
    the samples' gauntlets (it holds no claim and no write then: it only looks for
    work), and let go on after it."""
    assert server.process is not None
    [runner] = wait_for(lambda: children(server.process.pid), 60, "the gauntlet runner")

    def samples_done() -> bool:
        ladder = page.request.get("/api/gauntlets/ladder").json()["heroes"]
        return len(ladder) == SAMPLE_COUNT

    wait_for(samples_done, FINISH_MS / 1000, "the samples' gauntlets")
    os.kill(runner, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(runner, signal.SIGCONT)


def test_two_people_publish_and_watch_each_others_gauntlet(
    browser: Browser, live_server: Callable[..., LiveServer], database_url: str
) -> None:
    server = live_server(database_url, **GAUNTLETS)
    ann_context, ann = new_page(browser, server.url)
    bob_context, bob = new_page(browser, server.url)
    register(ann, "ann")
    register(bob, "bob")
    with runner_paused(server, ann):
        heron = design_and_publish(ann)
        stag = upload_and_publish(bob)
        open_while_it_waits(ann, stag, "Copper Stag")
        open_while_it_waits(bob, heron, "Tin Heron")
    see_it_finish(ann, "Copper Stag")
    see_it_finish(bob, "Tin Heron")
    fragment = ann.request.get("/gauntlets/hall:tin-heron-ann@1", headers={"hx-request": "true"})
    assert fragment.text().startswith('<section class="gauntlet-panel" id="gauntlet"')
    assert "<html" not in fragment.text()
    use_in_a_match(bob, heron, "Tin Heron")
    ann.goto(heron)
    expect(ann.get_by_role("region", name="Matches it played")).to_contain_text("version 1")
    ann_context.close()
    bob_context.close()

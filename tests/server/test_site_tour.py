"""A tour of every page and state of the site in a real browser (Debian's chromium, see
test_pages.py), at desktop (1280 x 800) and phone (390 x 844) size: axe-core finds no
serious or critical violation on any of them (axe_check.py), and on a phone no page
scrolls sideways, every board fits the width and every control is at least 44 x 44 px.

The pages are one table, ``STOPS``: a page joins the tour with one row. The matches the
stops need (each game at its start, during play, at its end) are made through the public
API and played by their first legal action. With ``GLADIATORIUM_SAVE_SCREENSHOTS=1`` (``make
screenshots``) the tour saves a PNG of every stop at both sizes into
$GLADIATORIUM_SCREENSHOTS (default out/screenshots: ``gladiator-chess-match-end-phone.png``);
a plain test run saves none.

Exceptions to 44 px, each for a reason: a link inside a sentence (the sentence's text
around it: WCAG 2.5.8 exempts it), a code's abbreviation (``<abbr>``: a word of the text
whose tip a tap shows; the page's legend says the same at full size), and a board's
squares while the board is shown whole on a phone (``svg[data-zoom="fit"]``, see
static/board.js): there a tap on the board zooms in rather than plays, so the board is
the control; the tour taps it and checks the squares zoomed in. The checks run in the
page: ``phone_check.js``.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from axe_check import axe_problems
from playwright.sync_api import Browser, BrowserContext, Page, expect
from server_helpers import LiveServer, server_env
from test_pages import STEP_MS, browser, shoot

__all__ = ["browser"]

#: a regular expression: only the stops whose names it finds are visited (to look again
#: at a few pages while fixing them); every stop by default
ONLY = re.compile(os.environ.get("GLADIATORIUM_TOUR_ONLY", ""))
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
#: the smallest control on a phone, in CSS pixels, both ways
TAP = 44
USER = "touring"
PASSWORD = "correct horse battery"
ALL = ("pig", "superhero-gladiators", "gladiator-chess", "electron-gladiators")
GAMES = (*ALL, "super-dice-heroes", "hero-battle")


# ----- the matches the tour needs ---------------------------------------------------------------
def chess_seats() -> dict[str, str]:
    return {
        f"{team}-{who}": "me" if (team, who) == ("white", "king") else "bot:random"
        for team in ("white", "black")
        for who in ("king", "queen", "black-knight", "kings-knight")
    }


#: each game's seats (the touring person and bots) and the options of a short match
SEATS: dict[str, dict[str, str]] = {
    "pig": {"1": "me", "2": "bot:random"},
    "superhero-gladiators": {"1": "me", "2": "bot:greedy"},
    "gladiator-chess": chess_seats(),
    "electron-gladiators": {"1": "me", "2": "bot:random"},
    "super-dice-heroes": {"1": "me", "2": "bot:random"},
    "hero-battle": {"1": "me", "moderator": "me", **{str(n): "bot:random" for n in range(2, 9)}},
}
SHORT: dict[str, dict[str, Any]] = {
    "pig": {"target": 5},
    "superhero-gladiators": {"turn_limit": 1},
    "gladiator-chess": {"turn_limit": 1},
    "electron-gladiators": {"max_turns": 2},
    "super-dice-heroes": {"rounds": 1},
    "hero-battle": {"max_rounds": 1},
}


@dataclass
class Site:
    """The server, the touring person's saved login and the matches made for the tour:
    ``matches[game][state]`` for the states start, play and end."""

    url: str
    login: dict[str, Any]
    matches: dict[str, dict[str, str]] = field(default_factory=dict)
    #: unused invitation links (each is used once: one per visit)
    invites: list[str] = field(default_factory=list)


class Api:
    """The public JSON API, as the touring person (the browser context's cookie)."""

    def __init__(self, context: BrowserContext, url: str) -> None:
        self.request = context.request
        self.headers = {"origin": url}

    def post(self, path: str, data: dict[str, Any]) -> dict[str, Any]:
        answer = self.request.post(path, data=data, headers=self.headers)
        assert answer.ok, f"{path}: {answer.status} {answer.text()}"
        return dict(answer.json())

    def body(self, match: str, seat: str) -> dict[str, Any]:
        answer = self.request.get(f"/api/matches/{match}?seat={seat}")
        assert answer.ok, answer.text()
        return dict(answer.json())

    def create(self, game: str, options: dict[str, Any] | None = None) -> str:
        made = self.post("/api/matches", {"game": game, "seats": SEATS[game], **_opts(options)})
        return str(made["id"])

    def play(self, match: str, moves: int) -> None:
        """The touring person's seats play their first legal action ``moves`` times (all
        of them: to the end), bots their own; returns at the person's next decision."""
        mine = [seat for seat, kind in SEATS_OF[match].items() if kind == "me"]
        played = 0
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            now = self.body(match, mine[0])
            if now["outcome"] is not None:
                return
            awaited = [seat for seat in mine if seat in now["awaiting"]]
            if not awaited:
                time.sleep(0.05)
                continue
            if played >= moves:
                return
            legal = self.body(match, awaited[0])["legal"]
            if not legal:  # a bot's move ended the match or the round between the two reads
                continue
            answer = self.request.post(
                f"/api/matches/{match}/actions",
                data={"seat": awaited[0], "action": legal[0]},
                headers=self.headers,
            )
            assert answer.status in (200, 409), answer.text()
            played += 1
        raise AssertionError(f"match {match} did not reach the touring person or its end")


SEATS_OF: dict[str, dict[str, str]] = {}


def _opts(options: dict[str, Any] | None) -> dict[str, Any]:
    return {"options": options} if options else {}


@pytest.fixture(scope="module")
def tour_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server process on a fresh SQLite file: bots move at once, and the tour may
    make its matches faster than a person."""
    folder = tmp_path_factory.mktemp("tour")
    # the samples' gauntlets wait (their pages: queued)
    env = server_env(GLADIATORIUM_MATCH_RATE="1000/minute")
    server = LiveServer(f"sqlite:///{folder / 'tour.db'}", folder, env).start()
    yield server.url
    server.stop()


@pytest.fixture(scope="module")
def site(browser: Browser, tour_server: str) -> Iterator[Site]:
    context = browser.new_context(base_url=tour_server)
    context.set_default_timeout(STEP_MS)
    api = Api(context, tour_server)
    api.post("/api/register", {"username": USER, "password": PASSWORD})
    built = Site(tour_server, context.storage_state())
    for game in GAMES:
        states = built.matches[game] = {}
        for state, options, moves in (("start", None, 0), ("play", None, 2), ("end", None, -1)):
            match = api.create(game, SHORT[game] if state == "end" else options)
            SEATS_OF[match] = SEATS[game]
            api.play(match, moves if moves >= 0 else 10_000)
            states[state] = match
    for _ in SIZES:
        made = api.post("/api/matches", {"game": "pig", "seats": {"1": "me", "2": "invite"}})
        built.invites.append(str(made["invites"]["2"]))
    context.close()
    yield built


# ----- the stops ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Stop:
    """A page of the tour: ``name`` (its screenshots' name), ``reach`` (opens it on the
    page, in its state) and whether it is seen by a visitor (logged out)."""

    name: str
    reach: Callable[[Page, Site], None]
    visitor: bool = False


def go(path: str) -> Callable[[Page, Site], None]:
    return lambda page, site: _goto(page, path)


def _goto(page: Page, path: str) -> None:
    page.goto(path)
    if page.locator("#conn").count():
        expect(page.locator("#conn")).to_have_text("live")


def match_page(game: str, state: str, seat: str = "") -> Callable[[Page, Site], None]:
    def reach(page: Page, site: Site) -> None:
        query = f"?seat={seat}" if seat else ""
        _goto(page, f"/matches/{site.matches[game][state]}{query}")
        if state == "play":
            choose_something(page)

    return reach


def choose_something(page: Page) -> None:
    """During play, a choice begun: the first control of the picture that leads to
    several actions is picked, so the lit squares and the choices show."""
    page.evaluate(
        "() => { const els = [...document.querySelectorAll("
        "'#webpic [data-acts]:not(.hint):not([data-then]):not([data-act])')]"
        ".filter((el) => el.getClientRects().length"
        " && JSON.parse(el.dataset.acts).length > 1);"
        " if (els.length) els[0].dispatchEvent(new MouseEvent('click', { bubbles: true })); }"
    )


def replay(game: str) -> Callable[[Page, Site], None]:
    return lambda page, site: _goto(page, f"/matches/{site.matches[game]['end']}/replay?step=1")


def created_by_form(page: Page, site: Site) -> None:
    """The page after the creation form, with an invitation link to send."""
    page.goto("/matches/new?game=pig")
    page.locator('[name="seat.2"]').select_option("invite")
    page.get_by_role("button", name="Create the match").click()
    expect(page.get_by_label("Invitation link for seat 2")).to_be_visible()


def invitation(page: Page, site: Site) -> None:
    """A guest opens an invitation link: the match page, at the invited seat."""
    page.goto(site.invites.pop())
    page.wait_for_url(re.compile(r"/matches/.+seat=2"))
    expect(page.locator("#conn")).to_have_text("live")


def game_stops(game: str) -> list[Stop]:
    return [
        Stop(f"{game}-rules", go(f"/rules/{game}")),
        Stop(f"{game}-new-match", go(f"/matches/new?game={game}")),
        Stop(f"{game}-match-start", match_page(game, "start")),
        Stop(f"{game}-match-play", match_page(game, "play")),
        Stop(f"{game}-match-end", match_page(game, "end")),
        Stop(f"{game}-replay", replay(game)),
        Stop(f"{game}-leaderboard", go(f"/leaderboard/{game}")),
    ]


#: every page and state of the site (``server/pages/`` and ``ratings_views.py``): a new
#: page joins the tour with a row here
STOPS: list[Stop] = [
    Stop("home-visitor", go("/"), visitor=True),
    Stop("register", go("/register"), visitor=True),
    Stop("login", go("/login"), visitor=True),
    Stop("invitation", invitation, visitor=True),
    Stop("lobby", go("/")),
    Stop("new-match-choose-game", go("/matches/new")),
    Stop("match-created", created_by_form),
    Stop("designer", go("/heroes/new?game=superhero-gladiators")),
    Stop("library", go("/library")),
    Stop("account-mail", go("/account")),
    Stop("profile", go(f"/users/{USER}")),
    Stop("logout", go("/logout")),
    Stop("mail-unsubscribe", go("/mail/unsubscribe/no-such-token")),
    Stop("not-found", go("/matches/no-such-match")),
    *(stop for game in GAMES for stop in game_stops(game)),
    Stop("hero-battle-match-moderator", match_page("hero-battle", "start", "moderator")),
    Stop("hall", go("/hall")),
    Stop("hall-visitor", go("/hall?sort=rating"), visitor=True),
    Stop("hall-hero", go("/hall/cowboy")),
    Stop("hall-theme", go("/hall/the-hundred")),
    Stop("hall-new-theme", go("/hall/themes/new")),
    Stop("hero-ladder", go("/ladder/heroes")),
    Stop("gauntlet", go("/gauntlets/hall:cowboy@1")),
]


# ----- what a phone must hold -------------------------------------------------------------------
#: the checks of a page on a phone, run in the page (one line per problem)
PHONE_CHECK = (Path(__file__).with_name("phone_check.js")).read_text(encoding="utf-8")


def phone_problems(page: Page) -> list[str]:
    return list(page.evaluate(PHONE_CHECK, TAP))


def zoom_in(page: Page) -> bool:
    """Taps the middle of a board shown whole (a phone's first view of a big board): it
    zooms in. False when there is none."""
    board = page.locator('#webpic svg[data-zoom="fit"]')
    if not board.count():
        return False
    board.first.click()
    expect(page.locator('#webpic svg[data-zoom="in"]')).to_have_count(1)
    return True


def visit(page: Page, site: Site, stop: Stop, size: str) -> list[str]:
    stop.reach(page, site)
    found = [f"{stop.name}: {line}" for line in axe_problems(page)]
    shoot(page, f"{stop.name}-{size}")
    if size == "phone":
        found += [f"{stop.name}: {line}" for line in phone_problems(page)]
        if zoom_in(page):
            found += [f"{stop.name} zoomed: {line}" for line in phone_problems(page)]
            found += [f"{stop.name} zoomed: {line}" for line in axe_problems(page)]
            shoot(page, f"{stop.name}-{size}-zoomed")
    errors = page.js_errors  # type: ignore[attr-defined]
    found += [f"{stop.name}: page error {error}" for error in errors]
    errors.clear()
    return found


def open_page(
    browser: Browser, site: Site, size: str, visitor: bool
) -> tuple[BrowserContext, Page]:
    context = browser.new_context(
        base_url=site.url,
        viewport=SIZES[size],  # type: ignore[arg-type]
        has_touch=size == "phone",
        storage_state=None if visitor else site.login,  # type: ignore[arg-type]
    )
    context.set_default_timeout(STEP_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.js_errors = errors  # type: ignore[attr-defined]
    return context, page


@pytest.mark.parametrize("size", list(SIZES))
def test_every_page_passes_axe_and_fits_a_phone(browser: Browser, site: Site, size: str) -> None:
    """Every stop of the tour: no serious or critical axe-core violation; on a phone,
    no sideways scroll, boards that fit and controls of 44 px (zoomed boards too)."""
    pages = {visitor: open_page(browser, site, size, visitor) for visitor in (False, True)}
    found: list[str] = []
    for stop in STOPS:
        if not ONLY.search(stop.name):
            continue
        found += visit(pages[stop.visitor][1], site, stop, size)
    for context, _ in pages.values():
        context.close()
    assert not found, f"{len(found)} problems at {size} size:\n" + "\n".join(found)


def test_the_tour_reaches_every_page_router() -> None:
    """Each page route of the server (``server/pages/`` and the ratings' pages) is a
    stop of the tour, or is named here as reached through another stop."""
    reached_otherwise = {
        "/matches/{match_id}/live",  # the match page's live part, fetched by every match stop
        "/mail/confirm/{token}",  # the same page as the unsubscribe stop's, said otherwise
        # an invited seat's team, checked by axe where an invitation leads to it
        # (test_creation_form_pages.py)
        "/matches/{match_id}/seats/{seat}/team",
        "/matches/new/preview",  # a drawing of the creation form, fetched by its stops
    }
    from gladiatorium.server.app import ROUTERS

    pages = {
        route.path  # type: ignore[attr-defined]
        for router in ROUTERS
        for route in router.routes
        if "GET" in getattr(route, "methods", set())
        and not route.path.startswith("/api")  # type: ignore[attr-defined]
        and route.path not in ("/healthz",)  # type: ignore[attr-defined]
    }
    toured = {
        "/": "lobby",
        "/register": "register",
        "/login": "login",
        "/logout": "logout",
        "/account": "account-mail",
        "/matches/new": "new-match-choose-game",
        "/matches/{match_id}": "pig-match-start",
        "/matches/{match_id}/replay": "pig-replay",
        "/heroes/new": "designer",
        "/library": "library",
        "/invite/{token}": "invitation",
        "/mail/unsubscribe/{token}": "mail-unsubscribe",
        "/rules/{slug}": "pig-rules",
        "/leaderboard/{game}": "pig-leaderboard",
        "/users/{name}": "profile",
        "/hall": "hall",
        "/hall/{slug}": "hall-hero",
        "/hall/themes/new": "hall-new-theme",
        "/ladder/heroes": "hero-ladder",
        "/gauntlets/{hero_ref:path}": "gauntlet",
    }
    names = {stop.name for stop in STOPS}
    assert set(toured.values()) <= names
    assert pages - reached_otherwise == set(toured), pages

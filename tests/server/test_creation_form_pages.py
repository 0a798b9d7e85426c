"""The match creation form in a real browser (Debian's chromium, see test_pages.py):
the shipped maps and set-ups picked from their drawings, the teams ticked from the
samples, and a wrong choice shown back on its own field."""

from __future__ import annotations

import re

from axe_check import assert_accessible
from playwright.sync_api import Browser, Page, Route, expect
from test_pages import browser, new_page, page_server, register

__all__ = ["browser", "page_server"]


def test_superhero_gladiators_map_and_teams_picked_without_json(
    browser: Browser, page_server: str
) -> None:
    context, page = new_page(browser, page_server)
    register(page, "mapper")
    page.goto("/matches/new?game=superhero-gladiators")
    maps = page.locator("#pick-map")
    # each shipped map is drawn beside its name as it comes into view
    pillars = maps.locator(".pick-choice", has_text="pillars (12 by 7 squares)")
    pillars.scroll_into_view_if_needed()
    expect(pillars.locator("svg.arena")).to_have_attribute(
        "aria-label", "Arena pillars, 12 by 7 squares"
    )
    expect(maps.get_by_label(re.compile(r"\bsmall \(8 by 4"))).to_be_checked()
    # one team only: the form comes back with the problem on the other team
    page.locator("#team-2").get_by_label("Perseus (sample)").uncheck()
    page.get_by_role("button", name="Create the match").click()
    expect(page.locator("#team-2 .field-error")).to_have_text(
        "Team 2: pick at least one hero for this team"
    )
    expect(page.locator("#team-1").get_by_label("Cowboy (sample)")).to_be_checked()
    # the map of pillars, a Barbarian against the Cowboy
    page.locator("#pick-map").get_by_label(re.compile(r"\bpillars \(")).check()
    page.locator('[name="seat.2"]').select_option("bot:random")
    page.locator("#team-2").get_by_label("Barbarian (sample)").check()
    page.get_by_role("button", name="Create the match").click()
    page.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+$"))
    expect(page.locator("#webpic svg.arena")).to_have_attribute(
        "aria-label", "Arena pillars, 12 by 7 squares"
    )
    expect(page.locator("#webpic")).to_contain_text("Barbarian")
    # the form shown back came with its status (422), which the console notes
    errors = page.js_errors  # type: ignore[attr-defined]
    assert [e for e in errors if "status of 422" not in e or "/matches/new'" not in e] == []
    context.close()


def test_electron_gladiators_set_up_picked_from_its_drawing(
    browser: Browser, page_server: str
) -> None:
    context, page = new_page(browser, page_server)
    register(page, "setter")
    page.goto("/matches/new?game=electron-gladiators")
    deluxe = page.locator("#pick-setup .pick-choice", has_text="deluxe-2")
    deluxe.scroll_into_view_if_needed()
    expect(deluxe.locator("svg.egarena")).to_be_visible()
    assert deluxe.locator("svg.egarena [data-marks]").count() == 0  # a drawing, no controls
    deluxe.locator("input").check()
    page.locator('[name="seat.2"]').select_option("bot:random")
    page.locator("summary").first.click()
    page.locator('[name="opt.max_turns"]').fill("0")
    page.get_by_role("button", name="Create the match").click()
    # a number out of bounds stops in the browser, before it is sent
    assert page.locator('[name="opt.max_turns"]').evaluate("el => !el.validity.valid")
    page.locator('[name="opt.max_turns"]').fill("50")
    page.get_by_role("button", name="Create the match").click()
    page.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+$"))
    expect(page.locator("#webpic svg.egarena")).to_be_visible()
    assert not page.js_errors  # type: ignore[attr-defined]
    context.close()


def test_the_drawings_arriving_move_nothing_below_them(browser: Browser, page_server: str) -> None:
    """The drawings come after the page (as they come into view); their boxes are there
    before them, so a click aimed at what lies below (the options) lands where aimed."""
    context, page = new_page(browser, page_server)
    register(page, "stiller")
    held: list[Route] = []
    page.route("**/matches/new/preview?*", lambda route: held.append(route))
    page.goto("/matches/new?game=electron-gladiators")
    summary = page.locator("summary").first
    page.wait_for_function("() => document.querySelectorAll('.preview').length > 0")
    expect(page.locator("#pick-setup .preview svg")).to_have_count(0)
    before = summary.bounding_box()
    assert held, "the page fetched no drawing"
    for route in held:
        route.continue_()
    page.unroute("**/matches/new/preview?*")
    expect(page.locator("#pick-setup .preview svg").first).to_be_visible()
    assert page.locator("#pick-setup .preview svg").count() == len(held)
    assert summary.bounding_box() == before
    assert not page.js_errors  # type: ignore[attr-defined]
    context.close()


def test_designer_opens_clean_waits_for_a_valid_hero_and_edits_library_items(
    browser: Browser, page_server: str
) -> None:
    context, page = new_page(browser, page_server)
    register(page, "editor")
    page.goto("/heroes/new")
    # a blank hero has problems, but none is shown before anything is typed
    expect(page.locator("#verdict")).to_have_attribute("data-valid", "no")
    assert page.locator("#design-form .field-error:visible").count() == 0
    expect(page.locator("#design-check .design-errors")).to_be_hidden()
    save = page.get_by_role("button", name="Save to my library")
    expect(save).to_be_disabled()  # aria-disabled: it stays focusable and says why
    expect(page.locator("#save-note")).to_be_visible()
    # a touched field shows its own problem only
    page.locator('[name="attr.strength"]').fill("14")
    expect(page.locator("#err-attributes")).to_be_visible()
    expect(page.locator("#err-name")).to_be_hidden()
    # Save pressed on an invalid hero stays on the page and shows every problem
    save.click(force=True)
    expect(page.locator("#err-name")).to_be_visible()
    expect(page.locator("#design-check .design-errors")).to_be_visible()
    assert page.url.endswith("/heroes/new")
    # a valid hero saves; the saved item opens again to be edited
    page.get_by_role("link", name="cowboy").click()
    expect(page.get_by_label("Hero name")).to_have_value("Cowboy")
    expect(save).to_be_enabled()
    save.click()
    expect(page.locator("#saved")).to_contain_text("Cowboy")
    page.goto("/library")
    page.get_by_role("link", name="Open Cowboy in the designer").click()
    expect(page.locator("h1")).to_contain_text("Edit Cowboy")
    page.get_by_label("Hero name").fill("Cowboy Kid")
    page.get_by_role("button", name="Save the changes to Cowboy").click()
    expect(page.locator("#saved")).to_contain_text("Cowboy Kid")
    page.get_by_label("Hero name").fill("Cowboy Elder")
    page.get_by_role("button", name="Save as a new hero").click()
    expect(page.locator("#saved")).to_contain_text("Cowboy Elder")
    page.goto("/library")
    names = page.locator("table tbody td:first-child").all_inner_texts()
    assert sorted(names) == ["Cowboy Elder", "Cowboy Kid"]  # edited in place, then a copy
    assert not page.js_errors  # type: ignore[attr-defined]
    context.close()


def test_the_designer_shows_a_problem_of_what_a_field_holds_now(
    browser: Browser, page_server: str
) -> None:
    """While the check of a field's new value is on its way, the problem of its old value
    is not shown: it was, for that moment ("a hero needs a name" under a name just typed),
    and pushed what lies below down and back up, so that a click aimed there could land
    elsewhere. The answer's own problem shows when it comes, and stays when the field is
    left (its "change" after its "input")."""
    context, page = new_page(browser, page_server)
    register(page, "checker")
    page.goto("/heroes/new")
    expect(page.locator("#verdict")).to_have_attribute("data-valid", "no")
    held: list[Route] = []
    page.route("**/heroes/check", lambda route: held.append(route))
    below = page.locator("details#p1 summary")
    where = below.bounding_box()
    with page.expect_request("**/heroes/check"):
        page.get_by_label("Hero name").fill("Iron Nun")
    assert page.locator("#err-name").text_content() == "a hero needs a name"  # the old words
    assert page.locator("#err-name").is_hidden()
    assert below.bounding_box() == where
    for route in held:  # the name's answer: no problem
        route.continue_()
    held.clear()
    expect(page.locator("#err-name")).to_have_text("")
    with page.expect_request("**/heroes/check"):  # typed: its "change" comes when left
        page.locator('[name="attr.strength"]').press_sequentially("14")
    # four attributes missing before strength was typed
    assert page.locator("#err-attributes").text_content() == "missing; missing; missing; missing"
    assert page.locator("#err-attributes").is_hidden()
    assert below.bounding_box() == where
    for route in held:
        route.continue_()
    page.unroute("**/heroes/check")
    expect(page.locator("#err-attributes")).to_have_text("missing; missing; missing")
    expect(page.locator("#err-attributes")).to_be_visible()
    held.clear()
    page.route("**/heroes/check", lambda route: held.append(route))
    with page.expect_request("**/heroes/check"):  # left: its "change", of the same value
        page.locator('[name="attr.strength"]').press("Tab")
    assert page.locator("#err-attributes").is_visible()  # the answer to that value stays
    for route in held:
        route.continue_()
    page.unroute("**/heroes/check")
    assert not page.js_errors  # type: ignore[attr-defined]
    context.close()


def upload_hero(page: Page, sample: str, name: str) -> None:
    """Design a hero from a sample, renamed, and save it to my library."""
    page.goto(f"/heroes/new?sample={sample}")
    page.get_by_label("Hero name").fill(name)
    expect(page.locator("#verdict")).to_have_attribute("data-valid", "yes")
    page.get_by_role("button", name="Save to my library").click()
    expect(page.locator("#saved")).to_contain_text(name)


def test_two_people_each_bring_a_hero_from_their_own_library(
    browser: Browser, page_server: str
) -> None:
    host_context, host = new_page(browser, page_server)
    guest_context, guest = new_page(browser, page_server)
    register(host, "hosting")
    register(guest, "visiting")
    upload_hero(host, "barbarian", "Host Brute")
    upload_hero(guest, "perseus", "Guest Hero")
    # the host picks the host's team, and leaves seat 2's to whoever takes it
    host.goto("/matches/new?game=superhero-gladiators")
    host.locator('[name="seat.2"]').select_option("open")
    host.locator("#team-1").get_by_label("Cowboy (sample)").uncheck()
    host.locator("#team-1").get_by_label("Host Brute", exact=True).check()
    host.locator("#team-2").get_by_label(re.compile("^ *Whoever takes this seat")).check()
    assert host.locator("#team-2").get_by_label("Guest Hero").count() == 0  # not the host's
    host.get_by_role("button", name="Create the match").click()
    host.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+$"))
    match = host.url.rsplit("/", 1)[1]
    expect(host.locator("#teams-awaited")).to_contain_text("team of seat 2")
    expect(host.locator("#webpic [data-acts]")).to_have_count(0)  # nothing to do yet
    # the guest joins from the lobby and brings a hero of the guest's own library
    guest.goto("/")
    guest.locator(f'form[action="/matches/{match}/join"]').get_by_role("button").click()
    expect(guest.locator("h1")).to_have_text("Pick my team for seat 2")
    assert guest.locator("#team-2").get_by_label("Host Brute").count() == 0  # not the guest's
    guest.get_by_role("button", name="Take the seat with this team").click()
    expect(guest.locator("#form-error")).to_have_text("pick at least one hero for your team")
    assert_accessible(guest, "the invited seat's team page, its problem shown")
    guest.locator("#team-2").get_by_label("Guest Hero", exact=True).check()
    guest.get_by_role("button", name="Take the seat with this team").click()
    guest.wait_for_url(re.compile(rf"/matches/{match}\?seat=2$"))
    expect(guest.locator("#teams-awaited")).to_have_count(0)
    for person in (host, guest):
        expect(person.locator("#webpic")).to_contain_text("Host Brute")
        expect(person.locator("#webpic")).to_contain_text("Guest Hero")
    expect(host.locator("#webpic [data-acts]").first).to_be_visible()  # seat 1 places first
    for person in (host, guest):
        errors = person.js_errors  # type: ignore[attr-defined]
        assert [e for e in errors if "status of 422" not in e] == []
    host_context.close()
    guest_context.close()


def test_an_invited_person_brings_a_hero_from_their_own_library_through_the_link(
    browser: Browser, page_server: str
) -> None:
    host_context, host = new_page(browser, page_server)
    guest_context, guest = new_page(browser, page_server)
    register(host, "inviting")
    register(guest, "invited")
    upload_hero(host, "barbarian", "Inviter Brute")
    upload_hero(guest, "perseus", "Invited Hero")
    # the host invites seat 2 and leaves its team to whoever opens the link
    host.goto("/matches/new?game=superhero-gladiators")
    host.locator('[name="seat.2"]').select_option("invite")
    host.locator("#team-1").get_by_label("Cowboy (sample)").uncheck()
    host.locator("#team-1").get_by_label("Inviter Brute", exact=True).check()
    host.locator("#team-2").get_by_label(re.compile("^ *Whoever takes this seat")).check()
    host.get_by_role("button", name="Create the match").click()
    link = host.get_by_label("Invitation link for seat 2").input_value()
    # the invited person opens the link: first the team, then the match
    guest.goto(link)
    expect(guest.locator("h1")).to_have_text("Pick my team for seat 2")
    match = guest.url.split("/matches/", 1)[1].split("/", 1)[0]
    assert guest.locator("#team-2").get_by_label("Inviter Brute").count() == 0  # not theirs
    host.goto(f"/matches/{match}")
    expect(host.locator("#teams-awaited")).to_contain_text("team of seat 2")
    expect(host.locator("#pick-my-team")).to_have_count(0)  # seat 2 is not the host's
    guest.get_by_role("button", name="Take the seat with this team").click()
    expect(guest.locator("#form-error")).to_have_text("pick at least one hero for your team")
    guest.locator("#team-2").get_by_label("Invited Hero", exact=True).check()
    guest.get_by_role("button", name="Take the seat with this team").click()
    guest.wait_for_url(re.compile(rf"/matches/{match}\?seat=2$"))
    expect(guest.locator("#teams-awaited")).to_have_count(0)
    host.reload()
    for person in (host, guest):
        expect(person.locator("#webpic")).to_contain_text("Inviter Brute")
        expect(person.locator("#webpic")).to_contain_text("Invited Hero")
    # the link stays used: opened again, it leads its taker to the match
    guest.goto(link)
    guest.wait_for_url(re.compile(rf"/matches/{match}\?seat=2$"))
    for person in (host, guest):
        errors = person.js_errors  # type: ignore[attr-defined]
        assert [e for e in errors if "status of 422" not in e] == []
    host_context.close()
    guest_context.close()

"""The games' own pages in a real browser (Debian's chromium, see test_pages.py): a
person plays a whole match against bots by clicking the board (no typing), and each
seat sees what it may. With ``make screenshots`` they save theirs to $GLADIATORIUM_SCREENSHOTS
(default out/screenshots in the repository: gladiatorium-game-<game>*.png)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page, expect
from test_pages import (  # the server and browser fixtures, shared
    STEP_MS,
    browser,
    new_page,
    over,
    page_server,
    register,
    shoot,
    stamp,
    wait_changed,
)

__all__ = ["browser", "page_server"]


#: decisions a page test may take before it calls the match stuck (each waits for the
#: page, so a stuck match fails here rather than at a clock)
MAX_STEPS = 300


def create(
    page: Page, game: str, seats: dict[str, str], options: dict[str, str], players: int = 0
) -> str:
    page.goto(f"/matches/new?game={game}" + (f"&players={players}" if players else ""))
    for name, value in seats.items():
        page.locator(f'[name="seat.{name}"]').select_option(value)
    if options:
        page.locator("summary").first.click()
        for name, value in options.items():
            page.locator(f'[name="opt.{name}"]').fill(value)
    page.get_by_role("button", name="Create the match").click()
    page.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+$"))
    expect(page.locator("#conn")).to_have_text("live")
    return page.url.rsplit("/", 1)[1]


def acked(page: Page) -> int:
    """How many of this page's actions were answered and are shown (static/match.js)."""
    return int(page.locator("#match").get_attribute("data-acked") or 0)


def my_move(page: Page) -> bool:
    return page.locator("#webpic[data-legal]").count() > 0


def wait_turn(page: Page) -> None:
    """Until the page offers this seat a move or the match is over."""
    page.wait_for_function(
        "() => { const live = document.getElementById('live');"
        " return live && (live.dataset.over === 'yes' ||"
        " !!document.querySelector('#webpic[data-legal]')); }",
        timeout=STEP_MS,
    )


def click_and_wait(page: Page, target: object) -> None:
    before = stamp(page)
    target.click()  # type: ignore[attr-defined]
    wait_changed(page, before)


# ----- Superhero Gladiators -------------------------------------------------------------
def sg_turn(page: Page, seen: dict[str, int]) -> None:
    """One decision, clicked as a person would."""
    prompt = page.locator("#webpic .pic-prompt button.other")
    texts = prompt.all_inner_texts()
    defence = [i for i, t in enumerate(texts) if t.startswith(("Use ", "Take", "Copy"))]
    if defence:  # the defence question: use a defence when there is one
        seen["defence"] += 1
        shoot(page, "gladiatorium-game-sg-defence")
        choice = next((i for i in defence if texts[i].startswith("Use ")), defence[0])
        click_and_wait(page, prompt.nth(choice))
        return
    acting = page.locator("#webpic .hero-card.acting button.pic-button")
    attack = None
    for index in range(acting.count()):
        if "attack" in (acting.nth(index).get_attribute("data-acts") or ""):
            attack = acting.nth(index)
            break
    if attack is not None:
        if seen["attack"] == 0:  # the first time: hero, then power, then target
            page.locator("#webpic g.sq.can[data-act]").first.wait_for()
            hero = page.locator("#webpic .hero-card.acting").get_attribute("data-hero")
            square = page.locator(f'#webpic g.token[data-hero="{hero}"]')
            assert square.count() == 1
        before = stamp(page)
        attack.click()  # one target only: played at once; else the targets light up
        if page.locator("#picking").is_visible():
            # the squares the chosen power reaches are lit, its targets among them
            expect(page.locator("#look-caption")).to_contain_text("reaches the dashed squares")
            assert page.locator('#webpic g.sq[data-mark="r"]').count() >= 1
            if seen["aim"] == 0:
                shoot(page, "gladiatorium-game-sg-aim")
            seen["aim"] += 1
            page.locator("#webpic g.sq.lit").first.click()
            if page.locator("#picking:not([hidden]) .pick-choice").count():
                page.locator("#picking .pick-choice").first.click()
        seen["attack"] += 1
        wait_changed(page, before)
        return
    moves = page.locator(
        '#webpic g.sq.can[data-act^="move "], #webpic g.sq.can[data-act^="place "]'
    )
    if moves.count():
        seen["move"] += 1
        click_and_wait(page, moves.last)
        return
    seen["other"] += 1
    click_and_wait(page, page.locator("#webpic .pic-prompt button.other").first)


def test_superhero_gladiators_page_against_a_bot(browser: Browser, page_server: str) -> None:
    context, page = new_page(browser, page_server)
    register(page, "perseusfan")
    match = create(
        page, "superhero-gladiators", {"1": "bot:greedy", "2": "me"}, {"turn_limit": "3"}
    )
    watch_context, watcher = new_page(browser, page_server)
    watcher.goto(f"/matches/{match}?seat=spectator")
    expect(watcher.locator("#webpic svg.arena")).to_be_visible()
    seen = {"defence": 0, "attack": 0, "aim": 0, "move": 0, "other": 0}
    shot = False
    steps = 0
    while not over(page):
        steps += 1
        assert steps <= MAX_STEPS, f"the match did not end: {seen}"
        wait_turn(page)
        if over(page):
            break
        if not shot:
            shoot(page, "gladiatorium-game-sg")
            shot = True
        sg_turn(page, seen)
    expect(page.locator("#result")).to_contain_text(re.compile(r"Won by|Draw|lost"))
    assert seen["attack"] + seen["move"] >= 2, seen
    # what each seat sees: the player's arena, cards and segment track; a spectator the
    # same picture with nothing to click
    for who in (page, watcher):
        expect(who.locator("#webpic .hero-card")).to_have_count(2)
        expect(who.locator("#webpic .segments li")).to_have_count(6)
        expect(who.locator("#webpic .oomph").first).to_be_visible()
    watcher.reload()
    assert watcher.locator("#webpic[data-legal]").count() == 0
    assert watcher.locator("#webpic .sq.can").count() == 0
    shoot(page, "gladiatorium-game-sg-end")
    # on a phone the board still fits the screen
    page.set_viewport_size({"width": 390, "height": 844})
    box = page.locator("#webpic svg.arena").bounding_box()
    assert box is not None and box["width"] <= 390
    shoot(page, "gladiatorium-game-sg-end-phone")
    assert not page.js_errors and not watcher.js_errors  # type: ignore[attr-defined]
    context.close()
    watch_context.close()


# ----- Gladiator Chess --------------------------------------------------------------------
def gc_turn(page: Page, seen: dict[str, int]) -> None:
    override = page.locator("#webpic button.override")
    if override.count() and seen["override"] == 0:
        override.first.click()  # the King's override, then a piece and its square
        seen["override"] += 1
        piece = page.locator("#webpic g.sq.lit:not([data-then])").first
        frm = piece.get_attribute("data-sq")
        piece.click()
        shoot(page, "gladiatorium-game-chess-override")
        click_and_wait(page, page.locator(f'#webpic g.sq.lit:not([data-sq="{frm}"])').first)
        return
    let = page.locator("#webpic button", has_text="Let the")
    if let.count():
        seen["let"] += 1
        click_and_wait(page, let.first)
        return
    piece = page.locator("#webpic g.sq.can").last
    frm = piece.get_attribute("data-sq")
    before = stamp(page)
    if seen["move"] == 0:  # the keyboard: focus a piece, Enter picks it
        piece.focus()
        page.keyboard.press("Enter")
    else:
        piece.click()  # a piece with one move only makes it at once
    if page.locator("#picking").is_visible():
        lit = page.locator(f'#webpic g.sq.lit:not([data-sq="{frm}"])')
        assert lit.count() >= 1
        if seen["lit"] == 0:
            shoot(page, "gladiatorium-game-chess-lit")
        seen["lit"] += 1
        lit.last.click()
        if page.locator("#picking:not([hidden]) .pick-choice").count():
            page.locator("#picking .pick-choice").first.click()  # a pawn's promotion
    seen["move"] += 1
    wait_changed(page, before)


def test_gladiator_chess_page_king_against_bots(browser: Browser, page_server: str) -> None:
    context, page = new_page(browser, page_server)
    register(page, "boardking")
    seats = {
        f"{team}-{cmd}": "me" if (team, cmd) == ("white", "king") else "bot:random"
        for team in ("white", "black")
        for cmd in ("king", "queen", "black-knight", "kings-knight")
    }
    create(page, "gladiator-chess", seats, {"turn_limit": "2"})
    seen = {"override": 0, "let": 0, "move": 0, "lit": 0}
    steps = 0
    while not over(page):
        steps += 1
        assert steps <= MAX_STEPS, f"the match did not end: {seen}"
        wait_turn(page)
        if over(page):
            break
        if seen["move"] == 0:
            expect(page.locator("#webpic .pic-head")).to_contain_text("white king")
            shoot(page, "gladiatorium-game-chess")
        gc_turn(page, seen)
    expect(page.locator("#result")).to_contain_text("turn limit")
    assert seen["move"] >= 2 and seen["override"] == 1, seen
    expect(page.locator("#webpic svg.gcboard")).to_be_visible()
    assert page.locator("#webpic .gc-side").inner_text().count("lost") == 2
    shoot(page, "gladiatorium-game-chess-end")
    # the replay: step through the finished match from its record
    page.locator("#replay-link").click()
    expect(page.locator("#step")).to_contain_text("step 0 of")
    expect(page.locator("#played")).to_contain_text("The start of the match")
    page.locator("#next").click()
    page.locator("#next").click()
    expect(page.locator("#step")).to_contain_text("step 2 of")
    expect(page.locator("#played")).to_contain_text("Just played by seat")
    expect(page.locator(".webpic svg.gcboard")).to_be_visible()
    page.locator("#last").click()
    expect(page.locator("#replay-result")).to_contain_text("turn limit")
    shoot(page, "gladiatorium-game-chess-replay")
    assert not page.js_errors  # type: ignore[attr-defined]
    context.close()


# ----- the hero designer --------------------------------------------------------------------
def fill_power(page: Page, row: int, **fields: str) -> None:
    box = page.locator(f"details#p{row}")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    for name, value in fields.items():
        if name == "type":
            page.locator(f'[name="p{row}.type"]').select_option(value)
        elif name == "style":
            page.locator(f'[name="p{row}.styles"][value="{value}"]').check()
        else:
            page.locator(f'[name="p{row}.{name}"]').fill(value)


def test_hero_designer_builds_saves_and_fights(
    browser: Browser, page_server: str, tmp_path: Path
) -> None:
    context, page = new_page(browser, page_server)
    register(page, "nunmaker")
    page.goto("/heroes/new")
    expect(page.locator("h1")).to_contain_text("Design a hero")
    page.get_by_label("Hero name").fill("Iron Nun")
    for attribute, value in (("strength", "4"), ("dexterity", "5"), ("size", "4")):
        page.locator(f'[name="attr.{attribute}"]').fill(value)
    expect(page.locator("#verdict")).to_have_attribute("data-valid", "no")
    page.locator('[name="attr.perception"]').fill("2")
    fill_power(page, 0, name="Ruler slap", type="close", level="3", uses="infinite")
    expect(page.locator("#points")).to_contain_text("67 on powers")  # the cost moves
    expect(page.locator("#points-left")).to_have_text("133 left")
    page.locator('[name="p0.level"]').fill("9")  # an error appears beside its field
    expect(page.locator("#err-p0-level")).to_be_visible()
    expect(page.locator("#err-p0-level")).to_contain_text("1 to 8")
    expect(page.locator("#verdict")).to_have_attribute("data-valid", "no")
    page.locator('[name="p0.level"]').fill("3")  # and disappears once fixed
    expect(page.locator("#err-p0-level")).to_be_hidden()
    fill_power(page, 1, name="Habit of steel", type="defense", style="toughness", level="4")
    fill_power(page, 1, uses="8")
    fill_power(page, 2, name="Holy water", type="distance", style="missile", level="3", uses="8")
    expect(page.locator("#points")).to_contain_text("138 on powers")
    expect(page.locator("#points-left")).to_have_text("62 left")
    expect(page.locator("#verdict")).to_have_attribute("data-valid", "yes")
    expect(page.locator(".card-preview svg")).to_be_visible()
    shoot(page, "gladiatorium-designer")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download as YAML").click()
    saved = tmp_path / "iron-nun.yaml"
    download.value.save_as(saved)
    text = saved.read_text()
    assert "name: Iron Nun" in text and "toughness" in text
    page.get_by_role("button", name="Save to my library").click()
    expect(page.locator("#saved")).to_contain_text("Iron Nun")
    # import the downloaded file back; start from a sample and save it too
    page.locator('input[type="file"]').set_input_files(str(saved))
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.get_by_label("Hero name")).to_have_value("Iron Nun")
    expect(page.locator("#verdict")).to_have_attribute("data-valid", "yes")
    page.get_by_role("link", name="cowboy").click()
    expect(page.get_by_label("Hero name")).to_have_value("Cowboy")
    page.get_by_role("button", name="Save to my library").click()
    expect(page.locator("#saved")).to_contain_text("Cowboy")
    # fight with it: the Cowboy (a bot) against my Iron Nun
    page.goto("/matches/new?game=superhero-gladiators")
    page.locator('[name="seat.1"]').select_option("bot:greedy")
    page.locator('[name="seat.2"]').select_option("me")
    # team 1 keeps the sample Cowboy ticked by default; team 2 takes my Iron Nun instead
    expect(page.locator("#team-1").get_by_label("Cowboy (sample)")).to_be_checked()
    page.locator("#team-2").get_by_label("Perseus (sample)").uncheck()
    page.locator("#team-2").get_by_label("Iron Nun", exact=True).check()
    page.locator("summary").first.click()
    page.locator('[name="opt.turn_limit"]').fill("4")
    page.get_by_role("button", name="Create the match").click()
    page.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+$"))
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator('#webpic .hero-card[data-hero="2A"]')).to_contain_text("Iron Nun")
    seen = {"defence": 0, "attack": 0, "aim": 0, "move": 0, "other": 0}
    steps = 0
    while not over(page):
        steps += 1
        assert steps <= MAX_STEPS, f"the match did not end: {seen}"
        wait_turn(page)
        if not over(page):
            sg_turn(page, seen)
    expect(page.locator("#result")).to_contain_text(re.compile(r"Won by|Draw|lost"))
    assert sum(seen.values()) >= 2, seen
    assert not page.js_errors  # type: ignore[attr-defined]
    context.close()


# ----- Super Dice Heroes ------------------------------------------------------------------------
def drag(page: Page, source: Locator, target: Locator) -> None:
    """A person's drag: press on ``source``, move a few steps away, then over
    ``target`` and let go (the browser starts a drag only once the mouse has moved)."""
    start, end = source.bounding_box(), target.bounding_box()
    assert start is not None and end is not None
    x, y = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 8, y + 8, steps=4)
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=12)
    page.mouse.up()


def sdh_turn(page: Page, seen: dict[str, int]) -> None:
    before = stamp(page)
    choose = page.locator("#webpic button.pic-button", has_text="choose")
    if choose.count():
        seen["choose"] += 1
        choose.first.click()
        wait_changed(page, before)
        return
    dice = page.locator("#webpic button.die[data-acts]")
    if dice.count() and seen["drag"] == 0:  # a die dragged onto a place it may go
        # once the bot is done with the round nothing else redraws the page mid-drag
        expect(page.locator("#webpic .scoreboard tr", has_text="Hero 2")).to_contain_text("done")
        before = stamp(page)
        acts = set(json.loads(dice.first.get_attribute("data-acts") or "[]"))
        places = page.locator("#webpic .loc-head[data-acts], #webpic .box[data-acts]")
        for index in range(places.count()):
            place = places.nth(index)
            if acts & set(json.loads(place.get_attribute("data-acts") or "[]")):
                seen["drag"] += 1
                answered = acked(page)
                drag(page, dice.first, place)
                sent = acked(page) > answered or page.locator('#match[data-sending="yes"]').count()
                if not sent and page.locator("#picking:not([hidden]) .pick-choice").count():
                    page.locator("#picking .pick-choice").first.click()  # several: pick one
                wait_changed(page, before)
                return
    if dice.count():
        dice.first.click()  # a die, then where it goes (one place only: played at once)
        if page.locator("#picking").is_visible():
            if seen["aim"] == 0:
                shoot(page, "gladiatorium-game-sdh-aim")
            seen["aim"] += 1
            target = page.locator("#webpic .box.lit, #webpic .loc-head.lit")
            (
                target.first if target.count() else page.locator("#picking .pick-choice").first
            ).click()
            if page.locator("#picking:not([hidden]) .pick-choice").count():
                page.locator("#picking .pick-choice").first.click()
        seen["die"] += 1
        wait_changed(page, before)
        return
    seen["done"] += 1
    page.locator("#webpic button.pic-button", has_text="Done").click()
    wait_changed(page, before)


def test_super_dice_heroes_page_against_a_bot(browser: Browser, page_server: str) -> None:
    context, page = new_page(browser, page_server)
    register(page, "dicehero")
    match = create(page, "super-dice-heroes", {"2": "bot:random"}, {"rounds": "2"})
    seen = {"choose": 0, "die": 0, "aim": 0, "done": 0, "drag": 0}
    steps = 0
    while not over(page):
        steps += 1
        assert steps <= MAX_STEPS, f"the match did not end: {seen}"
        wait_turn(page)
        if not over(page):
            if seen["die"] == 1:
                shoot(page, "gladiatorium-game-sdh")
            sdh_turn(page, seen)
    expect(page.locator("#result")).to_contain_text(re.compile(r"Won by|Draw|lost"))
    assert seen["choose"] == 1 and seen["die"] + seen["drag"] >= 2 and seen["drag"] == 1, seen
    # the round's spends, revealed to all once everybody was done
    expect(page.locator("#webpic .scoreboard th").last).to_contain_text("spends (revealed)")
    expect(page.locator("#webpic .sheet .location")).to_have_count(6)
    expect(page.locator("#webpic .scoreboard tr.me")).to_have_count(1)
    shoot(page, "gladiatorium-game-sdh-end")
    # the body the page built from the socket's body and deltas is the GET body, and the
    # page shows what a reload shows
    page.wait_for_function("() => window.gladiatoriumMatch?.body.outcome")
    built = page.evaluate("() => window.gladiatoriumMatch")
    assert built["body"] == page.request.get(f"/api/matches/{match}?seat=1").json()
    assert page.locator("#match").get_attribute("data-ply") == str(built["ply"])
    shown = stamp(page)
    page.reload()
    expect(page.locator("#conn")).to_have_text("live")
    assert stamp(page) == shown
    page.wait_for_function("() => window.gladiatoriumMatch?.body.outcome")
    assert page.evaluate("() => window.gladiatoriumMatch") == built
    watch_context, watcher = new_page(browser, page_server)
    watcher.goto(f"/matches/{match}?seat=spectator")
    expect(watcher.locator("#webpic .scoreboard")).to_be_visible()
    assert watcher.locator("#webpic .sheet").count() == 0  # nobody's sheet for a spectator
    # a crowd: the scoreboard shows the top ten and my row; the search box finds the rest
    seats = {str(n): "bot:random" for n in range(2, 31)}
    create(page, "super-dice-heroes", {"1": "me", **seats}, {"rounds": "1"}, players=30)
    rows = page.locator("#webpic .scoreboard tbody tr")
    expect(rows).to_have_count(30)  # nobody has honor yet: seat 1 ranks first
    expect(page.locator("#webpic .scoreboard tbody tr", has_text="done")).to_have_count(29)
    expect(page.locator("#webpic .scoreboard tbody tr:visible")).to_have_count(10)
    expect(page.locator("#webpic .scoreboard tr.me")).to_be_visible()
    page.locator("#webpic input[data-filter]").fill("Hero 27")
    expect(page.locator("#webpic .scoreboard tbody tr:visible")).to_have_count(1)
    expect(page.locator("#webpic .scoreboard tbody tr:visible")).to_contain_text("Hero 27")
    shoot(page, "gladiatorium-game-sdh-crowd")
    page.locator("#webpic input[data-filter]").fill("")
    expect(page.locator("#webpic .scoreboard tbody tr:visible")).to_have_count(10)
    assert not page.js_errors and not watcher.js_errors  # type: ignore[attr-defined]
    context.close()
    watch_context.close()


# ----- Electron Gladiators ----------------------------------------------------------------------
def eg_turn(page: Page, seen: dict[str, int]) -> None:
    before = stamp(page)
    dodge = page.locator("#webpic .pic-prompt button.pic-button", has_text="Dodge to")
    if dodge.count():  # the Scout's dodge question
        seen["dodge"] += 1
        dodge.first.click()
        wait_changed(page, before)
        return
    vehicles = page.locator("#webpic g.sq.can")
    if seen["moves"] < 6 and vehicles.count():
        vehicle = vehicles.nth(seen["moves"] % vehicles.count())
        if seen["moves"] == 0:  # the keyboard: focus a vehicle, Enter selects it
            vehicle.focus()
            page.keyboard.press("Enter")
        else:
            vehicle.click()  # its reach is drawn and its controls open
        if page.locator("#picking").is_visible():
            expect(page.locator("#look-caption")).to_contain_text("Reach of the seat 1")
            assert page.locator("#webpic g.sq[data-mark]").count() > 0
            shown = page.locator("#webpic .vehicle-controls.shown")
            expect(shown.first).to_contain_text("speed points left")
            if seen["moves"] == 0:
                shoot(page, "gladiatorium-game-eg-select")
            second = shown.locator("button.second-gun.lit")
            shots = shown.locator("button.fire.lit")
            if second.count():
                seen["second"] += 1
                shoot(page, "gladiatorium-game-eg-fire")
                second.first.click()
            elif shots.count():
                seen["fire"] += 1
                shots.first.click()
            else:
                steps = shown.first.locator("button.step.lit")
                expect(steps.first).to_contain_text(re.compile(r"free|pts?$"))
                steps.last.click()
        seen["moves"] += 1
        wait_changed(page, before)
        return
    seen["end"] += 1
    page.locator("#webpic .pic-prompt button.pic-button").first.click()
    wait_changed(page, before)


def test_electron_gladiators_page_against_a_bot(browser: Browser, page_server: str) -> None:
    context, page = new_page(browser, page_server)
    register(page, "tankfan")
    match = create(page, "electron-gladiators", {"1": "me", "2": "bot:random"}, {"max_turns": "4"})
    expect(page.locator("#webpic svg.egarena")).to_be_visible()
    shoot(page, "gladiatorium-game-eg")
    # a spectator selects a vehicle to see its reach, and selects it again to hide it
    watch_context, watcher = new_page(browser, page_server)
    watcher.goto(f"/matches/{match}?seat=spectator")
    watcher.locator('#webpic g.sq[data-sq="G21"]').click()
    expect(watcher.locator("#look-caption")).to_contain_text("Heavy Tank-2 on G21")
    assert watcher.locator("#webpic g.sq[data-mark='d']").count() > 0
    assert watcher.locator("#webpic .vehicle-controls").count() == 0
    watcher.locator('#webpic g.sq[data-sq="G21"]').click()
    expect(watcher.locator("#webpic g.sq[data-mark]")).to_have_count(0)
    seen = {"moves": 0, "fire": 0, "second": 0, "dodge": 0, "end": 0}
    steps = 0
    while not over(page):
        steps += 1
        assert steps <= MAX_STEPS, f"the match did not end: {seen}"
        wait_turn(page)
        if not over(page):
            eg_turn(page, seen)
    expect(page.locator("#result")).to_contain_text(re.compile(r"Won by|Draw|lost"))
    assert seen["moves"] >= 1, seen
    shoot(page, "gladiatorium-game-eg-end")
    # a replay draws a vehicle's reach too, and plays nothing
    page.locator("#replay-link").click()
    page.locator('#webpic g.sq[data-sq="G21"]').click()
    expect(page.locator("#look-caption")).to_contain_text("on G21")
    assert page.locator("#webpic g.sq[data-mark]").count() > 0
    expect(page.locator("#step")).to_contain_text("step 0 of")
    assert not page.js_errors and not watcher.js_errors  # type: ignore[attr-defined]
    context.close()
    watch_context.close()


# ----- Hero Battle ------------------------------------------------------------------------------
def test_hero_battle_player_page_with_bots(browser: Browser, page_server: str) -> None:
    """A player (who also moderates) hits, hits and heals by clicking heroes; the round
    closes when every player moved; the player may edit the move until then."""
    context, page = new_page(browser, page_server)
    register(page, "battler")
    seats = {str(n): "bot:random" for n in range(2, 9)}
    seats.update({"1": "me", "moderator": "me"})
    create(page, "hero-battle", seats, {"starting_hp": "3", "max_rounds": "3"})
    expect(page.locator("#match")).to_have_attribute("data-seat", "1")
    rounds = 0
    steps = 0
    while not over(page):
        steps += 1
        assert steps <= MAX_STEPS, f"the battle did not end ({rounds} moves)"
        wait_turn(page)
        before = stamp(page)  # read before over(): a change after it shows as a new stamp
        if over(page):
            break
        mine = page.locator("#my-move")  # gone once my hero is dead
        if mine.count() and mine.inner_text() != "none yet":
            wait_changed(page, before)  # moved: wait for the round to close
            continue
        hits = page.locator("#webpic button.hit")
        if hits.count() == 0:  # my hero is out: abstain (or wait for the round)
            prompt = page.locator("#webpic .pic-prompt button")
            if prompt.count():
                prompt.first.click()
            wait_changed(page, before)
            continue
        heading = page.locator("#webpic .pic-head").inner_text()
        answered = acked(page)
        hits.first.click()
        if page.locator("#picking").is_visible():
            page.locator("#webpic button.hit.lit").nth(1).click()
        if page.locator("#picking").is_visible():
            if rounds == 0:
                shoot(page, "gladiatorium-game-hb-pick")
            page.locator("#webpic button.heal.lit").first.click()
        if page.locator("#picking:not([hidden]) .pick-choice").count():
            page.locator("#picking .pick-choice").first.click()
        rounds += 1
        # the page shows this move once it is answered, whatever came before it: the
        # move, or the next round if it closed this one
        page.wait_for_function(
            "n => +(document.getElementById('match').dataset.acked || 0) > n", arg=answered
        )
        assert page.locator("#errors").is_hidden()
        assert (
            over(page)
            or page.locator("#webpic .pic-head").inner_text() != heading
            or page.locator("#my-move").inner_text() != "none yet"
        )
    expect(page.locator("#result")).to_contain_text(re.compile(r"Won by|Draw|lost|heroes"))
    assert rounds >= 1
    expect(page.locator("#webpic .hb-history li").first).to_contain_text("Round")
    shoot(page, "gladiatorium-game-hb-end")
    assert not page.js_errors  # type: ignore[attr-defined]
    context.close()


# ----- every page on a phone, with the keyboard -------------------------------------------------
SHORT = {
    "superhero-gladiators": "sg",
    "gladiator-chess": "chess",
    "electron-gladiators": "eg",
    "super-dice-heroes": "sdh",
    "hero-battle": "hb",
}
PHONE_MATCHES: dict[str, dict[str, str]] = {
    "superhero-gladiators": {"1": "bot:greedy", "2": "me"},
    "gladiator-chess": {
        f"{team}-{cmd}": "me" if (team, cmd) == ("white", "king") else "bot:random"
        for team in ("white", "black")
        for cmd in ("king", "queen", "black-knight", "kings-knight")
    },
    "electron-gladiators": {"1": "me", "2": "bot:random"},
    "super-dice-heroes": {"1": "me", "2": "bot:random"},
    "hero-battle": {"1": "me", "moderator": "me", **{str(n): "bot:random" for n in range(2, 9)}},
}


def test_every_game_page_on_a_phone_with_the_keyboard(browser: Browser, page_server: str) -> None:
    """At 390 x 844 each game's page does not scroll sideways (a board wider than the
    screen scrolls in its own box), its controls lie on the screen, and Tab then Enter
    reach and use them with no mouse."""
    context = browser.new_context(
        base_url=page_server, viewport={"width": 390, "height": 844}, has_touch=True
    )
    context.set_default_timeout(STEP_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    register(page, "phoneplayer")
    for game, seats in PHONE_MATCHES.items():
        create(page, game, seats, {})
        wait_turn(page)
        assert my_move(page), game
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= 390, f"{game}: the page scrolls sideways ({wide} px)"
        # measured in one go in the page (another seat's move may replace the picture)
        left, right = page.evaluate(
            "() => { const r = document.getElementById('webpic').getBoundingClientRect();"
            " return [r.left, r.right]; }"
        )
        assert left >= 0 and right <= 390, f"{game}: the picture is wider than the screen"
        left, right = page.evaluate(
            "() => { const el = [...document.querySelectorAll('#webpic [data-acts]:not(.hint)')]"
            ".find((e) => e.getClientRects().length);"
            " el.scrollIntoView({ block: 'center', inline: 'center' });"
            " const r = el.getBoundingClientRect(); return [r.left, r.right]; }"
        )
        assert left >= 0 and right <= 390, f"{game}: a control lies off the screen"
        shoot(page, f"gladiatorium-game-{SHORT[game]}-phone")
        # the keyboard alone: Tab until a control of the picture has the focus, then Enter
        page.locator("body").focus()
        for _ in range(200):
            page.keyboard.press("Tab")
            if page.evaluate(
                "() => !!document.activeElement.closest('#webpic [data-acts]:not(.hint)')"
            ):
                break
        else:
            raise AssertionError(f"{game}: Tab never reaches a control of the picture")
        before, answered = stamp(page), acked(page)
        page.keyboard.press("Enter")
        page.wait_for_function(  # a choice opened, or the action was played and answered
            "([old, n]) => !document.getElementById('picking')?.hidden"
            " || +(document.getElementById('match').dataset.acked || 0) > n"
            " || document.getElementById('live').dataset.stamp !== old",
            arg=[before, answered],
        )
    assert not errors, errors
    context.close()

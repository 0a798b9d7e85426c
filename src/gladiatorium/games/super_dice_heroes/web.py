"""The web picture of a Super Dice Heroes match: the shared roll as dice to tap, my sheet
laid out like the printed one (six locations, their boxes, goals and minions; honor, power,
wild dice, bystanders), and the scoreboard (top ten and my row, so it stays usable at 100
players). Tap a die, then a lit location (move) or box (help). Built only from the sheet
(public), ``view(seat)`` and the seat's legal actions; every name escaped."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from gladiatorium.core import Code, OptionChoice, Seat, State, WebPresenter
from gladiatorium.core.web_parts import abbr, acts_attr, button, codes_by_name, e
from gladiatorium.games.super_dice_heroes.actions import POWER_LINES
from gladiatorium.games.super_dice_heroes.options import SuperDiceHeroesOptions
from gladiatorium.games.super_dice_heroes.render import goals_done
from gladiatorium.games.super_dice_heroes.sheet import Kind, Sheet
from gladiatorium.games.super_dice_heroes.state import SuperDiceHeroesState

MOVE = re.compile(r"^(\S+) (\d+) with (\d+)$")  # move / teleport L with D
HELP = re.compile(r"^help (\d+) at (\d+)$")
DIE_LAST = re.compile(r" (\d+)$")
TOP = 10


def web_picture(
    sheet: Sheet,
    view: dict[str, Any],
    legal: Sequence[str],
    seat: str | None,
    revealed: Sequence[Mapping[str, Any]] = (),
    over: bool = False,
) -> str:
    """``revealed``: the data of the public reveal events of the last round revealed
    (every hero's spends, made public together once everybody was done, R12)."""
    heroes: dict[str, dict[str, Any]] = view["heroes"]
    me = heroes.get(seat or "")
    die_acts: dict[int, list[str]] = {}
    place_acts: dict[int, list[str]] = {}
    box_acts: dict[int, list[str]] = {}
    other: list[str] = []
    for action in legal:
        if m := MOVE.match(action):
            place_acts.setdefault(int(m[2]), []).append(action)
            die_acts.setdefault(int(m[3]), []).append(action)
        elif m := HELP.match(action):
            die_acts.setdefault(int(m[1]), []).append(action)
            box_acts.setdefault(int(m[2]), []).append(action)
        else:
            other.append(action)
            m = DIE_LAST.search(action)
            if m and not action.startswith("choose "):
                die_acts.setdefault(int(m[1]), []).append(action)
    parts = ['<div class="sdh">']
    roll = " ".join(str(d) for d in view["roll"]) or "not rolled yet"
    parts.append(
        f'<p class="pic-head">Round {e(view["round"])} of {e(view["rounds"])}; '
        + ("the match is over; the last roll: " if over else "the shared roll: ")
        + f"<strong>{e(roll)}</strong></p>"
    )
    prompt = []
    if me is not None and me["dice"]:
        dice = []
        for original, value, spent in me["dice"]:
            changed = "" if original == value else f" (was {original})"
            acts = [] if spent else die_acts.get(int(value), [])
            label = f"{value}{changed}" + (" spent" if spent else "")
            klass = "die spent" if spent else "die"
            # dragged onto a location or box, as well as tapped
            shown = button(label, acts, None, klass, {"draggable": "true"} if acts else None)
            dice.append(shown if not spent else f'<span class="{klass}">{e(label)}</span>')
        prompt.append("<p>My dice (tap or drag one onto a lit location or box):</p>")
        prompt.append('<div class="buttons dice">' + "".join(dice) + "</div>")
    if other:
        buttons = []
        for action in other:
            if action.startswith("defeat minion with "):
                continue
            label = {"done": "Done for this round"}.get(action, action)
            words = action.split()
            power = _BY_NAME.get(words[1] if words[0] == "choose" else words[0])
            tip = {"title": power.tip} if power is not None else None
            buttons.append(button(label, [action], action, extra=tip))
        minions = [a for a in other if a.startswith("defeat minion with ")]
        if minions:
            buttons.append(button("Defeat a minion", minions))
        prompt.append('<div class="buttons">' + "".join(buttons) + "</div>")
    if prompt:
        parts.append('<div class="pic-prompt">' + "".join(prompt) + "</div>")
    if me is not None:
        parts.append(sheet_html(sheet, me, place_acts, box_acts))
    parts.append(scoreboard(view, seat, revealed))
    parts.append("</div>")
    return "".join(parts)


def sheet_html(
    sheet: Sheet,
    hero: dict[str, Any],
    place_acts: dict[int, list[str]],
    box_acts: dict[int, list[str]],
) -> str:
    done = goals_done(sheet, hero["marks"])
    power = power_abbr(hero["power"], "not chosen")
    head = (
        f'<p class="sheet-head"><strong>{e(hero["name"])}</strong> · honor '
        f"<strong>{e(hero['honor'])}</strong> · power {power} ({e(hero['powers_left'])} left)"
        f" · wild dice {e(hero['wild_earned'] - hero['wild_spent'])}"
        f" (earned {e(hero['wild_earned'])}) · bystanders {e(hero['bystanders'])}"
        + (" · <strong>done</strong>" if hero["done"] else "")
        + "</p>"
    )
    cards = []
    for loc, marks, goals, minions in zip(
        sheet.locations, hero["marks"], done, hero["minions"], strict=True
    ):
        here = hero["location"] == loc.number
        boxes = []
        for i, mark in enumerate(marks):
            printed = loc.numbers[i] if loc.kind is Kind.GRID and i < len(loc.numbers) else ""
            shown = ("X" if loc.kind is Kind.GRID else str(mark)) if mark else str(printed or "")
            acts = box_acts.get(i + 1, []) if here else []
            title = f"box {i + 1}" + (f", needs a {printed}" if printed else "")
            boxes.append(
                f'<span class="box{" marked" if mark else ""}"{acts_attr(acts)} '
                f'title="{e(title)}"><small>{i + 1}</small>{e(shown)}</span>'
            )
        width = (
            loc.width
            if loc.kind is Kind.GRID and loc.width
            else (2 if loc.kind is Kind.PAIRS else 5)
        )
        goal_items = "".join(
            f"<li{' class=done' if ok else ''}>{'✓ ' if ok else ''}{e(g.name)}"
            f"{' +' + str(g.honor) if g.honor else ''}{' W' if g.wild else ''}"
            f"{' B' if g.bystander else ''}</li>"
            for g, ok in zip(loc.goals, goals, strict=True)
        )
        robots = "●" * minions + "○" * (loc.minions - minions)
        acts = place_acts.get(loc.number, [])
        cards.append(
            f'<section class="card location{" here" if here else ""}" data-loc="{loc.number}">'
            f'<h3 class="loc-head"{acts_attr(acts)}>{loc.number} {e(loc.name)} '
            f'<span class="muted">({e(loc.kind.value)})</span>'
            + (' <strong class="badge">you are here</strong>' if here else "")
            + "</h3>"
            f'<div class="boxes" style="grid-template-columns:repeat({width},2.4rem)">'
            f"{''.join(boxes)}</div>"
            f'<ul class="plain goals">{goal_items}</ul>'
            f'<p class="muted">minions {e(robots) or "none"} ({minions} defeated)</p></section>'
        )
    return (
        f'<div class="sheet">{head}<div class="locations">{"".join(cards)}</div>'
        f"{sheet_bottom(sheet, hero)}</div>"
    )


def sheet_bottom(sheet: Sheet, hero: dict[str, Any]) -> str:
    """The bottom of the printed sheet: bystanders rescued, robot minions defeated, wild
    dice earned and spent, the power's uses, the honor (each with what it is worth)."""
    defeated = sum(hero["minions"])
    most = sum(loc.minions for loc in sheet.locations)
    wild_left = hero["wild_earned"] - hero["wild_spent"]
    rows = [
        (
            f"Bystanders ({sheet.bystander_honor} honor each)",
            "☺" * hero["bystanders"],
            f"{hero['bystanders']} rescued",
        ),
        (
            f"Robot minions ({sheet.minion_honor} honor each)",
            "✕" * defeated + "○" * max(0, most - defeated),
            f"{defeated} of {most} defeated",
        ),
        (
            "Wild dice",
            "■" * wild_left + "□" * hero["wild_spent"],
            f"{wild_left} to use, {hero['wild_spent']} used",
        ),
        (
            f"Power: {hero['power'] or 'not chosen'}",
            "●" * int(hero["powers_left"]),
            f"{hero['powers_left']} uses left",
        ),
    ]
    cells = "".join(
        f'<tr><th scope="row">{e(what)}</th><td class="tally-marks" aria-hidden="true">'
        f"{e(marks)}</td><td>{e(words)}</td></tr>"
        for what, marks, words in rows
    )
    return (
        f'<table class="sheet-bottom"><tbody>{cells}<tr class="total"><th scope="row">Honor</th>'
        f"<td></td><td><strong>{e(hero['honor'])}</strong></td></tr></tbody></table>"
    )


def scoreboard(
    view: dict[str, Any], seat: str | None, revealed: Sequence[Mapping[str, Any]]
) -> str:
    """Every hero ranked; only the top ten and my row are shown until the search box
    (a name, a power, a rank) finds others, so it stays usable at 100 players. Once a
    round is revealed, each hero's spends in it."""
    heroes: dict[str, dict[str, Any]] = view["heroes"]
    ranked = sorted(heroes.items(), key=lambda kv: (-kv[1]["honor"], kv[0]))
    spends = {str(r["seat"]): r for r in revealed}
    last = max((int(r["round"]) for r in revealed), default=0)
    rows = []
    hidden = 0
    for rank, (s, h) in enumerate(ranked, 1):
        state = "done" if h["done"] else "deciding" if s in view["awaiting"] else ""
        klass = " class=me" if s == seat else ""
        extra = "" if rank <= TOP or s == seat else " data-extra hidden"
        hidden += bool(extra)
        cells = (
            f"<td>{rank}</td><td>{e(h['name'])}</td><td>{e(h['honor'])}</td>"
            f"<td>{power_abbr(h['power'], '-')}</td><td>{e(state)}</td>"
        )
        if last:
            cells += f'<td class="spends">{e(spent_text(spends.get(s)))}</td>'
        rows.append(f"<tr{klass}{extra}>{cells}</tr>")
    more = (
        f'<p class="muted" data-filter-note>{hidden} more not shown: search to find them</p>'
        if hidden
        else ""
    )
    search = (
        '<label class="row filter">Find a hero <input type="search" id="sdh-find" '
        'data-filter="sdh-scores" autocomplete="off" placeholder="name, power or rank"></label>'
        if len(ranked) > TOP
        else ""
    )
    spent_head = f"<th>Round {last} spends (revealed)</th>" if last else ""
    return (
        f'<div class="scoreboard"><h3>Scoreboard</h3>{search}'
        '<table id="sdh-scores"><thead><tr><th>#</th><th>Hero</th><th>Honor</th>'
        f"<th>Power</th><th></th>{spent_head}</tr></thead><tbody>{''.join(rows)}</tbody>"
        f"</table>{more}</div>"
    )


#: the superpowers as codes: the rules page's section on them
POWER_CODES = tuple(
    Code(name, name.capitalize(), line, "the-rules-in-our-words")
    for name, line in POWER_LINES.items()
)
_BY_NAME = codes_by_name(POWER_CODES)


def power_abbr(power: str | None, blank: str) -> str:
    """A hero's power with its line as a tip (``blank`` when none is chosen yet)."""
    return abbr(power, _BY_NAME.get(power)) if power else e(blank)


def spent_text(reveal: Mapping[str, Any] | None) -> str:
    if reveal is None:
        return ""
    made = ", ".join(reveal["actions"]) or "no spend"
    left = len(reveal["unspent"])
    return made + (f"; {left} dice unspent" if left else "")


class SuperDiceHeroesWeb(WebPresenter):
    """Super Dice Heroes on the match page: the shared roll, my sheet, the scoreboard."""

    def codes(self) -> tuple[Code, ...]:
        """The six superpowers and what each does to a die."""
        return POWER_CODES

    def option_choices(self) -> dict[str, list[OptionChoice]]:
        """The shipped score sheet, or a sheet of the player's own (its YAML text)."""
        standard = OptionChoice(
            "standard", "standard (the rulebook's sheet)", {"sheet": "standard"}
        )
        own = OptionChoice("", "my own sheet (its YAML text, as in a sheet file)", {})
        return {"sheet": [standard, own]}

    def server_seat(self, seat: Seat) -> str:
        """A hero nobody plays: the round's deadline spends its dice by default."""
        return (
            "nobody: at each round's deadline the hero takes the first power offered, "
            "then the first spends until done"
        )

    def picture(self, state: State[SuperDiceHeroesOptions], seat: Seat | None) -> str | None:
        """The shared roll, my sheet and the scoreboard for the web page."""
        if not isinstance(state, SuperDiceHeroesState):
            return None
        legal = [str(a) for a in state.legal_actions(seat)] if seat is not None else []
        reveals = [
            event.data
            for event in state.events_for(seat)
            if event.kind == "reveal" and event.to is None
        ]
        last = max((int(r["round"]) for r in reveals), default=0)
        revealed = [r for r in reveals if int(r["round"]) == last]
        over = state.outcome() is not None
        return web_picture(state.sheet, state.view(seat), legal, seat, revealed, over=over)

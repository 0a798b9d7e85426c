"""Terminal pictures: one hero's sheet, whole or compact, and a scoreboard of all heroes.

Built from ``state.view(seat)`` (everything on the sheets is public) and the sheet
layout; no rules here. The compact picture (what the terminal shows at each prompt)
fits a 40-row terminal; ``sheet`` at the prompt shows the whole sheet.
"""

from __future__ import annotations

import re
from typing import Any

from gladiatorium.games.super_dice_heroes.sheet import Kind, Location, Sheet

#: how many rows the scoreboard shows in a big game (the viewer's own row always shows)
SCOREBOARD_ROWS = 12
#: how many leaders the compact picture's scoreboard shows (and the viewer's row)
COMPACT_ROWS = 3
#: the widest line of goals under a location (the sheet fits an 80-column terminal)
GOAL_WIDTH = 70
#: the most lines of open goals a location takes in the compact picture
COMPACT_GOAL_LINES = 2
#: a goal named by a word and a box or pair number (``box 3``, ``pair 2``)
NUMBERED = re.compile(r"^(\w+) (\d+)$")


def _reward(goal_honor: int, wild: int, bystander: int) -> str:
    parts = [f"+{goal_honor}"] if goal_honor else []
    parts += ["W"] * wild + ["B"] * bystander
    return "".join(parts) or "-"


def _box(number: int, text: str) -> str:
    return f"{number:>2}[{text}]"


def location_lines(loc: Location, marks: list[int], done: list[bool], minions: int) -> list[str]:
    """A location as a few lines: boxes with their numbers, goals and minions."""
    robots = "X" * minions + "." * (loc.minions - minions)
    head = f"{loc.number} {loc.name} ({loc.kind})  minions [{robots}]"
    lines = [head]
    if loc.kind is Kind.GRID:
        for start in range(0, loc.size, loc.width):
            cells = [
                _box(i + 1, "X" if marks[i] else str(loc.numbers[i]).lower())
                for i in range(start, start + loc.width)
            ]
            lines.append("   " + " ".join(cells))
    else:
        cells = [_box(i + 1, str(m) if m else " ") for i, m in enumerate(marks)]
        if loc.kind is Kind.PAIRS:
            cells = [f"{cells[i]}{cells[i + 1]}" for i in range(0, len(cells), 2)]
            lines.append("   " + "  ".join(cells))
        elif loc.kind is Kind.RUN:
            lines.append("   (bottom first) " + " ".join(cells))
        else:
            lines.append("   " + " ".join(cells))
    goals = [
        f"{'*' if ok else ' '}{g.name} {_reward(g.honor, g.wild, g.bystander)}"
        for g, ok in zip(loc.goals, done, strict=True)
    ]
    lines.extend("   " + line for line in _packed(goals, GOAL_WIDTH))
    return lines


def _packed(items: list[str], width: int, sep: str = " | ") -> list[str]:
    """Items joined by ``sep`` into lines of at most ``width`` characters (one item
    longer than that gets a line of its own)."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + len(sep) + len(item) <= width:
            lines[-1] += sep + item
        else:
            lines.append(item)
    return lines


def compact_location_lines(
    loc: Location, marks: list[int], done: list[bool], minions: int
) -> list[str]:
    """A location in two or three lines: its boxes in a few characters, its minions,
    and the goals not met yet (the first ones, when there are many)."""
    robots = "X" * minions + "." * (loc.minions - minions)
    head = f"{loc.number} {loc.name} ({loc.kind})  [{_signs(loc, marks)}]  minions [{robots}]"
    goals = _open_goals(loc, done)
    if not goals:
        return [head, "   every goal met"]
    lines = _packed(goals, GOAL_WIDTH, ", ")
    if len(lines) > COMPACT_GOAL_LINES:
        lines = _packed(goals, GOAL_WIDTH - 20, ", ")[:COMPACT_GOAL_LINES]
        shown = sum(line.count(", ") + 1 for line in lines)
        lines[-1] += f" and {len(goals) - shown} more"
    return [head, *("   " + line for line in lines)]


def _signs(loc: Location, marks: list[int]) -> str:
    """The boxes in a character each: a grid's printed numbers (X once marked) row by
    row; elsewhere the number written in each box (``.`` while empty), pairs apart."""
    if loc.kind is Kind.GRID:
        signs = ["X" if marks[i] else str(loc.numbers[i]) for i in range(loc.size)]
        step = loc.width
    else:
        signs = [str(m) if m else "." for m in marks]
        step = 2 if loc.kind is Kind.PAIRS else loc.size
    return " ".join("".join(signs[i : i + step]) for i in range(0, loc.size, step))


def _open_goals(loc: Location, done: list[bool]) -> list[str]:
    """``name reward`` for each goal not met; in a row of numbered goals the word is
    written once (``box 1 +2, 2 +2, 3 W``)."""
    items = []
    word = ""
    for goal, met in zip(loc.goals, done, strict=True):
        if met:
            continue
        numbered = NUMBERED.match(goal.name)
        name = numbered[2] if numbered and numbered[1] == word else goal.name
        word = numbered[1] if numbered else ""
        items.append(f"{name} {_reward(goal.honor, goal.wild, goal.bystander)}")
    return items


def goals_done(sheet: Sheet, marks: list[list[int]]) -> list[list[bool]]:
    return [
        [all(m[b] for b in g.boxes) for g in loc.goals]
        for loc, m in zip(sheet.locations, marks, strict=True)
    ]


def hero_text(
    sheet: Sheet, hero: dict[str, Any], round_: int, rounds: int, compact: bool = False
) -> str:
    """One hero's sheet as terminal text: whole (every box numbered, every goal), or
    compact (a line of boxes and the open goals per location)."""
    where = "the middle" if hero["location"] == 0 else sheet.location(hero["location"]).name
    power = hero["power"] or f"choose {' or '.join(hero['power_choices'])}"
    dice = " ".join(
        ("(" + str(value) + ")" if spent else str(value)) + ("*" if value != rolled else "")
        for rolled, value, spent in hero["dice"]
    )
    wild = hero["wild_earned"] - hero["wild_spent"]
    lines = [
        f"{hero['name']}  honor {hero['honor']}  round {round_}/{rounds}  at {where}",
        f"power {power} ({hero['powers_left']} uses left)  bystanders {hero['bystanders']}",
        f"wild dice {wild} (earned {hero['wild_earned']})  dice: {dice or '-'}  "
        "((n) spent, n* by a power)",
    ]
    done = goals_done(sheet, hero["marks"])
    for loc in sheet.locations:
        i = loc.number - 1
        mark = ">" if hero["location"] == loc.number else " "
        lines_of = compact_location_lines if compact else location_lines
        block = lines_of(loc, hero["marks"][i], done[i], hero["minions"][i])
        lines.append(mark + block[0])
        lines.extend(" " + line for line in block[1:])
    return "\n".join(lines)


def scoreboard_text(
    sheet: Sheet, view: dict[str, Any], me: str | None = None, rows: int = SCOREBOARD_ROWS
) -> str:
    """All heroes ranked by honor, one line each (the top ``rows`` and the viewer's)."""
    heroes = view["heroes"]
    ranked = sorted(heroes, key=lambda s: (-heroes[s]["honor"], int(s)))
    shown = ranked[:rows]
    if me is not None and me not in shown:
        shown.append(me)
    lines = [
        f"{'#':>3} {'seat':>4} {'hero':<16} {'honor':>5} {'at':<10} {'power':<14} {'by':>2} "
        f"{'mi':>2} {'wd':>2} state"
    ]
    for seat in shown:
        h = heroes[seat]
        at = "middle" if h["location"] == 0 else sheet.location(h["location"]).name
        power = f"{h['power'] or '?'} x{h['powers_left']}"
        state = "done" if seat not in view["awaiting"] else "deciding"
        lines.append(
            f"{ranked.index(seat) + 1:>3} {seat:>4} {h['name'][:16]:<16} {h['honor']:>5} "
            f"{at[:10]:<10} {power:<14} {h['bystanders']:>2} {sum(h['minions']):>2} "
            f"{h['wild_earned'] - h['wild_spent']:>2} {state}"
        )
    if len(ranked) > len(shown):
        more = len(ranked) - len(shown)
        lines.append(f"    ... {more} more {'hero' if more == 1 else 'heroes'}")
    return "\n".join(lines)


def match_text(sheet: Sheet, view: dict[str, Any], seat: str | None, compact: bool = False) -> str:
    """What the terminal shows a seat: the roll, its sheet and the scoreboard; compact,
    all of it fits a 40-row terminal."""
    parts = []
    roll = " ".join(map(str, view["roll"])) or "-"
    parts.append(f"round {view['round']}/{view['rounds']}  shared roll: {roll}")
    if seat is not None and seat in view["heroes"]:
        hero = view["heroes"][seat]
        parts.append(hero_text(sheet, hero, view["round"], view["rounds"], compact))
    if view["solo"]:
        parts.append(solo_text(sheet, view))
    rows = COMPACT_ROWS if compact else SCOREBOARD_ROWS
    parts.append(scoreboard_text(sheet, view, seat, rows))
    return "\n\n".join(parts)


def solo_text(sheet: Sheet, view: dict[str, Any]) -> str:
    """Solo play: the table of titles, the title the hero's honor reaches now marked,
    and the honor that saves the city when the house rule ``solo_target`` sets one."""
    (hero,) = view["heroes"].values()
    honor, target = hero["honor"], view["solo_target"]
    title = sheet.solo_title(honor)
    ranks = " | ".join(
        f"{'>' if name == title else ''}{name} {score}+" for score, name in sheet.solo_ranks
    )
    goal = f"{target} honor saves the city, " if target is not None else ""
    return f"solo: {goal}now {honor} honor, {title}\ntitles: {ranks}"

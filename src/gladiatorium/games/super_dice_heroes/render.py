"""Terminal pictures: one hero's sheet, and a compact scoreboard of all heroes.

Built from ``state.view(seat)`` (everything on the sheets is public) and the sheet
layout; no rules here.
"""

from __future__ import annotations

from typing import Any

from gladiatorium.games.super_dice_heroes.sheet import Kind, Location, Sheet

#: how many rows the scoreboard shows in a big game (the viewer's own row always shows)
SCOREBOARD_ROWS = 12
#: the widest line of goals under a location (the sheet fits an 80-column terminal)
GOAL_WIDTH = 70


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


def _packed(items: list[str], width: int) -> list[str]:
    """Items joined by ' | ' into lines of at most ``width`` characters (one item
    longer than that gets a line of its own)."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 3 + len(item) <= width:
            lines[-1] += " | " + item
        else:
            lines.append(item)
    return lines


def goals_done(sheet: Sheet, marks: list[list[int]]) -> list[list[bool]]:
    return [
        [all(m[b] for b in g.boxes) for g in loc.goals]
        for loc, m in zip(sheet.locations, marks, strict=True)
    ]


def hero_text(sheet: Sheet, hero: dict[str, Any], round_: int, rounds: int) -> str:
    """One hero's sheet as terminal text."""
    where = "the middle" if hero["location"] == 0 else sheet.location(hero["location"]).name
    power = hero["power"] or f"choose {' or '.join(hero['power_choices'])}"
    dice = " ".join(
        ("(" + str(value) + ")" if spent else str(value)) + ("*" if value != rolled else "")
        for rolled, value, spent in hero["dice"]
    )
    wild = hero["wild_earned"] - hero["wild_spent"]
    lines = [
        f"{hero['name']}  honor {hero['honor']}  round {round_}/{rounds}  at {where}",
        f"power {power} ({hero['powers_left']} uses left)  wild dice {wild} "
        f"(earned {hero['wild_earned']})  bystanders {hero['bystanders']}",
        f"dice: {dice or '-'}   ((n) spent, n* changed by a power)",
    ]
    done = goals_done(sheet, hero["marks"])
    for loc in sheet.locations:
        i = loc.number - 1
        mark = ">" if hero["location"] == loc.number else " "
        block = location_lines(loc, hero["marks"][i], done[i], hero["minions"][i])
        lines.append(mark + block[0])
        lines.extend(" " + line for line in block[1:])
    return "\n".join(lines)


def scoreboard_text(sheet: Sheet, view: dict[str, Any], me: str | None = None) -> str:
    """All heroes ranked by honor, one line each (the top rows and the viewer's)."""
    heroes = view["heroes"]
    ranked = sorted(heroes, key=lambda s: (-heroes[s]["honor"], int(s)))
    shown = ranked[:SCOREBOARD_ROWS]
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
        lines.append(f"    ... {len(ranked) - len(shown)} more heroes")
    return "\n".join(lines)


def match_text(sheet: Sheet, view: dict[str, Any], seat: str | None) -> str:
    """What the terminal shows a seat: its sheet, the roll and the scoreboard."""
    parts = []
    roll = " ".join(map(str, view["roll"])) or "-"
    parts.append(f"round {view['round']}/{view['rounds']}  shared roll: {roll}")
    if seat is not None and seat in view["heroes"]:
        parts.append(hero_text(sheet, view["heroes"][seat], view["round"], view["rounds"]))
    if view["solo"]:
        parts.append(solo_text(sheet, view))
    parts.append(scoreboard_text(sheet, view, seat))
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

"""Terminal picture of a match, built from a seat's view (rich markup; every name from a
hero file or a map is escaped, so it prints as typed)."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from gladiatorium.games.superhero_gladiators.arena import (
    COLUMNS,
    FIRE,
    FLOOR,
    LEGEND,
    PIT,
    WALL,
    parse_square,
)
from gladiatorium.games.superhero_gladiators.view_text import standing

TEAM_COLOURS = (
    "cyan",
    "red",
    "green",
    "yellow",
    "magenta",
    "blue",
    "white",
    "bright_red",
    "bright_cyan",
)


def _colour(team: str) -> str:
    return TEAM_COLOURS[(int(team) - 1) % len(TEAM_COLOURS)]


def map_lines(view: dict[str, Any]) -> list[str]:
    """The map, three characters a square: heroes by id (``1A``, ``^`` when flying,
    ``*`` when entangled)."""
    rows = view["map"]
    width = len(rows[0])
    at: dict[tuple[int, int], dict[str, Any]] = {}
    for hero in view["heroes"]:
        if hero["square"] and not hero["fainted"]:
            square = parse_square(hero["square"])
            assert square is not None
            at[square] = hero
    lines = ["    " + "".join(f" {COLUMNS[c]} " for c in range(width))]
    for r, row in enumerate(rows):
        cells = []
        for c, mark in enumerate(row):
            hero = at.get((c, r))
            if hero is None:
                shown = GLYPHS.get(mark, f" {mark} ")
                cells.append(shown.replace("[", r"\["))
                continue
            flag = "^" if hero["altitude"] else "*" if hero["entangled"] else " "
            cells.append(f"[bold {_colour(hero['team'])}]{hero['id']}{flag}[/]")
        lines.append(f"{r + 1:>3} " + "".join(cells))
    return lines


#: How each map mark is drawn (three characters a square).
GLYPHS = {FLOOR: " . ", WALL: "###", PIT: "~~~", FIRE: "%%%"}


def legend_line(rows: list[str]) -> str:
    """The marks this map uses, then the hero marks (A2)."""
    marks = "".join(rows)
    parts = [
        f"{GLYPHS[mark].strip()} {LEGEND[mark].split(' (')[0]}" for mark in GLYPHS if mark in marks
    ]
    if any(m.isdigit() for m in marks):
        parts.append("1-9 start squares")
    parts.append("1A hero (^ flying, * entangled)")
    return "legend: " + ", ".join(parts)


def hero_line(hero: dict[str, Any], actor: str) -> str:
    mark = ">" if hero["id"] == actor else " "
    if hero["fainted"]:
        return f"{mark} {hero['id']} {escape(hero['name'])}: fainted"
    state = [f"oomph {hero['oomph']}/{hero['max_oomph']}", *standing(hero)]
    powers = ", ".join(
        f"{n} {'inf' if u is None else u}" + (" (broken)" if n in hero["destroyed"] else "")
        for n, u in hero["uses"].items()
    )
    if hero["copied"]:
        powers += f"; copied {hero['copied']}"
    return (
        f"{mark} [bold {_colour(hero['team'])}]{hero['id']}[/] {escape(hero['name'])} "
        f"(combat {hero['combat']}, move {hero['movement']}): {', '.join(state)}\n"
        f"      {escape(powers)}"
    )


def render_state(view: dict[str, Any]) -> str:
    lines = [f"[bold]{escape(view['map_name'])}[/]  turn {view['turn']}, segment {view['segment']}"]
    lines += map_lines(view)
    lines.append(legend_line(view["map"]))
    lines += [hero_line(h, view["actor"]) for h in view["heroes"]]
    if view["placing"]:
        lines.append(f"placing {view['placing']}")
    for hit in view["pending"][:1]:
        what = f"{hit['damage']} damage" if hit["damage"] else ""
        if hit["entangle"]:
            what += (" and " if what else "") + f"entangle {hit['entangle']}"
        lines.append(
            f"{hit['target']} is hit by {hit['attacker']}'s {escape(hit['power'])} "
            f"({what or 'no damage'}): defend?"
        )
    if view["reveal_for"]:
        lines.append(f"{view['reveal_for']}: choose which unused hidden gizmo was noticed")
    return "\n".join(lines)

"""Why a typed Superhero Gladiators action is refused, in the rules' words (a hook of
the game definition, for the terminal and the web pages). Reads only the seat's view
and the legal actions."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

_WITH = re.compile(r"\bwith\s+(?:copied\s+)?(?P<power>.+)$")
_MOVE = re.compile(r"^move\s+(?P<square>[a-z]+\d+)(?:\s+up\s+\d+)?(?:\s+with\s+.*)?$")
_TARGET = re.compile(r"^(?:attack|heal|notice)\s+(?P<target>\S+)")


def why_refused(view: dict[str, Any], legal: Sequence[str], text: str) -> str | None:
    """The nearest legal reading of ``text`` or the rule that forbids it; None when
    there is nothing to add to the list of legal actions."""
    typed = " ".join(text.split())
    lowered = typed.lower()
    heroes = {h["id"].lower(): h for h in view.get("heroes", [])}
    actor = heroes.get(str(view.get("actor", "")).lower())
    if actor is None:
        return None
    if match := _WITH.search(typed):
        named = match["power"].split(" + ")
        for power in named:
            why = _power_problem(actor, power.strip())
            if why:
                return why
    if match := _MOVE.match(lowered):
        square = match["square"]
        problem = _square_problem(view, square)
        if problem:
            return problem
        longer = [a for a in legal if a.lower().startswith(f"move {square} ")]
        if longer and lowered == f"move {square}":
            return (
                f"{square} is beyond a walk from here: it needs a movement power; "
                f"type {' or '.join(repr(a) for a in longer[:3])}"
            )
        if not any(a.lower().startswith(f"move {square}") for a in legal):
            return (
                f"{actor['name']} cannot reach {square} this segment "
                f"(movement {actor.get('movement')}; 'legal move' lists the reachable squares)"
            )
    if match := _TARGET.match(lowered):
        target = heroes.get(match["target"])
        if target is None:
            ids = ", ".join(f"{h['id']} {h['name']}" for h in heroes.values())
            return f"no hero {match['target']!r}; heroes are named by id: {ids}"
        if target.get("fainted"):
            return f"{target['id']} {target['name']} has fainted"
    close = [a for a in legal if a.lower().startswith(lowered + " ")]
    if close:
        return f"did you mean {' or '.join(repr(a) for a in close[:3])}?"
    return None


def _power_problem(actor: dict[str, Any], power: str) -> str | None:
    uses = actor.get("uses", {})
    names = {name.lower(): name for name in uses}
    name = names.get(power.lower())
    if name is None:
        return f"{actor['name']} has no power {power!r}; powers: {', '.join(uses)}"
    if name in actor.get("destroyed", []):
        return f"{name} was destroyed"
    if uses[name] == 0:
        return f"{name} has no uses left"
    return None


def _square_problem(view: dict[str, Any], square: str) -> str | None:
    rows = view.get("map") or []
    if not rows:
        return None
    column, row = ord(square[0]) - ord("a"), int(square[1:]) - 1
    if len(square) < 2 or not (0 <= row < len(rows) and 0 <= column < len(rows[0])):
        last = f"{chr(ord('a') + len(rows[0]) - 1)}{len(rows)}"
        return f"{square} is off the map (a1 to {last})"
    cell = rows[row][column]
    if cell == "#":
        return f"{square} is a wall"
    return None

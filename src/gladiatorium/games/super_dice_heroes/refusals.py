"""Why a typed Super Dice Heroes action is refused, in the rules' words (a hook of the
game definition, for the terminal and the web pages). Reads only the seat's own view
and the public sheet."""

from __future__ import annotations

import re
from typing import Any

from gladiatorium.games.super_dice_heroes.sheet import Kind, Sheet

_HELP = re.compile(r"^(?P<wild>wild\s+)?help\s+(?P<die>\d+)\s+at\s+(?P<box>\d+)$")
_MOVE = re.compile(r"^move\s+(?P<to>\d+)\s+with\s+(?P<die>\d+)$")
_ORDER = {
    Kind.RUN: "fills from the bottom up",
    Kind.STEP: "fills left to right",
    Kind.CLIMB: "fills left to right",
}


def why_refused(sheet: Sheet, view: dict[str, Any], seat: str, text: str) -> str | None:
    """The rule that forbids ``text`` for ``seat`` now, or None when there is nothing
    to add to the list of legal actions."""
    hero = view["heroes"].get(seat)
    if hero is None or "marks" not in hero:
        return None
    typed = " ".join(text.lower().split())
    unspent = sorted(value for _, value, spent in hero["dice"] if not spent)
    dice = ", ".join(map(str, unspent)) or "none"
    if match := _HELP.match(typed):
        die, box = int(match["die"]), int(match["box"])
        if not match["wild"] and die not in unspent:
            return f"you have no unspent die showing {die} (your dice: {dice})"
        return _why_not_help(sheet, hero, die, box)
    if match := _MOVE.match(typed):
        to, die = int(match["to"]), int(match["die"])
        if die not in unspent:
            return f"you have no unspent die showing {die} (your dice: {dice})"
        here = hero["location"]
        if not 1 <= to <= len(sheet.locations):
            return f"the locations are 1 to {len(sheet.locations)}"
        if to == here:
            return f"you already stand at {sheet.location(here).name}"
        if die != to and die != here:
            return (
                f"a {die} moves you to location {die} ({sheet.location(die).name}), or "
                "anywhere when it matches where you stand"
                if 1 <= die <= len(sheet.locations)
                else f"a {die} moves you nowhere"
            )
    return None


def _why_not_help(sheet: Sheet, hero: dict[str, Any], die: int, box: int) -> str | None:
    here = hero["location"]
    if not 1 <= here <= len(sheet.locations):
        return "you stand at no location yet: move to one first (help fills a box where you stand)"
    loc = sheet.location(here)
    marks = hero["marks"][here - 1]
    if not 1 <= box <= loc.size:
        return f"the {loc.name} has boxes 1 to {loc.size}"
    if marks[box - 1]:
        return f"box {box} of the {loc.name} is already filled (with {marks[box - 1]})"
    if loc.kind is Kind.GRID:
        printed = loc.numbers[box - 1]
        if printed != die:
            fits = [str(i + 1) for i, n in enumerate(loc.numbers) if n == die and not marks[i]]
            where = f"; a {die} fits box {', '.join(fits)}" if fits else ""
            return f"box {box} of the {loc.name} shows {printed}: only a {printed} marks it{where}"
        return None
    if loc.kind is Kind.PAIRS:
        first = box - 1 - (box - 1) % 2
        partner = marks[first] if box - 1 != first else marks[first + 1]
        if box - 1 != first and not marks[first]:
            return f"a pair of the {loc.name} is started in its first box (box {first + 1})"
        if partner and partner != die:
            return f"the other box of that pair holds {partner}: a pair takes the same number"
        return None
    filled = next((i for i, v in enumerate(marks) if not v), len(marks))
    if box - 1 != filled:
        return f"the {loc.name} {_ORDER[loc.kind]}: the next box is {filled + 1}"
    last = marks[filled - 1] if filled else None
    if last is None:
        return None
    if loc.kind is Kind.RUN and die != marks[0]:
        return f"the {loc.name} takes only the number it began with ({marks[0]})"
    if loc.kind is Kind.STEP and abs(die - last) != 1:
        return f"the next number of the {loc.name} is one above or below {last}"
    if loc.kind is Kind.CLIMB and die < last:
        return f"the next number of the {loc.name} is {last} or higher"
    return None

"""Words both pictures of a match (terminal and web) use for what a seat's view says
of a hero."""

from __future__ import annotations

from typing import Any


def standing(hero: dict[str, Any]) -> list[str]:
    """How a hero in ``view(seat)["heroes"]`` stands: fainted, or where, its altitude,
    clinging to a wall, entangled (and by whom)."""
    if hero["fainted"]:
        return ["fainted"]
    words = [f"at {hero['square'] or '-'}"]
    if hero["altitude"]:
        words.append(f"altitude {hero['altitude']}")
    if hero["clinging"]:
        words.append("clinging to a wall")
    if hero["entangled"]:
        by = f" by {hero['grappler']}" if hero["grappler"] else ""
        words.append(f"entangled {hero['entangled']}{by}")
    return words

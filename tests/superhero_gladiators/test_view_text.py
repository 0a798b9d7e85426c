"""The terminal and the web picture describe a hero's standing in the same words."""

from __future__ import annotations

from typing import Any

from gladiatorium.games.superhero_gladiators.arena_render import hero_line
from gladiatorium.games.superhero_gladiators.view_text import standing
from gladiatorium.games.superhero_gladiators.web import hero_card


def hero(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "1A",
        "name": "Hoplite",
        "team": "1",
        "square": "c4",
        "altitude": 0,
        "clinging": False,
        "entangled": 0,
        "grappler": None,
        "fainted": False,
        "oomph": 20,
        "max_oomph": 30,
        "combat": 5,
        "movement": 4,
        "uses": {"Punch": None},
        "destroyed": [],
        "copied": None,
    }
    return base | changes


def test_standing_words() -> None:
    assert standing(hero()) == ["at c4"]
    assert standing(hero(fainted=True)) == ["fainted"]
    assert standing(hero(square=None)) == ["at -"]
    assert standing(hero(altitude=2, clinging=True, entangled=3, grappler="2B")) == [
        "at c4",
        "altitude 2",
        "clinging to a wall",
        "entangled 3 by 2B",
    ]
    assert standing(hero(entangled=1)) == ["at c4", "entangled 1"]


def test_both_pictures_use_them() -> None:
    clinging = hero(clinging=True, entangled=2, grappler="2B")
    words = ", ".join(standing(clinging))
    assert words == "at c4, clinging to a wall, entangled 2 by 2B"
    assert words in hero_line(clinging, actor="2B")
    assert words in hero_card(clinging, {"noticed": {}}, {}, False, {})

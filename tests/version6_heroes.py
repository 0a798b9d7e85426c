"""The version-6 sample Cowboy and Perseus, the default match until the samples were
balanced with the lab. Scenario tests, transcripts and positions written for that match
name these teams explicitly, so that they keep their meaning (the Cowboy wins it about
99 times in 100: docs/lab-balance.md)."""

from __future__ import annotations

from typing import Any, Final


def _hero(name: str, *powers: dict[str, Any], **attributes: int) -> dict[str, Any]:
    return {"name": name, "attributes": attributes, "powers": list(powers)}


#: The version-6 sample Cowboy against the version-6 sample Perseus (without their looks).
VERSION_6_TEAMS: Final[tuple[tuple[dict[str, Any], ...], ...]] = (
    (
        _hero(
            "Cowboy",
            {
                "name": "Six-shooter",
                "type": "distance",
                "styles": ["missile"],
                "level": 4,
                "uses": 6,
            },
            {"name": "Lasso", "type": "distance", "styles": ["entangling"], "level": 3, "uses": 4},
            {
                "name": "Saloon brawl",
                "type": "close",
                "gizmo": "none",
                "level": 2,
                "uses": "infinite",
            },
            {
                "name": "Trusty spurs",
                "type": "movement",
                "styles": ["speedy"],
                "level": 2,
                "uses": 10,
            },
            strength=4,
            dexterity=5,
            size=5,
            perception=1,
        ),
    ),
    (
        {
            **_hero(
                "Perseus",
                {
                    "name": "Head of Medusa",
                    "type": "distance",
                    "styles": ["entangling"],
                    "flaws": ["foiblish"],
                    "level": 4,
                    "uses": 1,
                },
                {
                    "name": "Harpe",
                    "type": "close",
                    "styles": ["piercing"],
                    "gizmo": "hidden",
                    "level": 3,
                    "uses": 15,
                },
                {
                    "name": "Polished shield",
                    "type": "defense",
                    "styles": ["missile-deflection"],
                    "level": 3,
                    "uses": 4,
                },
                {
                    "name": "Winged sandals",
                    "type": "movement",
                    "styles": ["flight"],
                    "level": 3,
                    "uses": 3,
                },
                strength=5,
                dexterity=2,
                size=4,
                perception=4,
            ),
            "bought": {"strength": 1},
        },
    ),
)


def version6_options(**values: Any) -> dict[str, Any]:
    """Option values of a match between the version-6 Cowboy and Perseus (``values``
    set the other options)."""
    return {"teams": [list(team) for team in VERSION_6_TEAMS], **values}

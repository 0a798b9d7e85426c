"""Sample matches of Superhero Gladiators for tests that play them whole: the default
match, other sample pairs, teams of three, four teams, other maps and house rules. The
heroes are the version-7 samples (tests/version7_heroes/), as they were when the matches'
digests were recorded, so that the pins keep their meaning when the shipped samples are
rebalanced; the default match is theirs too (the version-7 Cowboy against the version-7
Perseus)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gladiatorium.games.superhero_gladiators.hero_files import (
    SAMPLES_DIR,
    hero_to_data,
    load_hero_file,
)

MAPS = SAMPLES_DIR.parent / "maps"
#: the version-7 sample heroes, named as the shipped samples are
VERSION_7 = Path(__file__).resolve().parent.parent / "version7_heroes"


def teams(*names: str) -> list[list[dict[str, Any]]]:
    """One team per argument, of the version-7 sample heroes named (comma-separated)."""
    out = []
    for team in names:
        heroes = [load_hero_file(VERSION_7 / f"{stem}.yaml").hero for stem in team.split(",")]
        out.append([hero_to_data(hero) for hero in heroes if hero is not None])
    return out


def on_map(name: str) -> dict[str, str]:
    return {"map": (MAPS / f"{name}.txt").read_text(), "map_name": name}


#: the matches, by name
MATCHES: dict[str, dict[str, Any]] = {
    "default": {"teams": teams("cowboy", "perseus")},
    "barbarian v fred": {"teams": teams("barbarian", "fred-the-giant")},
    "wizard v stranger": {
        "teams": teams("wizard-of-the-wild-hair-cult", "stranger-of-solarium"),
    },
    "boar v archer": {"teams": teams("porcupine-boar-guy", "giant-rubber-cement-archer")},
    "threes on the colosseum": {
        "teams": teams(
            "cowboy,perseus,fred-the-giant",
            "barbarian,wizard-of-the-wild-hair-cult,porcupine-boar-guy",
        ),
        **on_map("colosseum"),
    },
    "four on the chasm": {
        "teams": teams("cowboy", "perseus", "stranger-of-solarium", "giant-rubber-cement-archer"),
        **on_map("chasm"),
    },
    "house rules on the pillars": {
        "teams": teams("stranger-of-solarium,cowboy", "perseus,giant-rubber-cement-archer"),
        **on_map("pillars"),
        "speedy_raises_cap": False,
        "area_radius": "table",
        "friendly_fire": False,
        "copy_on_any_hit": True,
    },
    "greedy wizards on the pillars": {
        "teams": teams(
            "wizard-of-the-wild-hair-cult,stranger-of-solarium", "perseus,porcupine-boar-guy"
        ),
        **on_map("pillars"),
    },
}


def players(options: dict[str, Any]) -> int:
    """The players of a match: one per team (two in the default match)."""
    return len(options.get("teams", ((), ())))

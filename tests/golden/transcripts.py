"""Seeded transcripts: a few random-bot matches of every registered game, kept as golden
data, so that any change to a game's rules, dice use or event text shows up as a diff.

Regenerate after an intended change (and say why in the commit):

    .venv/bin/python tests/golden/transcripts.py [SLUG ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SEEDS = (11, 12, 13)


def transcript(slug: str, seed: int) -> dict[str, Any]:
    """What one seeded random-bot match of ``slug`` produced, in brief."""
    if str(HERE.parent) not in sys.path:  # run as a script: tests/ holds contract.py
        sys.path.insert(0, str(HERE.parent))
    from contract import play_random
    from gladiatorium.core import get_game
    from gladiatorium.core.record import events_digest

    state = play_random(get_game(slug), seed)
    outcome = state.outcome()
    assert outcome is not None
    return {
        "seed": seed,
        "actions": len(state.history),
        "events": len(state.events),
        "last_events": [event.text for event in state.events[-3:]],
        "outcome": outcome.to_json(),
        "events_digest": events_digest(state),
    }


def golden_path(slug: str) -> Path:
    return HERE / f"{slug}.json"


def transcripts(slug: str) -> list[dict[str, Any]]:
    return [transcript(slug, seed) for seed in SEEDS]


def main(slugs: list[str]) -> None:
    from gladiatorium.core import games
    from gladiatorium.games import load

    load()
    for slug in slugs or [game.info.slug for game in games()]:
        text = json.dumps(transcripts(slug), indent=2, ensure_ascii=False) + "\n"
        golden_path(slug).write_text(text, encoding="utf-8")
        print(f"wrote {golden_path(slug)}")


if __name__ == "__main__":
    main(sys.argv[1:])

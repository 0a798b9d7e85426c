"""Texts for players shared by every game: the rules shipped with the package and
the end of a match in words."""

from __future__ import annotations

from importlib import resources
from typing import Any

from gladiatorium.core.events import Seat
from gladiatorium.core.state import State


def rules_text(slug: str) -> str | None:
    """``gladiatorium/rules/<slug>.md`` from the installed package, or None."""
    try:
        return (resources.files("gladiatorium.rules") / f"{slug}.md").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return None


def _score(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def default_summary(state: State[Any], seat: Seat | None, why: str) -> str:
    """ "You win: ...", "Seat 2 wins: ..." or "Draw: ...", then the scores, if any;
    ``why`` is the reason in words."""
    outcome = state.outcome()
    if outcome is None:
        return ""
    if outcome.draw:
        head = "Draw"
    elif outcome.lost:
        head = "You lose" if seat is not None else "Nobody wins"
    elif seat is not None and seat in outcome.winners:
        head = "You win" if len(outcome.winners) == 1 else "Your side wins"
    else:
        who = (
            f"team {outcome.team}"
            if outcome.team
            else " and ".join(f"seat {s}" for s in outcome.winners)
        )
        verb = "wins" if len(outcome.winners) == 1 or outcome.team else "win"
        head = f"{who} {verb}" if seat is None else f"You lose, {who} {verb}"
    lines = [f"{head}: {why}" if why else head]
    if outcome.scores:
        marks = []
        for s, value in outcome.scores:
            mark = " (you)" if s == seat else ""
            marks.append(f"seat {s}{mark} {_score(value)}")
        lines.append("Scores: " + ", ".join(marks))
    return "\n".join(lines)

"""Typed outcomes: who won, or a draw, and why."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gladiatorium.core.events import Seat


@dataclass(frozen=True)
class Outcome:
    """The end of a match. ``winners`` are seats; ``team`` names a winning team.

    No winners is a draw, unless ``lost`` says that every seat lost (a solo game
    whose target was missed, or a battle in which the last sides fell together).
    """

    winners: tuple[Seat, ...]
    reason: str
    team: str | None = None
    scores: tuple[tuple[Seat, float], ...] = ()
    lost: bool = False

    @property
    def draw(self) -> bool:
        return not self.winners and not self.lost

    @classmethod
    def win(
        cls,
        winners: Iterable[Seat],
        reason: str,
        team: str | None = None,
        scores: Mapping[Seat, float] | None = None,
    ) -> Outcome:
        seats = tuple(winners)
        if not seats:
            raise ValueError("a win needs at least one winning seat")
        return cls(seats, reason, team, tuple((scores or {}).items()))

    @classmethod
    def drawn(cls, reason: str, scores: Mapping[Seat, float] | None = None) -> Outcome:
        return cls((), reason, None, tuple((scores or {}).items()))

    @classmethod
    def all_lost(cls, reason: str, scores: Mapping[Seat, float] | None = None) -> Outcome:
        """Nobody won and it is no draw: every seat lost."""
        return cls((), reason, None, tuple((scores or {}).items()), lost=True)

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "team": self.team,
            "draw": self.draw,
            "lost": self.lost,
            "reason": self.reason,
            "scores": dict(self.scores),
        }


def standing(points: Mapping[Seat, float], scale: float) -> dict[Seat, float]:
    """How well each seat stands, from 0 to 1, from points where more is better
    (banked points, material, hit points): a logistic of the seat's lead over the best
    other seat, ``scale`` points of lead giving about 0.73. For a search's leaf."""
    out = {}
    for seat, mine in points.items():
        best_other = max((p for s, p in points.items() if s != seat), default=mine)
        lead = max(-50.0, min(50.0, (mine - best_other) / max(scale, 1e-9)))
        out[seat] = 1.0 / (1.0 + math.exp(-lead))
    return out

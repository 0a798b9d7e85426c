"""Typed outcomes: who won, or a draw, and why (a typed reason: the way the match ended
and the words that say it)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from gladiatorium.core.events import Seat


class Termination(Enum):
    """The kinds of ending of every game, as python-chess's ``Termination`` names a chess
    game's: what a program reads (the words are for people, see :class:`Ending`)."""

    TARGET = "target"  # a seat reached the points that win (Pig)
    CHECKMATE = "checkmate"  # a King checkmated (Gladiator Chess)
    KING_KILLED = "king killed"  # a King killed (Gladiator Chess)
    QUEEN_HELD = "queen held"  # a Queen held captive long enough (Gladiator Chess)
    KNOCKOUT = "knockout"  # one side is left standing
    FELL_TOGETHER = "fell together"  # the last ones standing fell at once
    NO_HARM = "no harm"  # sides are left, none of which can harm another
    QUIET_TURNS = "quiet turns"  # turns in a row without a loss
    TURN_LIMIT = "turn limit"  # the turn limit was reached
    ROUND_LIMIT = "round limit"  # the last round was played with several still standing
    SCORE = "score"  # the game ran its course and the points were counted
    TIME = "time"  # a seat ran out of time (the server adjudicates it)


#: a value that fills a blank of an ending's words (a turn, a limit, a name)
Filling = int | str


@dataclass(frozen=True)
class Reason:
    """Why one match ended: its kind of ending, the words that say it, and the values
    those words were filled with (``turn``, ``limit`` ...), for a program to read."""

    termination: Termination
    text: str
    values: tuple[tuple[str, Filling], ...] = ()

    def value(self, name: str) -> Filling | None:
        """The value of blank ``name`` in the words, None if they have none of that name."""
        return dict(self.values).get(name)

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict[str, Any]:
        return {
            "termination": self.termination.value,
            "text": self.text,
            "values": dict(self.values),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reason:
        values = tuple(
            (str(k), v if isinstance(v, int) else str(v)) for k, v in data["values"].items()
        )
        return cls(Termination(data["termination"]), str(data["text"]), values)


@dataclass(frozen=True)
class Ending:
    """One way a game ends: its kind and its words, with blanks (``{turn}``) filled for
    each match: ``TURN_LIMIT(turn=12)`` is the :class:`Reason` of a match that ended so."""

    termination: Termination
    words: str

    def __call__(self, **values: Filling) -> Reason:
        return Reason(self.termination, self.words.format(**values), tuple(values.items()))


@dataclass(frozen=True)
class Outcome:
    """The end of a match. ``winners`` are seats; ``team`` names a winning team.

    No winners is a draw, unless ``lost`` says that every seat lost (a solo game
    whose target was missed, or a battle in which the last sides fell together).
    """

    winners: tuple[Seat, ...]
    why: Reason
    team: str | None = None
    scores: tuple[tuple[Seat, float], ...] = ()
    lost: bool = False

    @property
    def draw(self) -> bool:
        return not self.winners and not self.lost

    @property
    def reason(self) -> str:
        """Why the match ended, in words."""
        return self.why.text

    @property
    def termination(self) -> Termination:
        """How the match ended, for a program."""
        return self.why.termination

    @classmethod
    def win(
        cls,
        winners: Iterable[Seat],
        why: Reason,
        team: str | None = None,
        scores: Mapping[Seat, float] | None = None,
    ) -> Outcome:
        seats = tuple(winners)
        if not seats:
            raise ValueError("a win needs at least one winning seat")
        return cls(seats, why, team, tuple((scores or {}).items()))

    @classmethod
    def drawn(cls, why: Reason, scores: Mapping[Seat, float] | None = None) -> Outcome:
        return cls((), why, None, tuple((scores or {}).items()))

    @classmethod
    def all_lost(cls, why: Reason, scores: Mapping[Seat, float] | None = None) -> Outcome:
        """Nobody won and it is no draw: every seat lost."""
        return cls((), why, None, tuple((scores or {}).items()), lost=True)

    def __repr__(self) -> str:
        """The reason shown as its words (an error about a finished match quotes it)."""
        return (
            f"Outcome(winners={self.winners!r}, reason={self.reason!r}, team={self.team!r}, "
            f"scores={self.scores!r}, lost={self.lost!r})"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "team": self.team,
            "draw": self.draw,
            "lost": self.lost,
            "reason": self.why.text,
            "scores": dict(self.scores),
        }


def side_places(
    winners: Iterable[Seat], scores: Mapping[Seat, float], sides: Sequence[Sequence[Seat]]
) -> list[int]:
    """Each side's place at the end, 1 the best, ties shared: a side that won first;
    when someone won, the other sides follow by score (honor, hit points: a side's best
    seat's) where the game keeps one; a draw or a match all lost puts every side level."""
    won = set(winners)
    keys = []
    for side in sides:
        score = max((scores.get(seat, 0.0) for seat in side), default=0.0)
        keys.append((0 if won & set(side) else 1, -score if won else 0.0))
    order = sorted(set(keys))
    return [order.index(key) + 1 for key in keys]


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

"""A seat's legal actions in a compact form, for a game whose list is the product of a few
choices (``Game.legal_form``): a hundred-player Hero Battle's move is two heroes to hit
and one to heal, some 500,000 notations, and its guesses a hero by a player, 10,000 more.
The form says the choices instead, and the whole list follows from it (:meth:`LegalForm.
actions`), in the order of the names it is given.

A form is made from what the seat may know, as its legal list is, and must tell it no
more than that list: its names are listed in an order every seat may know (the game's
public order), never in an order that follows a secret. Legality is still the engine's:
an action made from the form is checked on submit like any other.

The JSON form (``to_json``), which the server sends and the match page reads:

    {"listed": ["abstain"],
     "parts": [{"choose": [{"word": "hit", "count": 2, "names": [...], "repeat": [...]},
                           {"word": "heal", "count": 1, "names": [...], "repeat": []}],
                "apart": true},
               {"pair": {"word": "guess", "left": [...], "join": "=", "right": [...],
                         "taken": [[LEFT, RIGHT], ...]}}]}

- ``listed``: actions as they are written.
- ``choose``: one action made of picks, written ``WORD NAME, NAME WORD NAME`` (a pick of
  count 0 is left out): each pick takes ``count`` of its ``names``, in their order, a name
  more than once only if it is in ``repeat``; with ``apart``, no name in two picks.
- ``pair``: ``WORD LEFT<join>RIGHT`` for every left and right name, except the ``taken``
  pairs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations_with_replacement, pairwise
from typing import Any


@dataclass(frozen=True)
class Pick:
    """Choose ``count`` of ``names`` (in their order), a name more than once only if it
    is in ``repeat``."""

    word: str
    count: int
    names: tuple[str, ...]
    repeat: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "word": self.word,
            "count": self.count,
            "names": list(self.names),
            "repeat": list(self.repeat),
        }

    def chosen(self, left_out: frozenset[str]) -> Iterator[tuple[str, ...]]:
        """Every choice of this pick, among the names not ``left_out``."""
        names = [n for n in self.names if n not in left_out]
        repeat = set(self.repeat)
        for choice in combinations_with_replacement(names, self.count):
            if all(a != b or a in repeat for a, b in pairwise(choice)):
                yield choice


@dataclass(frozen=True)
class Choose:
    """One action made of several picks (Hero Battle's hits and heals)."""

    picks: tuple[Pick, ...]
    apart: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"choose": [p.to_json() for p in self.picks], "apart": self.apart}

    def actions(self) -> Iterator[str]:
        yield from self._from(0, frozenset(), [])

    def _from(self, index: int, used: frozenset[str], words: list[str]) -> Iterator[str]:
        if index == len(self.picks):
            yield " ".join(words)
            return
        pick = self.picks[index]
        if pick.count == 0:
            yield from self._from(index + 1, used, words)
            return
        for choice in pick.chosen(used if self.apart else frozenset()):
            said = f"{pick.word} {', '.join(choice)}"
            yield from self._from(index + 1, used | set(choice), [*words, said])


@dataclass(frozen=True)
class Pair:
    """``WORD LEFT<join>RIGHT`` for every pair but the ``taken`` ones (Hero Battle's
    guesses: a hero and the player it may belong to)."""

    word: str
    left: tuple[str, ...]
    right: tuple[str, ...]
    join: str = "="
    taken: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "pair": {
                "word": self.word,
                "left": list(self.left),
                "join": self.join,
                "right": list(self.right),
                "taken": [list(t) for t in self.taken],
            }
        }

    def actions(self) -> Iterator[str]:
        taken = set(self.taken)
        for left in self.left:
            for right in self.right:
                if (left, right) not in taken:
                    yield f"{self.word} {left}{self.join}{right}"


@dataclass(frozen=True)
class LegalForm:
    """A seat's legal actions: some listed whole, the rest as choices."""

    listed: tuple[str, ...] = ()
    parts: tuple[Choose | Pair, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"listed": list(self.listed), "parts": [p.to_json() for p in self.parts]}

    def actions(self) -> Iterator[str]:
        """Every action the form stands for: the listed ones, then each part's."""
        yield from self.listed
        for part in self.parts:
            yield from part.actions()

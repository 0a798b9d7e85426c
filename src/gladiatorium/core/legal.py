"""A seat's legal actions as a list whose actions are built only when read.

A random bot, a rollout or a count reads one action of a decision, or none: building
every action of a big decision (a Hero Battle round has hundreds of moves) to pick one
is most of a playout's time. A game hands out a :class:`LegalList` from its
``State._legal_list`` hook; everything else reads it as the tuple it stands for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import overload

from gladiatorium.core.action import Action


class LegalList(Sequence[Action]):
    """``count`` legal actions in order; ``make(index)`` builds the one at ``index``,
    once (reading it again gives the very same object).

    ``make`` reads only what it was handed when the list was made, never the live
    state: the list outlives the state's version (an observation hands it to a bot),
    and it must hold nothing the seat may not know.
    """

    __slots__ = ("_built", "_count", "_last", "_make")

    def __init__(self, count: int, make: Callable[[int], Action]) -> None:
        self._count = count
        self._make = make
        self._built: dict[int, Action] = {}
        self._last: Action | None = None  # the last one built: mostly the one drawn

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Action, ...]: ...

    def __getitem__(self, index: int | slice) -> Action | tuple[Action, ...]:
        if isinstance(index, int) and 0 <= index < self._count:
            action = self._built.get(index)
            if action is None:
                action = self._built[index] = self._last = self._make(index)
            return action
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._count)))
        if -self._count <= index < 0:
            return self[index + self._count]
        raise IndexError(f"legal action {index} of {self._count}")

    def __iter__(self) -> Iterator[Action]:
        return (self[i] for i in range(self._count))

    def handed_out(self, action: Action) -> bool:
        """``action`` is one of the very objects this list built."""
        return action is self._last or any(built is action for built in self._built.values())

    def __eq__(self, other: object) -> bool:
        """Equal to a tuple (or another list) of the same actions, as the tuple it
        stands for."""
        if isinstance(other, LegalList | tuple):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"LegalList({list(self)!r})"

"""Events: what happened, and who may see it. Visibility is decided here, once."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import FrozenInstanceError
from typing import Any

Seat = str


class Event:
    """One thing that happened. ``to`` is None for a public event, else the seats told.

    A frozen value. Every action makes one or two, so it is made cheaply: its four
    slots are each set once, by :meth:`__init__` (compiled, see mypyc.ini: 0.1 us an
    event, against 0.5 for this class in pure Python and 0.6 for a frozen dataclass)."""

    __slots__ = ("data", "kind", "text", "to")

    kind: str
    text: str
    data: Mapping[str, Any]
    to: frozenset[Seat] | None

    def __init__(
        self,
        kind: str,
        text: str,
        data: Mapping[str, Any] | None = None,
        to: frozenset[Seat] | None = None,
    ) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "data", {} if data is None else data)
        object.__setattr__(self, "to", to)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r} of an Event")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r} of an Event")

    def _fields(self) -> tuple[str, str, Mapping[str, Any], frozenset[Seat] | None]:
        return (self.kind, self.text, self.data, self.to)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Event:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"Event(kind={self.kind!r}, text={self.text!r}, data={self.data!r}, to={self.to!r})"

    def __reduce__(self) -> tuple[type[Event], tuple[Any, ...]]:
        """Copies and pickles are made through :meth:`__init__` (the slots refuse to be
        set any other way)."""
        return (Event, self._fields())

    def visible_to(self, seat: Seat | None) -> bool:
        """A public event reaches everyone; a private one only the seats named."""
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text, "data": dict(self.data)}
        if self.to is not None:
            out["to"] = sorted(self.to)
        return out

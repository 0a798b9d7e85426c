"""Events: what happened, and who may see it. Visibility is decided here, once."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Seat = str


@dataclass(frozen=True)
class Event:
    """One thing that happened. ``to`` is None for a public event, else the seats told."""

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    to: frozenset[Seat] | None = None

    def visible_to(self, seat: Seat | None) -> bool:
        """A public event reaches everyone; a private one only the seats named."""
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text, "data": dict(self.data)}
        if self.to is not None:
            out["to"] = sorted(self.to)
        return out

"""A fixed-length numeric encoding of what one seat knows, for learning agents.

Every game's view is a different JSON tree, so the generic encoding is the hashing
trick over *facts*: each leaf of the seat's view, and of its latest events, becomes a
fact named by its path (``view/banked/1=12``, ``event/0/kind=roll``), and each fact is
added to one of ``size`` slots chosen by a CRC-32 of its name, with a sign drawn from
the same hash (so that colliding facts tend to cancel rather than pile up). A number
also adds its magnitude, squashed into (-1, 1), under its path alone, so that nearby
values look alike. The sums are clipped to [-1, 1].

The encoding reads nothing but the arguments (the seat's view and its own events), so
it can hold nothing the seat may not know; CRC-32 is the same on every machine, so the
same view always gives the same vector. Its limits: two facts may share a slot (more
likely with a large view and a small ``size``), and only the latest ``recent`` events
are encoded (the view is meant to hold the rest).
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from gladiatorium.core import Event, Seat

#: a fact: its name, and what it adds (1 for a fact that holds, a magnitude for a number)
Fact = tuple[str, float]


def facts(value: Any, path: str) -> list[Fact]:
    """Every leaf of a JSON-like ``value`` as facts named under ``path``."""
    found: list[Fact] = []
    _add_facts(value, path, found)
    return found


def _add_facts(value: Any, path: str, found: list[Fact]) -> None:
    # appending to one list (not nested generators) keeps a big view cheap to encode
    if isinstance(value, dict):
        for key, item in value.items():
            _add_facts(item, f"{path}/{key}", found)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _add_facts(item, f"{path}/{index}", found)
    elif isinstance(value, bool) or value is None:
        found.append((f"{path}={'null' if value is None else str(value).lower()}", 1.0))
    elif isinstance(value, int | float):
        found.append((f"{path}={value}", 1.0))
        found.append((path, float(value) / (1.0 + abs(float(value)))))
    else:
        found.append((f"{path}={value}", 1.0))


def seat_facts(
    seat: Seat, view: dict[str, Any], events: Sequence[Event], recent: int
) -> list[Fact]:
    """The facts of one seat's observation: who it is, its view, its latest events
    (``event/0`` is the latest)."""
    found: list[Fact] = [(f"seat={seat}", 1.0)]
    _add_facts(view, "view", found)
    latest = list(events)[-recent:] if recent > 0 else []
    for age, event in enumerate(reversed(latest)):
        found.append((f"event/{age}/kind={event.kind}", 1.0))
        _add_facts(dict(event.data), f"event/{age}/data", found)
    return found


def hashed(found: Sequence[Fact], size: int) -> npt.NDArray[np.float32]:
    """The facts summed into ``size`` signed slots, clipped to [-1, 1]."""
    codes = np.fromiter((zlib.crc32(name.encode()) for name, _ in found), np.uint32, len(found))
    amounts = np.fromiter((amount for _, amount in found), np.float64, len(found))
    signs = np.where(codes & 0x80000000, 1.0, -1.0)
    slots = (codes % size).astype(np.int64)
    summed = np.bincount(slots, weights=amounts * signs, minlength=size)
    return np.clip(summed, -1.0, 1.0).astype(np.float32)


def encode(
    seat: Seat,
    view: dict[str, Any],
    events: Sequence[Event],
    size: int = 2048,
    recent: int = 8,
) -> npt.NDArray[np.float32]:
    """``size`` numbers in [-1, 1] encoding ``seat``'s view and its latest ``recent``
    events: see the module's text."""
    return hashed(seat_facts(seat, view, events, recent), size)

"""Tables kept for the whole process: what was worked out for objects that never change
in a match (its options, its map), found again by a key that names them by id."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class KeptByIdentity(Generic[K, V]):
    """Values by a key naming their owner by id. Each entry holds its owner, so an id
    met again is never read for another object that took it; a full table starts
    again (it never holds more than ``limit`` entries)."""

    __slots__ = ("_entries", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._entries: dict[K, tuple[object, V]] = {}

    def get(self, key: K, owner: object, make: Callable[[], V]) -> V:
        """The value kept under ``key`` for ``owner``, made (and kept) if there is none."""
        kept = self._entries.get(key)
        if kept is None or kept[0] is not owner:
            if len(self._entries) >= self.limit:
                self._entries.clear()
            kept = self._entries[key] = (owner, make())
        return kept[1]

    def __len__(self) -> int:
        return len(self._entries)

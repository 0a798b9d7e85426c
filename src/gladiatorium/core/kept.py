"""What the process keeps: tables of things worked out once and found again, by every
match that meets them (a hero's turn, a bot's choice, a stream's first draws, a
terrain's lines of sight). They are caches: emptying them never changes a result, only
how soon it comes.

Every table is registered here by name, with its owner (a game's slug, or ``core``) and
its bound (the most entries it holds; None: bounded by the game's own data, such as the
squares of a board). What they hold can be listed (:func:`report`), emptied
(:func:`empty`), scoped (:func:`scope`: a lab batch starts with empty tables) and set
aside (:func:`isolated`).

Threads (the server's bot drivers and request threads) share the tables: a look-up
takes no lock (one dict look-up, as fast as a plain dict), and every write (a miss:
something new was worked out) takes one lock for the whole process, :data:`WRITING`,
so that emptying a full table and adding to it happen as one step. Values are never
changed once kept, except where a value fills itself in lazily with what every thread
works out alike.
"""

from __future__ import annotations

import functools
import gc
import sys
import threading
import types
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
F = TypeVar("F", bound=Callable[..., Any])

#: the lock every write to a kept table takes (reads take none)
WRITING: Final = threading.Lock()


class Kept:
    """A table the process keeps, as the registry knows it."""

    def __init__(self, name: str, owner: str, bound: int | None, about: str) -> None:
        self.name = name
        self.owner = owner
        self.bound = bound
        self.about = about

    def entries_now(self) -> int:
        """How many entries it holds."""
        raise NotImplementedError

    def counts(self) -> tuple[int, int]:
        """Its hits and misses since it was last emptied."""
        raise NotImplementedError

    def empty(self) -> None:
        """Forget every entry (and the counts)."""
        raise NotImplementedError

    def contents(self) -> list[object]:
        """What its entries hold, for the measure of its memory."""
        raise NotImplementedError

    def set_aside(self) -> Callable[[], None]:
        """Empty it, and return what puts back what it held (see :func:`isolated`)."""
        self.empty()
        return lambda: None


class Table(Kept, Generic[K, V]):
    """A registered table of values by key: ``get`` is a plain look-up; ``keep`` adds
    an entry under :data:`WRITING`, a full table starting again (or, with
    ``oldest_out``, letting its oldest entry go)."""

    def __init__(
        self, name: str, owner: str, bound: int, about: str = "", oldest_out: bool = False
    ) -> None:
        super().__init__(name, owner, bound, about)
        self.limit = bound
        self.oldest_out = oldest_out
        self.entries: dict[K, V] = {}
        self.lookups = 0
        self.misses = 0
        register(self)

    def get(self, key: K) -> V | None:
        """The value kept under ``key``, or None."""
        self.lookups += 1
        return self.entries.get(key)

    def keep(self, key: K, value: V) -> V:
        """Keep ``value`` under ``key`` (replacing what was there) and return it. A
        table whose limit is 0 keeps nothing."""
        with WRITING:
            entries = self.entries
            self.misses += 1
            if self.limit <= 0:
                return value
            if self.oldest_out:
                entries.pop(key, None)
                if len(entries) >= self.limit:
                    del entries[next(iter(entries))]
            elif len(entries) >= self.limit:
                entries.clear()
            entries[key] = value
        return value

    def __len__(self) -> int:
        return len(self.entries)

    def entries_now(self) -> int:
        return len(self.entries)

    def counts(self) -> tuple[int, int]:
        # every entry is made after a look-up that found nothing (or found another
        # owner's): the look-ups that made nothing found what they sought
        return max(0, self.lookups - self.misses), self.misses

    def empty(self) -> None:
        with WRITING:
            self.entries.clear()
            self.lookups = self.misses = 0

    def contents(self) -> list[object]:
        return [self.entries]

    def set_aside(self) -> Callable[[], None]:
        with WRITING:
            held, lookups, misses = dict(self.entries), self.lookups, self.misses
        self.empty()

        def put_back() -> None:
            with WRITING:
                self.entries.clear()
                self.entries.update(held)
                self.lookups, self.misses = lookups, misses

        return put_back


class KeptByIdentity(Table[K, tuple[object, V]]):
    """Values by a key naming their owner by id. Each entry holds its owner, so an id
    met again is never read for another object that took it; a full table starts
    again (it never holds more than ``limit`` entries)."""

    def __init__(self, name: str, owner: str, limit: int, about: str = "") -> None:
        super().__init__(name, owner, limit, about)

    def made(self, key: K, owner: object, make: Callable[[], V]) -> V:
        """The value kept under ``key`` for ``owner``, made (and kept) if there is none."""
        self.lookups += 1
        kept = self.entries.get(key)
        if kept is None or kept[0] is not owner:
            kept = self.keep(key, (owner, make()))
        return kept[1]


class CachedFunction(Kept):
    """A function whose answers are kept (``functools.lru_cache``), registered."""

    def __init__(self, name: str, owner: str, bound: int | None, about: str, wrapper: Any) -> None:
        super().__init__(name, owner, bound, about)
        self.wrapper = wrapper

    def entries_now(self) -> int:
        return int(self.wrapper.cache_info().currsize)

    def counts(self) -> tuple[int, int]:
        info = self.wrapper.cache_info()
        return int(info.hits), int(info.misses)

    def empty(self) -> None:
        self.wrapper.cache_clear()

    def contents(self) -> list[object]:
        # the cache's own dict is among what the wrapper refers to (its entries reach
        # each key and answer); the function itself is not
        own = getattr(self.wrapper, "__dict__", None)  # its name and documentation
        return [r for r in gc.get_referents(self.wrapper) if isinstance(r, dict) and r is not own]


def cached(name: str, owner: str, bound: int | None, about: str = "") -> Callable[[F], F]:
    """``functools.lru_cache(maxsize=bound)``, registered as ``name``: the decorated
    function keeps its answers (``bound`` None: all of them, for functions of the
    game's fixed data)."""

    def wrap(function: F) -> F:
        wrapper = functools.lru_cache(maxsize=bound)(function)
        register(CachedFunction(name, owner, bound, about, wrapper))
        return wrapper  # type: ignore[return-value]

    return wrap


#: every table the process keeps, by name
_REGISTERED: dict[str, Kept] = {}


def register(table: Kept) -> None:
    """Register ``table`` (a module imported again replaces its tables)."""
    _REGISTERED[table.name] = table


def unregister(name: str) -> None:
    """Take the table ``name`` out of the registry (a table made for a test)."""
    _REGISTERED.pop(name, None)


def registered() -> list[Kept]:
    """Every table, by owner and name."""
    return sorted(_REGISTERED.values(), key=lambda t: (t.owner, t.name))


def empty() -> None:
    """Empty every table, as a fresh process starts."""
    for table in list(_REGISTERED.values()):
        table.empty()


#: how many scopes are open (a scope within another shares its tables)
_open_scopes = [0]


@contextmanager
def scope() -> Iterator[None]:
    """A batch of work that starts with empty tables (a lab batch, a ``duel``), as a
    fresh process would: its speed owes nothing to what ran before it in the process.
    A scope opened within another shares the outer one's tables (a benchmark that
    measures the tables kept from batch to batch opens one around them all)."""
    if _open_scopes[0] == 0:
        empty()
    _open_scopes[0] += 1
    try:
        yield
    finally:
        _open_scopes[0] -= 1


@contextmanager
def isolated() -> Iterator[None]:
    """Run with empty tables, and give the tables back what they held afterwards: work
    that must neither be helped by the process's tables nor change them (a test). Not
    for the server's threads, which share the tables while it runs."""
    put_back = [table.set_aside() for table in registered()]
    try:
        with scope():
            yield
    finally:
        for back in put_back:
            back()


@dataclass(frozen=True)
class TableReport:
    """One table in :func:`report`: its entries, hits, misses and memory."""

    name: str
    owner: str
    bound: int | None
    entries: int
    hits: int
    misses: int
    bytes: int
    about: str


def report(owner: str | None = None) -> list[TableReport]:
    """What every table (of ``owner``, if given) holds now. Memory is approximate: the
    bytes of what its entries reach (not types, modules or functions), each object
    once per table; what several tables reach is counted in each."""
    rows = []
    for table in registered():
        if owner is not None and table.owner not in (owner, "core"):
            continue
        hits, misses = table.counts()
        rows.append(
            TableReport(
                table.name,
                table.owner,
                table.bound,
                table.entries_now(),
                hits,
                misses,
                approximate_bytes(table.contents()),
                table.about,
            )
        )
    return rows


#: what the memory measure does not walk into: shared by the whole program
_NOT_WALKED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)
#: objects walked at most, per table
MAX_WALKED = 2_000_000


def approximate_bytes(roots: list[object]) -> int:
    """The bytes of ``roots`` and what they reach (see :func:`report`)."""
    seen: set[int] = set()
    total = 0
    todo = list(roots)
    while todo and len(seen) < MAX_WALKED:
        item = todo.pop()
        if id(item) in seen or isinstance(item, _NOT_WALKED):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item, 0)
        todo.extend(gc.get_referents(item))
    return total

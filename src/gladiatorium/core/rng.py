"""The seeded random generator every state owns (nothing reads a global RNG).

All draws go through :meth:`Rng.randint`, so a scenario can force exact dice with
:meth:`Rng.forced` and every other draw (choices, shuffles) follows the same queue. A
written position may name its next dice (:meth:`Rng.queue`): they are drawn first, then
the seed's stream goes on.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Iterable, MutableSequence, Sequence
from typing import Any, TypeVar

from gladiatorium.core.errors import ForcedDiceExhausted
from gladiatorium.core.kept import WRITING, Table

T = TypeVar("T")


def derive_seed(*parts: object) -> int:
    """A 63-bit seed derived from any parts, identical on every machine."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def entropy_seed() -> int:
    """A 63-bit seed from the operating system's entropy, for a match started without
    one: nobody can predict its dice or deal (a seed of 0 would repeat every match)."""
    return secrets.randbits(63)


class Rng:
    """A deterministic dice roller: seeded, or fed forced values in order."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._forced: list[int] | None = None
        #: whether the seed's stream goes on once the forced values are spent (values
        #: queued by a position) instead of refusing (a scenario's forced dice)
        self._then_seed = False
        #: the generator, made at the first draw from the seed (a copy of a match made
        #: for a bot may never roll, and making one costs as much as a bot's move)
        self._random: random.Random | None = None

    def generator(self) -> random.Random:
        """The generator (made now if no draw made it yet)."""
        made = self._random
        if made is None:
            made = self._random = self._made()
        return made

    def _made(self) -> random.Random:
        """A new generator, where the stream stands."""
        return random.Random(self.seed)

    def __deepcopy__(self, memo: dict[int, object]) -> Rng:
        """The same stream from here on: the generator's state is copied whole, in one
        piece (a generic deep copy walks its 625 numbers one by one); a generator not
        made yet is made by the copy when it first draws."""
        twin = _rebuilt(*self._parts())
        memo[id(self)] = twin
        return twin

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its seed, forced values and generator's state (compiled, an Rng is
        rebuilt through its constructor)."""
        return (_rebuilt, self._parts())

    def _parts(self) -> tuple[int, list[int] | None, Any, bool]:
        """What a copy or a pickle rebuilds the stream from (see :func:`_rebuilt`)."""
        generator = None if self._random is None else self._random.getstate()
        return (self.seed, self._forced, generator, self._then_seed)

    @classmethod
    def forced(cls, values: Iterable[int]) -> Rng:
        """An Rng that returns exactly ``values``, in order, then raises."""
        rng = cls(0)
        rng._forced = list(values)
        return rng

    def force(self, values: Iterable[int]) -> None:
        """Switch this Rng to forced values (used by scenario tests mid-game)."""
        self._forced = list(values)
        self._then_seed = False

    def queue(self, values: Iterable[int]) -> None:
        """Draw ``values`` next, in order, then go on with the seed's stream where it
        stands (a written position's ``dice``). Nothing queued: unchanged."""
        queued = list(values)
        if queued:
            self._forced = queued
            self._then_seed = True

    def next_dice(self) -> list[int]:
        """The values that will be drawn next whatever the seed (forced or queued), in
        order: what a written position keeps as its ``dice``."""
        return [] if self._forced is None else list(self._forced)

    @property
    def forced_left(self) -> int:
        return len(self._forced) if self._forced is not None else 0

    def randint(self, low: int, high: int) -> int:
        """A whole number from ``low`` to ``high`` inclusive."""
        if self._forced is None:
            return self._draw(low, high)
        if not self._forced and self._then_seed:  # the queued values are spent
            self._forced = None
            self._then_seed = False
            return self._draw(low, high)
        if not self._forced:
            raise ForcedDiceExhausted(f"no forced value left for a draw in {low}..{high}")
        value = self._forced.pop(0)
        if not low <= value <= high:
            raise ForcedDiceExhausted(f"forced value {value} is outside {low}..{high}")
        return value

    def _draw(self, low: int, high: int) -> int:
        """``random.Random.randint(low, high)``, the same draw without its two layers
        of checks (every die and every random bot's pick goes through here): as
        ``randrange``, the smallest number of random bits that holds the range's size,
        drawn again until it falls within it."""
        made = self._random
        if made is None:
            made = self.generator()
        size = high - low + 1
        if size < 1:
            return made.randint(low, high)  # the standard library's refusal
        bits = size.bit_length()
        value = made.getrandbits(bits)
        while value >= size:
            value = made.getrandbits(bits)
        return low + value

    def d(self, sides: int) -> int:
        """One die with ``sides`` faces."""
        return self.randint(1, sides)

    def roll(self, count: int, sides: int) -> list[int]:
        """``count`` dice with ``sides`` faces each."""
        return [self.d(sides) for _ in range(count)]

    def choice(self, items: Sequence[T]) -> T:
        count = len(items)  # once: a lazy legal list counts in Python
        if not count:
            raise ValueError("cannot choose from an empty sequence")
        if self._forced is None:  # as randint draws it, without its layer
            return items[self._draw(0, count - 1)]
        return items[self.randint(0, count - 1)]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place, drawing through :meth:`randint`."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(0, i)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]

    def spawn(self, *salt: object) -> Rng:
        """An independent stream derived from this one's seed and ``salt``."""
        return Rng(derive_seed(self.seed, *salt))

    @classmethod
    def remembered(cls, seed: int) -> Rng:
        """An Rng that draws exactly as ``Rng(seed)`` does, whose first draws are
        remembered for every Rng made so from the same seed in this process: a stream
        started over and over from a few seeds (a bot's world is drawn from a seed
        derived from the seat and how much it has seen) mostly reads its draws from
        there instead of seeding a generator, which costs as much as a bot's move."""
        return _Remembered(seed)


#: a remembered draw: its value, and the draws remembered after it by range (None:
#: no more are remembered on this path)
_Node = dict[tuple[int, int], tuple[int, "_Node | None"]]

#: how many draws of a stream are remembered, at most
REMEMBERED_DRAWS = 16
#: the streams remembered, by seed, at most
REMEMBERED_SEEDS = 4096
#: the first draws of streams, by seed (see :meth:`Rng.remembered`)
_REMEMBERED: Table[int, _Node] = Table(
    "core.rng.remembered", "core", REMEMBERED_SEEDS, "the first draws of bots' world streams"
)


class _Remembered(Rng):
    """See :meth:`Rng.remembered`. Until a draw is not remembered it reads them; then
    the generator is made, brought to where the stream stands (the draws so far made
    again), and draws from there on, remembering what it draws."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        node = _REMEMBERED.get(seed)
        if node is None:
            node = _REMEMBERED.keep(seed, {})
        self._node: _Node | None = node
        self._depth = 0  # draws so far
        self._drawn: list[tuple[int, int]] = []  # the ranges read, before a generator

    def _made(self) -> random.Random:
        """The generator, made at the first draw not remembered (or when asked for:
        a copy, the state's fingerprint), brought to where the stream stands."""
        made = self._random = random.Random(self.seed)
        for low, high in self._drawn:
            Rng._draw(self, low, high)
        return made

    def __deepcopy__(self, memo: dict[int, object]) -> Rng:
        """A plain Rng with the same stream from here on."""
        self.generator()  # made, and brought to where the stream stands
        return super().__deepcopy__(memo)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a plain Rng with the same stream from here on."""
        self.generator()
        return super().__reduce__()

    def _draw(self, low: int, high: int) -> int:
        node = self._node
        if node is None:
            return Rng._draw(self, low, high)
        drawn = (low, high)
        found = node.get(drawn)
        live = self._random is not None
        if live or found is None:  # the generator draws it
            value = Rng._draw(self, low, high)
            if found is None:
                deeper = self._depth + 1 < REMEMBERED_DRAWS
                with WRITING:  # threads share the tree: the first draw kept stays
                    found = node.setdefault(drawn, (value, {} if deeper else None))
        else:  # read: the generator, when made, draws it again
            self._drawn.append(drawn)
        self._depth += 1
        self._node = found[1]
        return found[0]


def _rebuilt(seed: int, forced: list[int] | None, generator: Any, then_seed: bool = False) -> Rng:
    """An Rng with the stream of the one whose ``Rng._parts`` these are: a copy or an
    unpickled one (the forced values and the generator's state copied whole)."""
    rng = Rng(seed)
    rng._forced = None if forced is None else list(forced)
    rng._then_seed = then_seed
    if generator is not None:
        rng._random = random.Random()
        rng._random.setstate(generator)
    return rng

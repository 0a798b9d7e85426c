"""The state contract every game fulfils, with engine-wide policy enforced once here."""

from __future__ import annotations

import copy
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Self, TypeVar

from mypy_extensions import mypyc_attr
from pydantic import BaseModel

from gladiatorium.core.action import Action
from gladiatorium.core.errors import GameOver, IllegalAction, NotYourTurn
from gladiatorium.core.events import Event, Seat
from gladiatorium.core.legal import LegalList
from gladiatorium.core.outcome import Outcome
from gladiatorium.core.rng import Rng

OptT = TypeVar("OptT", bound=BaseModel)


#: how a copy takes a field it copies: the original's value in, the copy's out
Copier = Callable[[Any], Any]


class Copying:
    """What a copy of a state shares with it and what it copies, field by field, declared
    once by each game as its state's ``COPYING``:

    - ``shared``: values the copy holds as they are, the very same objects: immutable
      values (numbers, words, tuples, frozen records) and set-up data no move changes
      (a map, hero cards, the turn order);
    - ``copied``: each field that changes in place, with how it is copied (``list``,
      ``dict``, a copy method, ``copy.deepcopy``, or a function for containers of
      things copied one by one);
    - ``caches``: what one version of the state worked out for itself, with the empty
      value a copy (or a pickle) starts from.
    """

    def __init__(
        self,
        shared: Iterable[str] = (),
        copied: Mapping[str, Copier] | None = None,
        caches: Mapping[str, Callable[[], Any]] | None = None,
    ) -> None:
        self.shared = frozenset(shared)
        self.copied: dict[str, Copier] = dict(copied or {})
        self.caches: dict[str, Callable[[], Any]] = dict(caches or {})
        named = [*self.shared, *self.copied, *self.caches]
        twice = sorted({name for name in named if named.count(name) > 1})
        if twice:
            raise ValueError(f"COPYING: {', '.join(twice)} declared more than once")
        engine = sorted(set(named) & set(ENGINE_FIELDS))
        if engine:
            raise ValueError(f"COPYING: {', '.join(engine)} is the engine's (see State.clone)")
        #: each field declared, with how a copy takes it: None to share it
        plan: dict[str, Copier | None] = dict.fromkeys(sorted(self.shared))
        plan.update(self.copied)
        for name, empty in self.caches.items():
            plan[name] = _emptied(empty)
        #: every field declared, in name order
        self.fields = tuple(sorted(plan))
        #: ``plan`` and the engine's fields, which :meth:`State.clone` takes itself
        #: (pure Python, they are in the ``__dict__`` with the game's)
        self.plan: dict[str, Copier | None] = {**dict.fromkeys(ENGINE_FIELDS, _engine), **plan}


def _emptied(empty: Callable[[], Any]) -> Copier:
    """A copier that leaves a cache behind: the copy starts from ``empty()``."""
    return lambda _value: empty()


def _engine(value: Any) -> Any:
    """Stands for an engine's field in a plan: :meth:`State.clone` takes those itself."""
    return value


def _undeclared(value: Any) -> Any:
    """How a copy takes a field its game does not declare: a whole deep copy."""
    return copy.deepcopy(value)


#: the engine's attributes of every state (see :meth:`State.clone`)
ENGINE_FIELDS = (
    *("options", "players", "seed", "rng", "events", "history", "position", "revision"),
    *("_legal_memo", "_told"),
)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (mypyc.ini): games derive from it
class State(ABC, Generic[OptT]):
    """A game in progress.

    Games implement the ``_``-prefixed hooks and :meth:`view`; callers use
    :meth:`apply` / :meth:`act`, which refuse finished games, seats that are not
    awaited and illegal actions with a clear error, leaving the state unchanged.
    """

    def __init__(self, options: OptT, players: int, seed: int) -> None:
        self.options = options
        self.players = players
        self.seed = seed
        self.rng = Rng(seed)
        self.events: list[Event] = []
        self.history: list[tuple[Seat, Action]] = []
        #: the written position the match started from (None: the game's own start)
        self.position: str | None = None
        #: how many actions were applied: a state changes only through :meth:`apply`
        self.revision = 0
        self._legal_memo: _LegalMemo | None = None
        self._told = _SeatLogs()

    # ----- hooks a game implements -------------------------------------------------
    @property
    @abstractmethod
    def seats(self) -> tuple[Seat, ...]:
        """Every seat of this match, in table order."""

    @abstractmethod
    def _awaiting(self) -> tuple[Seat, ...]:
        """Seats that must decide now (several for simultaneous play)."""

    @abstractmethod
    def legal_actions(self, seat: Seat) -> Sequence[Action]:
        """Every action ``seat`` may take now (empty if it is not awaited or the match is
        over: :meth:`apply` relies on it)."""

    @abstractmethod
    def _apply(self, seat: Seat, action: Action) -> None:
        """Carry out a legal action (legality was checked by :meth:`apply`)."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the match is over, else None."""

    @abstractmethod
    def view(self, seat: Seat | None) -> dict[str, Any]:
        """JSON-able picture of the match built only from what ``seat`` may know
        (``None`` is a spectator)."""

    def illegal_reason(self, seat: Seat, action: Action) -> str | None:
        """Why ``action`` is illegal for ``seat`` now, or None if it is legal.

        The default checks membership in :meth:`legal_actions`; games with large
        action spaces override it with a direct check and a sharper message.
        """
        if action in self.legal_actions(seat):
            return None
        return f"{action} is not a legal action for seat {seat} now"

    # ----- the cheap path for bots and playouts ---------------------------------------
    def legal_now(self, seat: Seat) -> Sequence[Action]:
        """:meth:`legal_actions` of ``seat``, kept until the state changes: read it, never
        edit it. An action taken from it is applied without being checked again."""
        return self._kept(seat).actions

    def _kept(self, seat: Seat) -> _LegalMemo:
        """The kept legal list of ``seat`` in this version of the state, made if need be."""
        memo = self._legal_memo
        if memo is None or not memo.complete or not memo.holds(self, seat):
            memo = self._legal_memo = _LegalMemo(self, seat, self._legal_list(seat))
        return memo

    def _legal_list(self, seat: Seat) -> Sequence[Action]:
        """:meth:`legal_actions` as :meth:`legal_now` keeps it: a tuple, or (a game whose
        decisions are big) a :class:`LegalList` that builds an action only when it is
        read, so that a count or a random draw builds one or none."""
        return tuple(self.legal_actions(seat))

    def legal_count(self, seat: Seat) -> int:
        """How many legal actions ``seat`` has now (a game may count without building
        them)."""
        return len(self.legal_now(seat))

    def sample_legal(self, seat: Seat, rng: Rng) -> Action:
        """A uniformly random legal action of ``seat``, drawn with ``rng``: the action at
        ``rng.choice`` in :meth:`legal_actions` order (a game may override it to pick
        without building them all, drawing the same)."""
        memo = self._kept(seat)
        drawn = memo.drawn = rng.choice(memo.actions)  # found at once when it is applied
        return drawn

    def _vouch(self, seat: Seat, action: Action) -> None:
        """A game that drew ``action`` from its legal actions without building them all
        (its :meth:`sample_legal`) says so: it is applied without a second check."""
        self._legal_memo = _LegalMemo(self, seat, (action,), complete=False)

    def _taken_from_legal(self, seat: Seat, action: Action) -> bool:
        """``action`` is one of the very objects :meth:`legal_now` handed out for ``seat``
        in this state: legal without a check."""
        memo = self._legal_memo
        return memo is not None and memo.has(action) and memo.holds(self, seat)

    def secrets_for(self, seat: Seat | None) -> set[str]:
        """Strings that ``seat`` may not know (for the leak tests); none by default."""
        return set()

    # ----- engine-wide policy ------------------------------------------------------
    def awaiting(self) -> tuple[Seat, ...]:
        return () if self.is_over else self._awaiting()

    def deciding(self) -> tuple[Seat, ...]:
        """The awaited seats the match is waiting on, in the order of :meth:`awaiting`:
        a seat that may still act but need not (a Hero Battle player who has moved may
        edit until the round closes) is awaited but not deciding."""
        return self.awaiting()

    @property
    def is_over(self) -> bool:
        return self.outcome() is not None

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat``; returns the new events.

        Raises :class:`GameOver`, :class:`NotYourTurn` or :class:`IllegalAction`
        without changing anything. An action taken from the seat's kept list
        (:meth:`legal_now`) needs none of these checks: a seat has legal actions only
        while it is awaited in a match in progress, and the state is as it was when the
        list was made.
        """
        if not self._taken_from_legal(seat, action):
            self._refuse_illegal(seat, action)
        start = len(self.events)
        self.revision += 1
        self._legal_memo = None
        self._apply(seat, action)
        self.history.append((seat, action))
        return self.events[start:]

    def _refuse_illegal(self, seat: Seat, action: Action) -> None:
        """Raise why ``seat`` may not take ``action`` now, if it may not."""
        if self.is_over:
            raise GameOver(f"the match is over ({self.outcome()}); no more actions")
        awaited = self._awaiting()
        if seat not in awaited:
            raise NotYourTurn(f"seat {seat} is not to act now; waiting for {', '.join(awaited)}")
        reason = self.illegal_reason(seat, action)
        if reason is not None:
            raise IllegalAction(reason)

    def parse(self, seat: Seat, text: str) -> Action:
        """The legal action of ``seat`` whose notation is ``text`` (case and spacing
        ignored), or an error that says why there is none."""
        wanted = " ".join(text.split()).lower()
        if not wanted:
            raise IllegalAction("empty action")
        if self.is_over:
            raise GameOver("the match is over; no more actions")
        if seat not in self._awaiting():
            raise NotYourTurn(
                f"seat {seat} is not to act now; waiting for {', '.join(self._awaiting())}"
            )
        legal = self.legal_actions(seat)
        for action in legal:
            if " ".join(str(action).split()).lower() == wanted:
                return action
        hint = ", ".join(str(a) for a in legal[:8]) + (" ..." if len(legal) > 8 else "")
        raise IllegalAction(
            f"{text.strip()!r} is not a legal action for seat {seat}; legal: {hint}"
        )

    def act(self, seat: Seat, text: str) -> list[Event]:
        """Parse ``text`` in the game's notation and apply it."""
        return self.apply(seat, self.parse(seat, text))

    def emit(
        self,
        kind: str,
        text: str,
        to: Seat | Sequence[Seat] | None = None,
        **data: Any,
    ) -> Event:
        """Record an event; ``to`` limits who sees it (None: everyone)."""
        seen = None if to is None else frozenset([to] if isinstance(to, str) else to)
        event = Event(kind, text, data, seen)
        self.events.append(event)
        return event

    def events_for(self, seat: Seat | None) -> list[Event]:
        """The event log as ``seat`` may see it (a new list; each event is looked at
        once per seat as the log grows)."""
        return list(self._told.of(self.events, seat))

    def count_events_for(self, seat: Seat | None) -> int:
        """How many events ``seat`` may see: ``len(events_for(seat))`` without the copy."""
        return len(self._told.of(self.events, seat))

    #: what a copy of this state shares with it and what it copies, field by field
    #: (the game's fields: the engine's are the same for every game, see :meth:`clone`)
    COPYING: ClassVar[Copying] = Copying()

    def clone(self, reseed: int | None = None) -> Self:
        """An independent copy: a change to either never shows in the other. With
        ``reseed`` the copy rolls a fresh stream, so a bot searching on it cannot see the
        real future dice.

        The engine's fields are taken the same way for every game: the options and the
        numbers are shared, the past events and actions (frozen values) are shared in new
        lists, the dice copied, the kept legal list and seat logs left behind. The game's
        fields are taken as its :attr:`COPYING` says; a field it does not declare is
        deep-copied."""
        twin = self._blank()
        twin.options = self.options
        twin.players = self.players
        twin.seed = self.seed
        twin.position = self.position
        twin.revision = self.revision
        twin.rng = self.rng.__deepcopy__({}) if reseed is None else Rng(reseed)
        twin.events = list(self.events)
        twin.history = list(self.history)
        twin._legal_memo = None
        twin._told = _SeatLogs()
        plan = self.COPYING.plan
        for name, value in self._own_fields():
            how = plan.get(name, _undeclared)
            if how is None:
                setattr(twin, name, value)
            elif how is not _engine:
                setattr(twin, name, how(value))
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        """A deep copy is a :meth:`clone`."""
        twin = self.clone()
        memo[id(self)] = twin
        return twin

    def _blank(self) -> Self:
        """An empty state of this class, for a copy to fill in (a compiled game whose
        class cannot be made without its constructor says how)."""
        return type(self).__new__(type(self))

    def _own_fields(self) -> Iterable[tuple[str, Any]]:
        """The game's attributes, by name: its ``__dict__`` (a compiled game's state, which
        has none, has those its :attr:`COPYING` declares)."""
        # a class compiled with mypyc names its own attributes (``__mypyc_attrs__``) and
        # keeps them outside any ``__dict__`` (which it may still have, for others)
        if "__mypyc_attrs__" not in type(self).__dict__:
            own: dict[str, Any] = self.__dict__
            return own.items()
        return [(name, getattr(self, name)) for name in self.COPYING.fields]

    def undeclared_fields(self) -> list[str]:
        """The game's attributes its :attr:`COPYING` does not name (a copy deep-copies
        them: the contract wants none)."""
        plan = self.COPYING.plan
        return sorted(name for name, _ in self._own_fields() if name not in plan)

    def __getstate__(self) -> dict[str, Any]:
        """Pickles leave the kept legal list and the game's caches behind (they belong
        to this object, and pickling them costs more than remaking them)."""
        state = self._fields()
        state["_legal_memo"] = None
        state["_told"] = _SeatLogs()
        for name, empty in self.COPYING.caches.items():
            if name in state:
                state[name] = empty()
        return state

    def _fields(self) -> dict[str, Any]:
        """The state's attributes by name: the engine's (``ENGINE_FIELDS``: compiled, they
        are not in the ``__dict__``) and the game's (:meth:`_own_fields`)."""
        return {name: getattr(self, name) for name in ENGINE_FIELDS} | dict(self._own_fields())

    def __setstate__(self, values: dict[str, Any]) -> None:
        """An unpickled state takes ``values``, by name (compiled, an object's
        ``__dict__`` is made at its first attribute set, so a new one has none to
        update)."""
        for name, value in values.items():
            setattr(self, name, value)

    def fingerprint(self) -> dict[str, Any]:
        """Everything observable about the state, for equality checks in tests."""
        return {
            "awaiting": self.awaiting(),
            "views": {str(s): self.view(s) for s in (*self.seats, None)},
            "legal": {s: [str(a) for a in self.legal_actions(s)] for s in self.awaiting()},
            "events": [e.to_json() for e in self.events],
            "history": [(s, str(a)) for s, a in self.history],
            "rng": self.rng.generator().getstate(),
            "forced": self.rng.forced_left,
            "outcome": self.outcome(),
        }


class _SeatLogs:
    """Each seat's part of one event log, kept as the log grows (events are only ever
    appended; a log put in its place, or shorter, is read again from the start). A copy
    of the state starts empty."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: dict[Seat | None, tuple[list[Event], int, list[Event]]] = {}

    def __deepcopy__(self, memo: dict[int, object]) -> _SeatLogs:
        return _SeatLogs()

    def of(self, events: list[Event], seat: Seat | None) -> list[Event]:
        """The events of ``events`` that ``seat`` may see, in order: read, never edit."""
        kept = self._kept.get(seat)
        if kept is None or kept[0] is not events or kept[1] > len(events):
            kept = (events, 0, [])
        _, read, seen = kept
        if read < len(events):
            seen.extend(e for e in events[read:] if e.visible_to(seat))
            kept = (events, len(events), seen)
        self._kept[seat] = kept
        return seen


class _LegalMemo:
    """The legal actions of one seat in one version of one state object (a copy of the
    state, which may be edited apart from this one, never reads them)."""

    __slots__ = ("actions", "complete", "drawn", "owner", "revision", "seat")

    def __init__(
        self, state: State[Any], seat: Seat, actions: Sequence[Action], complete: bool = True
    ) -> None:
        self.complete = complete  # all the legal actions, or only some vouched for
        self.owner = weakref.ref(state)
        self.revision = state.revision
        self.seat = seat
        self.actions = actions
        self.drawn: Action | None = actions[0] if len(actions) == 1 else None

    def __deepcopy__(self, memo: dict[int, object]) -> None:
        return None  # a copy of the state keeps no list: it builds its own

    def holds(self, state: State[Any], seat: Seat) -> bool:
        return self.revision == state.revision and self.seat == seat and self.owner() is state

    def has(self, action: Action) -> bool:
        """``action`` is one of these very objects."""
        if action is self.drawn:
            return True
        if isinstance(self.actions, LegalList):
            return self.actions.handed_out(action)
        # by identity, in one pass: cheaper than a set of ids (no generator to set up)
        for held in self.actions:  # noqa: SIM110
            if held is action:
                return True
        return False

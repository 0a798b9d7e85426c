"""The state contract every game fulfils, with engine-wide policy enforced once here."""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Generic, Self, TypeVar

from pydantic import BaseModel

from gladiatorium.core.action import Action
from gladiatorium.core.errors import GameOver, IllegalAction, NotYourTurn
from gladiatorium.core.events import Event, Seat
from gladiatorium.core.outcome import Outcome
from gladiatorium.core.rng import Rng

OptT = TypeVar("OptT", bound=BaseModel)


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
        """Every action ``seat`` may take now (empty if it is not awaited)."""

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
        without changing anything.
        """
        if self.is_over:
            raise GameOver(f"the match is over ({self.outcome()}); no more actions")
        awaited = self._awaiting()
        if seat not in awaited:
            raise NotYourTurn(f"seat {seat} is not to act now; waiting for {', '.join(awaited)}")
        reason = self.illegal_reason(seat, action)
        if reason is not None:
            raise IllegalAction(reason)
        start = len(self.events)
        self._apply(seat, action)
        self.history.append((seat, action))
        return self.events[start:]

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
        """The event log as ``seat`` may see it."""
        return [e for e in self.events if e.visible_to(seat)]

    def clone(self, reseed: int | None = None) -> Self:
        """An independent copy. With ``reseed`` the copy rolls a fresh stream, so a
        bot searching on it cannot see the real future dice."""
        # past events and actions are frozen values: the twin shares them (a new list
        # holding the same items) instead of copying the whole log; so are the options
        events, history = self.events, self.history
        self.events, self.history = [], []
        try:
            twin = copy.deepcopy(self, {id(self.options): self.options})
        finally:
            self.events, self.history = events, history
        twin.events, twin.history = list(events), list(history)
        if reseed is not None:
            twin.rng = Rng(reseed)
        return twin

    def fingerprint(self) -> dict[str, Any]:
        """Everything observable about the state, for equality checks in tests."""
        return {
            "awaiting": self.awaiting(),
            "views": {str(s): self.view(s) for s in (*self.seats, None)},
            "legal": {s: [str(a) for a in self.legal_actions(s)] for s in self.awaiting()},
            "events": [e.to_json() for e in self.events],
            "history": [(s, str(a)) for s, a in self.history],
            "rng": self.rng._random.getstate(),
            "forced": self.rng.forced_left,
            "outcome": self.outcome(),
        }

"""The steps of finished matches' replays, without playing the record for each one.

A seat's replay steps through the actions it knew of (``server/replays.py``). Which
those are takes one pass over the whole record, asking the game at every ply how the
seat saw the action (``Game.action_seen_by``); a finished match never changes, so that
pass is made once per match and seat and its result kept (:class:`KnownSteps`: for each
step, its ply and the action as the seat knew it), in memory, the least recently used
leaving first once the steps kept pass a bound. The first pass over a match also keeps
its state every few hundred plies (``snapshots.keep``): a step is then the nearest
snapshot at or before its ply plus the few actions after it, the start is the match's
first position and the last step the match as it ended. Each step is exactly what
playing the record from its start gives (``replays.replay_from_start``, which the tests
hold it to). Snapshots hold every secret and stay on the server; what a page shows of
a step is what it showed before. Nothing here knows a game: it uses the core contract.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from gladiatorium.core import Seat, State
from gladiatorium.server import snapshots
from gladiatorium.server.store import Live, MatchStore

#: steps kept in memory, all seats of all matches together (each is a ply and a short
#: text: about 200 bytes, so about 20 MiB at most)
MAX_STEPS = 100_000


@dataclass(frozen=True)
class Step:
    """One step of a seat's replay: the match after ``ply`` actions of the record, and
    the action just played as the seat knew it (None at the start)."""

    ply: int
    played: tuple[Seat, str] | None
    state: State[Any]


@dataclass(frozen=True)
class KnownSteps:
    """A seat's replay of a finished match: for each step after the start, the ply of
    the action the seat knew of and that action as the seat knew it."""

    plies: tuple[int, ...]
    played: tuple[tuple[Seat, str], ...]


class ReplaySteps:
    """The steps of finished matches' replays, from an index kept per (match, seat)
    and the match's snapshots."""

    def __init__(
        self, store: MatchStore, every: int = snapshots.SNAPSHOT_EVERY, max_steps: int = MAX_STEPS
    ) -> None:
        self.store = store
        #: plies between two snapshots (0: none kept, every step replays from the start)
        self.every = every
        self.max_steps = max_steps
        #: each (match, seat)'s steps, least recently used first
        self._known: OrderedDict[tuple[str, Seat | None], KnownSteps] = OrderedDict()
        self._held = 0
        self._guard = threading.Lock()

    def step(self, live: Live, seat: Seat | None, wanted: int | None) -> tuple[Step, int]:
        """Step ``wanted`` of ``seat``'s replay of the finished match ``live`` (None, or
        past the end: the last; 0 or less: the start) and how many steps after the start
        the replay has. Knowing of no action, the replay is its end alone. The seat's
        first request plays the record once and copies the step wanted on the way."""
        known, copied = self._kept(live.id, seat), None
        if known is None:
            known, copied = self._pass(live, seat, wanted or 0)
            self._keep((live.id, seat), known)
        total = len(known.plies)
        if wanted is None or wanted >= total or not total:
            with live.lock:
                end = live.state.clone()
            return Step(len(end.history), known.played[-1] if total else None, end), total
        if wanted <= 0:
            return Step(0, None, self._first(live)), total
        ply = known.plies[wanted - 1]
        state = copied if copied is not None else self.state_at(live, ply)
        return Step(ply, known.played[wanted - 1], state), total

    def state_at(self, live: Live, ply: int) -> State[Any]:
        """The finished match ``live`` after ``ply`` actions: from its newest snapshot
        at or before that ply, else from the start."""
        with self.store.sessions() as session:
            found = snapshots.newest(session, live.id, live.game.info.version, ply)
        if found is None:
            state, done = self._first(live), 0
        else:
            done, state, _ = found
        with live.lock:
            actions = [(s, str(a)) for s, a in live.state.history[done:ply]]
        for actor, notation in actions:
            state.act(actor, notation)
        return state

    def known(self, live: Live, seat: Seat | None) -> KnownSteps:
        """``seat``'s steps of the finished match ``live``: kept, or found by one pass
        over its record (which keeps the match's replay snapshots the first time)."""
        known = self._kept(live.id, seat)
        if known is None:
            known = self._pass(live, seat, 0)[0]
            self._keep((live.id, seat), known)
        return known

    def _kept(self, match_id: str, seat: Seat | None) -> KnownSteps | None:
        with self._guard:
            kept = self._known.get((match_id, seat))
            if kept is not None:
                self._known.move_to_end((match_id, seat))
            return kept

    def _keep(self, key: tuple[str, Seat | None], known: KnownSteps) -> None:
        """Keep ``known``, letting the least recently used go past :attr:`max_steps`."""
        with self._guard:
            if key not in self._known:
                self._known[key] = known
                self._held += len(known.plies)
            while self._held > self.max_steps and len(self._known) > 1:
                _, gone = self._known.popitem(last=False)
                self._held -= len(gone.plies)

    def _first(self, live: Live) -> State[Any]:
        with live.lock:
            state = live.state
            start = (state.options, state.players, state.seed, state.position)
        return live.game.start(*start, "match position")

    def _pass(
        self, live: Live, seat: Seat | None, copy_at: int
    ) -> tuple[KnownSteps, State[Any] | None]:
        """Play the record once, noting each action the seat knew of, and keep the
        snapshots of the replay's spacing the match does not have yet; with ``copy_at``,
        a copy of the match at that step too (None if the seat has fewer steps)."""
        game, version = live.game, live.game.info.version
        with live.lock:
            actions = [(s, str(a)) for s, a in live.state.history]
        spacing = snapshots.replay_spacing(self.every, len(actions))
        with self.store.sessions() as session:
            have = snapshots.plies(session, live.id, version) if spacing else set()
        state = self._first(live)
        marks = [len(state.events)]
        plies: list[int] = []
        played: list[tuple[Seat, str]] = []
        blobs: dict[int, bytes] = {}
        copied = None
        for ply, (actor, notation) in enumerate(actions, 1):
            made = state.act(actor, notation)
            marks.append(len(state.events))
            text = game.action_seen_by(state, actor, state.history[-1][1], made, seat)
            if text is not None:
                plies.append(ply)
                played.append((actor, text))
                if len(plies) == copy_at:
                    copied = state.clone()
            if spacing and ply % spacing == 0 and ply not in have:
                blobs[ply] = snapshots.pack(state, marks)
        snapshots.keep(self.store.sessions, live.id, version, blobs)
        return KnownSteps(tuple(plies), tuple(played)), copied

"""Replays of finished matches, each visitor's own, and who may have the whole record.

A replay re-runs the match from its record and shows it to a visitor as their seat (or a
spectator) saw it: at each step the seat's view, the events it was told and the action
just played as the seat may know it (``Game.action_seen_by``). An action the seat may
not know of is left out of its replay altogether, not shown as "seat 3 acted": who sent a
private message, set beside the public call-out it led to, can name a secret identity.
The seat's steps are the actions it knew of, and their number is its own too; the
state shown at a step is the match just after that action (the last step: the end).
The seats whose knowledge the game makes public once the match is over
(``Game.revealed_at_end``) may be chosen by anyone. A step is found without playing
the whole record again (``server/replay_steps.py``). Nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gladiatorium.core import Game, Seat, State
from gladiatorium.core.record import MatchRecord, RecordedAction
from gladiatorium.server.errors import Forbidden
from gladiatorium.server.replay_steps import Step
from gladiatorium.server.service import MatchService
from gladiatorium.server.store import Live, MatchStore
from gladiatorium.server.web import Caller, seats_held


def replay_from_start(
    game: Game[Any],
    start: tuple[Any, int, int, str | None],
    history: Iterable[tuple[Seat, str]],
    seat: Seat | None,
    wanted: int | None,
) -> tuple[Step, int]:
    """Step ``wanted`` of ``seat``'s replay (None, or past the end: the last), and how
    many steps after the start the replay has: one per action the seat knew of. The
    record is played once, the match copied at the step wanted; the last step shows
    the end, after any action the seat never knew of.

    This is the definition of a step: the page takes its steps from an index and the
    match's snapshots instead (``server/replay_steps.py``), which the tests and
    ``benchmarks/replay_pages.py`` hold to this whole-record replay."""
    options, players, seed, position = start
    state = game.start(options, players, seed, position, "match position")
    chosen = Step(0, None, state.clone()) if wanted is not None and wanted <= 0 else None
    played: tuple[Seat, str] | None = None
    known = 0
    for ply, (actor, notation) in enumerate(history, 1):
        made = state.act(actor, notation)
        text = game.action_seen_by(state, actor, state.history[-1][1], made, seat)
        if text is not None:
            known += 1
            played = (actor, text)
            if known == wanted:
                chosen = Step(ply, played, state.clone())
    if chosen is None or not known or wanted == known:  # knowing of no action: the end
        chosen = Step(len(state.history), played, state)
    return chosen, known


class WholeRecord:
    """Replay steps as :func:`replay_from_start` makes them (the whole record played for
    each step), answering as ``MatchService.replays`` does: what the tests and
    ``benchmarks/replay_pages.py`` compare the page's steps with."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store

    def step(self, live: Live, seat: Seat | None, wanted: int | None) -> tuple[Step, int]:
        with live.lock:
            state = live.state
            start = (state.options, state.players, state.seed, state.position)
            history = [(s, str(a)) for s, a in state.history]
        return replay_from_start(live.game, start, history, seat, wanted)


def may_have_record(game: Game[Any], state: State[Any], held: set[Seat]) -> bool:
    """The whole record (the seed, every action) tells every secret of the match. A
    caller holding a seat may have it when nothing stays secret at the end (every
    seat's knowledge made public, as in every game without hidden information) or when
    a seat they hold knew everything (Hero Battle's moderator)."""
    if not held:
        return False
    public = set(game.revealed_at_end(state)) | held
    return public >= set(state.seats) or any(game.sees_everything(state, s) for s in held)


def check_record(service: MatchService, match_id: str, caller: Caller) -> None:
    """Refuse the whole record to a caller who may not have it (403, saying why)."""
    held = seats_held(service, match_id, caller)
    if not held:
        raise Forbidden("the record is for the match's players")
    live = service.store.live(match_id)
    with live.lock:
        if live.over and not may_have_record(live.game, live.state, held):
            raise Forbidden(
                "the record tells every secret of this match: it is for a seat that knew "
                "them all (in this game the secrets stay private after the end)"
            )


def match_record(store: MatchStore, match_id: str) -> MatchRecord:
    """The full record (seed included): only once the match is over."""
    live = store.live(match_id)
    with live.lock:
        if not live.over:
            raise Forbidden("the record (with its seed) is given out once the match is over")
        seats = {s: row.bot or row.kind for s, row in live.seats.items()}
        outcome = live.outcome()
        return MatchRecord(
            game=live.game.info.slug,
            version=live.game.info.version,
            options=live.state.options.model_dump(mode="json"),
            players=live.state.players,
            seed=live.state.seed,
            seats=seats,
            actions=[RecordedAction(seat=s, action=str(a)) for s, a in live.state.history],
            outcome=outcome if live.adjudicated is None else None,
            digest=live.digest(),
        )

"""Match records: game, version, options, seed, seats and actions, as plain JSON.

Replaying a record reproduces every event and the final state exactly; the stored
digest of the event log and the outcome let :func:`verify` prove it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from gladiatorium.core.errors import GladiatoriumError, RecordError
from gladiatorium.core.events import Event, Seat
from gladiatorium.core.files import FileRefused, parse_json, read_text
from gladiatorium.core.game import Game
from gladiatorium.core.registry import bots_for, get_game
from gladiatorium.core.state import State

RECORD_FORMAT: Literal["gladiatorium-record/1"] = "gladiatorium-record/1"


class RecordedAction(BaseModel):
    seat: Seat
    action: str


class MatchRecord(BaseModel):
    format: Literal["gladiatorium-record/1"] = RECORD_FORMAT
    game: str
    version: str
    options: dict[str, Any]
    players: int = Field(ge=1, le=1000)
    seed: int = Field(ge=-(2**63), le=2**63 - 1)
    seats: dict[Seat, str] = {}
    position: str | None = None
    actions: list[RecordedAction]
    outcome: dict[str, Any] | None = None
    digest: str | None = None


def events_digest(state: State[Any]) -> str:
    """SHA-256 of the whole event log in canonical JSON (a JSON list of the events)."""
    return EventsDigest().update(state.events).hexdigest()


class EventsDigest:
    """:func:`events_digest` kept up to date as events are added, at the cost of the
    new events only: the hash is fed the list's text one event at a time."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256(b"[")
        self.count = 0

    def update(self, events: Sequence[Event]) -> EventsDigest:
        """Feed the events after the ``count`` already fed."""
        for event in events[self.count :]:
            text = json.dumps(event.to_json(), sort_keys=True, separators=(",", ":"))
            self._hash.update(("," if self.count else "").encode() + text.encode())
            self.count += 1
        return self

    def hexdigest(self) -> str:
        final = self._hash.copy()
        final.update(b"]")
        return final.hexdigest()


def record_of(
    game: Game[Any], state: State[Any], seats: dict[Seat, str] | None = None
) -> MatchRecord:
    """The record of ``state`` so far (outcome and digest included)."""
    outcome = state.outcome()
    return MatchRecord(
        game=game.info.slug,
        version=game.info.version,
        options=state.options.model_dump(mode="json"),
        players=state.players,
        seed=state.seed,
        seats=dict(seats or {}),
        position=state.position,
        actions=[RecordedAction(seat=s, action=str(a)) for s, a in state.history],
        outcome=None if outcome is None else outcome.to_json(),
        digest=events_digest(state),
    )


def replay(record: MatchRecord) -> State[Any]:
    """Re-run a record; an action that does not apply is named by its index."""
    game = get_game(record.game)
    if record.version != game.info.version:
        raise RecordError(
            f"record is for {record.game} version {record.version}; this is {game.info.version}"
        )
    try:
        state = game.start(
            record.options, record.players, record.seed, record.position, "record position"
        )
    except GladiatoriumError as err:
        raise RecordError(f"record options: {err}") from err
    for index, step in enumerate(record.actions):
        try:
            state.act(step.seat, step.action)
        except GladiatoriumError as err:
            raise RecordError(f"actions[{index}] ({step.seat}: {step.action}): {err}") from err
    return state


def verify(record: MatchRecord, state: State[Any]) -> list[str]:
    """Differences between what the record says and what its replay produced."""
    problems = []
    if record.digest is not None and record.digest != events_digest(state):
        problems.append("the replayed events differ from the recorded ones (digest mismatch)")
    outcome = state.outcome()
    replayed = None if outcome is None else outcome.to_json()
    if record.outcome is not None and record.outcome != replayed:
        problems.append(f"recorded outcome {record.outcome} but replay gives {replayed}")
    return problems


def check_seats(record: MatchRecord, state: State[Any]) -> None:
    """The record's ``seats`` name seats of the match and a person or one of its bots."""
    known = {"human", *bots_for(get_game(record.game))}
    for seat, controller in record.seats.items():
        if seat not in state.seats:
            raise RecordError(f"seats: no seat {seat!r} in this match")
        if controller not in known:
            raise RecordError(f"seats.{seat}: {controller!r} is neither 'human' nor a bot")


def replay_file(path: Path) -> tuple[MatchRecord, State[Any]]:
    """Load, replay and check a record file; every error names the file."""
    record = load_record(path)
    try:
        state = replay(record)
        check_seats(record, state)
    except GladiatoriumError as err:
        raise RecordError(f"{path}: {err}") from err
    return record, state


def save_record(record: MatchRecord, path: Path) -> None:
    """Write a record file; a failure (disk full, folder gone) is a RecordError."""
    try:
        path.write_text(record.model_dump_json(indent=2) + "\n", encoding="utf-8")
    except OSError as err:
        raise RecordError(f"{path}: cannot write the record ({err.strerror or err})") from err


def load_record(path: Path) -> MatchRecord:
    """Read a record file; errors name the file and the line or field."""
    try:
        data = parse_json(read_text(path), path)
    except FileRefused as err:
        raise RecordError(str(err)) from err
    try:
        return MatchRecord.model_validate(data)
    except ValidationError as err:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or '(record)'}: {e['msg']}" for e in err.errors()
        )
        raise RecordError(f"{path}: not a match record: {problems}") from err

"""Match records: game, version, options, seed, seats and actions, as plain JSON.

Replaying a record reproduces every event and the final state exactly; the stored
digest of the event log and the outcome let :func:`verify` prove it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from gladiatorium.core.errors import GladiatoriumError, RecordError
from gladiatorium.core.events import Seat
from gladiatorium.core.game import Game
from gladiatorium.core.registry import get_game
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
    players: int
    seed: int
    seats: dict[Seat, str] = {}
    position: str | None = None
    actions: list[RecordedAction]
    outcome: dict[str, Any] | None = None
    digest: str | None = None


def events_digest(state: State[Any]) -> str:
    """SHA-256 of the whole event log in canonical JSON."""
    text = json.dumps([e.to_json() for e in state.events], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


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


def save_record(record: MatchRecord, path: Path) -> None:
    path.write_text(record.model_dump_json(indent=2) + "\n", encoding="utf-8")


def load_record(path: Path) -> MatchRecord:
    """Read a record file; errors name the file and the line or field."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise RecordError(f"{path}: cannot read: {err.strerror}") from err
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{path}:{err.lineno}:{err.colno}: not valid JSON: {err.msg}") from err
    try:
        return MatchRecord.model_validate(data)
    except ValidationError as err:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or '(record)'}: {e['msg']}" for e in err.errors()
        )
        raise RecordError(f"{path}: not a match record: {problems}") from err

"""Match records: saved as JSON, replayed exactly, bad files explained."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from contract import play_random
from gladiatorium.core import Observation, RecordError, get_game
from gladiatorium.core.match import make_bots
from gladiatorium.core.record import (
    EventsDigest,
    events_digest,
    load_record,
    record_of,
    replay,
    save_record,
    verify,
)


def saved(tmp_path: Path) -> Path:
    game = get_game("pig")
    path = tmp_path / "match.json"
    save_record(record_of(game, play_random(game, 3), {"1": "random", "2": "random"}), path)
    return path


def test_saved_record_replays_and_verifies(tmp_path: Path) -> None:
    record = load_record(saved(tmp_path))
    assert record.game == "pig" and record.seed == 3
    assert verify(record, replay(record)) == []


def test_truncated_record_names_file_and_line(tmp_path: Path) -> None:
    path = saved(tmp_path)
    path.write_text(path.read_text()[:40])
    with pytest.raises(RecordError, match=r"match\.json:\d+:\d+: not valid JSON"):
        load_record(path)


def test_missing_field_is_named(tmp_path: Path) -> None:
    path = saved(tmp_path)
    data = json.loads(path.read_text())
    del data["seed"]
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match="seed: Field required"):
        load_record(path)


def test_bad_action_is_named_by_index(tmp_path: Path) -> None:
    path = saved(tmp_path)
    data = json.loads(path.read_text())
    data["actions"][2]["action"] = "fly"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match=r"actions\[2\] \(.*fly\)"):
        replay(load_record(path))


def test_tampered_outcome_fails_verification(tmp_path: Path) -> None:
    path = saved(tmp_path)
    data = json.loads(path.read_text())
    data["outcome"]["reason"] = "bribery"
    path.write_text(json.dumps(data))
    record = load_record(path)
    assert verify(record, replay(record)) != []


def test_a_running_digest_equals_the_digest_of_the_whole_log() -> None:
    """EventsDigest, fed as events come, gives events_digest at every step (the
    server keeps one per match instead of hashing the whole log per action)."""
    game = get_game("super-dice-heroes")
    state = game.start({}, 3, 5)
    running = EventsDigest()
    bots = make_bots(game, 5, {s: "random" for s in state.seats})
    for _ in range(40):
        whole = json.dumps(
            [e.to_json() for e in state.events], sort_keys=True, separators=(",", ":")
        )
        assert (
            running.update(state.events).hexdigest() == hashlib.sha256(whole.encode()).hexdigest()
        )
        assert running.hexdigest() == events_digest(state)
        seat = state.awaiting()[0]
        state.apply(seat, bots[seat].choose(Observation.of(state, seat)))
    assert running.update(state.events).count == len(state.events)

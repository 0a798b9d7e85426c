"""A match's frames are built together: the builders its connections queue while a
worker-thread call runs make one call, each gets its own answer (or its own error),
and matches do not share calls; and a frame's text, made of pieces encoded once for
every seat, is the text ``json.dumps`` gives."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from gladiatorium.server import pushes
from gladiatorium.server.pushes import Pushes
from gladiatorium.server.threads import Threads


def test_builders_queued_together_make_one_call_each_with_its_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[list[str]] = []
    real = pushes._run_all

    def counted(builders: list[Any]) -> list[Any]:
        outcomes = real(builders)
        calls.append([value for ok, value in outcomes if ok])
        return outcomes

    monkeypatch.setattr(pushes, "_run_all", counted)
    gate = threading.Event()

    def first() -> str:
        gate.wait(5)  # holds the first call while the others queue
        return "seat 1"

    def refused() -> str:
        raise ValueError("seat 3 no longer held")

    async def scenario() -> list[Any]:
        built = Pushes(Threads())
        one = asyncio.ensure_future(built.build("m1", first))
        await asyncio.sleep(0.05)  # the first call is running now
        rest = [
            asyncio.ensure_future(built.build("m1", lambda: "seat 2")),
            asyncio.ensure_future(built.build("m1", refused)),
            asyncio.ensure_future(built.build("m1", lambda: "seat 4")),
            asyncio.ensure_future(built.build("m2", lambda: "other match")),
        ]
        await asyncio.sleep(0.05)
        gate.set()
        return await asyncio.gather(one, *rest, return_exceptions=True)

    answers = asyncio.run(scenario())
    assert answers[:2] == ["seat 1", "seat 2"]
    assert isinstance(answers[2], ValueError) and str(answers[2]) == "seat 3 no longer held"
    assert answers[3:] == ["seat 4", "other match"]
    # m1: the first builder alone, then the three queued meanwhile in one call; m2 apart
    assert sorted(calls) == sorted([["seat 1"], ["seat 2", "seat 4"], ["other match"]])


def test_a_burst_starts_with_small_calls_doubled_up_to_call_size_oldest_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first frames of a burst go out after one or two are built, not sixteen."""
    calls: list[list[int]] = []
    real = pushes._run_all
    monkeypatch.setattr(pushes, "FIRST_CALL_SIZE", 1)
    monkeypatch.setattr(pushes, "CALL_SIZE", 4)
    monkeypatch.setattr(
        pushes, "_run_all", lambda builders: calls.append([b() for b in builders]) or real(builders)
    )

    async def scenario() -> list[Any]:
        built = Pushes(Threads())
        return await asyncio.gather(*(built.build("m", lambda n=n: n) for n in range(12)))

    assert asyncio.run(scenario()) == list(range(12))
    # queued in one go: taken in order, 1, 2, 4, then 4 at most
    assert calls == [[0], [1, 2], [3, 4, 5, 6], [7, 8, 9, 10], [11]]


def test_spliced_text_is_the_text_json_dumps_gives() -> None:
    """A frame encoded from pieces kept by identity is byte for byte the compact JSON of
    the whole, for shared and unshared items alike, at every depth."""
    import json
    import random

    from gladiatorium.server.play import spliced

    rng = random.Random(3)

    def value(depth: int) -> Any:
        kind = rng.randrange(6 if depth < 4 else 3)
        if kind == 0:
            return rng.choice([0, -1, 2.5, True, None])
        if kind in (1, 2):
            return rng.choice(["", "é", 'a"b', "x/y", "\u2603"])
        if kind in (3, 4):
            return {rng.choice(["k", "é", "1"]): value(depth + 1) for _ in range(rng.randrange(4))}
        return [value(depth + 1) for _ in range(rng.randrange(4))]

    made: dict[int, tuple[Any, str]] = {}
    event = {"kind": "closed", "text": "The moderator closes round 2.", "data": {}}
    for _ in range(500):
        frame = {"type": "delta", "events": [event, value(1)], "view": [value(1), event]}
        frame["body"] = {"events": [event, value(2)], "view": value(1)}
        for depth in (0, 1, 2):
            assert spliced(frame, made, depth) == json.dumps(frame, separators=(",", ":"))
    assert made[id(event)] == (event, json.dumps(event, separators=(",", ":")))

"""The load benchmark's client (benchmarks/server_load.py) applies a delta's view
patch by copying only the parts on the patch's paths: it must give what jsonpatch
gives and leave the view it started from (a later delta's base) as it was."""

from __future__ import annotations

import copy
import random
from typing import Any

import jsonpatch

from benchmark_modules import load_benchmark
from gladiatorium.server.frames import view_patch

server_load = load_benchmark("server_load")


def random_json(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(6 if depth < 3 else 3)
    if kind == 0:
        return rng.randrange(4)
    if kind == 1:
        return rng.choice(["a", "b/c", "d~e", ""])
    if kind == 2:
        return rng.choice([None, True, 1.5])
    if kind in (3, 4):
        return {rng.choice("xyz/~"): random_json(rng, depth + 1) for _ in range(rng.randrange(4))}
    return [random_json(rng, depth + 1) for _ in range(rng.randrange(4))]


def test_patched_gives_the_new_view_and_keeps_the_old_one() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        old, new = random_json(rng), random_json(rng)
        kept = copy.deepcopy(old)
        patch = view_patch(old, new)
        assert server_load.patched(old, patch) == new
        assert old == kept
        assert jsonpatch.apply_patch(copy.deepcopy(old), patch) == new  # as RFC 6902 says


def test_patched_shares_what_the_patch_leaves_alone() -> None:
    old = {"round": 1, "heroes": [{"name": "A", "hp": 3}, {"name": "B", "hp": 4}], "log": [1]}
    patch = [{"op": "replace", "path": "/heroes/1/hp", "value": 2}]
    new = server_load.patched(old, patch)
    heroes = [{"name": "A", "hp": 3}, {"name": "B", "hp": 2}]
    assert new == {"round": 1, "heroes": heroes, "log": [1]}
    assert new["heroes"][0] is old["heroes"][0] and new["log"] is old["log"]
    assert old["heroes"][1]["hp"] == 4


def test_patched_inserts_and_appends_in_arrays_as_rfc_6902_says() -> None:
    old = {"a": [1, 2], "b": {"c": 1}}
    patch = [
        {"op": "add", "path": "/a/1", "value": 9},
        {"op": "add", "path": "/a/-", "value": 7},
        {"op": "remove", "path": "/b/c"},
        {"op": "add", "path": "/b/d~1e", "value": [0]},
        {"op": "replace", "path": "/b/d~1e/0", "value": 5},
    ]
    expected = jsonpatch.apply_patch(copy.deepcopy(old), patch)
    assert server_load.patched(old, patch) == expected == {"a": [1, 9, 2, 7], "b": {"d/e": [5]}}
    assert old == {"a": [1, 2], "b": {"c": 1}}
    whole = [{"op": "replace", "path": "", "value": {"z": 1}}]
    assert server_load.patched(old, whole) == {"z": 1}

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


def test_patched_walks_again_where_an_operation_moved_or_replaced_what_it_kept() -> None:
    """The containers kept by path (the operations on one hero find it at once) are
    forgotten where an item of an array before them goes or comes, or where the
    container itself is replaced or removed: later operations reach what is there now."""
    old = {"a": [{"x": 1}, {"x": 2}, {"x": 3}], "b": {"c": {"d": 1}}, "e": [[1], [2]]}
    patch = [
        {"op": "replace", "path": "/a/1/x", "value": 20},  # keeps /a and /a/1
        {"op": "remove", "path": "/a/0"},  # /a/1 is now what was /a/2
        {"op": "replace", "path": "/a/1/x", "value": 30},
        {"op": "add", "path": "/a/0", "value": {"x": 0}},
        {"op": "replace", "path": "/a/1/x", "value": 21},
        {"op": "replace", "path": "/b/c/d", "value": 2},  # keeps /b/c
        {"op": "replace", "path": "/b/c", "value": {"d": 5}},
        {"op": "add", "path": "/b/c/f", "value": 6},
        {"op": "replace", "path": "/e/0/0", "value": 9},  # keeps /e/0
        {"op": "remove", "path": "/e/0"},
        {"op": "add", "path": "/e/0/-", "value": 4},
    ]
    kept = copy.deepcopy(old)
    # jsonpatch adds the patch's own values to the document and edits them later
    expected = jsonpatch.apply_patch(copy.deepcopy(old), copy.deepcopy(patch))
    assert server_load.patched(old, patch) == expected
    assert expected == {
        "a": [{"x": 0}, {"x": 21}, {"x": 30}],
        "b": {"c": {"d": 5, "f": 6}},
        "e": [[2, 4]],
    }
    assert old == kept

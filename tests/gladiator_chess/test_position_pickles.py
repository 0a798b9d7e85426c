"""A Gladiator Chess match pickles and plays on the same, whether its position module
is compiled (setup.py) or pure Python: the position is rebuilt through its
constructor."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

from gladiatorium.core import get_game

GAME = get_game("gladiator-chess")


def played(state: Any, seed: int, actions: int) -> Any:
    rng = random.Random(seed)
    for _ in range(actions):
        if not state.awaiting():
            break
        seat = state.awaiting()[0]
        state.apply(seat, rng.choice(list(state.legal_actions(seat))))
    return state


def test_a_match_pickles_and_plays_on_the_same() -> None:
    for seed in range(4):
        state = played(GAME.start(None, None, seed), seed, 60)
        twin = pickle.loads(pickle.dumps(state))
        assert twin.view(None) == state.view(None)
        assert twin.pos.board is not state.pos.board
        assert all(twin.pos.board[p.sq] is p for p in twin.pos.pieces if p.alive and p.sq >= 0)
        deep = copy.deepcopy(state)
        for match in (state, twin, deep):
            played(match, seed + 100, 80)
        assert twin.history == state.history == deep.history
        assert [e.to_json() for e in twin.events] == [e.to_json() for e in state.events]
        assert twin.view(None) == state.view(None) == deep.view(None)

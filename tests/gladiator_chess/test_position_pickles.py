"""A Gladiator Chess match pickles and plays on the same, whether its position module
is compiled (setup.py) or pure Python: the position is rebuilt through its
constructor."""

from __future__ import annotations

import copy
import pickle

from contract import played_on
from gladiatorium.core import get_game

GAME = get_game("gladiator-chess")


def test_a_match_pickles_and_plays_on_the_same() -> None:
    for seed in range(4):
        state = played_on(GAME.start(None, None, seed), seed, 60)
        twin = pickle.loads(pickle.dumps(state))
        assert twin.view(None) == state.view(None)
        assert twin.pos.board is not state.pos.board
        assert all(twin.pos.board[p.sq] is p for p in twin.pos.pieces if p.alive and p.sq >= 0)
        deep = copy.deepcopy(state)
        for match in (state, twin, deep):
            played_on(match, seed + 100, 80)
        assert twin.history == state.history == deep.history
        assert [e.to_json() for e in twin.events] == [e.to_json() for e in state.events]
        assert twin.view(None) == state.view(None) == deep.view(None)

"""A Gladiator Chess match pickles and plays on the same, whether its position module
is compiled (setup.py) or pure Python: the position is rebuilt through its
constructor."""

from __future__ import annotations

import copy
import pickle
import random

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


def test_a_match_pickled_before_positions_said_where_the_turn_stands_reads_on() -> None:
    """A server's snapshot of an earlier build keeps fights as words and knows neither
    the forfeited commanders nor whether the commander had moves of his own."""
    state = GAME.start(None, None, 2)
    choose = random.Random(2)
    while not state.last_combat:
        seat = state.awaiting()[0]
        state.apply(seat, choose.choice(list(state.legal_actions(seat))))
    view = state.view(None)
    old = state.__getstate__()
    old["last_combat"] = list(view["last_combat"])
    del old["forfeited"], old["_has_own"]
    twin = type(state).__new__(type(state))
    twin.__setstate__(old)
    assert twin.view(None) == view and twin.forfeited == ()
    assert twin.last_combat == state.last_combat

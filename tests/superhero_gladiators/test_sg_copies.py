"""A Superhero Gladiators match copies and pickles whole, whether its rules are
compiled (setup.py) or pure Python: a copy and an unpickled match are a shell filled
in with the match's attributes by name (the engine's and those its ``COPYING``
declares), and play on the same."""

from __future__ import annotations

import copy
import pickle

from contract import attributes_of, played_on
from gladiatorium.core.state import ENGINE_FIELDS
from gladiatorium.games.superhero_gladiators import SuperheroGladiators
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState

GAME = SuperheroGladiators()
FIELDS = {*ENGINE_FIELDS, *SuperheroGladiatorsState.COPYING.fields}


def match(seed: int, actions: int) -> SuperheroGladiatorsState:
    state = GAME.start(None, None, seed)
    assert isinstance(state, SuperheroGladiatorsState)
    return played_on(state, seed, actions)


def test_fields_name_every_attribute_of_a_match() -> None:
    state = match(0, 30)
    assert set(attributes_of(state)) == FIELDS
    assert set(attributes_of(copy.deepcopy(state))) == FIELDS


def test_a_match_pickles_copies_and_plays_on_the_same() -> None:
    for seed in range(4):
        state = match(seed, 25)
        twin = pickle.loads(pickle.dumps(state))
        deep = copy.deepcopy(state)
        clone = state.clone()
        assert twin.view(None) == state.view(None) == deep.view(None) == clone.view(None)
        assert twin.fighters["1A"] is not state.fighters["1A"]
        assert deep.fighters["1A"].uses is not state.fighters["1A"].uses
        for each in (state, twin, deep, clone):
            played_on(each, seed + 100, 200)
        assert twin.history == state.history == deep.history == clone.history
        assert [e.to_json() for e in twin.events] == [e.to_json() for e in state.events]
        assert [e.to_json() for e in clone.events] == [e.to_json() for e in state.events]
        assert twin.outcome() == state.outcome() == deep.outcome() == clone.outcome()

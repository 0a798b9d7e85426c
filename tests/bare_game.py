"""A game with rules only: Pig's state under another slug, in a game that names no
presenter, so the terminal, the lab and the server show it through the generic ones
(``core/presenters.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from gladiatorium.core import Game, registry
from gladiatorium.games.pig import Pig, PigOptions, PigState

SLUG = "bare-pig"


class BarePig(Game[PigOptions]):
    info = replace(Pig.info, slug=SLUG, name="Bare Pig")
    options_type = PigOptions
    action_types = Pig.action_types
    search_iterations = Pig.search_iterations
    evaluate = Pig.evaluate

    def new_state(self, options: PigOptions, players: int, seed: int) -> PigState:
        return PigState(options, players, seed)


@pytest.fixture
def bare_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[BarePig]:
    """``BarePig`` registered for one test (and gone after it)."""
    game = BarePig()
    monkeypatch.setitem(registry._GAMES, SLUG, game)
    yield game

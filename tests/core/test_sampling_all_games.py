"""Every game's ``legal_count`` and ``sample_legal`` agree with its legal list: the
count is its length and the draw is ``rng.choice`` over it, in the same order (a game
that draws without building every action must draw the same)."""

from __future__ import annotations

import pytest

from gladiatorium.core import Rng, games
from gladiatorium.games import load

load()
SLUGS = [g.info.slug for g in games()]


@pytest.mark.parametrize("slug", SLUGS)
def test_count_and_draw_follow_the_legal_list(slug: str) -> None:
    game = next(g for g in games() if g.info.slug == slug)
    state = game.start(None, None, 3)
    mover = Rng(11)
    checked = 0
    for _ in range(60):
        if state.is_over:
            break
        seat = state.awaiting()[0]
        legal = list(state.legal_actions(seat))
        fresh = state.clone()  # no list kept yet: the game's own count and draw
        assert fresh.legal_count(seat) == len(legal)
        for k in range(3):
            assert fresh.clone().sample_legal(seat, Rng(k)) == Rng(k).choice(legal)
        drawn = fresh.sample_legal(seat, Rng(7))
        fresh.apply(seat, drawn)  # taken as drawn, without a second check
        state.apply(seat, Rng(7).choice(legal))
        assert [e.text for e in fresh.events] == [e.text for e in state.events]
        checked += 1
        state = fresh if mover.randint(0, 1) else state  # go on from either copy
    assert checked > 10

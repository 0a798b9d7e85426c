"""A finished match's web picture shows the final position without stale turn lines:
nobody is said to move or act, and no move is asked for."""

from __future__ import annotations

import re

import pytest

from contract import play_random
from gladiatorium.core import get_game

#: what only a match in progress says, per game
STALE = {
    "electron-gladiators": re.compile(r"to move|speed points left|attack open"),
    "gladiator-chess": re.compile(r"moves next|may let him"),
    "superhero-gladiators": re.compile(r"</strong> acts|how do you defend|click a lit"),
    "super-dice-heroes": re.compile(r"the shared roll"),
    "hero-battle": re.compile(r"My move|This round:"),
}


@pytest.mark.parametrize("slug", sorted(STALE))
def test_a_finished_match_says_so_and_asks_nothing(slug: str) -> None:
    game = get_game(slug)
    state = play_random(game, 3)
    assert state.outcome() is not None
    for seat in [None, *state.seats]:
        picture = game.web.picture(state, seat)
        assert picture is not None
        head = re.search(r'<p class="pic-head">(.*?)</p>', picture)
        assert head is not None and ("over" in head[1] or "ended" in head[1]), head
        assert not STALE[slug].search(picture), (seat, STALE[slug].search(picture))
        assert "data-acts" not in picture

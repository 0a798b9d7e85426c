"""Gladiator Chess's talk channels: each colour's commanders have their team channel."""

from __future__ import annotations

from gladiatorium.core import get_game
from gladiatorium.games import load

load()
GAME = get_game("gladiator-chess")


def test_each_commander_reads_his_own_colour_team_channel() -> None:
    state = GAME.start({}, 8, 1)
    white = GAME.channels(state, "white-queen", False)
    black = GAME.channels(state, "black-king", False)
    assert [(c.name, c.post, c.key) for c in white] == [
        ("all", True, "all"),
        ("team", True, "team:white"),
    ]
    assert [c.key for c in black] == ["all", "team:black"]
    assert [c.key for c in GAME.channels(state, None, False)] == ["all", "spectators"]

"""Hero Battle's talk channels: the thread, deals between players, the moderator."""

from __future__ import annotations

from gladiatorium.core import get_game
from gladiatorium.games import load

load()
GAME = get_game("hero-battle")


def names(seat: str | None, over: bool = False, **options: object) -> list[str]:
    state = GAME.start(options, 8, 1)
    return [c.name for c in GAME.channels(state, seat, over)]


def test_a_player_talks_in_the_thread_and_privately_to_every_other_seat() -> None:
    assert names("3") == [
        "all",
        "seat:1",
        "seat:2",
        "seat:4",
        "seat:5",
        "seat:6",
        "seat:7",
        "seat:8",
        "seat:moderator",
    ]


def test_the_moderator_talks_to_every_player_and_no_team_channel_exists() -> None:
    assert names("moderator") == ["all", *(f"seat:{n}" for n in range(1, 9))]
    assert "team" not in names("1", teams=True)


def test_private_messages_between_players_are_a_match_option() -> None:
    assert names("3", private_messages=False) == ["all", "seat:moderator"]
    assert names("moderator", private_messages=False)[1:] == [f"seat:{n}" for n in range(1, 9)]


def test_spectators_read_the_thread_and_players_read_them_after_the_end() -> None:
    state = GAME.start({}, 8, 1)
    spectator = GAME.channels(state, None, False)
    assert [(c.name, c.post) for c in spectator] == [("all", False), ("spectators", True)]
    assert names("3", over=True)[:2] == ["all", "spectators"]
    deal = next(c for c in GAME.channels(state, "3", False) if c.name == "seat:5")
    assert deal.key == "seat:3|5"
    assert [c.forum for c in spectator] == [True, False]  # the thread shows the moves

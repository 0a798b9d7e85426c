"""The match page names Hero Battle's players as the server knows them (a user name, a
bot with its seat) where the engine says ``Player N``: in the events the page shows and
in the picture; a seat no one named holds keeps the engine's name. The engine's events
stay as they are (their digests are pinned)."""

from __future__ import annotations

from gladiatorium.core import get_game
from gladiatorium.games.hero_battle.web import named_event, player_name

NAMES = {"1": "ada", "2": "bot greedy (seat 2)", "3": "seat 3", "moderator": "seat moderator"}


def test_player_n_becomes_the_seat_holder() -> None:
    assert named_event("Round 2: Player 1 abstains.", NAMES) == "Round 2: ada (seat 1) abstains."
    assert named_event("Round 2: Player 2 hits Cat, Owl; no heal.", NAMES) == (
        "Round 2: bot greedy (seat 2) hits Cat, Owl; no heal."
    )
    # an open seat, a seat beyond the names, Random Player and Player 10 stay as they are
    assert named_event("Player 3 and Player 10 and Random Player", NAMES) == (
        "Player 3 and Player 10 and Random Player"
    )
    assert named_event("Night Heron (Player 1)", NAMES) == "Night Heron (ada (seat 1))"


def test_an_open_seat_keeps_the_games_name_in_the_picture() -> None:
    view = {"players": {"3": {"name": "Player 3"}, "4": {"name": "Dot"}}}
    assert player_name(view, "3", NAMES) == "Player 3"
    assert player_name(view, "4", NAMES) == "Dot"
    assert player_name(view, "1", NAMES) == "ada (seat 1)"
    assert player_name(view, "2", NAMES) == "bot greedy (seat 2)"


def test_the_engine_events_are_untouched_and_the_page_events_named() -> None:
    """The presenter maps the text it is given; the state's events keep ``Player N``."""
    game = get_game("hero-battle")
    state = game.start(None, 8, 3)
    state.act("1", "abstain")
    texts = [str(event.text) for event in state.events]
    assert "Round 1: Player 1 abstains." in texts
    shown = [game.web.named_event(t, NAMES) for t in texts]
    assert "Round 1: ada (seat 1) abstains." in shown
    assert "Round 1: Player 1 abstains." in texts  # the engine's own text, unchanged

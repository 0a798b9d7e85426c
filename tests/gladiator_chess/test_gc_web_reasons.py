"""The web picture says why a slot offers what it offers (the engine's own reasons) and
explains the codes it shows."""

from __future__ import annotations

from gc_helpers import GAME, with_royals


def test_a_forced_override_says_the_commander_has_no_move() -> None:
    """The white Black Knight has no piece left: the King's only choice is to override,
    and the picture says why instead of offering a 'let' it lacks."""
    state = with_royals({"a2": "F"}, to_move=("white", "black-knight"))
    picture = GAME.web.picture(state, "white-king") or ""
    assert (
        "the black-knight has no move, so his King must override him and move any "
        "unmoved piece of the team (General 7)"
    ) in picture
    assert "may let him" not in picture and "Let the" not in picture
    assert "Override the black-knight" in picture


def test_a_free_choice_says_the_king_may_let_or_override() -> None:
    state = with_royals({"a2": "F", "b3": "S"}, to_move=("white", "black-knight"))
    picture = GAME.web.picture(state, "white-king") or ""
    assert "(the King may let him or override him)" in picture
    assert "Let the black-knight commander move" in picture


def test_the_tally_explains_the_codes_of_lost_pieces() -> None:
    state = with_royals({"a2": "F"}, to_move=("white", "black-knight"))
    state.pos.lost["white"].append("SQ")
    picture = GAME.web.picture(state, None) or ""
    assert (
        ': lost <abbr title="Squire: the King&#x27;s Knight&#x27;s: a chess pawn; healed by a '
        'won fight, promoted to any captured piece" tabindex="0">SQ</abbr></p>'
    ) in picture

"""A hundred-player Battle's legal actions as choices (``Game.legal_form``): a few KB
where the list is 14,604 notations, standing for every valid move where the list is a
sample of them, each of its actions accepted by the engine, the same in a secret twin."""

from __future__ import annotations

import json
from itertools import islice

from gladiatorium.core import Choose, Pair, get_game

SIGNUPS = [f"Hero {n}" for n in range(1, 101)]


def test_a_hundred_player_round_as_choices() -> None:
    game = get_game("hero-battle")
    state = game.start({"signups": SIGNUPS}, 100, 7)
    form = game.legal_form(state, "1")
    assert form is not None
    assert game.legal_form(state, "moderator") is None  # its one action, close, is listed
    assert form.listed == ("abstain",)
    hits, guesses = form.parts
    assert isinstance(hits, Choose) and isinstance(guesses, Pair)
    assert [(p.word, p.count, len(p.names), p.repeat) for p in hits.picks] == [
        ("hit", 2, 100, ()),
        ("heal", 1, 100, ()),
    ]
    # 99 heroes not the seat's own by the 99 other players
    assert (len(guesses.left), len(guesses.right), guesses.taken) == (99, 99, ())
    made = list(form.actions())
    listed = [str(a) for a in state.legal_actions("1")]
    # the list: abstain, a sample of 5,000 moves at most, and every guess
    assert (len(made), len(listed)) == (1 + 100 * 99 // 2 * 98 + 99 * 99, 14_604)
    assert set(listed) <= set(made)
    assert len(json.dumps(form.to_json())) < 5_000 < 370_000 < len(json.dumps(listed))
    for text in islice(made, 0, None, 4_999):  # every action it stands for is legal
        assert str(state.parse("1", text)) == text


def test_a_guess_sent_is_taken_and_a_twin_gets_the_same_form() -> None:
    game = get_game("hero-battle")
    state = game.start({"signups": SIGNUPS[:30], "guesses_per_round": 2}, 30, 3)
    form = game.legal_form(state, "1")
    assert form is not None
    pair = form.parts[1]
    assert isinstance(pair, Pair)
    guess = f"guess {pair.left[0]}={pair.right[0]}"
    state.act("1", guess)
    after = game.legal_form(state, "1")
    assert after is not None and after.parts[1] == Pair(
        "guess", pair.left, pair.right, "=", ((pair.left[0], pair.right[0]),)
    )
    assert guess not in set(after.actions())
    for seat in ("1", "2", "30"):
        twin = game.secret_twin(state, seat)
        assert twin is not None
        mine, theirs = game.legal_form(state, seat), game.legal_form(twin, seat)
        assert mine is not None and theirs is not None
        assert mine.to_json() == theirs.to_json()

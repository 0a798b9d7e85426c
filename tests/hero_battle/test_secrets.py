"""No secret reaches a seat that may not know it (views, events, renders, errors)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hb_helpers import GAME, HERO, NEMESES, battle

from gladiatorium.core import Observation
from gladiatorium.core.match import make_bots
from gladiatorium.games.hero_battle import HeroBattleState
from gladiatorium.games.hero_battle.actions import Guess
from gladiatorium.games.hero_battle.round_post import round_post

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from contract import leaks

#: the world where seats 4 and 6 swap heroes (and the nemeses that go with them)
SWAPPED = {
    "assign_heroes": tuple({**HERO, "4": HERO["6"], "6": HERO["4"]}[str(i)] for i in range(1, 9)),
    "assign_nemeses": tuple({3: NEMESES[5], 5: NEMESES[3]}.get(i, NEMESES[i]) for i in range(8)),
}
OBSERVERS = ("1", "2", "3", "5", "7", "8", None)


def seen(state: HeroBattleState, seat: str | None) -> dict[str, Any]:
    return {
        "view": state.view(seat),
        "events": [e.to_json() for e in state.events_for(seat)],
        "render": GAME.terminal.render(state, seat),
    }


def both(
    rounds: list[tuple[dict[str, str], dict[str, str], list[int]]], **options: Any
) -> tuple[HeroBattleState, HeroBattleState]:
    worlds = (battle(**options), battle(**options, **SWAPPED))
    for state in worlds:
        for moves, guesses, dice in rounds:
            state.rng.force(dice)
            for seat, text in guesses.items():
                state.act(seat, text)
            for seat, text in moves.items():
                state.act(seat, text)
    return worlds


def test_swapping_two_secret_identities_changes_nothing_others_see() -> None:
    """Secret identities and nemeses: two worlds that differ only in who plays Eel and
    Gnu look the same to every other seat and to spectators, through a death, a
    nemesis bonus, a wrong call-out and an abstention."""
    kill = {s: "hit Ant, Cat heal Hog" for s in "2345678"}
    kill["1"] = "abstain"
    second = {s: "hit Dog, Eel heal Hog" for s in "134567" if s != "5"}
    second["5"] = "hit Bat, Gnu heal Hog"
    a, b = both([(kill, {"1": "guess Hog=3"}, [0]), (second, {}, [])], starting_hp=6)
    assert a.reports[0]["deaths"] and a.reports[0]["nemesis_bonus"]
    for seat in OBSERVERS:
        assert seen(a, seat) == seen(b, seat), f"seat {seat} can tell the worlds apart"
    assert seen(a, "4") != seen(b, "4")
    assert seen(a, "moderator") != seen(b, "moderator")


def test_anonymous_hits_stay_private() -> None:
    """Anonymous Play: hits go to the moderator privately; swapping two players' hits
    changes nothing any other seat sees (only heals and hit totals are public)."""
    moves = {s: "hit Eel, Fox heal Hog" for s in "12345678"}
    swapped = dict(moves)
    moves["4"], moves["6"] = "hit Ant, Bat heal Hog", "hit Cat, Dog heal Hog"
    swapped["4"], swapped["6"] = moves["6"], moves["4"]
    a, b = battle(anonymous_every=1), battle(anonymous_every=1)
    for state, table in ((a, moves), (b, swapped)):
        for seat, text in table.items():
            state.act(seat, text)
    for seat in OBSERVERS:
        assert seen(a, seat) == seen(b, seat)
    assert any("hits Ant, Bat" in e.text for e in a.events_for("4"))


def test_error_messages_do_not_depend_on_secrets() -> None:
    """Refusals of seat 1 are the same in both worlds: no error hints at a secret."""
    a, b = battle(), battle(**SWAPPED)
    for hero in ("Eel", "Gnu", "Bat", "Ant"):
        for player in ("4", "6", "1", "9", "random"):
            guess = Guess(hero, player)
            assert a.illegal_reason("1", guess) == b.illegal_reason("1", guess)


def test_player_view_holds_own_secrets_only() -> None:
    """Seats: a player sees their own hero and nemeses; spectators see neither."""
    state = battle()
    mine = state.view("1")
    assert mine["you"]["hero"] == "Bat" and mine["you"]["nemeses"] == ["Cat", "Dog"]
    assert mine["identities"] == {"Bat": "1"}
    assert "you" not in state.view(None) and state.view(None)["identities"] == {}
    assert len(state.view("moderator")["identities"]) == 8


OPTION_SETS = [
    {},
    {"random_player": True, "anonymous_every": 2, "teams": True},
    {"zombies": True, "hand_of_god": True, "hand_of_god_every": 1, "resurrection_every": 4},
    {"guesses_per_round": 3, "public_guesses": True, "outing_kills": True},
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_random_battles_leak_nothing(options: dict[str, Any]) -> None:
    """The conformance leak check on random Battles with optional rules switched on."""
    state = GAME.start(options, 12, seed=5)
    bots = make_bots(GAME, 5, dict.fromkeys(state.seats, "random"))
    steps = 0
    while not state.is_over and steps < 3000:
        seat = state.awaiting()[0]
        state.apply(seat, bots[seat].choose(Observation.of(state, seat)))
        steps += 1
        if steps % 40 == 0:
            assert leaks(GAME, state) == []
            for seat_view in (*state.seats, None):
                json.dumps(state.view(seat_view))
    assert state.is_over
    assert leaks(GAME, state) == []


#: every optional rule that adds secrets or private messages, on at once
OPTIONAL = {
    "random_player": True,
    "random_player_hero": "Yak",
    "teams": True,
    "team_count": 2,
    "anonymous_rounds": (2,),
    "zombies": True,
    "hand_of_god": True,
    "hand_of_god_rounds": (3,),
    "resurrection_rounds": (4,),
    "public_guesses": True,
    "guesses_per_round": 2,
}


def _swapped_battle(swapped: bool) -> HeroBattleState:
    """Four rounds with the optional rules on. Moves are posted by seat and stay the
    same in both worlds; a guess is sent by whoever plays the calling hero (seat 4
    plays Eel in one world, seat 6 in the other), as it would be on the forum. Dice
    after the set-up are forced: abstention and Random Player hits on Yak or Hog (index
    7), the Hand of God roll 2 (double-heals), the resurrection of the only dead hero."""
    state = battle(**OPTIONAL, **(SWAPPED if swapped else {}))
    state.heroes["Ant"].hp = 1
    state.heroes["Bat"].hp = 2
    eel = "6" if swapped else "4"
    rounds: list[tuple[dict[str, str], dict[str, list[str]], list[int]]] = [
        (  # round 1: Ant becomes a Zombie; right and wrong call-outs; seat 1 abstains
            {"1": "abstain"}
            | {s: "hit Ant, Cat heal Hog" for s in "23"}
            | {s: "hit Dog, Eel heal Hog" for s in "45678"},
            {"1": ["guess Hog=7", "guess Cat=4"], eel: ["guess Cat=3"]},
            [7, 7],
        ),
        (  # round 2 (anonymous): hits sent privately; Bat becomes a Zombie; Ant hits
            {s: "hit Bat, Fox heal Dog" for s in "1234567"} | {"8": "hit Gnu"},
            {eel: ["guess Dog=random"]},
            [2, 7],
        ),
        (  # round 3 (Hand of God: double heals): Zombie Ant is hit to dead-dead
            {s: "hit Ant, Ant heal Dog" for s in "234"}
            | {s: "hit Fox, Hog heal Dog" for s in "567"}
            | {"1": "hit Cat", "8": "hit Gnu"},
            {},
            [0, 7],
        ),
        (  # round 4: Ant is resurrected and abstains; Fox becomes a Zombie
            {s: "hit Cat, Fox heal Dog" for s in "234567"} | {"1": "hit Cat", "8": "abstain"},
            {},
            [7, 7],
        ),
    ]
    for moves, guesses, dice in rounds:
        state.rng.force(dice)
        for seat, texts in guesses.items():
            for text in texts:
                state.act(seat, text)
        for seat, text in moves.items():
            state.act(seat, text)
        assert state.rng.forced_left == 0
    return state


def _posts(state: HeroBattleState, seat: str | None) -> list[str]:
    view = state.view(seat)
    return [
        round_post(view, report["round"], fmt)
        for report in view["reports"]
        for fmt in ("bbcode", "markdown")
    ]


def test_swapped_identities_with_optional_rules_on() -> None:
    """Random Player, teams, an anonymous round, Zombies, Hand of God, a resurrection,
    public guesses and two guesses a round: the two worlds look the same to every seat
    but the two swapped players and the moderator, in views, events, renders, round
    posts and refusals."""
    a, b = _swapped_battle(False), _swapped_battle(True)
    reports = a.reports
    assert [d["hero"] for d in reports[0]["deaths"]] == ["Ant"] and len(reports[0]["calls"]) == 3
    assert reports[1]["anonymous"] and reports[1]["deaths"][0]["hero"] == "Bat"
    assert reports[2]["effect"] == "double-heals" and reports[2]["dead_dead"] == ["Ant"]
    assert reports[3]["start"][0].startswith("Ant is resurrected")
    assert reports[3]["deaths"][0] == {"hero": "Fox", "player": "5", "zombie": True}
    for seat in OBSERVERS:
        assert seen(a, seat) == seen(b, seat), f"seat {seat} can tell the worlds apart"
        assert _posts(a, seat) == _posts(b, seat)
    for hero in ("Eel", "Gnu", "Yak", "Dog"):
        for player in ("4", "6", "random", "3"):
            for seat in ("1", "3", "7"):
                if seat in a.awaiting():
                    guess = Guess(hero, player)
                    assert a.illegal_reason(seat, guess) == b.illegal_reason(seat, guess)
    assert seen(a, "4") != seen(b, "4")
    assert seen(a, "moderator") != seen(b, "moderator")


def test_changing_anonymous_hits_posts_nothing_public() -> None:
    """Anonymous Play: a player who sends new hits and keeps the public heal shows the
    other seats nothing new; changing the heal is a public edit."""
    a, b = battle(anonymous_every=1), battle(anonymous_every=1)
    a.act("4", "hit Ant, Bat heal Hog")
    b.act("4", "hit Cat, Dog heal Hog")
    b.act("4", "hit Ant, Bat heal Hog")
    for seat in OBSERVERS:
        assert seen(a, seat) == seen(b, seat)
    assert seen(a, "4") != seen(b, "4")
    b.act("4", "hit Ant, Bat heal Gnu")
    public = [e.text for e in b.events_for(None)]
    assert public[-1] == "Round 1: Player 4 edits: heals Gnu; hits sent privately."

"""More rule checks: closing by the moderator, Hand of God effects, teams, big fields."""

from __future__ import annotations

import pytest
from hb_helpers import GAME, battle, everyone, hp, play_round

from gladiatorium.games.hero_battle.enumerate import MAX_LISTED

QUIET = "hit Eel, Fox heal Gnu"
TABLE = (
    "anonymous-round",
    "double-heals",
    "extra-hit",
    "forced-abstain",
    "grant-hp",
    "resurrection",
    "extra-heal",
    "no-heals",
    "double-up",
    "no-guesses",
    "double-nemesis-bonus",
    "calm",
)


def test_moderator_closes_when_auto_close_is_off() -> None:
    """Closing the Round (R6 off): after everyone moved the round stays open, players
    may still edit, and the moderator is the first seat awaited."""
    state = battle(close_when_all_moved=False)
    for seat, text in everyone(QUIET).items():
        state.act(seat, text)
    assert state.round == 1 and state.awaiting()[0] == "moderator"
    state.act("1", "hit Ant, Cat heal Dog")
    state.act("moderator", "close")
    assert state.round == 2 and state.reports[0]["moves"]["1"]["hits"] == ["Ant", "Cat"]


def _rolled(effect: str, **options: object) -> object:
    state = battle(hand_of_god=True, hand_of_god_rounds=(2,), hand_of_god_table=TABLE, **options)
    play_round(state, everyone(QUIET), dice=[TABLE.index(effect) + 1])
    return state


@pytest.mark.parametrize(
    ("effect", "hits", "heals", "double_up", "anonymous"),
    [
        ("extra-heal", 2, 2, False, False),
        ("no-heals", 2, 0, False, False),
        ("double-up", 2, 1, True, False),
        ("anonymous-round", 2, 1, False, True),
        ("calm", 2, 1, False, False),
    ],
)
def test_hand_of_god_effects_shape_the_round(
    effect: str, hits: int, heals: int, double_up: bool, anonymous: bool
) -> None:
    """Hand of God: extra heal, no heals, doubling up, an anonymous round, calm."""
    state = _rolled(effect)
    need = state.need("1")  # type: ignore[attr-defined]
    assert (need.hits, need.heals) == (hits, heals)
    assert state.double_up() == double_up  # type: ignore[attr-defined]
    assert state.anonymous == anonymous  # type: ignore[attr-defined]


def test_hand_of_god_resurrection_and_double_nemesis_bonus() -> None:
    """Hand of God: a resurrection at once; doubled nemesis bonuses (6 HP)."""
    state = battle(hand_of_god=True, hand_of_god_rounds=(2,), hand_of_god_table=TABLE)
    state.heroes["Ant"].hp = 1
    play_round(state, everyone("hit Ant, Eel heal Gnu"), dice=[TABLE.index("resurrection") + 1, 0])
    assert state.heroes["Ant"].alive and state.heroes["Ant"].revived
    state = battle(hand_of_god=True, hand_of_god_rounds=(2,), hand_of_god_table=TABLE)
    play_round(state, everyone(QUIET), dice=[TABLE.index("double-nemesis-bonus") + 1])
    state.heroes["Ant"].hp = 1
    report = play_round(state, everyone("hit Ant, Dog heal Gnu"))
    # Ant (seat 8) is the nemesis of seats 6 (Gnu) and 7 (Hog)
    assert report["nemesis_bonus"] == {"Gnu": 6, "Hog": 6}


def test_teams_deal_and_random_player_is_never_on_one() -> None:
    """Team Affiliation: 12 players make 3 teams of 4; Random Player is on none; each
    member is told its team's heroes (not players)."""
    state = GAME.start({"teams": True, "random_player": True}, 12, seed=3)
    sizes = sorted(len(m) for m in state.teams.values())
    assert sizes == [4, 4, 4]
    rp = state.hero_of("random")
    assert rp is not None and rp.team is None
    you = state.view("1")["you"]
    assert state.hero_of("1").name in you["team"]["heroes"]  # type: ignore[union-attr]
    assert "teams" not in state.view("1")


def test_big_field_lists_a_sample_but_accepts_any_move() -> None:
    """40 players: the move list is capped (an evenly spaced sample); any valid move is
    still accepted when typed."""
    state = GAME.start(None, 40, seed=1)
    legal = state.legal_actions("1")
    assert len([a for a in legal if a.type_name == "move"]) <= MAX_LISTED
    names = list(state.heroes)
    text = f"hit {names[-1]}, {names[-2]} heal {names[-3]}"
    state.act("1", text)
    assert state.moves["1"].hits == (names[-2], names[-1])  # type: ignore[union-attr]


def test_setup_is_deterministic_and_keeps_hp() -> None:
    """Same seed, same secret deal; the starting HP option applies to everyone."""
    a, b = GAME.start({"starting_hp": 5}, 9, seed=8), GAME.start({"starting_hp": 5}, 9, seed=8)
    assert a.nemeses == b.nemeses and hp(a) == hp(b) and set(hp(a).values()) == {5}

"""More rule checks: closing by the moderator, Hand of God effects, teams, big fields."""

from __future__ import annotations

import pytest
from hb_helpers import GAME, battle, battle_at, everyone, hp, play_round

from gladiatorium.core import IllegalAction
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


def test_adjusting_hp_every_number_is_an_option() -> None:
    """Adjusting HP: starting HP, HP a hit and a heal move, nemesis bonus, outing
    penalty, guess bonus and bad-call penalty are options. Hand calculation: Cat (3 HP)
    takes 8 hits of 2 and dies; Eel 20 - 16 = 4; Gnu 20 + 8 heals of 3 = 44; Bat's right
    call on Hog: Bat +2, Hog -6; Dog's wrong call: -1; Cat was the nemesis of Ant (seat
    8) and Bat (seat 1): +1 each."""
    state = battle(
        starting_hp=20,
        hp_per_hit=2,
        hp_per_heal=3,
        nemesis_bonus=1,
        outing_penalty=6,
        correct_guess_bonus=2,
        bad_call_penalty=1,
    )
    state.heroes["Cat"].hp = 3
    guesses = {"1": "guess Hog=7", "3": "guess Fox=2"}
    play_round(state, everyone("hit Cat, Eel heal Gnu"), guesses=guesses)
    assert hp(state) == {
        "Ant": 21,
        "Bat": 23,
        "Cat": -13,
        "Dog": 19,
        "Eel": 4,
        "Fox": 20,
        "Gnu": 44,
        "Hog": 14,
    }


def test_switching_default_rules_off() -> None:
    """Default rules as options: Double-Up off (or at a quarter dead), no Last Man(s)
    Standing reveal, a round limit that draws the Battle (R24)."""
    dead = "{hp: 0, status: dead}"
    state = battle_at(dict.fromkeys(("Cat", "Dog", "Eel", "Fox"), dead), double_up=False)
    with pytest.raises(IllegalAction, match="Double-Up"):
        state.act("1", "hit Hog, Hog heal Ant")
    state = battle_at(dict.fromkeys(("Cat", "Dog"), dead), double_up_dead_fraction=0.25)
    state.act("1", "hit Hog, Hog heal Ant")
    outed = dict.fromkeys(("Ant", "Bat", "Cat", "Dog", "Eel"), "{hp: 12, revealed: true}")
    state = battle_at(outed, last_standing_reveal=False)
    report = play_round(state, everyone(QUIET), guesses={"1": "guess Fox=5"})
    assert [r["hero"] for r in report["revealed"]] == ["Fox"]
    state = battle(max_rounds=1)
    play_round(state, everyone(QUIET))
    outcome = state.outcome()
    assert outcome is not None and outcome.draw and "after 1 rounds" in outcome.reason


def test_resurrection_of_two_and_free_nemesis_deal() -> None:
    """Resurrection of one or more heroes (resurrection_count); the free nemesis deal
    (balanced_nemeses off) still gives two different heroes of other players."""
    dead = "{hp: 0, status: dead}"
    state = battle_at(
        {"Ant": dead, "Bat": dead, "Cat": "{hp: 15}"},
        resurrection_rounds=(2,),
        resurrection_count=2,
    )
    # living after round 1 (six movers): Cat 15, Dog 12, Eel and Fox 12 - 6 = 6, Gnu
    # 12 + 6 = 18, Hog 12: 69 / 6 = 11.5, a half rounds up to 12 (R11); then 81 / 7 =
    # 11.6, 12 again; draw 0 each time takes the first dead hero
    play_round(state, {s: QUIET for s in "234567"}, dice=[0, 0])
    assert hp(state)["Ant"] == 12 and hp(state)["Bat"] == 12
    assert state.heroes["Ant"].revived and state.heroes["Bat"].revived
    for seed in range(10):
        free = GAME.start({"balanced_nemeses": False}, 9, seed)
        for seat, pair in free.nemeses.items():
            owner = free.hero_of(seat)
            assert len(set(pair)) == 2 and owner is not None and owner.name not in pair

"""Optional rules of Hero Battle, each a named option, checked by hand calculation."""

from __future__ import annotations

import pytest
from hb_helpers import GAME, battle, everyone, hp, play_round

from gladiatorium.core import IllegalAction, OptionsError

QUIET = "hit Eel, Fox heal Gnu"


def test_random_player_hits_and_can_be_called_out() -> None:
    """Random Player: an extra hero with no nemeses, nobody's nemesis; one random hit
    at the start of each round, never on its own hero; a right guess gives the guesser
    3 HP and kills Random Player's hero at once."""
    state = battle(random_player=True, random_player_hero="Yak", starting_hp=100)
    assert state.heroes["Yak"].player == "random"
    assert all("Yak" not in pair for pair in state.nemeses.values())
    assert state.random_hit not in (None, "Yak")
    # round 2's hit: index 3 of the other heroes Ant..Hog is Dog
    play_round(state, everyone(QUIET), dice=[3])
    assert state.random_hit == "Dog"
    report = play_round(state, everyone(QUIET), guesses={"1": "guess Yak=random"})
    assert report["changes"]["Bat"]["guess"] == 3
    assert "outing" not in report["changes"].get("Yak", {})
    assert state.heroes["Yak"].status == "dead"
    assert hp(state)["Dog"] == 99
    assert state.random_hit is None


def test_random_player_hero_winning_means_all_lost() -> None:
    """Winning with Random Player (R10): if its hero is the last alive, nobody wins."""
    state = battle(random_player=True, random_player_hero="Yak", heals_per_round=0)
    for name in ("Ant", "Bat", "Cat", "Dog", "Eel", "Fox", "Gnu"):
        state.heroes[name].status = "dead"
    state.heroes["Hog"].hp = 1
    state.random_hit = "Hog"
    play_round(state, {"7": "hit Yak, Yak"})
    outcome = state.outcome()
    assert outcome is not None and outcome.lost and not outcome.winners


@pytest.mark.parametrize(
    ("options", "anonymous"),
    [
        ({"anonymous_every": 2}, [False, True, False]),
        ({"anonymous_rounds": (1, 3)}, [True, False, True]),
    ],
)
def test_anonymous_rounds_by_schedule(options: dict[str, object], anonymous: list[bool]) -> None:
    """Anonymous Play: every Nth round, or listed rounds, are anonymous."""
    state = battle(starting_hp=100, **options)
    seen = []
    for _ in range(3):
        seen.append(state.anonymous)
        play_round(state, everyone(QUIET))
    assert seen == anonymous
    assert "hits" not in state.reports[0 if anonymous[0] else 1]["moves"]["1"]


def test_anonymous_round_after_a_death() -> None:
    """Anonymous Play: with anonymous_after_death, the round after a death is anonymous;
    heals stay public, hits are totals only."""
    state = battle(anonymous_after_death=True)
    state.heroes["Ant"].hp = 1
    play_round(state, everyone("hit Ant, Eel heal Gnu"))
    assert state.anonymous
    state.act("1", "hit Bat, Cat heal Dog")
    assert state.view("5")["posted"]["1"] == {"heals": ["Dog"]}
    assert state.view("1")["you"]["move"] == "hit Bat, Cat heal Dog"


def test_resurrection_uses_average_hp_rounded() -> None:
    """Resurrection: a random dead hero returns with the living heroes' average HP,
    rounded to the nearest whole number (R11); never twice in one Battle."""
    state = battle(resurrection_every=2, starting_hp=100)
    state.heroes["Ant"].hp = 1
    state.heroes["Bat"].hp = 3
    # round 1: Ant dies (seat 8 is out); living Bat..Hog: 2, 100, 100, 93, 100, 108 + 3,
    # 100 + 3 (Gnu and Hog have Ant as nemesis) = 609 / 7 = 87; round 2 starts with a
    # resurrection (one draw among the dead)
    play_round(state, everyone("hit Ant, Eel heal Gnu") | {"1": "hit Ant, Bat heal Gnu"}, dice=[0])
    expected = 87
    assert state.heroes["Ant"].alive and state.heroes["Ant"].hp == expected
    assert state.heroes["Ant"].revived and state.heroes["Ant"].revealed
    state.heroes["Ant"].status = "dead"
    seven = {str(s): "hit Cat, Dog heal Fox" for s in range(1, 8)}
    play_round(state, seven)
    play_round(state, seven)  # round 4 starts without a draw: nobody left to revive
    assert state.heroes["Ant"].status == "dead"


def test_team_bonus_for_the_last_intact_team() -> None:
    """Team Affiliation: the last team with all heroes alive gains 3 HP each."""
    state = battle(teams=True, team_count=2)
    _teams(state, {"Red": ("Ant", "Bat", "Cat", "Dog"), "Blue": ("Eel", "Fox", "Gnu", "Hog")})
    state.heroes["Ant"].hp = 1
    report = play_round(state, everyone("hit Ant, Bat heal Cat"))
    assert report["team_bonus"] == {"Eel": 3, "Fox": 3, "Gnu": 3, "Hog": 3}
    assert hp(state)["Eel"] == 15 and hp(state)["Bat"] == 12 - 8
    del_8 = everyone("hit Bat, Cat heal Dog")
    del del_8["8"]
    report = play_round(state, del_8)
    assert report["team_bonus"] == {}


@pytest.mark.parametrize(("teams", "each"), [(2, 1), (3, 0)])
def test_team_tie_bonus(teams: int, each: int) -> None:
    """Team Affiliation: two teams losing their last intact status together gain 1 HP
    each; three or more: no bonus."""
    state = battle(teams=True, team_count=teams)
    tables = {
        2: {"Red": ("Ant", "Bat", "Cat", "Dog"), "Blue": ("Eel", "Fox", "Gnu", "Hog")},
        3: {"Red": ("Ant", "Bat", "Cat"), "Blue": ("Dog", "Eel", "Fox"), "Gold": ("Gnu", "Hog")},
    }
    _teams(state, tables[teams])
    victims = {"Ant", "Eel", "Gnu"}
    for name in victims:
        state.heroes[name].hp = 1
    report = play_round(state, everyone("hit Ant, Eel heal Bat") | {"7": "hit Gnu, Eel heal Bat"})
    assert report["team_bonus"] == {
        h: each for h in ("Bat", "Cat", "Dog", "Fox", "Hog")[: 5 if each else 0]
    }


def _teams(state: object, table: dict[str, tuple[str, ...]]) -> None:
    state.teams = table  # type: ignore[attr-defined]
    for team, members in table.items():
        for member in members:
            state.heroes[member].team = team  # type: ignore[attr-defined]


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
)


def _roll(effect: str, **options: object) -> object:
    """A Battle whose round 2 rolls ``effect`` on the Hand of God table."""
    state = battle(hand_of_god=True, hand_of_god_rounds=(2,), hand_of_god_table=TABLE, **options)
    extra = {"forced-abstain": [0] * 7, "grant-hp": [0]}.get(effect, [])
    play_round(state, everyone(QUIET), dice=[TABLE.index(effect) + 1, *extra])
    assert state.effect == effect
    return state


def test_hand_of_god_double_heals_and_extra_hit() -> None:
    """Hand of God: the rolled effect lasts one round (double heals; an extra hit)."""
    state = _roll("double-heals")
    report = play_round(state, everyone(QUIET))
    assert report["changes"]["Gnu"]["heals"] == 16
    state = _roll("extra-hit")
    with pytest.raises(IllegalAction, match="3 hit"):
        state.act("1", QUIET)
    report = play_round(state, everyone("hit Ant, Eel, Fox heal Gnu"))
    assert report["changes"]["Ant"]["hits"] == -8
    assert state.effect is None and state.need("1").hits == 2


def test_hand_of_god_forced_abstain_grant_and_no_guesses() -> None:
    """Hand of God: two random players must abstain; one random hero gains 3 HP; no
    guesses this round."""
    state = _roll("forced-abstain")
    assert len(state.forced) == 2
    with pytest.raises(IllegalAction, match="abstain"):
        state.act(state.forced[0], QUIET)
    assert next(str(a) for a in state.legal_actions(state.forced[1])) == "abstain"
    assert all(a.type_name != "move" for a in state.legal_actions(state.forced[1]))
    state = _roll("grant-hp")
    assert hp(state)["Ant"] == 15
    state = _roll("no-guesses")
    with pytest.raises(IllegalAction, match="no guesses"):
        state.act("1", "guess Cat=2")


def test_zombies() -> None:
    """ZOMBIES!: a dead hero becomes a Zombie that never gains HP, deals one hit a
    round, may be hit twice by one player, and at -5 HP or less is dead-dead. An
    abstaining Zombie's random hit may land on itself."""
    state = battle(zombies=True)
    state.heroes["Ant"].hp = 1
    play_round(
        state,
        {"1": "hit Ant, Eel heal Gnu", "2": "hit Ant, Eel heal Gnu"} | {s: QUIET for s in "345678"},
    )
    assert state.heroes["Ant"].status == "zombie" and hp(state)["Ant"] == -1
    assert state.need("8").hits == 1 and state.need("8").heals == 0
    assert "8" in state.awaiting()
    with pytest.raises(IllegalAction, match="a Zombie cannot guess"):
        state.act("8", "guess Cat=2")
    with pytest.raises(IllegalAction, match="Zombie"):
        state.act("1", "hit Bat, Cat heal Ant")
    state.act("1", "hit Ant, Ant heal Cat")
    # seat 8 (the Zombie Ant) abstains: its random hit may hit itself (index 0 = Ant)
    report = play_round(state, {s: "hit Bat, Cat heal Dog" for s in "234567"}, dice=[0])
    assert report["moves"]["8"] == {"abstained": True, "random_hit": "Ant"}
    assert hp(state)["Ant"] == -4
    state.act("1", "hit Ant, Ant heal Cat")
    play_round(state, {s: "hit Bat, Cat heal Dog" for s in "234567"} | {"8": "hit Bat"})
    assert state.heroes["Ant"].status == "dead" and hp(state)["Ant"] == -6


def test_other_optional_rules() -> None:
    """Other optional rules: double hits at all times; several guesses a round;
    abstainers get no move; public guesses; call-outs kill."""
    state = battle(double_hits_always=True, guesses_per_round=2, public_guesses=True)
    state.act("1", "guess Cat=3")
    state.act("1", "guess Dog=3")
    report = play_round(state, everyone("hit Hog, Hog heal Gnu"))
    assert {"caller": "Bat", "target": "Dog", "correct": True, "player": "3"} in report["calls"]
    assert {"caller": "Bat", "target": "Cat", "correct": False, "player": "3"} in report["calls"]
    assert report["changes"]["Bat"] == {"guess": 3, "bad_call": -2, "total": 1}
    state = battle(abstainers_get_no_move=True)
    report = play_round(state, {})
    assert report["changes"] == {}
    state = battle(outing_kills=True)
    report = play_round(state, everyone(QUIET), guesses={"1": "guess Cat=2"})
    assert state.heroes["Cat"].status == "dead" and hp(state)["Cat"] == 0


def test_bad_options_name_the_field() -> None:
    """Options: bad values are refused with the option named."""
    with pytest.raises(OptionsError, match="hand_of_god_table"):
        GAME.make_options({"hand_of_god_table": ["calm"] * 3})
    with pytest.raises(OptionsError, match=r"signups\[1\]"):
        GAME.make_options({"signups": ["Ant", "Bat, the second"]})
    with pytest.raises(OptionsError, match="assign_heroes"):
        battle(assign_heroes=("Ant",) * 8)
    with pytest.raises(OptionsError, match="signups"):
        GAME.start({"signups": ["Ant", "Bat"]}, 8)


def test_random_player_never_hits_its_own_hero() -> None:
    """Random Player: its hit is drawn from the other heroes in name order, so with its
    hero first in that order, draw 0 lands on the next hero, never on its own (R25).
    As a Zombie it may hit itself (draw 0 is then its own hero)."""
    state = battle(random_player=True, random_player_hero="Aardvark", zombies=True)
    play_round(state, everyone(QUIET), dice=[0])
    assert state.random_hit == "Ant"
    state.heroes["Aardvark"].hp = 1
    moves = everyone(QUIET) | {"1": "hit Aardvark, Eel heal Gnu", "2": "hit Aardvark, Eel heal Gnu"}
    play_round(state, moves, dice=[0])
    assert state.heroes["Aardvark"].status == "zombie"
    assert state.random_hit == "Aardvark"


def test_random_player_call_out_shared_by_two() -> None:
    """Random Player: two right guesses of its hero share the award like any right
    guess (3 - 1 = 2 HP each); the hero dies with no outing penalty (R13)."""
    state = battle(random_player=True, random_player_hero="Yak", starting_hp=20)
    guesses = {"1": "guess Yak=random", "2": "guess Yak=Random Player"}
    report = play_round(state, everyone(QUIET), guesses=guesses)
    assert report["changes"]["Bat"]["guess"] == 2 and report["changes"]["Cat"]["guess"] == 2
    assert report["deaths"] == [{"hero": "Yak", "player": "random", "zombie": False}]
    assert report["changes"]["Yak"] == {"killed": -20, "total": -20}

"""Default rules of Hero Battle, each checked against a hand calculation."""

from __future__ import annotations

import pytest
from hb_helpers import GAME, HERO, battle, battle_at, everyone, hp, play_round

from gladiatorium.core import IllegalAction, NotYourTurn
from gladiatorium.games.hero_battle.actions import Close


def test_setup_starting_hp_identities_and_nemeses() -> None:
    """Setting Up: every hero starts at 12 HP; nobody gets the hero they submitted;
    two nemeses each, heroes of other players; balanced deal (R4)."""
    for seed in range(20):
        state = GAME.start(None, 12, seed)
        assert all(h.hp == 12 for h in state.heroes.values())
        counts: dict[str, int] = {}
        for seat in state.player_seats:
            hero = state.hero_of(seat)
            assert hero is not None and hero.name != state.signups[seat]
            nemeses = state.nemeses[seat]
            assert len(set(nemeses)) == 2 and hero.name not in nemeses
            for name in nemeses:
                counts[name] = counts.get(name, 0) + 1
        assert set(counts.values()) == {2}


def test_hits_and_heals_compile_simultaneously() -> None:
    """Hits & Heals: each hit -1 HP, each heal +1 HP, all moves compiled at once."""
    state = battle()
    moves = everyone("hit Ant, Bat heal Cat")
    moves["8"] = "hit Cat, Dog heal Ant"
    report = play_round(state, moves)
    # Ant: 7 hits, 1 heal; Bat: 7 hits; Cat: 1 hit, 7 heals; Dog: 1 hit
    assert hp(state) == {
        "Ant": 12 - 7 + 1,
        "Bat": 12 - 7,
        "Cat": 12 - 1 + 7,
        "Dog": 11,
        "Eel": 12,
        "Fox": 12,
        "Gnu": 12,
        "Hog": 12,
    }
    assert report["changes"]["Ant"] == {"hits": -7, "heals": 1, "total": -6}
    assert state.round == 2


def test_targets_must_differ_and_no_partial_moves() -> None:
    """Hits & Heals: three different heroes (own hero allowed); no partial moves."""
    state = battle()
    assert (
        state.illegal_reason(
            "1", GAME.action_from_json({"type": "move", "hits": ["Ant", "Ant"], "heals": ["Cat"]})
        )
        is not None
    )
    with pytest.raises(IllegalAction, match="hit and healed"):
        state.act("1", "hit Ant, Cat heal Cat")
    with pytest.raises(IllegalAction):
        state.act("1", "hit Ant heal Cat")
    state.act("1", "hit Bat, Cat heal Dog")  # Bat is seat 1's own hero: allowed
    state.act("2", "heal dog hit eel, fox")  # any order and letter case
    assert str(state.moves["2"]) == "hit Eel, Fox heal Dog"


def test_moves_may_be_edited_until_the_round_closes() -> None:
    """Closing the Round: a player may change the move until the round closes; the
    last version counts."""
    state = battle()
    state.act("1", "hit Ant, Cat heal Dog")
    state.act("1", "hit Eel, Fox heal Gnu")
    assert "1" in state.awaiting()
    # seats 2-8 abstain; each random hit takes the first other hero: Ant (Bat for Ant)
    play_round(state, {}, dice=[0] * 7)
    assert hp(state) == {
        "Ant": 6,
        "Bat": 11,
        "Cat": 12,
        "Dog": 12,
        "Eel": 11,
        "Fox": 11,
        "Gnu": 13,
        "Hog": 12,
    }
    assert state.reports[-1]["moves"]["1"] == {"heals": ["Gnu"], "hits": ["Eel", "Fox"]}


def test_abstention_random_hit_never_on_own_hero() -> None:
    """Abstentions: the moderator assigns one random hit from the abstainer, never on
    the abstainer's own hero. The draw picks among the other heroes in name order."""
    state = battle()
    moves = {str(s): "hit Eel, Fox heal Gnu" for s in range(2, 9)}
    # seat 1 (Bat) abstains: candidates Ant, Cat, Dog ... Hog; index 1 is Cat, not Bat
    report = play_round(state, moves, dice=[1])
    assert report["moves"]["1"] == {"abstained": True, "random_hit": "Cat"}
    assert hp(state)["Cat"] == 11 and hp(state)["Bat"] == 12


def test_round_closes_when_everyone_moved_or_at_the_deadline() -> None:
    """Closing the Round: closes once all players moved (R6) or when the moderator
    closes it; a player without a valid move by then abstains."""
    state = battle()
    for seat in range(1, 8):
        state.act(str(seat), "abstain")
    assert state.round == 1
    state.rng.force([0] * 8)
    state.act("8", "hit Ant, Bat heal Cat")
    assert state.round == 2
    state.rng.force([0] * 8)
    state.act("moderator", "close")
    assert state.round == 3
    assert all(m.get("abstained") for m in state.reports[-1]["moves"].values())
    with pytest.raises(IllegalAction, match="moderator"):
        state.apply("1", Close())


def test_correct_guess_outs_the_hero() -> None:
    """Secret Identities: a right guess outs the hero (-4 HP) and the guesser's hero
    gains the guessing bonus, 3 HP as first stated (R1). The post names caller and
    target; the identity becomes public."""
    state = battle()
    report = play_round(state, everyone("abstain"), guesses={"1": "guess Cat=2"}, dice=[0] * 8)
    assert report["calls"] == [{"caller": "Bat", "target": "Cat", "correct": True, "player": "2"}]
    assert report["changes"]["Cat"]["outing"] == -4
    assert report["changes"]["Bat"]["guess"] == 3
    assert state.heroes["Cat"].revealed
    assert state.view(None)["identities"]["Cat"] == "2"


def test_bad_call_costs_two_and_reveals_nothing() -> None:
    """Secret Identities: a wrong guess costs the guesser 2 HP; the post says who
    called out whom and that it was wrong, never which player was named."""
    state = battle()
    report = play_round(state, everyone("abstain"), guesses={"1": "guess Cat=3"}, dice=[0] * 8)
    assert report["calls"] == [{"caller": "Bat", "target": "Cat", "correct": False}]
    assert report["changes"]["Bat"]["bad_call"] == -2
    assert not state.heroes["Cat"].revealed
    public = [e.text for e in state.events_for("5")]
    assert any("Bat calls out Cat: wrong" in t for t in public)
    assert not any("Player 3" in t and "Cat" in t for t in public)
    private = [e.text for e in state.events_for("1") if e.kind == "guess-result"]
    assert private == ["Your call-out of Cat as Player 3 was wrong."]


@pytest.mark.parametrize(("guessers", "each"), [(2, 2), (3, 1), (5, 0)])
def test_same_correct_guess_shares_a_smaller_bonus(guessers: int, each: int) -> None:
    """Several players make the same right guess: the award drops 1 HP per extra
    guesser; the outed hero is penalised once."""
    state = battle()
    callers = {str(s): "guess Hog=7" for s in range(1, guessers + 1)}
    report = play_round(state, everyone("abstain"), guesses=callers, dice=[0] * 8)
    for seat in callers:
        assert report["changes"].get(HERO[seat], {}).get("guess", 0) == each
    assert report["changes"]["Hog"]["outing"] == -4


def test_one_guess_per_round_and_not_on_known_heroes() -> None:
    """Secret Identities: one guess per round (R7); not one's own hero; not a hero
    whose identity is public."""
    state = battle()
    state.act("1", "guess Cat=3")
    with pytest.raises(IllegalAction, match="1 guess"):
        state.act("1", "guess Dog=4")
    with pytest.raises(IllegalAction, match="your own hero"):
        state.act("2", "guess Cat=2")  # seat 2 is Cat
    with pytest.raises(IllegalAction, match="'2' is not a player whose hero is still hidden"):
        state.act("2", "guess Dog=2")  # a player names themselves
    with pytest.raises(NotYourTurn):
        state.act("nobody", "abstain")
    play_round(state, everyone("abstain"), guesses={"4": "guess Cat=2"}, dice=[0] * 8)
    assert state.heroes["Cat"].revealed
    with pytest.raises(IllegalAction, match="Cat's identity is already known"):
        state.act("1", "guess Cat=2")
    with pytest.raises(IllegalAction, match="'2' is not a player whose hero is still hidden"):
        state.act("1", "guess Dog=2")


def test_deaths_are_final_before_nemesis_bonuses() -> None:
    """Order of Damage: changes compile at once; a hero at 0 HP or less is dead and
    revealed; then each living hero whose nemesis died gains 3 HP. A dead hero gets
    no nemesis bonus."""
    state = battle_at({"Eel": "{hp: 2}", "Cat": "{hp: 1}"})
    # seat 1 (Bat) has nemeses Cat, Dog; seat 2 (Cat) has Dog, Eel; seat 3 (Dog): Eel, Fox
    moves = everyone("hit Gnu, Hog heal Ant")
    moves["4"] = "hit Eel, Cat heal Ant"
    moves["5"] = "hit Eel, Cat heal Ant"
    report = play_round(state, moves)
    assert [d["hero"] for d in report["deaths"]] == ["Cat", "Eel"]
    assert state.heroes["Cat"].status == "dead" and state.heroes["Cat"].revealed
    # Bat (Cat, Dog) +3; Dog (Eel, Fox) +3; Ant, seat 8 (Bat, Cat) +3; Cat died itself
    assert report["nemesis_bonus"] == {"Ant": 3, "Bat": 3, "Dog": 3}
    assert hp(state)["Bat"] == 15 and hp(state)["Dog"] == 15
    assert hp(state)["Cat"] == -1
    assert "2" not in state.awaiting()


def test_double_up_after_half_the_heroes_died() -> None:
    """Double-Up: once half the heroes are dead, hits may double up, but a hero is
    still never hit and healed in one round."""
    with pytest.raises(IllegalAction, match="Double-Up"):
        battle().act("1", "hit Hog, Hog heal Ant")
    state = battle_at(dict.fromkeys(("Cat", "Dog", "Eel", "Fox"), "{hp: 0, status: dead}"))
    state.act("1", "hit Hog, Hog heal Ant")
    with pytest.raises(IllegalAction):
        state.act("6", "hit Hog, Hog heal Hog")


def test_last_men_standing_are_revealed_without_bonus() -> None:
    """Last Man(s) Standing: when only one or two heroes are not outed, the moderator
    reveals them at once; nobody gains or loses HP for it."""
    state = battle()
    for name in ("Ant", "Bat", "Cat", "Dog", "Eel"):
        state.heroes[name].revealed = True
    report = play_round(state, everyone("abstain"), guesses={"1": "guess Fox=5"}, dice=[0] * 8)
    assert {r["hero"] for r in report["revealed"]} == {"Fox", "Gnu", "Hog"}
    hows = {r["hero"]: r["how"] for r in report["revealed"]}
    assert hows == {"Fox": "outed", "Gnu": "last-standing", "Hog": "last-standing"}
    assert "Gnu" not in report["changes"]


def test_last_hero_alive_wins() -> None:
    """Winning: the last hero alive wins; dead players no longer take part."""
    dead = dict.fromkeys(("Ant", "Bat", "Cat", "Dog", "Eel", "Fox"), "{hp: -1, status: dead}")
    state = battle_at(dead | {"Hog": "{hp: 1}"})
    play_round(state, {"6": "hit Hog, Hog heal Gnu", "7": "hit Gnu, Gnu heal Hog"})
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("6",)  # seat 6 is Gnu
    assert state.awaiting() == () and state.legal_actions("6") == []


@pytest.mark.parametrize(
    ("tie", "winners"), [("shared", ("6", "7")), ("highest-hp", ("7",)), ("draw", ())]
)
def test_last_heroes_dying_together(tie: str, winners: tuple[str, ...]) -> None:
    """Winning, when the last heroes die in the same compile (R9): shared by default;
    options: the most HP left wins, or a draw."""
    dead = dict.fromkeys(("Ant", "Bat", "Cat", "Dog", "Eel", "Fox"), "{hp: -1, status: dead}")
    state = battle_at(dead | {"Gnu": "{hp: 1}", "Hog": "{hp: 2}"}, tie=tie, heals_per_round=0)
    play_round(state, {"6": "hit Hog, Hog", "7": "hit Gnu, Gnu"})
    assert hp(state)["Gnu"] == -1 and hp(state)["Hog"] == 0
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == winners
    assert outcome.draw == (tie == "draw")


def test_two_nemeses_dying_pay_twice() -> None:
    """Nemeses: a bonus for each nemesis that dies; seat 1 (Bat) has nemeses Cat and
    Dog: both die in one round, Bat gains 2 x 3 HP."""
    state = battle_at({"Cat": "{hp: 1}", "Dog": "{hp: 1}"})
    report = play_round(state, everyone("hit Cat, Dog heal Hog"))
    assert [d["hero"] for d in report["deaths"]] == ["Cat", "Dog"]
    assert report["nemesis_bonus"]["Bat"] == 6 and hp(state)["Bat"] == 18


def test_typed_input_errors_name_the_problem() -> None:
    """Bad input is refused with the unknown name in the message, and changes
    nothing; a guess may name the player by forum name instead of seat."""
    state = battle(player_names=("ann", "bob", "cy", "di", "ed", "flo", "gus", "hal"))
    with pytest.raises(IllegalAction, match="no hero called 'Nobody'"):
        state.act("1", "hit Nobody, Cat heal Dog")
    with pytest.raises(IllegalAction, match="no hero called 'Nobody'"):
        state.act("1", "guess Nobody=2")
    with pytest.raises(IllegalAction, match="'zed' is not a player"):
        state.act("1", "guess Cat=zed")
    assert state.moves == {} and state.guesses == {}
    state.act("1", "guess Cat=BOB")
    assert state.view("1")["you"]["guesses"] == [{"hero": "Cat", "player": "2"}]

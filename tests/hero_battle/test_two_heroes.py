"""Optional rule "Assign two heroes to each player" (heroes_per_player = 2, R26)."""

from __future__ import annotations

from hb_helpers import ANIMALS, GAME, play_round

from gladiatorium.games.hero_battle import HeroBattleState
from gladiatorium.games.hero_battle.bots import infer_identities

EXTRA = ("Ape", "Boa", "Cod", "Doe", "Elk", "Fly", "Gar", "Hen")
PAIRS = {str(i + 1): (ANIMALS[(i + 1) % 8], EXTRA[i]) for i in range(8)}


def two_heroes(**options: object) -> HeroBattleState:
    """Seat N plays the hero after its own sign-up and the Nth extra name."""
    heroes = tuple(h for i in range(1, 9) for h in PAIRS[str(i)])
    state = GAME.start(
        {
            "signups": ANIMALS,
            "heroes_per_player": 2,
            "extra_heroes": EXTRA,
            "assign_heroes": heroes,
            "assign_nemeses": tuple(
                tuple(sorted((ANIMALS[(i + 3) % 8], EXTRA[(i + 4) % 8]))) for i in range(8)
            ),
            **options,
        },
        8,
        seed=1,
    )
    assert isinstance(state, HeroBattleState)
    return state


def test_random_deal_of_two_heroes_each() -> None:
    """Set-up: the moderator tops the pool up from the theme list; every player gets two
    heroes, never the one they submitted; nemeses are heroes of other players, each
    hero the nemesis of exactly one player (balanced)."""
    for seed in range(10):
        state = GAME.start({"heroes_per_player": 2}, 8, seed)
        assert len(state.heroes) == 16
        counts: dict[str, int] = {}
        for seat in state.player_seats:
            mine = {h.name for h in state.heroes_of(seat)}
            assert len(mine) == 2 and state.signups[seat] not in mine
            assert not mine & set(state.nemeses[seat])
            for name in state.nemeses[seat]:
                counts[name] = counts.get(name, 0) + 1
        assert set(counts.values()) == {1} and len(counts) == 16


def test_one_move_per_player_and_abstention_avoids_both_heroes() -> None:
    """A player moves once a round for both heroes; the abstention hit lands on
    neither of them; a player's view lists both heroes."""
    state = two_heroes()
    assert state.view("1")["you"]["heroes"] == ["Ape", "Bat"]
    moves = {str(s): "hit Cod, Doe heal Elk" for s in range(2, 9)}
    # seat 1 (Ape, Bat) abstains: the other heroes in name order start Ant, Boa
    report = play_round(state, moves, dice=[1])
    assert report["moves"]["1"] == {"abstained": True, "random_hit": "Boa"}


def test_player_stays_while_a_hero_lives_and_wins_with_the_last_two() -> None:
    """A player is out only when both heroes are dead; the last living heroes all
    belonging to one player make that player the winner; a right guess pays the
    guesser's lead hero (its first living hero by name)."""
    state = two_heroes()
    state.heroes["Ape"].status = "dead"
    assert "1" in state.active_players()
    report = play_round(state, {}, guesses={"1": "guess Cat=2"}, dice=[0] * 8)
    assert report["changes"]["Bat"]["guess"] == 3
    for _name, hero in state.heroes.items():
        if hero.player != "1":
            hero.status = "dead"
    state.heroes["Ape"].status = "alive"
    state.heroes["Ape"].hp = 5
    state.rng.force([0])
    state.act("moderator", "close")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("1",)


def test_inferrer_charts_two_heroes_a_player() -> None:
    """The identity inferrer: each player holds two hidden heroes, each hero one owner."""
    state = two_heroes()
    beliefs = infer_identities(state.view("1"), "1")
    assert set(beliefs) == {str(s) for s in range(2, 9)}
    for row in beliefs.values():
        assert abs(sum(row.values()) - 2) < 1e-6
    heroes = next(iter(beliefs.values()))
    for hero in heroes:
        assert abs(sum(row[hero] for row in beliefs.values()) - 1) < 1e-6

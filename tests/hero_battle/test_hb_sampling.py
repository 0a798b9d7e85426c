"""The full Battles a bot is handed (``sampling.py``): every secret of the seat is dealt
again, each sample made from what the seat may know only. Worlds that differ only in a
secret the seat may not know give the same samples; the true secret is not kept."""

from __future__ import annotations

from collections import Counter

from hb_helpers import GAME, battle, everyone, play_round
from test_two_heroes import two_heroes

from contract import world_text
from gladiatorium.core import Observation, Rng
from gladiatorium.games.hero_battle import HeroBattleState

DRAWS = range(12)


def samples(state: HeroBattleState, seat: str) -> list[HeroBattleState]:
    observation = Observation(GAME, state, seat)
    worlds = [observation.determinize(Rng(k)) for k in DRAWS]
    assert all(isinstance(w, HeroBattleState) for w in worlds)
    return worlds  # type: ignore[return-value]


def test_a_revealed_players_second_hero_is_dealt_again() -> None:
    """Seat 2 (Cat, Boa) is outed as Cat's player: Boa's owner is still hidden from
    seat 1, so it may be any player still holding a hidden hero."""
    state = two_heroes()
    play_round(state, everyone("hit Hen, Gar heal Fly"), guesses={"1": "guess Cat=2"})
    assert state.heroes["Cat"].revealed and not state.heroes["Boa"].revealed
    owners = Counter(w.heroes["Boa"].player for w in samples(state, "1"))
    assert owners["2"] < len(DRAWS) and len(owners) >= 3
    # a twin where seat 3 (Dog, Cod) holds Boa and seat 2 Cod: the same samples
    twin = state.clone()
    twin.heroes["Boa"].player, twin.heroes["Cod"].player = "3", "2"
    assert [world_text(w) for w in samples(twin, "1")] == [
        world_text(w) for w in samples(state, "1")
    ]
    for world in samples(state, "1"):
        held = Counter(h.player for h in world.heroes.values())
        assert set(held.values()) == {2} and world.heroes["Cat"].player == "2"
        assert {h.name for h in world.heroes_of("1")} == {"Ape", "Bat"}


def test_the_teams_the_seat_is_not_on_are_dealt_again() -> None:
    """Three teams of eight heroes (3, 3, 2): seat 1 knows its own; the other two are
    dealt again from their heroes, each keeping its size."""
    state = battle(teams=True, team_count=3)
    mine = state.heroes["Bat"].team  # seat 1 plays Bat
    assert mine is not None
    others = {t: m for t, m in state.teams.items() if t != mine}
    dealt = dict(state.teams)
    worlds = samples(state, "1")
    assert state.teams == dealt  # the match's own teams are left as they were
    for world in worlds:
        assert world.teams[mine] == state.teams[mine]
        assert {t: len(m) for t, m in world.teams.items()} == {
            t: len(m) for t, m in state.teams.items()
        }
        assert all(world.heroes[h].team == t for t, m in world.teams.items() for h in m)
    assert len({tuple(sorted(w.teams.items())) for w in worlds}) > 1
    first, second = list(others)
    a, b = others[first][0], others[second][0]
    twin = state.clone()
    twin.teams = {
        **twin.teams,
        first: tuple(sorted({*others[first]} - {a} | {b})),
        second: tuple(sorted({*others[second]} - {b} | {a})),
    }
    twin.heroes[a].team, twin.heroes[b].team = second, first
    assert [world_text(w) for w in samples(twin, "1")] == [
        world_text(w) for w in samples(state, "1")
    ]


def test_nemeses_are_dealt_balanced_around_the_seats_own_pair() -> None:
    """The default deal makes every hero the nemesis of exactly two players (R4); so
    does every sample, with seat 1's own pair kept and nobody hunting their own hero."""
    state = GAME.start(None, 8, 5)
    assert isinstance(state, HeroBattleState)
    worlds = samples(state, "1")
    for world in worlds:
        assert world.nemeses["1"] == state.nemeses["1"]
        counts = Counter(h for pair in world.nemeses.values() for h in pair)
        assert set(counts.values()) == {2} and len(counts) == 8
        for seat, pair in world.nemeses.items():
            assert len(set(pair)) == 2
            assert not {h.name for h in world.heroes_of(seat)} & set(pair)
    assert len({tuple(sorted(w.nemeses.items())) for w in worlds}) > 1

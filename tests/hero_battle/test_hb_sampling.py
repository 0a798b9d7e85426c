"""The full Battles a bot is handed (``sampling.py``): every secret of the seat is dealt
again, each sample made from what the seat may know only. Worlds that differ only in a
secret the seat may not know give the same samples; the true secret is not kept."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from hb_helpers import GAME, battle, everyone, play_round
from test_two_heroes import two_heroes

from contract import world_text
from gladiatorium.core import Observation, Rng, get_bot
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


def battle_with_bonuses(seed: int = 0, **options: object) -> HeroBattleState:
    """A default Battle of eight played at random until two round posts named heroes
    that gained a nemesis bonus, with four heroes or more still hidden (round 6 for
    seed 0: Night Heron and Silver Sparrow dead, six hidden)."""
    state = GAME.start(options, 8, seed)
    assert isinstance(state, HeroBattleState)
    rng = Rng(seed)
    while sum(bool(r["nemesis_bonus"]) for r in state.reports) < 2 or state.moves:
        seat = next(s for s in state.awaiting() if s != "moderator")
        state.apply(seat, state.sample_legal(seat, rng))
    assert sum(not h.revealed for h in state.heroes.values()) >= 4
    return state


def inconsistencies(world: HeroBattleState, state: HeroBattleState, seat: str) -> list[str]:
    """Where ``world`` contradicts what ``seat`` has seen in ``state``, read from the
    rules directly: the seat's view, sign-ups, abstention hits, the seat's wrong guesses,
    a balanced deal of nemeses (R4) and every post's nemesis bonuses (R20)."""
    found = []
    if world.view(seat) != state.view(seat):
        found.append("the seat's view differs")
    owner = {h.name: h.player for h in world.heroes.values()}
    found += [f"seat {s} plays its sign-up" for s, h in world.signups.items() if owner[h] == s]
    for report in world.reports:
        for player, move in report["moves"].items():
            if owner.get(move.get("random_hit", "")) == player:
                found.append(f"round {report['round']}: {player}'s abstention hit its own hero")
    for result in world.guess_log[seat]:
        if (owner[result["hero"]] == result["player"]) != result["correct"]:
            found.append(f"the seat's guess of {result['hero']} reads otherwise")
    counts = Counter(h for pair in world.nemeses.values() for h in pair)
    if set(counts.values()) != {2} or len(counts) != len(world.heroes):
        found.append(f"nemeses not balanced: {counts}")
    for seat_, pair in world.nemeses.items():
        if len(set(pair)) != 2 or any(owner[h] == seat_ for h in pair):
            found.append(f"seat {seat_}'s nemeses {pair}")
    for report in world.reports:
        died = {d["hero"] for d in report["deaths"]}
        bonus = {}
        for player, pair in world.nemeses.items():
            (hero,) = (h for h, o in owner.items() if o == player)
            gained = world.options.nemesis_bonus * len(died & set(pair))
            if report["status"][hero] == "alive" and gained:
                bonus[hero] = gained
        if bonus != report["nemesis_bonus"]:
            found.append(
                f"round {report['round']}: bonuses {bonus}, posted {report['nemesis_bonus']}"
            )
    return found


def test_every_sampled_world_agrees_with_all_the_seat_has_seen() -> None:
    """Nemesis bonuses tell who hunted the dead: a sampled world deals identities and
    nemeses that tell the same story, as well as keeping sign-ups, abstention hits and
    the seat's guesses."""
    state = battle_with_bonuses()
    for seat in ("1", "4", "8"):
        assert inconsistencies(state, state, seat) == []  # the true Battle, to begin with
        worlds = samples(state, seat)
        for world in worlds:
            assert inconsistencies(world, state, seat) == []
        hidden = [h.name for h in state.heroes.values() if not h.revealed]
        dealt = {tuple(w.heroes[h].player for h in hidden) for w in worlds}
        assert len(dealt) > 1 and len({tuple(sorted(w.nemeses.items())) for w in worlds}) > 1
    # the check has teeth: two players' nemeses swapped contradict the posts
    world = samples(state, "1")[0]
    world.nemeses["2"], world.nemeses["3"] = world.nemeses["3"], world.nemeses["2"]
    assert any("bonuses" in problem for problem in inconsistencies(world, state, "1"))


def test_a_secret_the_seat_does_not_know_leaves_the_search_as_it_was() -> None:
    """Two other players' identities and nemeses swapped (the posts tell the same
    story of either): every sample, and so the choice of ``mcts``, is the same."""
    state = battle_with_bonuses()
    seat = state.deciding()[0]
    twin = GAME.secret_twin(state, seat)
    assert isinstance(twin, HeroBattleState) and twin.nemeses != state.nemeses
    assert [world_text(w) for w in samples(twin, seat)] == [
        world_text(w) for w in samples(state, seat)
    ]
    search = get_bot(GAME, "mcts:iterations=8")
    here = search(Rng(3)).choose(Observation(GAME, state, seat))
    there = search(Rng(3)).choose(Observation(GAME, twin, seat))
    assert here == there


SAMPLE_DIGEST = """
import hashlib, sys
sys.path[:0] = ["tests", "tests/hero_battle"]
from contract import world_text
from test_hb_sampling import battle_with_bonuses, samples
state = battle_with_bonuses(2, heroes_per_player=2)
texts = [world_text(w) for w in samples(state, state.deciding()[0])]
print(hashlib.sha256("".join(texts).encode()).hexdigest())
"""


def test_samples_are_the_same_in_every_process() -> None:
    """A Battle of two heroes a player leaves too many pairs of nemeses to list, so
    some are drawn: the draw never follows the order of a set of names (which Python
    changes from process to process), or a lab run would differ between machines."""
    root = Path(__file__).parents[2]
    digests = {
        subprocess.run(
            [sys.executable, "-c", SAMPLE_DIGEST],
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert len(digests) == 1

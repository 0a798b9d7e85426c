"""A hidden gizmo is hidden information (G5): until a team has noticed it, nothing
that team sees tells whether a foe's power has a hidden gizmo. Each test compares two
worlds that differ only in that: in one a power's gizmo is hidden, in the other it
has none (so the foes' side of the match can play the same way in both)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from arena_helpers import act, attacker, defender, duel, power, skip_to

from gladiatorium.core import GladiatoriumError, Observation
from gladiatorium.core.match import make_bots
from gladiatorium.games.superhero_gladiators import GAME
from gladiatorium.games.superhero_gladiators.actions import Attack, Notice, Reveal
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from contract import leaks
from version6_heroes import VERSION_6_TEAMS

BOLT = power("distance", level=2, name="Bolt")
AT = {"1A": "a1", "2A": "d1"}
LINE = "1..2"
#: what seat 1 might try that touches the gizmo, and a few things it cannot do
PROBES = (
    Attack("2A", "Bolt", "Cloak"),
    Attack("2A", "Six-shooter", "Harpe"),
    Notice("2A", "Cloak"),
    Notice("2A", "Harpe"),
    Notice("2A", "unused"),
    Reveal("Cloak"),
    Reveal("Harpe"),
)


def cloaked(gizmo: str) -> SuperheroGladiatorsState:
    """Attacker (1A) against a defender whose toughness Cloak has ``gizmo``."""
    cloak = power("defense", "toughness", gizmo=gizmo, level=2, uses=3, name="Cloak")
    return duel([attacker(BOLT)], [defender(BOLT, cloak)], AT, LINE)


def seen(state: SuperheroGladiatorsState, seat: str | None) -> dict[str, Any]:
    """Everything ``seat`` can see or be told: view, events, render, both cards, its
    legal actions in order and the refusals of every probe and of a typo."""
    awaited = seat in state.awaiting()
    refusals = [state.illegal_reason(seat, a) if awaited else None for a in PROBES]
    try:
        state.parse(seat or "nobody", "notice 2A nothing")
    except GladiatoriumError as err:
        refusals.append(str(err))
    return {
        "view": state.view(seat),
        "events": [e.to_json() for e in state.events_for(seat)],
        "render": GAME.terminal.render(state, seat),
        "look": [GAME.terminal.look(state, seat, hero) for hero in state.fighters],
        "legal": [str(a) for a in state.legal_actions(seat)] if seat else [],
        "refusals": refusals,
    }


def both(step: Any) -> tuple[SuperheroGladiatorsState, SuperheroGladiatorsState]:
    worlds = (cloaked("hidden"), cloaked("none"))
    for state in worlds:
        step(state)
    return worlds


def test_g5_a_foe_card_shows_no_hidden_gizmo_and_no_missing_one() -> None:
    """G5: 'look 2A' for seat 1 names the power without its gizmo, in both worlds; its
    owner's card says what the gizmo is."""
    hidden, none = cloaked("hidden"), cloaked("none")
    card = GAME.terminal.look(hidden, "1", "2A")
    assert card == GAME.terminal.look(none, "1", "2A")
    assert "Cloak (level 2, defense: toughness; 3 left)" in card
    assert "Bolt (level 2, distance: vulnerable gizmo;" in card  # in plain sight
    assert "Cloak (level 2, defense: toughness, hidden gizmo;" in GAME.terminal.look(
        hidden, "2", "2A"
    )
    assert "Cloak (level 2, defense: toughness, no gizmo;" in GAME.terminal.look(none, "2", "2A")


def test_g5_notice_is_offered_whether_or_not_a_gizmo_is_there() -> None:
    """G5: seat 1 may try 'notice 2A unused' while the defender has an unused power,
    and may name a used power whose gizmo it cannot attack, in both worlds alike."""
    hidden, none = cloaked("hidden"), cloaked("none")
    assert seen(hidden, "1") == seen(none, "1")
    assert "notice 2A unused" in seen(hidden, "1")["legal"]
    assert "notice 2A Bolt" not in seen(hidden, "1")["legal"]  # unused, and in plain sight


def test_g5_a_failed_and_an_empty_notice_look_the_same() -> None:
    """G1 and G5, forced dice: the Cloak is used against a Bolt (d20 = 17 hits, 17 or
    less) and the defender's Bolt misses (20). The attacker names the Cloak and rolls
    12 (needs less than 3 x 4 = 12): a miss in both worlds, and the worlds look the
    same to seat 1 and to a spectator. Then 11: noticed where the gizmo is hidden,
    nothing where there is none; a spectator still cannot tell the two apart."""

    def until_the_cloak_is_used(state: SuperheroGladiatorsState) -> None:
        act(state, "attack 2A with Bolt", [17])
        act(state, "use Cloak")
        act(state, "attack 1A with Bolt", [20])
        skip_to(state, "1A")

    hidden, none = both(until_the_cloak_is_used)
    assert "notice 2A Cloak" in seen(hidden, "1")["legal"]
    for state in (hidden, none):
        act(state, "notice 2A Cloak", [12])
        skip_to(state, "1A")
    for seat in ("1", None):
        assert seen(hidden, seat) == seen(none, seat), f"seat {seat} can tell the worlds apart"
    assert hidden.events_for("1")[-4].text.endswith("d20 = 12, needs less than 12: nothing")
    for state in (hidden, none):
        act(state, "notice 2A Cloak", [11])
    assert hidden.noticed["1"] == ["2A:Cloak"] and none.noticed["1"] == []
    assert [e.text for e in hidden.events_for("1")[-2:]] == [
        "Attacker (1A)'s look at Defender (2A): d20 = 11, needs less than 12: noticed",
        "team 1 notices the hidden gizmo of Defender (2A)'s Cloak",
    ]
    assert none.events_for("1")[-1].text.endswith("d20 = 11, needs less than 12: nothing")
    assert seen(hidden, None) == seen(none, None)
    skip_to(hidden, "1A")
    assert "attack 2A gizmo Cloak with Bolt" in seen(hidden, "1")["legal"]


def test_g4_a_gizmo_attacked_in_the_open_is_known_to_all() -> None:
    """G4: once the noticers attack the hidden gizmo, a spectator knows it too."""
    state = cloaked("hidden")
    act(state, "notice 2A unused", [3])
    act(state, "reveal Cloak")
    assert "Cloak" not in state.view(None)["heroes"][1]["gizmos"]
    skip_to(state, "1A")
    act(state, "attack 2A gizmo Cloak with Bolt", [20])
    assert state.view(None)["heroes"][1]["gizmos"] == {"Bolt": "vulnerable", "Cloak": "hidden"}
    assert leaks(GAME, state) == []


def default_match(harpe: str, seed: int) -> SuperheroGladiatorsState:
    """The version-6 Cowboy against the version-6 Perseus, whose Harpe has ``harpe`` (his
    only gizmo that may be hidden; budgets lifted so that the Harpe without a gizmo still
    fits)."""
    teams: Any = [list(team) for team in VERSION_6_TEAMS]
    perseus = dict(teams[1][0])
    perseus["powers"] = [
        {**p, "gizmo": harpe} if p["name"] == "Harpe" else p for p in perseus["powers"]
    ]
    teams[1] = [perseus]
    state = GAME.start({"teams": teams, "power_points": 400}, 2, seed)
    assert isinstance(state, SuperheroGladiatorsState)
    return state


@pytest.mark.parametrize("seed", [3, 8])
def test_g5_random_matches_look_the_same_to_the_foe_until_it_notices(seed: int) -> None:
    """G5 over whole random matches: Perseus's Harpe hidden or without a gizmo. Until
    team 1 notices it, seat 1 and a spectator see the same views, events, renders,
    cards, legal actions (in order) and refusals in both worlds, and the conformance
    leak check finds nothing; the matches include failed notice attempts."""
    a, b = default_match("hidden", seed), default_match("none", seed)
    bots_a = make_bots(GAME, seed, dict.fromkeys(a.seats, "random"))
    bots_b = make_bots(GAME, seed, dict.fromkeys(b.seats, "random"))
    attempts = 0
    while not a.is_over and not a.noticed["1"]:
        for seat in ("1", None):
            assert seen(a, seat) == seen(b, seat), f"seat {seat} tells the worlds apart"
        assert leaks(GAME, a) == []
        seat = a.awaiting()[0]
        action = bots_a[seat].choose(Observation.of(a, seat))
        assert bots_b[seat].choose(Observation.of(b, seat)) == action
        attempts += isinstance(action, Notice) and seat == "1"
        a.apply(seat, action)
        b.apply(seat, action)
    assert attempts >= 2 and "Harpe" in a.fighters["2A"].used


@pytest.mark.parametrize("seed", [1, 2])
def test_g5_the_greedy_bot_plays_the_same_whatever_it_cannot_know(seed: int) -> None:
    """Bots see what their seat sees: seat 1's greedy bot makes the same choice in
    both worlds at every decision until its team notices the Harpe."""
    a, b = default_match("hidden", seed), default_match("none", seed)
    bots_a = make_bots(GAME, seed, dict.fromkeys(a.seats, "greedy"))
    bots_b = make_bots(GAME, seed, dict.fromkeys(b.seats, "greedy"))
    decisions = 0
    while not a.is_over and not a.noticed["1"] and not b.is_over:
        seat = a.awaiting()[0]
        action = bots_a[seat].choose(Observation.of(a, seat))
        if seat == "1":
            assert bots_b[seat].choose(Observation.of(b, seat)) == action
            decisions += 1
        else:
            action_b = bots_b[seat].choose(Observation.of(b, seat))
            assert action_b == action, "Perseus plays his own side the same way"
        a.apply(seat, action)
        b.apply(seat, action)
    assert decisions >= 5


def test_g5_the_greedy_bot_does_not_look_again_where_it_found_nothing() -> None:
    """The greedy bot weighs a look by the chance of a hidden gizmo (it cannot know);
    once its die succeeded and found nothing (11, under 12), that look is worth nothing,
    while a look that failed (12) may be tried again."""
    from gladiatorium.core import Rng
    from gladiatorium.games.superhero_gladiators.bots import GreedyBot

    state = cloaked("none")
    act(state, "attack 2A with Bolt", [17])
    act(state, "use Cloak")
    act(state, "attack 1A with Bolt", [20])
    skip_to(state, "1A")
    bot = GreedyBot(Rng(0))
    look = Notice("2A", "Cloak")
    bot.choose(Observation.of(state, "1"))
    before = bot._notice_value(state.fighters["1A"], look)
    act(state, "notice 2A Cloak", [12])
    skip_to(state, "1A")
    bot.choose(Observation.of(state, "1"))
    assert bot._notice_value(state.fighters["1A"], look) == before > 0
    act(state, "notice 2A Cloak", [11])
    skip_to(state, "1A")
    bot.choose(Observation.of(state, "1"))
    assert bot._notice_value(state.fighters["1A"], look) == 0


def observed(observation: Observation) -> dict[str, Any]:
    """All a bot handed ``observation`` could read of the heroes and options: the
    observation's options, and its world's options, cards and powers."""
    from gladiatorium.games.superhero_gladiators.hero_files import hero_to_data

    world = observation.world()
    assert isinstance(world, SuperheroGladiatorsState)
    return {
        "options": observation.options.model_dump(),
        "world options": world.options.model_dump(),
        "cards": {fid: hero_to_data(f.hero) for fid, f in world.fighters.items()},
        "powers": {fid: dict(f.powers) for fid, f in world.fighters.items()},
        "match": json.dumps(world.fingerprint(), default=str, sort_keys=True),
    }


@pytest.mark.parametrize("seed", [1, 4])
def test_g5_what_a_bot_is_handed_holds_no_gizmo_it_cannot_know(seed: int) -> None:
    """Two matches that differ only in Perseus's Harpe (a hidden gizmo or none): until
    team 1 notices it, seat 1's observations are the same in both, options, hero cards
    and powers of its world included (the world's gizmos are drawn from the
    observation's own seed), with a world and without, so no bot can read the truth."""
    a, b = default_match("hidden", seed), default_match("none", seed)
    bots = make_bots(GAME, seed, dict.fromkeys(a.seats, "greedy"))
    compared = invented = 0
    while not a.is_over and not a.noticed["1"]:
        seat = a.awaiting()[0]
        if seat == "1":
            here, there = Observation.of(a, "1"), Observation.of(b, "1")
            assert observed(here) == observed(there)
            lean = [Observation(GAME, s, "1", world=False).options for s in (a, b)]
            assert lean[0] == lean[1] and lean[0].teams[1][0]["powers"][1]["gizmo"] == "none"
            invented += observed(here)["cards"]["2A"]["powers"][1].get("gizmo") == "hidden"
            compared += 1
        action = bots[seat].choose(Observation.of(a, seat))
        a.apply(seat, action)
        b.apply(seat, action)
    assert compared >= 5 and 0 < invented < compared


def three_teams(revealed: str) -> SuperheroGladiatorsState:
    """Team 1 looks at team 2's hero, which has two unused hidden gizmos (Cloak and
    Veil), and finds one (die 1): team 2 says it was ``revealed``. Team 3 watches."""
    from gladiatorium.games.superhero_gladiators.actions import Place
    from gladiatorium.games.superhero_gladiators.hero_files import hero_to_data

    cloak = power("defense", "toughness", gizmo="hidden", level=2, uses=3, name="Cloak")
    veil = power("defense", "toughness", gizmo="hidden", level=1, uses=3, name="Veil")
    heroes = [attacker(BOLT), defender(BOLT, cloak, veil), defender(BOLT, name="Watcher")]
    values = {
        "teams": [[hero_to_data(h)] for h in heroes],
        "map": "1..2\n....\n3...",
        "power_points": 100_000,
    }
    state = GAME.start(values, 3, 0)
    assert isinstance(state, SuperheroGladiatorsState)
    at = {"1A": "a1", "2A": "d1", "3A": "a3"}
    while state.phase == "place":
        state.apply(state.placer(state.to_place[0]), Place(at[state.to_place[0]]))
    skip_to(state, "1A")
    act(state, "notice 2A unused", [1])
    act(state, f"reveal {revealed}")
    return state


def test_g3_with_three_teams_a_world_holds_only_the_notices_its_seat_saw() -> None:
    """G2, G3: team 3 saw team 1 look at 2A, not the die nor which gizmo team 2 named.
    Its observation is the same whether team 2 named Cloak or Veil: its world holds
    neither team 1's notice nor team 2's reveal; team 1's world keeps its own notice."""
    cloak, veil = three_teams("Cloak"), three_teams("Veil")
    assert cloak.noticed["1"] == ["2A:Cloak"] and veil.noticed["1"] == ["2A:Veil"]
    skip_to(cloak, "3A")
    skip_to(veil, "3A")
    here, there = Observation.of(cloak, "3"), Observation.of(veil, "3")
    assert observed(here) == observed(there)
    world = here.world()
    assert isinstance(world, SuperheroGladiatorsState)
    assert world.noticed["1"] == [] and not any(isinstance(a, Reveal) for _, a in world.history)
    own = Observation.of(cloak, "1").world()
    assert isinstance(own, SuperheroGladiatorsState) and own.noticed["1"] == ["2A:Cloak"]
    assert Reveal("Cloak") in [a for _, a in own.history]


def test_the_gizmos_a_seat_cannot_see_into_are_found_again_once_one_is_noticed() -> None:
    """What a seat cannot see into is kept by what it depends on: a hidden gizmo
    noticed leaves it (and the seat's options then tell it), while the same match
    asked again gives the same places."""
    from gladiatorium.games.superhero_gladiators.worlds import seat_options, unseen_places

    state = cloaked("hidden")
    act(state, "attack 2A with Bolt", [17])
    act(state, "use Cloak")
    act(state, "attack 1A with Bolt", [20])
    skip_to(state, "1A")
    before = unseen_places(state, "1")
    assert ("2A", 1) in before and unseen_places(state, "1") == before
    assert cloak_gizmo(seat_options(state, "1")) == "none"
    act(state, "notice 2A Cloak", [11])
    assert ("2A", 1) not in unseen_places(state, "1")
    assert cloak_gizmo(seat_options(state, "1")) == "hidden"
    assert ("2A", 1) in unseen_places(state, None)


def cloak_gizmo(options: Any) -> str:
    """The gizmo of the defender's Cloak in the teams' hero files of ``options``."""
    powers = options.teams[1][0]["powers"]
    return str(next(p for p in powers if p["name"] == "Cloak")["gizmo"])


def borrowed(gizmo: str) -> SuperheroGladiatorsState:
    """1A's Bolt (with ``gizmo``) hits 2A, who has copy power, for direct damage."""
    bolt = power("distance", gizmo=gizmo, level=2, name="Bolt")
    mirror = power("defense", "copy-power", level=2, uses=3, name="Mirror")
    state = duel([attacker(bolt)], [defender(mirror)], AT, LINE)
    act(state, "attack 2A with Bolt", [17])
    return state


def borrowed_parts(observation: Observation) -> dict[str, Any]:
    """What ``observation``'s world holds of others' powers: the hits waiting for a
    defence and the attacks copied, gizmos included."""
    world = observation.world()
    assert isinstance(world, SuperheroGladiatorsState)
    return {
        "pending": [repr(hit) for hit in world.pending],
        "copied": {fid: repr(f.copied) for fid, f in world.fighters.items()},
    }


def test_c18_g5_a_copied_attack_and_a_waiting_hit_carry_no_hidden_gizmo() -> None:
    """The defender's world, while the hit waits for its defence and once it has copied
    the attack, holds the attacker's power without its gizmo: the same whether Bolt
    hides a gizmo or has none (the true match keeps it, and the rules never read it)."""
    a, b = borrowed("hidden"), borrowed("none")
    assert a.pending[0].power.gizmo is not None  # the truth is in the match
    for stage in ("waiting", "copied"):
        here, there = Observation.of(a, "2"), Observation.of(b, "2")
        assert borrowed_parts(here) == borrowed_parts(there), stage
        assert observed(here) == observed(there), stage
        if stage == "waiting":
            for state in (a, b):
                act(state, "copy Mirror")
    assert a.fighters["2A"].copied is not None and a.fighters["2A"].copied.gizmo is not None
    assert "Bolt" in borrowed_parts(Observation.of(a, "2"))["copied"]["2A"]

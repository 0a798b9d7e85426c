"""Set-up, the turn, the end, the CLI flags, rendering and the bot (S1-S3, T1, V2, V3)."""

from __future__ import annotations

from pathlib import Path

import pytest
from arena_helpers import act, arena_hero, attacker, defender, duel, power

from gladiatorium.core import GladiatoriumError, Observation, OptionsError, Rng
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.core.record import record_of, replay, verify
from gladiatorium.games.superhero_gladiators import GAME
from gladiatorium.games.superhero_gladiators.bots import GreedyBot
from gladiatorium.games.superhero_gladiators.hero_files import hero_data, hero_to_data
from gladiatorium.games.superhero_gladiators.terminal import teams_from_flags
from version6_heroes import VERSION_6_TEAMS, version6_options

PUNCH = power("close", level=1, name="Punch")


def start(team1: list, team2: list, arena: str = "11.22", **options: object):  # type: ignore[no-untyped-def]
    values = {
        "teams": [[hero_to_data(h) for h in team1], [hero_to_data(h) for h in team2]],
        "map": arena,
        "power_points": 100_000,
        **options,
    }
    return GAME.start(values, 2, 0)


def test_s1_initiative_by_dexterity_then_perception_then_size() -> None:
    quick = arena_hero("Quick", PUNCH, strength=3, dexterity=6, size=3, perception=3)
    keen = arena_hero("Keen", PUNCH, strength=3, dexterity=4, size=3, perception=5)
    big = arena_hero("Big", PUNCH, strength=3, dexterity=4, size=5, perception=3)
    small = arena_hero("Small", PUNCH, strength=5, dexterity=4, size=3, perception=3)
    state = start([small, keen], [big, quick])
    assert state.order == ["2B", "1B", "2A", "1A"]


def test_s1_heroes_still_tied_roll_a_die_lowest_first() -> None:
    state = start([defender(PUNCH)], [defender(PUNCH, name="Twin")])
    rolls = next(e.data["rolls"] for e in state.events if e.text.startswith("initiative tie"))
    assert state.order == sorted(rolls, key=lambda f: rolls[f])


def test_s3_placement_lowest_perception_first_then_lowest_strength() -> None:
    keen = arena_hero("Keen", PUNCH, strength=3, dexterity=4, size=3, perception=5)
    weak = arena_hero("Weak", PUNCH, strength=2, dexterity=5, size=5, perception=3)
    strong = arena_hero("Strong", PUNCH, strength=4, dexterity=4, size=4, perception=3)
    state = start([keen, strong], [weak])
    assert state.to_place == ["2A", "1B", "1A"]


def test_s2_a_perception_1_hero_is_placed_by_the_next_player() -> None:
    clueless = arena_hero("Clueless", PUNCH, strength=4, dexterity=5, size=5, perception=1)
    state = start([clueless], [defender(PUNCH)], arena="1.2")
    assert state.to_place[0] == "1A"
    assert state.awaiting() == ("2",)
    assert [str(a) for a in state.legal_actions("2")] == ["place a1", "place b1"]


CLUELESS = arena_hero("Clueless", PUNCH, strength=4, dexterity=5, size=5, perception=1)
#: team 1 starts on a1; floor b1 and d1; wall c1, pit a2, fire b2; team 2 starts on c2, d2
HAZARDS = "1.#.\n~%22"


def test_s4_a_perception_1_hero_is_placed_anywhere_on_the_map() -> None:
    """S4, "the next player ... decides where on the map it is placed": any free floor
    square, the hero's own start squares included, but not a wall, a pit, fire or a
    start square of another team; the next player places it there."""
    state = start([CLUELESS], [defender(PUNCH)], arena=HAZARDS)
    assert [str(a) for a in state.legal_actions("2")] == ["place a1", "place b1", "place d1"]
    state.act("2", "place d1")
    assert state.fighters["1A"].square == (3, 0)
    assert [str(a) for a in state.legal_actions("2")] == ["place c2", "place d2"]


def test_s4_house_rule_places_a_perception_1_hero_on_its_own_start_squares() -> None:
    """Option perception_1_placement=start-squares: only its own team's start squares."""
    state = start(
        [CLUELESS], [defender(PUNCH)], arena=HAZARDS, perception_1_placement="start-squares"
    )
    assert state.awaiting() == ("2",)
    assert [str(a) for a in state.legal_actions("2")] == ["place a1"]


def test_s4_the_greedy_bot_places_a_foe_far_from_its_own_start() -> None:
    state = start([CLUELESS], [defender(PUNCH)], arena="1......2\n........")
    assert str(GreedyBot(Rng(0)).choose(Observation.of(state, "2"))) == "place a1"


def test_t1_heroes_act_on_their_segments_in_initiative_order() -> None:
    """T1: Speed 15 acts on segments 1, 3, 5; Speed 16 on 1, 3, 5, 6; Speed 6 on 1, 3."""
    slow = arena_hero("Slow", PUNCH, strength=4, dexterity=1, size=6, perception=4)
    state = duel(
        [attacker(PUNCH), slow],
        [defender(PUNCH)],
        {"1A": "a1", "1B": "a2", "2A": "d1"},
        "1..2\n1...",
    )
    seen = []
    while state.turn == 1:
        seen.append((state.segment, state.actor))
        act(state, "pass")
    assert seen == [
        (1, "1A"),
        (1, "2A"),
        (1, "1B"),
        (3, "1A"),
        (3, "2A"),
        (3, "1B"),
        (5, "1A"),
        (5, "2A"),
        (6, "2A"),
    ]


def test_v2_a_tie_when_no_side_can_harm_another() -> None:
    net = power("distance", "entangling", level=2, name="Net")
    state = duel([attacker(net)], [defender(net)], {"1A": "a1", "2A": "d1"}, "1..2")
    act(state, "pass")
    outcome = state.outcome()
    assert outcome is not None and outcome.draw and "no side can harm" in outcome.reason


def test_v3_the_turn_limit_ends_in_a_tie() -> None:
    state = duel(
        [attacker(PUNCH)], [defender(PUNCH)], {"1A": "a1", "2A": "d1"}, "1..2", turn_limit=1
    )
    for _ in range(7):
        act(state, "pass")
    outcome = state.outcome()
    assert outcome is not None and outcome.draw and "turn limit" in outcome.reason


def test_cli_flags_turn_sample_names_and_maps_into_options() -> None:
    values = GAME.terminal.cli_options(
        {"team": ["1=cowboy.yaml,perseus", "2=fred"], "map": ["pillars"]}
    )
    assert [h["name"] for h in values["teams"][0]] == ["Cowboy", "Perseus"]
    assert values["map_name"] == "pillars"
    state = GAME.start(values, 2, 1)
    assert len(state.fighters) == 3


def test_cli_flags_errors_are_clear() -> None:
    with pytest.raises(OptionsError, match="--team N=HERO"):
        teams_from_flags(["cowboy"])
    with pytest.raises(OptionsError, match="no-such-hero"):
        teams_from_flags(["1=no-such-hero.yaml", "2=fred"])
    with pytest.raises(OptionsError, match=r"1\.\.2"):
        teams_from_flags(["1=cowboy", "3=fred"])
    with pytest.raises(OptionsError, match="not --speed"):
        GAME.terminal.cli_options({"speed": ["3"]})
    with pytest.raises(OptionsError, match="no map file"):
        GAME.terminal.cli_options({"map": ["nowhere.txt"]})


def test_players_must_match_the_teams() -> None:
    with pytest.raises(OptionsError, match=r"3 players but 2 teams.*--players 2"):
        GAME.start({"teams": GAME.make_options().model_dump()["teams"]}, 3, 0)


@pytest.mark.parametrize("players", range(3, 10))
def test_more_players_than_two_start_from_more_samples_on_a_map_with_room(players: int) -> None:
    """No options: the default two samples, then the others by name (the first again
    past the eighth), one hero a team, on the smallest shipped map with a start square
    for every team (pillars for 3 and 4 teams, nine for 5 to 9)."""
    state = GAME.start(None, players, 0)
    assert state.seats == tuple(str(n) for n in range(1, players + 1))
    assert state.arena.name == ("pillars" if players <= 4 else "nine")
    names = [f.hero.name for f in state.fighters.values()]
    assert names[:3] == ["Cowboy", "Perseus", "Barbarian"] and len(names) == players
    assert len(set(names)) == min(players, 8)
    assert GAME.default_options(2) == GAME.make_options()  # two: the defaults


def test_four_sample_teams_play_to_an_end() -> None:
    state = GAME.start(None, 4, 2)
    run_match(state, make_bots(GAME, 2, dict.fromkeys(state.seats, "greedy")))
    outcome = state.outcome()
    assert outcome is not None and set(outcome.winners) <= {"1", "2", "3", "4"}


def test_render_draws_the_map_heroes_and_the_pending_hit() -> None:
    bolt = power("distance", level=2, name="Bolt")
    tough = power("defense", "toughness", level=2, uses=2, name="Hide")
    state = duel([attacker(bolt)], [defender(tough)], {"1A": "a1", "2A": "d1"}, "1..2")
    state.rng.force([17])
    state.act("1", "attack 2A with Bolt")
    picture = GAME.terminal.render(state, "2")
    assert "1A" in picture and "2A" in picture and "oomph 36/36" in picture
    assert "2A is hit by 1A's Bolt (4 damage): defend?" in picture


def test_a2_render_shows_the_legend_of_the_marks_on_the_map() -> None:
    """A2: the legend names the marks this map uses and the hero marks."""
    pits = duel([attacker()], [defender()], {"1A": "a1", "2A": "e1"}, "1.~%2\n..#..")
    assert (
        "legend: . floor, ### wall, ~~~ bottomless pit, %%% cloud of fire, "
        "1-9 start squares, 1A hero (^ flying, * entangled)"
    ) in GAME.terminal.render(pits, "1")
    plain = duel([attacker()], [defender()], {"1A": "a1", "2A": "b1"}, "12")
    assert "legend: 1-9 start squares, 1A hero" in GAME.terminal.render(plain, "1")


def test_default_game_records_and_replays() -> None:
    state = GAME.start(None, None, 4)
    run_match(state, {"1": GreedyBot(Rng(1)), "2": GreedyBot(Rng(2))})
    record = record_of(GAME, state)
    assert verify(record, replay(record)) == []


def test_greedy_bot_beats_random_with_the_default_heroes() -> None:
    """A smoke check of the bot (the measured figure is in benchmarks/)."""
    from gladiatorium.bots.random import RandomBot

    wins = 0
    for seed in range(6):
        state = GAME.start(None, None, seed)
        greedy = "1" if seed % 2 else "2"
        other = "2" if greedy == "1" else "1"
        run_match(state, {greedy: GreedyBot(Rng(seed)), other: RandomBot(Rng(seed + 99))})
        outcome = state.outcome()
        wins += outcome is not None and greedy in outcome.winners
    assert wins >= 5


def test_s1_s3_the_rulebooks_sample_orders_come_out_in_the_arena() -> None:
    """S1, S3: all eight samples in one match act and are placed in the book's orders
    (the Barbarian and the Archer roll for their place)."""
    first = "wizard,stranger,barbarian,porcupine"
    values = GAME.terminal.cli_options(
        {"team": [f"1={first}", "2=cowboy,giant-rubber,perseus,fred"], "map": ["colosseum"]}
    )
    state = GAME.start(values, 2, 0)
    names = [state.fighters[f].name for f in state.order]
    assert names == [
        "Wizard of the Wild Hair Cult", "Stranger of Solarium", "Barbarian",
        "Porcupine Boar Guy", "Cowboy", "Giant Rubber Cement Archer", "Perseus",
        "Fred the Giant",
    ]  # fmt: skip
    placed = [state.fighters[f].name for f in state.to_place]
    assert placed[:2] == ["Cowboy", "Porcupine Boar Guy"]
    assert set(placed[2:4]) == {"Barbarian", "Giant Rubber Cement Archer"}
    assert placed[4:] == ["Wizard of the Wild Hair Cult", "Perseus", "Stranger of Solarium",
                          "Fred the Giant"]  # fmt: skip
    assert any(e.text.startswith("placement tie") for e in state.events)
    assert state.awaiting() == ("1",)  # the Cowboy (Perception 1, team 2) is placed by seat 1


def test_c7_a_foiblish_area_attack_may_hit_only_the_least_perceptive() -> None:
    """C7/C5: one die, each hero's own number: Perception 2 is hit, Perception 6 not."""
    from gladiatorium.games.superhero_gladiators.heroes import Attributes, Hero

    blast = power("distance", "area", flaws=("foiblish",), level=2, name="Blast")
    dull = Hero("Dull", Attributes(3, 4, 6, 2))  # Combat 11
    keen = Hero("Keen", Attributes(3, 4, 2, 6))  # Combat 11
    state = duel([attacker(blast)], [dull, keen], {"1A": "a1", "2A": "d1", "2B": "d2"},
                 "1..2\n...2")  # fmt: skip
    act(state, "attack 2A with Blast", [12, 1])  # needs 17 - 2 = 15 and 17 - 6 = 11
    assert state.fighters["2A"].oomph == state.fighters["2A"].max_oomph - 4
    assert state.fighters["2B"].oomph == state.fighters["2B"].max_oomph


def test_look_shows_a_heros_card_in_play_and_render_lists_the_options() -> None:
    state = GAME.start(version6_options(), None, 1)
    state.act("2", "place a1")
    state.act("2", "place h1")
    card = GAME.terminal.look(state, "1", "2a")
    assert "Perseus (2A)" in card and "Harpe (level 3, close: piercing" in card
    assert "15 left" in card
    with pytest.raises(GladiatoriumError, match="no hero 'zz'"):
        GAME.terminal.look(state, "1", "zz")
    assert "seat 1 to act: 28 moves; attack 2A with Six-shooter" in GAME.terminal.render(state, "1")


def test_default_teams_are_the_sample_cowboy_and_perseus() -> None:
    """The options' default match is the shipped sample Cowboy against the shipped
    sample Perseus (R20), as the files say, looks and all."""
    from gladiatorium.games.superhero_gladiators.options import DEFAULT_TEAMS

    assert ((hero_data("cowboy"),), (hero_data("perseus"),)) == DEFAULT_TEAMS
    state = GAME.start(None, None, 0)
    assert [f.name for f in state.fighters.values()] == ["Cowboy", "Perseus"]


def test_the_version_6_teams_of_the_scenario_tests_are_the_old_samples() -> None:
    """The fixture that scenario tests written for the old default match name: the
    version-6 Cowboy (169 points, Combat 14) and Perseus (194 points, Combat 10)."""
    from gladiatorium.games.superhero_gladiators.heroes import points, traits
    from gladiatorium.games.superhero_gladiators.options import team_heroes as read

    cowboy, perseus = (read(team[0], "version 6") for team in VERSION_6_TEAMS)
    assert (cowboy.name, points(cowboy).total, traits(cowboy).combat) == ("Cowboy", 169, 14)
    assert (perseus.name, points(perseus).total, traits(perseus).combat) == ("Perseus", 194, 10)
    assert [p.name for p in cowboy.powers] == [
        "Six-shooter",
        "Lasso",
        "Saloon brawl",
        "Trusty spurs",
    ]


def test_a_map_file_is_read_and_its_errors_name_the_square(tmp_path: Path) -> None:
    arena = tmp_path / "tiny.txt"
    arena.write_text("1.\n.2\n", encoding="utf-8")
    values = GAME.terminal.cli_options({"map": [str(arena)]})
    assert values["map_name"] == "tiny" and values["map"].startswith("1.")
    arena.write_text("1.\n.2?\n", encoding="utf-8")
    with pytest.raises(OptionsError, match=r"tiny.txt: line 2, column 3 \(c2\)"):
        GAME.terminal.cli_options({"map": [str(arena)]})

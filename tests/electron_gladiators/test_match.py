"""Victory, draws, notation, rendering, and the bot."""

from __future__ import annotations

import json

from eg_helpers import GAME, arena, legal, where

from gladiatorium.core import Observation, Rng
from gladiatorium.core.match import run_match
from gladiatorium.games.electron_gladiators.attacks import attack_options
from gladiatorium.games.electron_gladiators.board import FACINGS, parse_square, step
from gladiatorium.games.electron_gladiators.bots import Tactician, endings
from gladiatorium.games.electron_gladiators.render import reach_text


def test_victory_when_the_other_side_has_no_vehicles_left() -> None:
    """Ruling R6."""
    state = arena(["1 HT2 K10 S", "2 LT K14 N"])
    state.act("1", "fire K10 at K14")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("1",)
    assert state.legal_actions("1") == []


def test_draw_after_the_set_number_of_turns_without_a_loss() -> None:
    """Ruling R6: option draw_after_quiet_turns."""
    state = arena(["1 LT A1 S", "2 LT U21 N"], draw_after_quiet_turns=3)
    for seat, move in (("1", "A1 fwd 1"), ("2", "U21 fwd 1"), ("1", "A2 fwd 1")):
        assert state.outcome() is None
        state.act(seat, move)
        state.act(seat, "end")
    outcome = state.outcome()
    assert outcome is not None and outcome.draw and "3 turns" in outcome.reason


def test_a_loss_resets_the_quiet_turn_count() -> None:
    state = arena(
        ["1 HT2 K10 S", "1 LT A1 S", "2 LT K14 N", "2 LT U21 N"], draw_after_quiet_turns=2
    )
    state.act("1", "A1 fwd 1")
    state.act("1", "end")
    state.act("1", "end")  # passes up the attack
    assert state.quiet_turns == 1
    state.act("2", "U21 fwd 1")
    state.act("2", "end")
    state.act("2", "end")  # K14 could fire at K10; it passes
    assert state.outcome() is not None and state.outcome().draw  # type: ignore[union-attr]
    fresh = arena(
        ["1 HT2 K10 S", "1 LT A1 S", "2 LT K14 N", "2 LT U21 N"], draw_after_quiet_turns=2
    )
    fresh.act("1", "fire K10 at K14")
    fresh.act("1", "A1 fwd 1")
    fresh.act("1", "end")
    assert fresh.quiet_turns == 0


def test_notation_round_trips_through_text_and_json() -> None:
    state = GAME.start({"setup": "deluxe-1"}, None, 3)
    for action in state.legal_actions("1"):
        assert state.parse("1", str(action)) == action
        assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action


def test_render_shows_vehicles_facings_and_obstacles() -> None:
    state = arena(["1 HT2 K10 S", "2 MQ K14 -"], obstacles="C3", walls="D4")
    text = GAME.terminal.render(state, "1")
    assert "H2↓" in text and "mq~" in text and "###" in text and " X " in text
    assert "seat 1 to move" in text


def test_reach_shows_direct_parabolic_and_sight() -> None:
    state = arena(["1 MT2 K10 S", "2 LT K20 N"], obstacles="K12")
    text = reach_text(state.arena, state.arena.vehicles[1], markup=False)
    rows = text.splitlines()
    assert rows[11].split()[11] == "d"  # K11: in front, clear
    assert rows[13].split()[11] == "p"  # K13: behind the obstacle, parabolic band
    assert "direct 7" in text


def test_tactician_plays_only_legal_actions_to_the_end() -> None:
    state = GAME.start({"setup": "basic-1", "draw_after_quiet_turns": 20}, None, 5)
    bots = {"1": Tactician(Rng(1)), "2": Tactician(Rng(2))}
    run_match(state, bots, max_actions=5000)
    assert state.outcome() is not None


def test_tactician_takes_a_free_kill() -> None:
    state = arena(["1 HT2 K10 S", "1 LT A1 S", "2 MT1 K14 N", "2 LT U21 N"])
    action = Tactician(Rng(0)).choose(Observation.of(state, "1"))
    assert str(action) == "fire K10 at K14"


def test_tactician_combines_guns_to_beat_armour() -> None:
    state = arena(["1 MT1 K10 S", "1 LT M10 S", "2 HT1 K14 N", "2 LT U21 N"])
    action = Tactician(Rng(0)).choose(Observation.of(state, "1"))
    assert str(action) in {"fire K10 at K14 with M10", "fire M10 at K14 with K10"}
    assert "fire K10 at K14" in legal(state)  # alone, 3 would not beat front armour 4


def test_tactician_turns_a_spotter_to_set_up_a_parabolic_shot() -> None:
    """The medium tank cannot see past the obstacle; the light tank turns to spot."""
    state = arena(["1 MT2 K10 S", "1 LT F14 N", "2 MT1 K14 N", "2 LT U21 N"], obstacles="K12")
    assert not any(m.startswith("fire") for m in legal(state))
    bot = Tactician(Rng(0))
    played = []
    while state.to_move == "1" and state.outcome() is None:
        action = bot.choose(Observation.of(state, "1"))
        played.append(str(action))
        state.apply("1", action)
    assert played[0].startswith("F14 turn r")
    assert "fire K10 at K14" in played
    assert all(v.code != "MT1" for v in state.arena.vehicles.values())


def test_tactician_turns_its_front_armour_to_a_threat() -> None:
    """Armour by the side hit: the enemy heavy tank (gun 4) would beat the side
    armour 3 of the tactician's heavy tank next turn; no drive takes it out of that
    gun's arc and range, so it ends facing west, its front (armour 4) to the threat."""
    state = arena(["1 HT1 K10 S", "2 HT1 E10 E", "2 LT U21 N"])
    threat = [o for o in attack_options(state.arena, "2", None, state.options) if o.chance > 0]
    assert [(o.target.code, o.chance) for o in threat] == [("HT1", 1.0)]
    bot = Tactician(Rng(0))
    while state.to_move == "1" and state.outcome() is None:
        state.apply("1", bot.choose(Observation.of(state, "1")))
    assert [f for f in where(state).values() if f.startswith("1")] == ["1 HT1 W"]
    after = attack_options(state.arena, "2", None, state.options)
    assert [o for o in after if o.chance > 0] == []


def test_tactician_sees_an_enemy_tank_that_could_turn_and_fire() -> None:
    """The vehicle it moves is weighed against every place and facing an enemy tank
    can reach before firing: the heavy tank facing west cannot fire at K10 now, but
    turning right 90 degrees (2 of its 3 points) it faces K10, 7 spaces up its column,
    with gun 4 against the light tank's armour. A wall of obstacles, or a Scout
    (which the tank that moved may not attack, R18), leaves nothing to fear."""
    from gladiatorium.games.electron_gladiators.bots import _exposure, _repositionings

    def exposure(vehicles: list[str], obstacles: str = "") -> float:
        state = arena(vehicles, obstacles=obstacles)
        mine = state.arena.vehicle_at((10, 9))
        assert mine is not None
        enemies = state.arena.enemies("1")
        assert attack_options(state.arena, "2", None, state.options) == []
        lurking = _repositionings(state.arena, enemies, state.options)
        return _exposure(state.arena, mine, lurking, state.options)

    assert exposure(["1 LT K10 S", "2 HT1 K17 W"]) == 30.0  # VALUE of a light tank x 10
    wall = "G13 H13 I13 J13 K13 L13 M13 N13 O13"  # no place it reaches sees past it
    assert exposure(["1 LT K10 S", "2 HT1 K17 W"], obstacles=wall) == 0.0
    assert exposure(["1 SC K10 S", "2 HT1 K17 W"]) == 0.0


def field_kills_on_the_way(state: object, kills: int | None) -> list[int]:
    """For each flight the tactician considers for the Inverter on K10 (enemy heavy
    tanks on K11 and K12), how many enemies its path crosses."""
    arena_now = state.arena  # type: ignore[attr-defined]
    inverter = arena_now.vehicle_at(parse_square("K10"))
    counts = []
    for ending in endings(arena_now, inverter, state.options, kills):  # type: ignore[attr-defined]
        square, crossed = inverter.square, 0
        for word in ending.steps:
            square = step(square, FACINGS.index(word.split()[1]))
            crossed += arena_now.vehicle_at(square) is not None
        counts.append(crossed)
    return counts


def test_tactician_r33_plans_at_most_one_field_kill() -> None:
    """R33: with the attack open the plans cross at most one enemy (and some do, the
    field destroying it); after an attack none (the bot never flies over a vehicle)."""
    state = arena(["1 INV K10 -", "2 HT2 K11 N", "2 HT2 K12 N", "2 LT U21 N"])
    assert max(field_kills_on_the_way(state, 1)) == 1
    assert max(field_kills_on_the_way(state, 0)) == 0

"""The caches that make Electron Gladiators quick change no play: the sight table is
shared by every arena on a terrain, a clone played on leaves its original offering
exactly what a match never cloned offers, the attacks and steps kept from action to
action are those a fresh arena works out, and seeded random playouts play the very games
they played before these caches."""

from __future__ import annotations

import hashlib
import pickle
from typing import Any

import pytest

from gladiatorium.core import Observation, get_game
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.games import load
from gladiatorium.games.electron_gladiators import ElectronGladiatorsState
from gladiatorium.games.electron_gladiators.actions import Drive, Fly
from gladiatorium.games.electron_gladiators.attacks import attack_options
from gladiatorium.games.electron_gladiators.board import FACINGS, square_name
from gladiatorium.games.electron_gladiators.game import ElectronGladiators
from gladiatorium.games.electron_gladiators.vehicles import Vehicle

GAME = ElectronGladiators()

#: (options, seed) -> (actions, SHA-256 of the history) of a random-bot playout, as
#: they were before the steps, attacks and lines were kept or tabled
PLAYOUTS: dict[tuple[str, int], tuple[int, str]] = {
    ("basic-1", 0): (233, "8291257e25d12cd49926e97d325d4e1a96a8c65db81a4dbaac954dcc41cbd539"),
    ("basic-1", 1): (298, "571ea3290e6afddfb6c92639af5a15d9f323f7ff30a7563a793e33465c5b7e5d"),
    ("basic-2", 3): (153, "4207320698afd9682f85059cb9b8a24f7ec33ffe79b26cbd18fc1ecb717856ba"),
    ("deluxe-1", 4): (1040, "7fe1dea8a8a3ca16a6a1c43e62a205982c220b8e9980dfd42cb1bb6805d34770"),
    ("deluxe-2", 5): (240, "8da8fe51d32c7e3a2ed8c39efd24e0c6b503c046df14446e431fe962cdea7990"),
    ("old-rules", 6): (339, "d4c4b0005ac34d533ca94bdf1db21cb9758780e213965317d2c58fbe32d4de0e"),
    ("scout-rules", 7): (322, "8f717f1137a676a81ff4c3369e48d77e69857c347f8961505f686ce5a0b4dbab"),
}
#: every option that changes a step or an attack, away from its default
OPTIONS: dict[str, dict[str, Any]] = {
    "old-rules": {
        "setup": "deluxe-1",
        "flyers_pass_vehicles": False,
        "inverter_field_is_attack": False,
        "self_spotting": True,
        "scout_attack_angle": 90,
        "overcome": "greater-or-equal",
    },
    "scout-rules": {
        "setup": "deluxe-2",
        "mosquito_attacks_mosquitos": True,
        "scout_free_turns": False,
        "scout_free_turn_is_a_move": True,
    },
}


@pytest.mark.parametrize(("name", "seed"), list(PLAYOUTS))
def test_random_playouts_play_the_games_they_played_before(name: str, seed: int) -> None:
    load()
    game = get_game("electron-gladiators")
    state = game.start(OPTIONS.get(name, {"setup": name}), None, seed)
    run_match(state, make_bots(game, seed, dict.fromkeys(state.seats, "random")))
    history = "\n".join(f"{seat} {action}" for seat, action in state.history)
    assert (len(state.history), hashlib.sha256(history.encode()).hexdigest()) == PLAYOUTS[
        (name, seed)
    ]


def walked_steps(state: ElectronGladiatorsState, vehicle: Vehicle) -> list[str]:
    """The drives or flights of ``vehicle``, by walking each line with the arena's rules."""
    arena, points, name = state.arena, state.remaining(vehicle), square_name(vehicle.square)
    if vehicle.kind.flyer:
        return [
            str(Fly(name, label, n))
            for heading, label in enumerate(FACINGS)
            for n in arena.flight_stops(
                vehicle,
                heading,
                points,
                state.options.flyers_pass_vehicles,
                state.field_kills_left(),
            )
        ]
    assert vehicle.facing is not None
    directions = {"fwd": vehicle.facing, "rev": (vehicle.facing + 4) % 8}
    return [
        str(Drive(name, direction, n))
        for direction, facing in directions.items()
        if direction == "fwd" or not vehicle.kind.scout
        for n in range(1, arena.drive_reach(vehicle, facing, points) + 1)
    ]


@pytest.mark.parametrize(
    ("options", "bot", "actions"),
    [
        ({"setup": "deluxe-1"}, "random", 300),
        (OPTIONS["old-rules"], "random", 200),
        ({"setup": "basic-2", "max_turns": 12}, "tactician", 60),
    ],
)
def test_kept_attacks_and_steps_are_those_a_fresh_arena_gives(
    options: dict[str, Any], bot: str, actions: int
) -> None:
    """The guns in reach an arena keeps (looked at again only for the vehicles that
    moved, turned or were lost) and the steps from a placement's table are those worked
    out afresh on a copy of the arena, or by walking each line, at every decision."""
    state = GAME.start(options, None, 11)
    bots = make_bots(GAME, 11, dict.fromkeys(state.seats, bot))
    for _ in range(actions):
        if not state.awaiting():
            break
        for seat in state.seats:
            fresh = state.arena.copy()
            kept = attack_options(state.arena, seat, state.mover, state.options)
            assert kept == attack_options(fresh, seat, state.mover, state.options)
        for vehicle in state.arena.vehicles.values():
            steps = [str(a) for a in state.steps_for(vehicle) if isinstance(a, Drive | Fly)]
            assert steps == walked_steps(state, vehicle)
        seat = state.awaiting()[0]
        state.apply(seat, bots[seat].choose(Observation.of(state, seat)))


def test_a_clone_played_on_leaves_its_original_right() -> None:
    for setup in ("deluxe-1",):
        options = {"setup": setup}
        state, plain = GAME.start(options, None, 3), GAME.start(options, None, 3)
        bots = make_bots(GAME, 3, dict.fromkeys(state.seats, "random"))
        others = make_bots(GAME, 103, dict.fromkeys(state.seats, "random"))
        for _ in range(150):  # the first 150 actions: several turns of every kind
            if not state.awaiting():
                break
            seat = state.awaiting()[0]
            twin = state.clone()
            assert twin.arena.sight is state.arena.sight  # the terrain's table, shared
            for _ in range(3):
                if not twin.awaiting():
                    break
                side = twin.awaiting()[0]
                twin.apply(side, others[side].choose(Observation.of(twin, side)))
            assert [str(a) for a in state.legal_actions(seat)] == [
                str(a) for a in plain.legal_actions(seat)
            ]
            action = bots[seat].choose(Observation.of(state, seat))
            state.apply(seat, action)
            plain.apply(seat, action)
        assert state.fingerprint() == plain.fingerprint()


def test_a_pickled_match_plays_on_with_the_terrains_shared_table() -> None:
    state = GAME.start({"setup": "deluxe-1"}, None, 4)
    bots = make_bots(GAME, 4, dict.fromkeys(state.seats, "random"))
    for _ in range(40):
        seat = state.awaiting()[0]
        state.apply(seat, bots[seat].choose(Observation.of(state, seat)))
    twin = pickle.loads(pickle.dumps(state))
    assert twin.arena.sight is state.arena.sight
    assert twin.fingerprint() == state.fingerprint()
    seat = state.awaiting()[0]
    action = bots[seat].choose(Observation.of(state, seat))
    state.apply(seat, action)
    twin.apply(seat, twin.parse(seat, str(action)))
    assert twin.fingerprint() == state.fingerprint()

"""The tables that make duels fast give what working it out afresh gives: walks on the
map as bits, move options kept by situation, the greedy bot's worth of a situation's
moves."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from arena_helpers import attacker, defender, duel, power
from test_arena_movement import AT, PUNCH, WIDE, moves

from gladiatorium.core import Rng
from gladiatorium.games.superhero_gladiators import GAME, movement
from gladiatorium.games.superhero_gladiators.arena import parse_arena
from gladiatorium.games.superhero_gladiators.map_files import map_text
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState

MAPS = ("12", "small", "pillars", "chasm", "colosseum")


def test_walks_found_as_bits_match_the_square_by_square_search() -> None:
    rng = random.Random(5)
    for name in MAPS:
        arena = parse_arena(map_text(name), name)
        squares = list(arena.squares())
        for _ in range(60):
            passable = {s for s in squares if rng.random() < 0.8}
            start, limit = rng.choice(squares), rng.randint(0, 9)
            expected = arena.steps_from(start, limit, passable)
            assert arena.steps_over(start, limit, arena.bits(passable)) == expected


def test_kept_move_options_are_those_worked_out_afresh() -> None:
    checked = 0
    for name in MAPS:
        state = GAME.start({"map": map_text(name)}, 2, 4)
        assert isinstance(state, SuperheroGladiatorsState)
        rng = Rng(9)
        while state.awaiting() and len(state.history) < 80:
            seat = state.awaiting()[0]
            f = state.fighters[state.actor] if state.actor else None
            if f is not None and f.square is not None and not state.pending:
                occupied = state.occupied() - {f.square}
                names = movement.movement_powers(f)
                fresh = (
                    [] if f.entangled else movement._options(f, state.arena, occupied, names, True)
                )
                assert movement.options(f, state.arena, occupied) == fresh
                checked += 1
            state.apply(seat, state.sample_legal(seat, rng))
    assert checked > 50


def test_a_changed_power_is_not_served_from_the_table() -> None:
    """Two matches in the same situation share their moves; a hero whose movement power
    differs (same name, another level) gets its own."""
    wings = power("movement", "flight", level=2, uses=5, name="Wings")
    first = duel([attacker(PUNCH, wings)], [defender(PUNCH)], AT, WIDE)
    again = duel([attacker(PUNCH, wings)], [defender(PUNCH)], AT, WIDE)
    assert moves(first) == moves(again)
    higher = duel([attacker(PUNCH, replace(wings, level=4))], [defender(PUNCH)], AT, WIDE)
    assert "move a1 up 3 with Wings" in moves(higher) - moves(first)


def _duels() -> list[list[str]]:
    from gladiatorium.core.match import make_bots, run_match
    from gladiatorium.games.superhero_gladiators.commands.duel import duel_options

    played = []
    for heroes in (["cowboy", "barbarian"], ["perseus", "stranger-of-solarium"]):
        values = duel_options(heroes, [], "pillars")
        for seed in range(3):
            state = GAME.start(values, 2, seed)
            run_match(state, make_bots(GAME, seed, {"1": "greedy", "2": "greedy"}))
            played.append([str(a) for _, a in state.history])
    return played


def test_the_greedy_bot_plays_alike_with_and_without_the_tables(monkeypatch: Any) -> None:
    from gladiatorium.games.superhero_gladiators import bots, state

    kept = _duels()
    for table in (bots._WORTH, bots._CHOSEN, bots._PLACED, movement._FOUND, state._MOVE_TABLES):
        table.empty()
        monkeypatch.setattr(table, "limit", 0)  # keeps nothing: every answer worked out
    assert _duels() == kept and len(kept[0]) > 5

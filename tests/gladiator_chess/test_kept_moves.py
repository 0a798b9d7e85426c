"""Each team's moves kept from slot to slot (MoveCache) are exactly the moves worked
out afresh with nothing kept, at every slot of seeded random games under rule options
that change what a move depends on: freezes, releases, captive queens, check, losses
and promotions."""

from __future__ import annotations

from typing import Any

import pytest

from gladiatorium.core.match import make_bots, run_match
from gladiatorium.games.gladiator_chess import GladiatorChess
from gladiatorium.games.gladiator_chess.position import Guard, MoveCache, Position, StepTuple

GAME = GladiatorChess()

OPTIONS: list[dict[str, Any]] = [
    {},
    {"order": "team-blocks", "queen_freezes_queen": False},
    {"champion_leaps": True, "fight_to_the_fall": True},
    {"king_may_override": False, "king_slot_moves_any": True},
    {"check_answer": "as-if-won"},
]


@pytest.mark.parametrize("values", OPTIONS)
def test_kept_moves_equal_moves_worked_out_afresh(
    values: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    kept_moves = Position.team_moves
    compared: list[int] = []

    def compare(
        pos: Position,
        team: str,
        kinds: frozenset[str] | None,
        own: frozenset[str],
        in_check: bool,
        guard: Guard,
        cache: MoveCache,
    ) -> tuple[list[StepTuple], bool]:
        kept = kept_moves(pos, team, kinds, own, in_check, guard, cache)
        assert kept == kept_moves(pos, team, kinds, own, in_check, guard, MoveCache())
        compared.append(len(kept[0]))
        return kept

    monkeypatch.setattr(Position, "team_moves", compare)
    for seed in range(8):
        state = GAME.start(values, None, seed)
        run_match(state, make_bots(GAME, seed, dict.fromkeys(state.seats, "random")), game=GAME)
    assert len(compared) > 1000 and sum(compared) > 10 * len(compared)

"""A move's possible targets are kept as a table by requirement, Double-Up and the
heroes' statuses: what it gives equals working them out afresh, and a changed status
gives another table."""

from __future__ import annotations

from hb_helpers import battle

from gladiatorium.core import Rng, get_game
from gladiatorium.games.hero_battle import HeroBattleState
from gladiatorium.games.hero_battle.actions import MODERATOR
from gladiatorium.games.hero_battle.enumerate import _targets, move_targets


def test_kept_targets_are_those_worked_out_afresh() -> None:
    state = get_game("hero-battle").start({"heroes_per_player": 2}, 8, 5)
    assert isinstance(state, HeroBattleState)
    rng, checked = Rng(3), 0
    while state.awaiting() and len(state.history) < 200:
        seat = state.awaiting()[0]
        if seat != MODERATOR and seat not in state.forced:
            need, double_up = state.need(seat), state.double_up()
            fresh = list(_targets(need, state.heroes, double_up))
            assert move_targets(need, state.heroes, double_up) == fresh
            checked += 1
        state.apply(seat, state.sample_legal(seat, rng))
    assert checked > 20


def test_a_changed_status_gives_other_targets() -> None:
    state = battle()
    need, double_up = state.need("1"), state.double_up()
    before = move_targets(need, state.heroes, double_up)
    victim = next(iter(state.heroes))
    state.heroes[victim].status = "dead"
    after = move_targets(need, state.heroes, double_up)
    assert all(victim not in hits + heals for hits, heals in after)
    assert any(victim in hits + heals for hits, heals in before)

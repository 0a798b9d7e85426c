"""The caches that make Electron Gladiators quick change no play: the sight table is
shared by every arena on a terrain, and a clone played on leaves its original offering
exactly what a match never cloned offers."""

from __future__ import annotations

from gladiatorium.core import Observation
from gladiatorium.core.match import make_bots
from gladiatorium.games.electron_gladiators.game import ElectronGladiators

GAME = ElectronGladiators()


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

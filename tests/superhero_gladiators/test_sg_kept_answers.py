"""What Superhero Gladiators keeps from decision to decision changes no answer: at
every decision of seeded random matches, a hero's usable powers and each seat's options
as it may know them are those worked out afresh, through spent uses, destroyed gizmos,
notices and gizmos attacked in the open."""

from __future__ import annotations

from typing import Any

from sample_matches import MATCHES, players

from gladiatorium.core import Rng
from gladiatorium.games.superhero_gladiators import SuperheroGladiators
from gladiatorium.games.superhero_gladiators.heroes import Gizmo
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState
from gladiatorium.games.superhero_gladiators.worlds import options_with, seat_options, unseen

GAME = SuperheroGladiators()


def afresh(state: SuperheroGladiatorsState, seat: str) -> Any:
    """The seat's options worked out with nothing kept."""
    changes = tuple((g.id, index, Gizmo.NONE) for g, index in unseen(state, seat))
    return options_with(state.options, changes)


def check_playout(match: str, seed: int, seen: dict[str, int]) -> None:
    options = MATCHES[match]
    state = GAME.start(options or None, players(options), seed)
    assert isinstance(state, SuperheroGladiatorsState)
    rng = Rng(seed)
    while state.awaiting():
        for seat in state.seats:
            assert seat_options(state, seat) == afresh(state, seat)
        for f in state.fighters.values():
            kept = {kind: f.of_type(kind) for kind in {p.type for p in f.powers.values()}}
            kept_attacks, kept_harm = f.attacks(), f.can_harm()
            f.forget_usable()
            assert kept == {kind: f.of_type(kind) for kind in kept}
            assert (kept_attacks, kept_harm) == (f.attacks(), f.can_harm())
        seat = state.awaiting()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seen["destroyed"] += sum(len(f.destroyed) for f in state.fighters.values())
    seen["noticed"] += sum(len(keys) for keys in state.noticed.values())
    seen["exposed"] += len(state.exposed)
    seen["spent"] += sum(u == 0 for f in state.fighters.values() for u in f.uses.values())


def test_kept_powers_and_options_are_those_worked_out_afresh() -> None:
    seen = dict.fromkeys(("destroyed", "noticed", "exposed", "spent"), 0)
    for seed in range(4):
        check_playout("default", seed, seen)
    check_playout("four on the chasm", 0, seen)
    check_playout("house rules on the pillars", 1, seen)
    assert all(seen.values()), seen  # every way a kept answer changes happened

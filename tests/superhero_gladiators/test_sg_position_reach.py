"""The seeded matches of the round-trip test pass through the decisions a position
must write: heroes to place, hits waiting for a defence, a gizmo being revealed,
attacks seen in the open, what a team noticed, holds, flight, the end (a copied attack
held and movement already rolled: the scenarios of test_sg_position_decisions.py)."""

from __future__ import annotations

from test_sg_position_round_trip import GAME, MATCHES, decision_points


def test_the_matches_reach_the_decisions_a_position_must_write() -> None:
    seen: set[str] = set()
    for name, seed in MATCHES:
        for state in decision_points(name, seed):
            text = GAME.write_position(state)
            seen |= {key for key in KEYS if key in text}
    assert seen == set(KEYS)


KEYS = (
    "placing:",
    "pending:",
    "reveal:",
    "exposed:",
    "noticed:",
    '"entangled"',
    '"grappler"',
    '"altitude"',
    "airborne: true",
    "flew: true",
    "over: true",
)

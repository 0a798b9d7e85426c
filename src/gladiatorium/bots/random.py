"""The random bot: a uniformly random legal action, from its own seeded stream.

It reads only its own seat's legal actions, which hold no secret of another seat (the
conformance suite compares them, in order, between worlds that differ in a secret)."""

from __future__ import annotations

from typing import Any

from gladiatorium.core import Action, Rng, Seat, State


class RandomBot:
    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, state: State[Any], seat: Seat) -> Action:
        return state.sample_legal(seat, self.rng)

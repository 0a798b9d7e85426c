"""The random bot: a uniformly random legal action, from its own seeded stream.

It reads only its own seat's legal actions, which hold no secret of another seat (the
conformance suite compares them, in order, between worlds that differ in a secret)."""

from __future__ import annotations

from gladiatorium.core import Action, Observation, Rng


class RandomBot:
    reads_world = False  # its legal actions are all it reads
    #: its choice is ``self.rng.choice(observation.legal_actions)``: a match draws it for
    #: the bot with ``State.sample_legal``, which draws the same, and makes no observation
    draws_uniformly = True

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, observation: Observation) -> Action:
        return self.rng.choice(observation.legal_actions)

"""``mcts``: information-set Monte Carlo tree search for every game.

Each iteration draws a full state from the seat's observation
(``Observation.determinize``: the secrets the seat may not know invented, the dice a
fresh stream, so chance is sampled too), walks the tree from the root with UCT, adds
one node, plays random actions for a few steps and scores the end with the game's
evaluation (``Game.evaluate``; a finished match scores its outcome). Every seat keeps
its own statistics and reward (a vector: 1 for a winner, 0 for a loser, a half each
in a draw), so the search plays every seat for itself. Where several seats decide at
once (Super Dice Heroes, Hero Battle), each picks from its own statistics at that node
without seeing the others' picks of the step (decoupled UCT). The tree is
open-loop: a node is the actions that led to it, whatever the dice and secrets of the
iteration, and an action is scored against how often it was available.

Options (``--seat 2=mcts``; in code ``MctsBot(rng, iterations=..., ms=...)``): the budget
is ``iterations`` (by default the game's ``search_iterations``; deterministic for a seed)
or ``ms`` of thinking time; ``rollout``, the random actions played after the tree, is
by default the game's ``search_rollout``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gladiatorium.core import Action, Observation, Outcome, Rng, Seat, State

#: UCT's exploration constant for rewards in [0, 1]
EXPLORATION = 0.9
#: the share of the budget credited to the heuristic's choice at the root as visits: the
#: search must find a move clearly better to play another
PRIOR = 0.25
#: progressive widening: a node visited n times tries at most 1 + WIDEN * sqrt(n) actions
WIDEN = 1.5


@dataclass
class Arm:
    """One seat's statistics for one action at a node."""

    visits: int = 0
    reward: float = 0.0
    available: int = 0


@dataclass
class Node:
    visits: int = 0
    arms: dict[tuple[Seat, str], Arm] = field(default_factory=dict)
    children: dict[tuple[tuple[Seat, str], ...], Node] = field(default_factory=dict)


def outcome_values(outcome: Outcome, seats: Sequence[Seat]) -> dict[Seat, float]:
    """A finished match as a reward per seat: winners 1, losers 0, a draw a half each."""
    if outcome.draw:
        return dict.fromkeys(seats, 0.5)
    return {s: 1.0 if s in outcome.winners else 0.0 for s in seats}


class MctsBot:
    """Information-set MCTS with determinization (see the module docstring)."""

    def __init__(
        self,
        rng: Rng,
        iterations: int | None = None,
        ms: float | None = None,
        rollout: int | None = None,
        exploration: float = EXPLORATION,
        prior: float = PRIOR,
    ) -> None:
        self.rng = rng
        self.iterations = iterations
        self.ms = ms
        self.rollout = rollout
        self.exploration = exploration
        self.prior_share = prior
        self.simultaneous = False
        self.prior: Action | None = None
        self._heuristic: Any = None

    def choose(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        root = Node()
        self.simultaneous = observation.game.info.simultaneous
        self.prior = self._heuristic_choice(observation)
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000
        budget = self.iterations or observation.game.search_iterations
        done = 0
        while done < budget if deadline is None else time.perf_counter() < deadline:
            self._iterate(observation, root, Rng(self.rng.randint(0, 2**62)))
            done += 1
        bonus = self.prior_share * done
        return self._most_visited(root, observation.seat, legal, bonus)

    def _heuristic_choice(self, observation: Observation) -> Action | None:
        """The game's best own bot's choice, tried first at the root (None: the game
        has no bot of its own). One bot is kept for the match, so its memory lasts."""
        bots = observation.game.bots()
        if not bots:
            return None
        if self._heuristic is None:
            self._heuristic = next(iter(bots.values()))(self.rng.spawn("heuristic"))
        action: Action = self._heuristic.choose(observation)
        return action

    def _most_visited(
        self, root: Node, seat: Seat, legal: Sequence[Action], bonus: float
    ) -> Action:
        """The action visited most, the heuristic's choice credited ``bonus`` visits."""
        prior = None if self.prior is None else str(self.prior)

        def visits(index: int) -> tuple[float, float, int]:
            text = str(legal[index])
            arm = root.arms.get((seat, text))
            extra = bonus if text == prior else 0.0
            if arm is None:
                return (extra, 0.0, -index)
            return (arm.visits + extra, arm.reward / max(arm.visits, 1), -index)

        return legal[max(range(len(legal)), key=visits)]

    # ----- one iteration ---------------------------------------------------------------
    def _iterate(self, observation: Observation, root: Node, rng: Rng) -> None:
        state = observation.determinize(rng)
        game = observation.game
        path: list[tuple[Node, list[tuple[Seat, str, list[str]]]]] = []
        node = root
        first = None if self.prior is None else (observation.seat, str(self.prior))
        while not state.is_over:
            step, grown = self._step(state, node, rng, first if node is root else None)
            if not step:
                break
            path.append((node, step))
            key = tuple((seat, text) for seat, text, _ in step)
            child = node.children.get(key)
            if child is None:
                node.children[key] = Node()
                break
            node = child
            if grown:
                break
        rollout = game.search_rollout if self.rollout is None else self.rollout
        values = self._playout(game, state, rng, rollout)
        for visited, step in path:
            visited.visits += 1
            for seat, text, available in step:
                for other in available:
                    visited.arms.setdefault((seat, other), Arm()).available += 1
                arm = visited.arms[(seat, text)]
                arm.visits += 1
                arm.reward += values.get(seat, 0.0)

    def _step(
        self, state: State[Any], node: Node, rng: Rng, first: tuple[Seat, str] | None
    ) -> tuple[list[tuple[Seat, str, list[str]]], bool]:
        """Every seat deciding now picks and plays an action; returns (seat, action,
        the actions it could take) each, and whether an untried action was picked."""
        step: list[tuple[Seat, str, list[str]]] = []
        grown = False
        for seat in deciders(state, self.simultaneous):
            if seat not in state.awaiting():
                continue
            legal = list(state.legal_actions(seat))
            if not legal:
                continue
            texts = [str(a) for a in legal]
            index, new = self._select(node, seat, texts, rng, first)
            grown = grown or new
            state.apply(seat, legal[index])
            step.append((seat, texts[index], texts))
        return step, grown

    def _select(
        self, node: Node, seat: Seat, texts: list[str], rng: Rng, first: tuple[Seat, str] | None
    ) -> tuple[int, bool]:
        """UCT over the tried actions available (availability counts); an untried one
        (the heuristic's first) while the node may widen."""
        arms = [node.arms.get((seat, t)) for t in texts]
        tried = [i for i, arm in enumerate(arms) if arm is not None and arm.visits > 0]
        untried = [i for i, arm in enumerate(arms) if arm is None or arm.visits == 0]
        if untried and (not tried or len(tried) < 1 + WIDEN * math.sqrt(node.visits)):
            index = untried[rng.randint(0, len(untried) - 1)]
            if first is not None and first[0] == seat and first[1] in texts:
                prior = texts.index(first[1])
                index = prior if prior in untried else index
            node.arms.setdefault((seat, texts[index]), Arm())
            return index, True
        best, best_score = tried[0], -math.inf
        for i in tried:
            arm = arms[i]
            assert arm is not None
            score = arm.reward / arm.visits + self.exploration * math.sqrt(
                math.log(max(arm.available, 1) + 1) / arm.visits
            )
            if score > best_score:
                best, best_score = i, score
        return best, False

    def _playout(self, game: Any, state: State[Any], rng: Rng, rollout: int) -> dict[Seat, float]:
        """``rollout`` random actions, then the game's score of the position."""
        for _ in range(rollout):
            awaited = state.awaiting()
            if not awaited:
                break
            seat = deciders(state, self.simultaneous)[0]
            state.apply(seat, state.sample_legal(seat, rng))
        outcome = state.outcome()
        if outcome is not None:
            return outcome_values(outcome, state.seats)
        return game.evaluate(state)


def deciders(state: State[Any], simultaneous: bool) -> tuple[Seat, ...]:
    """The seats that decide at this step: in a game of simultaneous moves every seat
    the match waits on, else the first awaited (the one ``run_match`` asks)."""
    deciding = state.deciding() if simultaneous else ()
    return deciding if deciding else state.awaiting()[:1]

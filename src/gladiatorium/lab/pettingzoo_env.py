"""PettingZoo AEC environments for every registered game (docs/lab.md, "Reinforcement
learning"). Needs the ``rl`` extra (``pip install gladiatorium[rl]``).

What an agent gets is built only from its seat's view and its seat's events (see
:mod:`gladiatorium.lab.encoding`) and its own legal actions; the environment holds the
match but hands out nothing else of it.

Actions. A game whose actions carry no fields (Pig: ``roll``, ``hold``) gets a fixed
enumeration: action ``i`` is always the same move. Every other game's action set is
huge or depends on the position (Hero Battle's hits and heals, a vehicle's reach), so
action ``i`` is the ``i``-th of the seat's legal actions sorted by notation, within a
bound ``max_actions``; the observation's ``action_mask`` marks the indices that play
something now. Its limits: an index means a different move in different positions,
and a seat with more legal actions than the bound is offered an evenly spread
``max_actions`` of them (``infos[agent]["dropped"]`` says how many were left out).

Turns. The seat selected next is one the match is waiting on; with several (the
simultaneous rounds of Super Dice Heroes and Hero Battle) the selection cycles through
them in table order, each deciding without seeing what the others chose this round.
Seats that are no agents (by default the game's moderator seats, as Hero Battle's)
are played by the environment: when the match waits on nobody else, it takes their
deadline actions (:meth:`Game.timeout_actions`: the moderator closes the round).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt
from gymnasium import logger, spaces
from pettingzoo import AECEnv

from gladiatorium.core import Action, Game, IllegalAction, Outcome, Seat, State, derive_seed
from gladiatorium.core import get_game as registered_game
from gladiatorium.lab.encoding import encode

Observation = dict[str, npt.NDArray[Any]]
RewardKind = Literal["outcome", "score"]

#: the default bound on a seat's listed legal actions (the most seen in a default
#: match is 218, a Hero Battle of eight in its first round)
MAX_ACTIONS = 512


class ActionTable(Protocol):
    """How an action index is read: ``slots(legal)[i]`` is what index ``i`` plays
    now (None: nothing, masked)."""

    size: int

    def slots(self, legal: Sequence[Action]) -> list[Action | None]: ...


class EnumeratedActions:
    """A fixed list of every action the game has: index ``i`` is always the same one."""

    def __init__(self, actions: Sequence[Action]) -> None:
        self.actions = tuple(actions)
        self.size = len(self.actions)

    def slots(self, legal: Sequence[Action]) -> list[Action | None]:
        offered = set(legal)
        unknown = offered.difference(self.actions)
        if unknown:
            raise IllegalAction(
                f"legal actions outside the enumeration: {sorted(map(str, unknown))}"
            )
        return [a if a in offered else None for a in self.actions]


class IndexedActions:
    """Index ``i`` is the ``i``-th legal action sorted by notation; at most ``size``
    of them (evenly spread, first and last kept, when there are more)."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"max_actions must be at least 1, not {size}")
        self.size = size

    def slots(self, legal: Sequence[Action]) -> list[Action | None]:
        ordered: list[Action | None] = list(sorted(legal, key=str))
        if len(ordered) > self.size:
            step = (len(ordered) - 1) / max(1, self.size - 1)
            ordered = [ordered[round(i * step)] for i in range(self.size)]
        return ordered + [None] * (self.size - len(ordered))


def action_table(game: Game[Any], max_actions: int | None) -> ActionTable:
    """The enumeration for a game whose actions carry no fields, else an index into
    the sorted legal list bounded by ``max_actions``."""
    if max_actions is None and all(not fields(t) for t in game.action_types):
        return EnumeratedActions([t() for t in game.action_types])
    return IndexedActions(MAX_ACTIONS if max_actions is None else max_actions)


def rewards_of(outcome: Outcome, agents: Sequence[Seat], kind: RewardKind) -> dict[Seat, float]:
    """Each agent's reward at the end: a win +1, a loss -1, a draw 0; or (``score``)
    the outcome's score of the seat, where the game keeps scores."""
    if kind == "score" and outcome.scores:
        scores = dict(outcome.scores)
        return {a: float(scores.get(a, 0.0)) for a in agents}
    if outcome.draw:
        return dict.fromkeys(agents, 0.0)
    return {a: 1.0 if a in outcome.winners else -1.0 for a in agents}


def get_game(slug: str) -> Game[Any]:
    from gladiatorium.games import load

    load()
    return registered_game(slug)


class GladiatoriumEnv(AECEnv[Seat, Any, Any]):
    """One game as a PettingZoo AEC environment; agents are the game's seats
    (``"1"``, ``"white-king"``), less the seats the environment plays itself.

    Observations are ``{"observation": float32[features], "action_mask":
    int8[actions]}``: the encoding of the seat's view and latest events, and which
    action indices play something now (only for the selected agent; all zeros for the
    others). ``infos[agent]["actions"]`` names what each open index plays. Rewards come
    at the end, from the outcome. ``reset(seed=N)`` starts the match seeded ``N`` (the
    same as ``gladiatorium play --seed N``); a later ``reset()`` without a seed starts
    the next match of a sequence derived from the last seed given (0 at first).
    """

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any] | None = None,
        players: int | None = None,
        *,
        max_actions: int | None = None,
        features: int = 2048,
        recent_events: int = 8,
        reward: RewardKind = "outcome",
        automatic: Sequence[Seat] | None = None,
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, not {max_steps}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode is 'ansi' or 'human', not {render_mode!r}")
        self.game = get_game(game)
        self.options = self.game.make_options(options)
        self.players = players
        self.features = features
        self.recent_events = recent_events
        self.reward_kind: RewardKind = reward
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.metadata = {
            "name": f"{game}_v{self.game.info.version}",
            "render_modes": ["ansi", "human"],
            "is_parallelizable": False,
        }
        self.table = action_table(self.game, max_actions)
        self.match: State[Any] = self._start(0)
        self.automatic = frozenset(
            self.game.moderator_seats(self.match) if automatic is None else automatic
        )
        self.possible_agents = [s for s in self.match.seats if s not in self.automatic]
        self.observation_spaces = {a: self._observation_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.table.size) for a in self.possible_agents}
        self._base_seed, self._episode = 0, -1
        #: the selected agent's slots and legal count, keyed by the match, ply and agent
        self._slots: tuple[tuple[State[Any], int, Seat], list[Action | None], int] | None = None

    # ----- spaces ------------------------------------------------------------------
    def _observation_space(self) -> spaces.Dict:
        return spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 1.0, (self.features,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.table.size,), np.int8),
            }
        )

    def observation_space(self, agent: Seat) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: Seat) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ----- the episode -------------------------------------------------------------
    def _start(self, seed: int) -> State[Any]:
        return self.game.start(self.options, self.players, seed)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match: seeded ``seed``, or the next of the sequence (``options`` is
        unused: the game's options are fixed when the environment is made)."""
        if seed is not None:
            self._base_seed, self._episode = seed, 0
            for index, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(derive_seed(seed, "actions", index))
        else:
            self._episode += 1
        episode_seed = (
            self._base_seed
            if self._episode == 0
            else derive_seed(self._base_seed, "episode", self._episode)
        )
        self.match = self._start(episode_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.steps = 0
        self._last_actor: Seat | None = None
        self._advance()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"agent {agent} must act: None is only for a finished agent")
        chosen = self._chosen(int(action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.match.apply(agent, chosen)
        self.steps += 1
        self._last_actor = agent
        self._advance()
        self._accumulate_rewards()

    def _chosen(self, index: int) -> Action:
        slots = self.slots()
        chosen = slots[index] if 0 <= index < len(slots) else None
        if chosen is None:
            raise IllegalAction(
                f"action {index} plays nothing for {self.agent_selection} now; "
                "pick an index the action_mask marks"
            )
        return chosen

    def _advance(self) -> None:
        """Let the seats the environment plays act, then select the next agent or
        end the episode."""
        while True:
            outcome = self.match.outcome()
            if outcome is not None:
                self._finish(outcome)
                return
            if self.max_steps is not None and self.steps >= self.max_steps:
                self.truncations = dict.fromkeys(self.agents, True)
                return
            awaited = self.match.awaiting()
            deciding = [s for s in self.match.deciding() if s not in self.automatic]
            automatic = [s for s in awaited if s in self.automatic]
            if deciding or not automatic:
                self._select(deciding or [s for s in awaited if s not in self.automatic])
                return
            self._play_automatic(automatic[0])

    def _play_automatic(self, seat: Seat) -> None:
        actions = self.game.timeout_actions(self.match, seat)
        if not actions:
            raise RuntimeError(f"the match waits on {seat}, which has no deadline action")
        for action in actions:
            if seat not in self.match.awaiting():
                break
            self.match.apply(seat, action)

    def _select(self, candidates: Sequence[Seat]) -> None:
        """The first candidate after the last agent to act, in table order."""
        if not candidates:
            raise RuntimeError(f"{self.game.info.slug}: the match waits on no agent")
        order = self.match.seats
        after = -1 if self._last_actor is None else order.index(self._last_actor)
        ranked = sorted(candidates, key=lambda s: (order.index(s) <= after, order.index(s)))
        self.agent_selection = ranked[0]
        self.infos = {a: {} for a in self.agents}
        self.infos[self.agent_selection] = self._action_info()

    def _finish(self, outcome: Outcome) -> None:
        self.rewards = rewards_of(outcome, self.agents, self.reward_kind)
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos = {a: {"outcome": outcome.to_json()} for a in self.agents}
        if getattr(self, "agent_selection", None) not in self.agents:
            self.agent_selection = self.agents[0]

    # ----- what an agent receives --------------------------------------------------
    def slots(self) -> list[Action | None]:
        """What each action index plays now for the selected agent (None: masked)."""
        return self._listing()[1]

    def _listing(self) -> tuple[tuple[State[Any], int, Seat], list[Action | None], int]:
        match, ply, agent = self.match, len(self.match.history), self.agent_selection
        cached = self._slots
        if cached is None or cached[0][0] is not match or cached[0][1:] != (ply, agent):
            legal = match.legal_actions(agent)
            cached = (match, ply, agent), self.table.slots(legal), len(legal)
            self._slots = cached
        return cached

    def _action_info(self) -> dict[str, Any]:
        _, slots, offered = self._listing()
        info: dict[str, Any] = {
            "actions": {i: str(a) for i, a in enumerate(slots) if a is not None}
        }
        if offered > len(info["actions"]):
            info["dropped"] = offered - len(info["actions"])
        return info

    def observe(self, agent: Seat) -> Observation:
        mask = np.zeros(self.table.size, dtype=np.int8)
        if agent == self.agent_selection and not self.match.is_over:
            mask[[i for i, a in enumerate(self.slots()) if a is not None]] = 1
        view = self.match.view(agent)
        events = self.match.events_for(agent)
        features = encode(agent, view, events, self.features, self.recent_events)
        return {"observation": features, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            logger.warn("render() called without a render_mode; give render_mode='ansi'")
            return None
        text = self.game.terminal.render(self.match, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the match lives in memory."""


def env(game: str, **settings: Any) -> GladiatoriumEnv:
    """The environment of ``game`` (a registered slug); ``settings`` as for
    :class:`GladiatoriumEnv`."""
    return GladiatoriumEnv(game, **settings)

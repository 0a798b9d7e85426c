"""Running a match between controllers (bots or people)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gladiatorium.core.errors import GladiatoriumError
from gladiatorium.core.events import Event, Seat
from gladiatorium.core.game import Bot, Game
from gladiatorium.core.registry import get_bot
from gladiatorium.core.rng import Rng, derive_seed
from gladiatorium.core.state import State


class MatchTooLong(GladiatoriumError):
    """A match passed its action cap without ending."""


def make_bots(game: Game[Any], seed: int, names: Mapping[Seat, str]) -> dict[Seat, Bot]:
    """One bot per seat, each with its own stream derived from the match seed."""
    return {
        seat: get_bot(game, name)(Rng(derive_seed(seed, "bot", seat, name)))
        for seat, name in names.items()
    }


def run_match(
    state: State[Any],
    controllers: Mapping[Seat, Bot],
    max_actions: int = 1_000_000,
    on_events: Callable[[Seat, list[Event]], None] | None = None,
) -> State[Any]:
    """Ask the first awaited seat's controller for an action until the match ends."""
    for _ in range(max_actions):
        awaited = state.awaiting()
        if not awaited:
            return state
        seat = awaited[0]
        events = state.apply(seat, controllers[seat].choose(state, seat))
        if on_events is not None:
            on_events(seat, events)
    if state.is_over:
        return state
    raise MatchTooLong(f"no result after {max_actions} actions")

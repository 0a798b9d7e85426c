"""Running a match between controllers (bots or people)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeGuard, cast

from gladiatorium.core.action import Action
from gladiatorium.core.errors import GladiatoriumError
from gladiatorium.core.events import Event, Seat
from gladiatorium.core.game import Bot, Game, Person
from gladiatorium.core.kept import Table
from gladiatorium.core.observation import Observation
from gladiatorium.core.registry import game_of, get_bot
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
    controllers: Mapping[Seat, Bot | Person],
    max_actions: int = 1_000_000,
    on_events: Callable[[Seat, list[Event]], None] | None = None,
    game: Game[Any] | None = None,
) -> State[Any]:
    """Ask the first awaited seat's controller for an action until the match ends: a
    bot is handed the seat's :class:`Observation`, a person the match."""
    game = game_of(state) if game is None else game
    choosers: dict[Seat, Chooser] = {}
    for _ in range(max_actions):
        awaited = state.awaiting()
        if not awaited:
            return state
        seat = awaited[0]
        choose = choosers.get(seat)
        if choose is None:
            choose = choosers[seat] = chooser(game, state, seat, controllers[seat])
        events = state.apply(seat, choose(awaited))
        if on_events is not None:
            on_events(seat, events)
    if state.is_over:
        return state
    raise MatchTooLong(f"no result after {max_actions} actions")


#: how a seat's controller picks its action, handed the seats awaited
Chooser = Callable[[tuple[Seat, ...]], Action]


def chooser(game: Game[Any], state: State[Any], seat: Seat, controller: Bot | Person) -> Chooser:
    """How ``controller`` picks the actions of ``seat`` in the match ``state``, worked
    out once per match: a bot that draws uniformly from its legal actions (``Bot``'s
    ``draws_uniformly``) has the match draw for it with its stream, as it would
    (``State.sample_legal``), without an observation; any other is asked by
    :func:`decide`."""
    if getattr(controller, "draws_uniformly", False):
        rng: Rng = cast(Any, controller).rng
        sample = state.sample_legal
        return lambda awaited: sample(seat, rng)
    return lambda awaited: decide(game, state, seat, controller, awaited)


def decide(
    game: Game[Any],
    state: State[Any],
    seat: Seat,
    controller: Bot | Person,
    awaiting: tuple[Seat, ...] | None = None,
) -> Action:
    """The action ``controller`` takes for ``seat`` now (``awaiting``: the seats awaited,
    when the caller has just asked)."""
    if is_person(controller):
        return controller.decide(state, seat)
    bot = cast(Bot, controller)
    recall = getattr(bot, "recall", None)
    if recall is None:
        return bot.choose(Observation.for_bot(game, state, seat, bot, awaiting))
    # a choice made before in the same situation needs no world
    glance = Observation.glance(game, state, seat, awaiting)
    situation = glance.situation
    recalled = recall(glance)
    if recalled is not None:
        return cast(Action, recalled)
    observation = Observation.for_bot(game, state, seat, bot, awaiting)
    # the seat's situation is the same in its world (the conformance suite checks it)
    observation.know_situation(situation)
    return bot.choose(observation)


def is_person(controller: Bot | Person) -> TypeGuard[Person]:
    """Whether ``controller`` is a person (what ``isinstance(controller, Person)`` says,
    asked once per kind of controller: a protocol check costs as much as a bot's move)."""
    kind = type(controller)
    known = _PEOPLE.get(kind)
    if known is None:
        known = _PEOPLE.keep(kind, isinstance(controller, Person))
    return known


#: whether each kind of controller met is a person
_PEOPLE: Table[type, bool] = Table(
    "core.match.people", "core", 256, "whether each kind of controller is a person"
)

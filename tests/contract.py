"""Checks of the game contract, shared by the conformance suite and its own tests."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from gladiatorium.core import (
    Action,
    Event,
    Game,
    GladiatoriumError,
    Observation,
    Rng,
    Seat,
    State,
    bots_for,
    get_bot,
)
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.core.record import events_digest

#: a random game longer than this is a game that does not end
ACTION_CAP = 20_000
#: states per random game at which the expensive checks run
SAMPLES = 12


StateT = TypeVar("StateT", bound=State[Any])


def random_walk(game: Game[Any], seed: int) -> Iterator[tuple[State[Any], Seat]]:
    """Yield (state, seat to act) before each action of a seeded random game,
    then play that seat's random action; ends when the game is over."""
    state = game.start(None, None, seed)
    bots = make_bots(game, seed, dict.fromkeys(state.seats, "random"))
    for _ in range(ACTION_CAP):
        awaited = state.awaiting()
        if not awaited:
            return
        seat = awaited[0]
        yield state, seat
        state.apply(seat, bots[seat].choose(Observation(game, state, seat)))
    raise AssertionError(f"{game.info.slug}: random game not over after {ACTION_CAP} actions")


def played_on(state: StateT, seed: int, actions: int) -> StateT:
    """``state`` after up to ``actions`` more legal actions, each drawn with a
    ``random.Random(seed)`` (the same for a copy of the state: it plays on the same)."""
    rng = random.Random(seed)
    for _ in range(actions):
        if not state.awaiting():
            break
        seat = state.awaiting()[0]
        state.apply(seat, rng.choice(list(state.legal_actions(seat))))
    return state


def play_random(game: Game[Any], seed: int) -> State[Any]:
    state = game.start(None, None, seed)
    bots = make_bots(game, seed, dict.fromkeys(state.seats, "random"))
    for _ in range(ACTION_CAP):
        awaited = state.awaiting()
        if not awaited:
            return state
        state.apply(awaited[0], bots[awaited[0]].choose(Observation(game, state, awaited[0])))
    raise AssertionError(f"{game.info.slug}: random game not over after {ACTION_CAP} actions")


def copy_reaches(game: Game[Any], seed: int, samples: int = 6) -> list[str]:
    """Where copies made at sampled points of a seeded random game and their originals
    reach each other, both ways: a move on the copy that shows in the original, the
    original's later moves (the rest of the game) that show in the copy; and the fields
    a state does not declare in its ``COPYING``."""
    length = len(play_random(game, seed).history)
    found: list[str] = []
    kept: list[tuple[int, State[Any], str]] = []
    for index, (state, seat) in enumerate(random_walk(game, seed)):
        if index not in sample_indices(length, samples):
            continue
        found += [f"step {index}: {name} is not in COPYING" for name in state.undeclared_fields()]
        before = fingerprint_text(state)
        twin = state.clone()
        if fingerprint_text(twin) != before:
            found.append(f"step {index}: the copy differs from the original")
        twin.apply(seat, twin.legal_actions(seat)[-1])
        if fingerprint_text(state) != before:
            found.append(f"step {index}: a move on the copy shows in the original")
        still = state.clone()
        kept.append((index, still, fingerprint_text(still)))
    for index, still, then in kept:
        if fingerprint_text(still) != then:
            found.append(f"step {index}: the original's later moves show in its copy")
    return found


def fingerprint_text(state: State[Any]) -> str:
    """A state's fingerprint as text: a later edit of a shared object cannot reach it."""
    return json.dumps(state.fingerprint(), default=str, sort_keys=True)


def attributes_of(thing: object) -> dict[str, Any]:
    """What an object holds, by name: its ``__dict__``, or (a compiled class has none,
    or one for names it does not lay out) the attributes mypyc laid out as well."""
    held = dict(getattr(thing, "__dict__", {}))
    for name in getattr(type(thing), "__mypyc_attrs__", ()):
        if name != "__dict__" and hasattr(thing, name):
            held[name] = getattr(thing, name)
    return held


def played_digest(
    game: Game[Any],
    state: State[Any],
    bot: str,
    seed: int,
    on_events: Callable[[Seat, list[Event]], None] | None = None,
) -> tuple[int, str, str]:
    """Play ``state`` to its end with ``bot`` on every seat (seeded by ``seed``): the
    number of actions and short digests of the actions and of the events, which pin the
    game a seed plays (the same-plays tests keep them). ``on_events``: told of each
    action's events, as ``run_match`` tells them."""
    players = make_bots(game, seed, dict.fromkeys(state.seats, bot))
    run_match(state, players, on_events=on_events, game=game)
    actions = json.dumps([(seat, str(action)) for seat, action in state.history])
    return (
        len(state.history),
        hashlib.sha256(actions.encode()).hexdigest()[:16],
        events_digest(state)[:16],
    )


def sample_indices(length: int, samples: int = SAMPLES) -> set[int]:
    step = max(1, length // samples)
    return set(range(0, length, step))


def leaks(game: Game[Any], state: State[Any]) -> list[str]:
    """Every (seat, secret, place) where a secret of the seat shows in what it sees."""
    found = []
    for seat in (*state.seats, None):
        places = {
            "view": json.dumps(state.view(seat), default=str),
            "events": json.dumps([e.to_json() for e in state.events_for(seat)]),
            "render": game.terminal.render(state, seat),
            "notes": json.dumps(
                game.terminal.action_notes(state, seat) if seat is not None else {}
            ),
        }
        for secret in state.secrets_for(seat):
            for place, text in places.items():
                if secret in text:
                    found.append(f"seat {seat}: {secret!r} in its {place}")
    return found


#: legal actions of each seat tried as probes when two worlds are compared
PROBES_PER_SEAT = 12


def spread(items: list[Any], count: int) -> list[Any]:
    """At most ``count`` items, evenly spaced, first and last included."""
    if len(items) <= count:
        return items
    step = (len(items) - 1) / (count - 1)
    return [items[round(i * step)] for i in range(count)]


def refusal(state: State[Any], seat: Seat, action: Action) -> str | None:
    """What :meth:`State.apply` would answer, without applying anything."""
    if state.is_over:
        return "over"
    if seat not in state.awaiting():
        return f"not awaited; waiting for {state.awaiting()}"
    return state.illegal_reason(seat, action)


def parsed(state: State[Any], seat: Seat, text: str) -> str:
    try:
        return f"ok {state.parse(seat, text)}"
    except GladiatoriumError as err:
        return f"{type(err).__name__}: {err}"


def received(game: Game[Any], state: State[Any], seat: Seat | None) -> dict[str, Any]:
    """Everything ``seat`` receives: view, events, rendering, legal actions in order."""
    return {
        "view": state.view(seat),
        "events": [e.to_json() for e in state.events_for(seat)],
        "render": game.terminal.render(state, seat),
        "awaiting": state.awaiting(),
        "legal": [str(a) for a in state.legal_actions(seat)] if seat is not None else [],
        "legal_form": legal_form_of(game, state, seat),
        "seat_view": game.seat_view(state, seat, game.shared_view(state)),
        "notes": game.terminal.action_notes(state, seat) if seat is not None else {},
        "channels": [
            (c.name, c.post, c.key, c.forum)
            for over in (False, True)
            for c in game.channels(state, seat, over)
        ],
    }


def legal_form_of(game: Game[Any], state: State[Any], seat: Seat | None) -> Any:
    """The JSON of the compact form of ``seat``'s legal actions, if the game has one."""
    if seat is None or seat not in state.awaiting():
        return None
    form = game.legal_form(state, seat)
    return None if form is None else form.to_json()


def twin_differences(
    game: Game[Any], state: State[Any], twin: State[Any], seat: Seat | None
) -> list[str]:
    """Where ``seat`` can tell ``state`` from its secret twin: what it receives, the
    answers to the same actions and texts (every seat's legal actions, sampled, as
    probes), and, for a seat that must act, every bot's choice."""
    mine, theirs = received(game, state, seat), received(game, twin, seat)
    found = [f"seat {seat}: its {place} differs" for place in mine if mine[place] != theirs[place]]
    if seat is None:
        return found
    probes = [
        action
        for world in (state, twin)
        for other in world.awaiting()
        for action in spread(list(world.legal_actions(other)), PROBES_PER_SEAT)
    ]
    for action in probes:
        if refusal(state, seat, action) != refusal(twin, seat, action):
            found.append(f"seat {seat}: refusal of {action} differs")
        if parsed(state, seat, str(action)) != parsed(twin, seat, str(action)):
            found.append(f"seat {seat}: reading {str(action)!r} differs")
    found += sample_differences(game, state, twin, seat)
    if seat in state.awaiting():
        for name, factory in quick_bots(game).items():
            here = factory(Rng(1)).choose(Observation(game, state, seat))
            there = factory(Rng(1)).choose(Observation(game, twin, seat))
            if here != there:
                found.append(f"seat {seat}: bot {name} chooses {here} here, {there} there")
            here, there = recalled(factory, game, state, seat), recalled(factory, game, twin, seat)
            if here != there:
                found.append(f"seat {seat}: bot {name} recalls {here} here, {there} there")
    return found


def recalled(factory: Any, game: Game[Any], state: State[Any], seat: Seat) -> object:
    """What a bot that recalls choices (``recall``) recalls in ``state``, after choosing
    there once (None for a bot that recalls nothing)."""
    bot = factory(Rng(1))
    if not hasattr(bot, "recall"):
        return None
    bot.choose(Observation(game, state, seat))
    return bot.recall(Observation.glance(game, state, seat))


#: settings that keep a searching bot quick where every bot is tried on many states
QUICK = {"mcts": "mcts:iterations=4,rollout=4"}


def quick_bots(game: Game[Any]) -> dict[str, Any]:
    """Every bot of ``game``, a searching one on a small budget."""
    return {name: get_bot(game, QUICK.get(name, name)) for name in bots_for(game)}


def world_text(world: State[Any]) -> str:
    """All that can be observed of a full state, its options included (a bot reads
    them: a secret kept in the options must be invented there too)."""
    seen = {**world.fingerprint(), "options": world.options.model_dump(mode="json")}
    return json.dumps(seen, default=str, sort_keys=True)


def sample_differences(
    game: Game[Any], state: State[Any], twin: State[Any], seat: Seat
) -> list[str]:
    """Where the full states a bot of ``seat`` is handed (its observation's world and
    samples) differ between ``state`` and its secret twin: they must be made from
    what ``seat`` may know only."""
    mine, theirs = Observation(game, state, seat), Observation(game, twin, seat)
    found = []
    if world_text(mine.world()) != world_text(theirs.world()):
        found.append(f"seat {seat}: its observation's world differs")
    glance = Observation.glance(game, state, seat)
    if glance.situation != Observation.glance(game, twin, seat).situation:
        found.append(f"seat {seat}: its situation differs")
    if glance.situation != mine.situation:
        found.append(f"seat {seat}: its situation in the match and in its world differ")
    for k in (1, 2):
        if world_text(mine.determinize(Rng(k))) != world_text(theirs.determinize(Rng(k))):
            found.append(f"seat {seat}: its sample {k} differs")
    return found


def mutate_deeply(value: Any) -> None:
    """Change every list and dict inside ``value`` in place."""
    if isinstance(value, dict):
        for item in list(value.values()):
            mutate_deeply(item)
        for key in list(value):
            value[key] = "edited"
        value["edited-by-a-client"] = True
    elif isinstance(value, list):
        for item in value:
            mutate_deeply(item)
        value.append("edited")


def channel_problems(game: Game[Any], state: State[Any], over: bool) -> list[str]:
    """What breaks the channel rules (``core/channels.py``) in ``state``: a name twice,
    ``all`` not first, a spectator reading anything but ``all`` and ``spectators``, a
    player reading ``spectators`` while the match runs, a team channel whose key another
    side reads too, a private channel its other seat does not have as the same key."""
    found = []
    readers: dict[str, set[Seat | None]] = {}
    for seat in (*state.seats, None):
        mine = game.channels(state, seat, over)
        names = [c.name for c in mine]
        if len(set(names)) != len(names):
            found.append(f"seat {seat}: a channel named twice in {names}")
        if not names or names[0] != "all":
            found.append(f"seat {seat}: 'all' is not its first channel")
        for channel in mine:
            readers.setdefault(channel.key, set()).add(seat)
            other = channel.private_with
            if other is not None:
                theirs = {c.name: c.key for c in game.channels(state, other, over)}
                if seat is None or theirs.get(f"seat:{seat}") != channel.key:
                    found.append(f"seat {seat}: {channel.name} is not {other}'s seat:{seat}")
        if seat is None and set(names) != {"all", "spectators"}:
            found.append(f"spectators read {names}")
        if seat is not None and not over and "spectators" in names:
            found.append(f"seat {seat} reads spectators' talk while the match runs")
    for key, seats in readers.items():
        if key.startswith("team:"):
            sides = {side for side in game.sides(state) if set(side) & seats}
            if len(sides) != 1 or seats != set(next(iter(sides))):
                found.append(f"{key} is read by {sorted(map(str, seats))}, not one side")
        if key.startswith("seat:") and len(seats) != 2:
            found.append(f"{key} is read by {len(seats)} seats")
    return found

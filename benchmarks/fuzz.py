"""The engine fuzzer: hostile actions thrown at seeded random games of every registered
game, counting the refusals that changed anything (must be 0), the hostile actions
accepted (out-of-turn or foreign ones must never be) and the crashes (errors other than
the engine's own; must be 0).

Between two random moves each hostile attempt is one of: a legal action sent by a seat
that is not awaited, an action no game knows, junk or mangled notation through
``act``, a legal action with its fields replaced, and an action rebuilt from mangled
JSON. Not part of the test suite (it takes minutes)::

    .venv/bin/python benchmarks/fuzz.py --actions 100000 --seed 1

Figures (that command, 2-core machine shared with other work, 3 min 53 s of CPU): 100,005
hostile attempts over the six games, 87,410 refused, 0 refusals that changed anything,
0 out-of-turn or foreign actions accepted, 0 crashes. The first run found one crash:
``action_from_json`` with a list as the action's type (a TypeError, now refused).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from gladiatorium.core import Action, Game, GladiatoriumError, Observation, State, games
from gladiatorium.core.match import make_bots
from gladiatorium.games import load

#: hostile attempts between two random moves
ATTEMPTS_PER_STATE = 4
JUNK = ["", " ", "[/]", "A²", "K1٣ fwd 1", "x" * 500, "9" * 5000, "hit", "guess =", "close",
        "move 7 with 7", "fire A1 at", "\x00", "quit", "e4-e5", "legal", "None", "-1"]  # fmt: skip


@dataclass(frozen=True)
class Foreign(Action):
    """An action no game knows."""

    type_name: ClassVar[str] = "foreign-action"


def frozen(state: State[Any]) -> str:
    return json.dumps(state.fingerprint(), default=str, sort_keys=True)


def mangle_text(rng: random.Random, text: str) -> str:
    """Junk, or a legal notation with a character changed, added or dropped."""
    if rng.random() < 0.3 or not text:
        return rng.choice(JUNK)
    at = rng.randrange(len(text))
    pick = rng.choice(["²", "0", "9", " ", ",", "=", "[", text[at].upper(), ""])
    return text[:at] + pick + text[at + rng.randint(0, 1) :]


def mangle_value(rng: random.Random, value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice([-1, 0, value + 1, 10**9, -(10**9)])
    if isinstance(value, str):
        return mangle_text(rng, value)
    if isinstance(value, tuple):
        return tuple(mangle_value(rng, v) for v in value) + rng.choice([(), ("x",)])
    return value


def mangle_action(rng: random.Random, action: Action) -> Action:
    fields = dataclasses.fields(action)
    if not fields:
        return Foreign()
    name = rng.choice(fields).name
    return dataclasses.replace(action, **{name: mangle_value(rng, getattr(action, name))})


def mangle_json(rng: random.Random, game: Game[Any], action: Action) -> Action:
    data = action.to_json()
    key = rng.choice(list(data))
    data[key] = rng.choice([mangle_value(rng, data[key]), None, [], {}, 10**40, "٣"])
    return game.action_from_json(data)


@dataclass
class Tally:
    attempts: int = 0
    refused: int = 0
    changed: int = 0
    accepted_illegal: int = 0
    crashes: int = 0
    examples: list[str] = dataclasses.field(default_factory=list)

    def note(self, text: str) -> None:
        if len(self.examples) < 5:
            self.examples.append(text)


def attempt(
    rng: random.Random, game: Game[Any], state: State[Any], tally: Tally, before: str
) -> bool:
    """One hostile attempt; True when it was accepted (the state moved on)."""
    awaited = state.awaiting()
    seat = rng.choice(awaited)
    legal = list(state.legal_actions(seat))
    idle = [s for s in state.seats if s not in awaited]
    kind = rng.choice(["out-of-turn", "foreign", "text", "fields", "json"])
    sample = rng.choice(legal)
    tries: dict[str, Callable[[], object]] = {
        "out-of-turn": lambda: state.apply(rng.choice(idle), sample) if idle else None,
        "foreign": lambda: state.apply(seat, Foreign()),
        "text": lambda: state.act(seat, mangle_text(rng, str(sample))),
        "fields": lambda: state.apply(seat, mangle_action(rng, sample)),
        "json": lambda: state.apply(seat, mangle_json(rng, game, sample)),
    }
    tally.attempts += 1
    length = len(state.history)
    try:
        tries[kind]()
    except GladiatoriumError:
        tally.refused += 1
        if frozen(state) != before:
            tally.changed += 1
            tally.note(f"{kind}: a refusal changed the state")
        return False
    except Exception as err:
        tally.crashes += 1
        tally.note(f"{kind}: {type(err).__name__}: {err}"[:200])
        return True
    if len(state.history) == length:
        return False  # out-of-turn with no idle seat: nothing was tried
    if kind in ("out-of-turn", "foreign"):
        tally.accepted_illegal += 1
        tally.note(f"{kind} accepted")
    return True


def fuzz_game(game: Game[Any], budget: int, seed: int, tally: Tally) -> None:
    """Seeded random games of ``game`` with hostile attempts until ``budget`` is spent."""
    rng = random.Random(seed)
    match = 0
    while tally.attempts < budget:
        match += 1
        state = game.start(None, None, seed * 1000 + match)
        bots = make_bots(game, seed, dict.fromkeys(state.seats, "random"))
        while not state.is_over and tally.attempts < budget:
            before = frozen(state)
            for _ in range(ATTEMPTS_PER_STATE):
                if attempt(rng, game, state, tally, before):
                    break
            if state.is_over:
                break
            mover = state.awaiting()[0]
            state.apply(mover, bots[mover].choose(Observation.of(state, mover)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=100_000, help="hostile attempts in all")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    load()
    listed = games()
    totals: Counter[str] = Counter()
    print(f"{'game':22} {'attempts':>8} {'refused':>8} {'changed':>8} {'accepted':>8} "
          f"{'crashes':>8} {'seconds':>8}")  # fmt: skip
    for game in listed:
        tally, started = Tally(), time.perf_counter()
        fuzz_game(game, args.actions // len(listed), args.seed, tally)
        took = time.perf_counter() - started
        print(f"{game.info.slug:22} {tally.attempts:8} {tally.refused:8} {tally.changed:8} "
              f"{tally.accepted_illegal:8} {tally.crashes:8} {took:8.1f}")  # fmt: skip
        for example in tally.examples:
            print(f"    {example}")
        totals.update(dataclasses.asdict(tally) | {"examples": 0})
    print(f"{'all':22} {totals['attempts']:8} {totals['refused']:8} {totals['changed']:8} "
          f"{totals['accepted_illegal']:8} {totals['crashes']:8}")  # fmt: skip


if __name__ == "__main__":
    main()

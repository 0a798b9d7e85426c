"""The best possible win rate against ``random`` in two-player Pig, exactly.

``random`` rolls when it has no points this turn (holding is not legal then) and
otherwise rolls or holds, a half each. Against it, the win chance of the best policy
is the value of a Markov decision process over (my banked, its banked, turn total,
whose turn), solved here exactly (to rounding) rather than by sweeping value iteration
until it settles:

- Banked points only grow, so the pairs (mine, its) are solved from the highest down:
  a hold leads to a pair already solved.
- Within a pair the only loop is a bust, back to the start of a turn with the same
  banked points. So everything in the pair is a line in ``y``, the value at the start
  of its turn: my turn's start ``x = c*y + d`` (for the policy of the moment) and its
  turn's start ``y = alpha*x + beta`` (its policy is fixed), solved as two equations.
  The policy is then made greedy at the new ``y`` and the pair solved again until it
  no longer changes (policy iteration: a handful of rounds).
- A turn total that reaches the target is a win on holding (for me: value 1; for
  ``random``: it holds with chance a half each roll, so the value is ``x / (sides+1)``).

The anchor is the classic rule "hold at 20" (or ``--hold-at N``), worked out the same
way in the same run. ``--play N`` checks the figures on the engine: N games of the best
policy against the ``random`` bot, seats alternating, with a 95% Wilson interval.

    .venv/bin/python benchmarks/pig_optimum.py [--target 30] [--sides 6] [--play 2000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass

#: a policy: hold with (my banked, its banked, turn total)? None: the best one
Policy = Callable[[int, int, int], bool]
#: a value that is a line in y: (slope, constant)
Line = tuple[float, float]

#: policy-iteration rounds per pair before giving up (two or three are needed)
MAX_ROUNDS = 100


@dataclass(frozen=True)
class Optimum:
    """Win chances against ``random``: moving first, second, and their average; and
    the policy that achieves them (``hold[(mine, its)]``: the turn totals to hold at)."""

    first: float
    second: float
    hold: dict[tuple[int, int], frozenset[int]]

    @property
    def average(self) -> float:
        return (self.first + self.second) / 2


def solve(target: int = 30, sides: int = 6, policy: Policy | None = None) -> Optimum:
    """Win chances of ``policy`` (None: the best policy) against ``random``."""
    if target < 1 or sides < 2:
        raise ValueError(f"target must be >= 1 and sides >= 2 (got {target}, {sides})")
    mine_start: dict[tuple[int, int], float] = {}
    its_start: dict[tuple[int, int], float] = {}
    hold: dict[tuple[int, int], frozenset[int]] = {}
    for a in reversed(range(target)):
        for b in reversed(range(target)):
            x, y, holds = _solve_pair(a, b, target, sides, policy, mine_start, its_start)
            mine_start[a, b], its_start[a, b], hold[a, b] = x, y, holds
    return Optimum(mine_start[0, 0], its_start[0, 0], hold)


def _solve_pair(
    a: int,
    b: int,
    target: int,
    sides: int,
    policy: Policy | None,
    mine_start: dict[tuple[int, int], float],
    its_start: dict[tuple[int, int], float],
) -> tuple[float, float, frozenset[int]]:
    alpha, beta = _its_turn(a, b, target, sides, mine_start)
    y = beta
    holds: frozenset[int] | None = None
    for _ in range(MAX_ROUNDS):
        (c, d), chosen = _my_turn(a, b, target, sides, y, policy, its_start)
        x = (c * beta + d) / (1 - c * alpha)
        y = alpha * x + beta
        if chosen == holds:
            return x, y, chosen
        holds = chosen
    raise RuntimeError(f"no stable policy at banked {a}-{b} after {MAX_ROUNDS} rounds")


def _my_turn(
    a: int,
    b: int,
    target: int,
    sides: int,
    y: float,
    policy: Policy | None,
    its_start: dict[tuple[int, int], float],
) -> tuple[Line, frozenset[int]]:
    """My turn at banked (a, b), as lines in y (the value of its turn's start after a
    bust), for turn totals from the highest down: returns the line at total 0 and the
    totals held at (greedy at ``y`` when no policy is given)."""
    win: Line = (0.0, 1.0)
    line: dict[int, Line] = {}
    holds: set[int] = set()
    for t in reversed(range(target - a)):
        after = [line[t + f] if a + t + f < target else win for f in range(2, sides + 1)]
        roll = ((1 + sum(c for c, _ in after)) / sides, sum(d for _, d in after) / sides)
        if t == 0:
            line[t] = roll
            continue
        banked: Line = (0.0, its_start[a + t, b])
        keep = policy(a, b, t) if policy else _value(banked, y) > _value(roll, y)
        line[t] = banked if keep else roll
        if keep:
            holds.add(t)
    return line[0], frozenset(holds)


def _its_turn(
    a: int, b: int, target: int, sides: int, mine_start: dict[tuple[int, int], float]
) -> Line:
    """``random``'s turn at banked (a, b), as lines in x (the value of my turn's start
    after its bust): returns the line at turn total 0."""
    reached: Line = (1 / (sides + 1), 0.0)  # it holds (and wins) a half each roll
    line: dict[int, Line] = {}
    for t in reversed(range(target - b)):
        after = [line[t + f] if b + t + f < target else reached for f in range(2, sides + 1)]
        roll = ((1 + sum(c for c, _ in after)) / sides, sum(d for _, d in after) / sides)
        if t == 0:
            line[t] = roll
        else:
            line[t] = (roll[0] / 2, (roll[1] + mine_start[a, b + t]) / 2)
    return line[0]


def _value(line: Line, y: float) -> float:
    return line[0] * y + line[1]


def hold_at(points: int) -> Policy:
    """The classic rule: hold once the turn's points reach ``points`` (or the target)."""
    return lambda a, b, t: t >= points


def play(optimum: Optimum, target: int, sides: int, games: int) -> float:
    """The best policy against the ``random`` bot on the engine: its share of wins."""
    from gladiatorium.core import derive_seed, get_game
    from gladiatorium.core.match import make_bots
    from gladiatorium.core.observation import Observation
    from gladiatorium.games import load
    from gladiatorium.games.pig.game import Hold, PigState, Roll

    load()
    game = get_game("pig")
    wins = 0
    for index in range(games):
        seed = derive_seed("pig-optimum", index)
        state = game.start({"target": target, "sides": sides}, 2, seed)
        assert isinstance(state, PigState)
        me, it = ("1", "2") if index % 2 == 0 else ("2", "1")
        bot = make_bots(game, seed, {it: "random"})[it]
        while not state.is_over:
            seat = state.to_move
            if seat == it:
                state.apply(seat, bot.choose(Observation(game, state, seat)))
                continue
            banked = state.banked[me]
            keep = state.turn_total in optimum.hold[banked, state.banked[it]]
            state.apply(seat, Hold() if keep or banked + state.turn_total >= target else Roll())
        outcome = state.outcome()
        wins += outcome is not None and me in outcome.winners
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", type=int, default=30)
    parser.add_argument("--sides", type=int, default=6)
    parser.add_argument("--hold-at", type=int, default=20, help="the anchor's rule")
    parser.add_argument("--play", type=int, default=0, help="games on the engine")
    args = parser.parse_args()
    started = time.perf_counter()
    anchor = solve(args.target, args.sides, hold_at(args.hold_at))
    anchor_s = time.perf_counter() - started
    started = time.perf_counter()
    best = solve(args.target, args.sides)
    best_s = time.perf_counter() - started
    print(f"Pig to {args.target}, a d{args.sides}, against random: win chance")
    print("| policy | first | second | average | seconds | ratio |")
    print("|---|---|---|---|---|---|")
    for name, result, seconds in (
        (f"hold at {args.hold_at}", anchor, anchor_s),
        ("best", best, best_s),
    ):
        print(
            f"| {name} | {result.first:.12f} | {result.second:.12f} | {result.average:.12f} "
            f"| {seconds:.2f} | {seconds / anchor_s:.1f} |"
        )
    if args.play:
        from gladiatorium.core.batches import wilson_interval

        share = play(best, args.target, args.sides, args.play)
        low, high = wilson_interval(round(share * args.play), args.play)
        print(f"best on the engine, {args.play} games: {share:.1%} [{low:.1%}, {high:.1%}]")


if __name__ == "__main__":
    main()

"""The exact best win rate against ``random`` in Pig (benchmarks/pig_optimum.py), the
figure docs/lab.md sets beside ``mcts``'s: right on targets small enough to work out by
hand, and equal to a plain value iteration on a small target."""

from __future__ import annotations

import pytest

from benchmark_modules import load_benchmark

pig_optimum = load_benchmark("pig_optimum")


def test_target_two_with_a_d6_by_hand() -> None:
    """Any roll but a 1 reaches 2. Me first: x = y/6 + 5/6. Random first: it rolls; a
    1 gives me x; else it holds (wins) or rolls again, a half each, so from a reached
    total it wins unless it busts first: r = (x/6 + 5r/6) / 2, r = x/7; y = x/6 + 5x/42
    = 2x/7. So x = 7/8, y = 1/4, and there is no choice to make."""
    result = pig_optimum.solve(target=2, sides=6)
    assert result.first == pytest.approx(7 / 8, abs=1e-12)
    assert result.second == pytest.approx(1 / 4, abs=1e-12)
    assert result.average == pytest.approx(9 / 16, abs=1e-12)


def test_target_two_with_a_d2_by_hand() -> None:
    """A d2: a 1 busts, a 2 reaches the target. x = y/2 + 1/2; r = (x/2 + r/2) / 2 = x/3;
    y = x/2 + r/2 = 2x/3. So x = 3/4, y = 1/2."""
    result = pig_optimum.solve(target=2, sides=2)
    assert result.first == pytest.approx(3 / 4, abs=1e-12)
    assert result.second == pytest.approx(1 / 2, abs=1e-12)


def plain_value_iteration(target: int, sides: int) -> tuple[float, float]:
    """Every state swept until nothing moves: mine[a, b, t], its[a, b, t], and its
    turn once its total reaches the target, reached[a, b]."""
    mine: dict[tuple[int, int, int], float] = {}
    its: dict[tuple[int, int, int], float] = {}
    reached: dict[tuple[int, int], float] = {}
    pairs = [(a, b) for a in range(target) for b in range(target)]
    for a, b in pairs:
        reached[a, b] = 0.5
        mine.update({(a, b, t): 0.5 for t in range(target - a)})
        its.update({(a, b, t): 0.5 for t in range(target - b)})

    def me_at(a: int, b: int, t: int) -> float:
        return 1.0 if a + t >= target else mine[a, b, t]

    def it_at(a: int, b: int, t: int) -> float:
        return reached[a, b] if b + t >= target else its[a, b, t]

    for _ in range(10_000):
        moved = 0.0
        for a, b in pairs:
            new = {"reached": (mine[a, b, 0] / sides + (sides - 1) / sides * reached[a, b]) / 2}
            for t in range(target - a):
                roll = its[a, b, 0] + sum(me_at(a, b, t + f) for f in range(2, sides + 1))
                roll /= sides
                value = max(roll, its[a + t, b, 0] if a + t < target else 1.0) if t else roll
                moved = max(moved, abs(value - mine[a, b, t]))
                mine[a, b, t] = value
            for t in range(target - b):
                roll = mine[a, b, 0] + sum(it_at(a, b, t + f) for f in range(2, sides + 1))
                roll /= sides
                value = (roll + mine[a, b + t, 0]) / 2 if t else roll
                moved = max(moved, abs(value - its[a, b, t]))
                its[a, b, t] = value
            moved = max(moved, abs(new["reached"] - reached[a, b]))
            reached[a, b] = new["reached"]
        if moved < 1e-15:
            break
    return mine[0, 0, 0], its[0, 0, 0]


@pytest.mark.parametrize(("target", "sides"), [(6, 6), (10, 4)])
def test_the_sweep_equals_a_plain_value_iteration(target: int, sides: int) -> None:
    first, second = plain_value_iteration(target, sides)
    result = pig_optimum.solve(target, sides)
    assert result.first == pytest.approx(first, abs=1e-10)
    assert result.second == pytest.approx(second, abs=1e-10)
    # no fixed rule "hold at k" does better, and holding at once does clearly worse
    rules = [pig_optimum.solve(target, sides, pig_optimum.hold_at(k)) for k in range(1, target)]
    assert all(rule.first <= result.first + 1e-12 for rule in rules)
    assert all(rule.second <= result.second + 1e-12 for rule in rules)
    assert rules[0].average < result.average - 0.01

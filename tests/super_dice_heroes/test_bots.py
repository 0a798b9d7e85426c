"""The bots: legal play, plans that use the rules, and strength order on fixed seeds."""

from __future__ import annotations

import statistics

from sdh_helpers import hero, place, start

from gladiatorium.core import Observation, Rng
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.games.super_dice_heroes import GAME
from gladiatorium.games.super_dice_heroes.bots import GreedyBot, PlannerBot


def solo_scores(bot: str, seeds: range) -> list[float]:
    out = []
    for seed in seeds:
        state = GAME.start(None, 1, seed)
        run_match(state, make_bots(GAME, seed, {"1": bot}))
        outcome = state.outcome()
        assert outcome is not None
        out.append(dict(outcome.scores)["1"])
    return out


def test_planner_first_then_greedy() -> None:
    assert list(GAME.bots())[:2] == ["planner", "greedy"]


def test_planner_spends_a_wild_die_the_moment_it_completes_the_diagonal() -> None:
    """The planner sees that the diagonal's wild die finishes the top row too."""
    state = start(rolls=[(1, 2, 3, 6)])
    place(state, 1)
    hero(state).marks[0] = (0, 3, 2, 0, 0, 0, 0, 0, 0)
    plan = PlannerBot(Rng(1)).plan(hero(state), state.sheet, rounds_left=9)
    texts = [str(a) for a in plan]
    assert {"help 1 at 1", "help 2 at 5", "help 3 at 9"} <= set(texts)
    assert texts[-1] == "done"


def test_planner_beats_greedy_beats_random_on_fixed_seeds() -> None:
    """Bot strength: mean solo honor over the same five games."""
    seeds = range(5)
    planner = statistics.mean(solo_scores("planner", seeds))
    greedy = statistics.mean(solo_scores("greedy", seeds))
    random = statistics.mean(solo_scores("random", seeds))
    assert planner > greedy > random


def test_greedy_takes_the_best_single_spend() -> None:
    """Greedy: from the middle with a 6 and three 1s it goes where it can score."""
    state = start(rolls=[(6, 1, 1, 1)])
    action = GreedyBot(Rng(0)).choose(Observation.of(state, "1"))
    assert str(action).startswith("move")


def test_hero_copy_holds_every_field_and_is_independent() -> None:
    """Planning copies heroes field by field: a copy equals its original and marking
    or spending on it leaves the original untouched."""
    state = start(rolls=[(1, 2, 3, 6)])
    place(state, 1)
    original = hero(state)
    original.marks[0] = (0, 3, 2, 0, 0, 0, 0, 0, 0)
    original.wild_earned, original.bystanders, original.goal_honor = 2, 1, 7
    twin = original.copy()
    assert twin == original
    twin.spend(state.sheet, twin.spend_actions(state.sheet)[0])
    twin.minions[0] += 1
    assert twin != original
    assert original.marks[0] == (0, 3, 2, 0, 0, 0, 0, 0, 0)
    assert original.minions[0] == 0
    assert all(not die.spent for die in original.dice)


def unspent_per_round(bot: str, **options: object) -> list[int]:
    """Dice each round of a solo game of ``bot`` ended with unspent (from the reveals)."""
    state = GAME.start(options, 1, 4)
    run_match(state, make_bots(GAME, 4, {"1": bot}))
    return [len(e.data["unspent"]) for e in state.events if e.kind == "reveal" and e.data["round"]]


def test_r6_the_bots_spend_every_die_and_leave_dice_only_under_the_house_rule() -> None:
    """R6: under the rulebook's rule every round of every bot ends with all four dice
    spent; with may_waste_dice the greedy bot leaves some."""
    for bot in ("planner", "greedy", "random"):
        assert unspent_per_round(bot) == [0] * 10, bot
    assert sum(unspent_per_round("greedy", may_waste_dice=True)) > 0

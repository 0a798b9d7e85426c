"""Bots for Super Dice Heroes.

- ``planner`` (the best): searches every way to spend this round's dice, superpowers
  and wild dice (a depth-first search with a transposition table over the hero's
  sheet), and keeps the plan whose end position has the best *estimated final score*:
  honor banked now plus the expected worth of half-finished goals, of the position,
  of wild dice kept and of superpower uses left, given the rounds that remain.
- ``greedy``: the same estimate, but one spend at a time (no plan for the round).

Players never interact except through the shared roll, so a bot only looks at its own
sheet (all public) and never at the dice to come. It reads its observation's world, in
which the other heroes' choices of the round are invented (``Game.determinize``); the
conformance suite checks that another hero's hidden spend never changes its choice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from gladiatorium.core import Action, BotFactory, Observation, Rng, State
from gladiatorium.games.super_dice_heroes.actions import (
    ChangeDie,
    ChoosePower,
    Defeat,
    Done,
    Help,
    Move,
    Teleport,
    WildDefeat,
    WildHelp,
    WildMove,
)
from gladiatorium.games.super_dice_heroes.hero import (
    FACES,
    MIDDLE,
    Hero,
    SpendAction,
    help_boxes,
)
from gladiatorium.games.super_dice_heroes.sheet import Kind, Location, Sheet

# spend kinds the planner limits per round (tuples: quicker to test than unions)
_MOVES = (Move, WildMove, Teleport)
_POWERS = (ChangeDie, Teleport)
_WILDS = (WildMove, WildHelp, WildDefeat)
_HELPS = (Help, WildHelp)

#: set-up preference between the two rolled superpowers (best first; from the lab)
POWER_PREFERENCE = ("grow", "shrink", "shapeshift", "teleport", "fire", "ice")


@dataclass(frozen=True)
class Weights:
    """The knobs of the final-score estimate (tuned in the lab)."""

    wild_die: float = 2.5  # a wild die kept for later
    power_use: float = 1.2  # a superpower use kept for later
    goal_progress: float = 0.8  # share of a half-finished goal's worth counted now
    position: float = 1.5  # worth of standing where many numbers help next round
    chain_next: float = 0.5  # share of a chain's next box counted, scaled by fit
    wild_in_goal: float = 3.0  # worth of a wild die a goal pays


def goal_worth(sheet: Sheet, honor: int, wild: int, bystander: int, w: Weights) -> float:
    return honor + bystander * sheet.bystander_honor + wild * w.wild_in_goal


class Estimator:
    """Estimated final honor of a hero at the end of this round's spending, with
    ``rounds_left`` rounds still to come. Location terms are cached by their marks."""

    def __init__(self, sheet: Sheet, rounds_left: int, weights: Weights) -> None:
        self.sheet = sheet
        self.rounds_left = rounds_left
        self.w = weights
        self._places: dict[tuple[int, tuple[int, ...]], tuple[float, float]] = {}
        self._terms: dict[tuple[int, tuple[tuple[int, ...], ...]], tuple[float, ...]] = {}

    def __call__(self, hero: Hero) -> float:
        value = float(hero.score(self.sheet))
        if self.rounds_left <= 0:
            return value
        w = self.w
        value += w.wild_die * hero.wild_left + w.power_use * hero.powers_left
        for term in self._sheet_terms(hero):
            value += term
        return value

    def _sheet_terms(self, hero: Hero) -> tuple[float, ...]:
        """The location terms in the order they are added: each location's progress,
        and the position term right after the location the hero stands on (cached by
        the marks of the whole sheet)."""
        key = (hero.location, tuple(hero.marks))
        terms = self._terms.get(key)
        if terms is None:
            out: list[float] = []
            for number in range(1, 7):
                progress, position = self._place(number, hero)
                out.append(progress)
                if number == hero.location:
                    out.append(position)
            terms = self._terms[key] = tuple(out)
        return terms

    def _place(self, number: int, hero: Hero) -> tuple[float, float]:
        marks = hero.marks[number - 1]
        key = (number, marks)
        found = self._places.get(key)
        if found is None:
            loc = self.sheet.location(number)
            done = hero.goals_done[number - 1]
            time = min(1.0, self.rounds_left / 3.0)
            useful = sum(1 for face in FACES if help_boxes(loc, marks, face))
            found = (
                time * _progress(self.sheet, loc, marks, done, self.rounds_left, self.w),
                self.w.position * useful / 6,
            )
            self._places[key] = found
        return found


def estimate(hero: Hero, sheet: Sheet, rounds_left: int, w: Weights) -> float:
    """Estimated final honor (see :class:`Estimator`)."""
    return Estimator(sheet, rounds_left, w)(hero)


def _progress(
    sheet: Sheet,
    loc: Location,
    marks: tuple[int, ...],
    done: tuple[bool, ...],
    rounds_left: int,
    w: Weights,
) -> float:
    """Expected worth of the unfinished goals a location has started."""
    if loc.kind in (Kind.GRID, Kind.PAIRS):
        total = 0.0
        for goal, ok in zip(loc.goals, done, strict=True):
            if ok:
                continue
            filled = sum(1 for b in goal.boxes if marks[b])
            if not filled:
                continue
            size = len(goal.boxes)
            reach = min(1.0, rounds_left * 1.5 / (size - filled))
            share = (filled / size) ** 1.5
            total += goal_worth(sheet, goal.honor, goal.wild, goal.bystander, w) * share * reach
        return w.goal_progress * total
    filled = next((i for i, m in enumerate(marks) if not m), len(marks))
    if filled == 0 or filled == len(marks):
        return 0.0
    fit = sum(1 for face in FACES if help_boxes(loc, marks, face)) / 6
    nxt = [g for g in loc.goals if filled in g.boxes]
    worth = sum(goal_worth(sheet, g.honor, g.wild, g.bystander, w) for g in nxt)
    return w.chain_next * fit * worth * 2


class _Step(NamedTuple):
    """A spend the planner searches, with what it leaves: the die a superpower just
    changed (it must be spent next; 0 if none) and whether it was a move (1 or 0)."""

    action: SpendAction
    pending: int
    move: int


#: a plan as the search builds it: the first action and the rest (None: nothing)
_Plan = tuple[Action, "_Plan"] | None


def _signature(hero: Hero) -> tuple[Any, ...]:
    return (
        hero.location,
        tuple(hero.marks),
        tuple(sorted(hero.dice))
        if hero.power == "shapeshift"
        else tuple(sorted(d.value for d in hero.dice if not d.spent)),
        hero.powers_left,
        hero.wild_spent,
        tuple(hero.minions),
    )


def _setup_choice(hero: Hero) -> Action:
    ranked = sorted(hero.choices, key=POWER_PREFERENCE.index)
    return ChoosePower(ranked[0])


def _must_spend(state: State[Any]) -> bool:
    """The rules make a hero spend every die of the round (R6, the default)."""
    return not state.options.may_waste_dice


def _best_spend(hero: Hero, sheet: Sheet, left: int, w: Weights, stop: bool) -> Action:
    """The single spend whose result estimates best; ``done`` too when ``stop``."""
    best: tuple[float, Action] = (estimate(hero, sheet, left, w) if stop else -1e18, Done())
    for action in hero.spend_actions(sheet):
        nxt = hero.copy()
        nxt.spend(sheet, action)
        value = estimate(nxt, sheet, left, w)
        if value > best[0] + 1e-9:
            best = (value, action)
    return best[1]


def _rounds_left(state: State[Any]) -> int:
    return int(state.options.rounds) - int(state.round)  # type: ignore[attr-defined]


class PlannerBot:
    """Plans the whole round's spend for the best estimated final score."""

    def __init__(
        self,
        rng: Rng,
        weights: Weights | None = None,
        node_limit: int = 20000,
        max_moves: int = 2,
        max_powers: int = 1,
        max_wild: int = 2,
    ) -> None:
        self.rng = rng
        self.weights = weights or Weights()
        self.node_limit = node_limit
        self.max_moves = max_moves
        self.max_powers = max_powers
        self.max_wild = max_wild
        self._plan: list[Action] = []
        self._expect: tuple[Any, ...] | None = None

    def choose(self, observation: Observation) -> Action:
        state, seat = observation.world(), observation.seat
        hero: Hero = state.heroes[seat]  # type: ignore[attr-defined]
        sheet: Sheet = state.sheet  # type: ignore[attr-defined]
        if hero.power is None:
            return _setup_choice(hero)
        sig = (state.round, _signature(hero))  # type: ignore[attr-defined]
        if not self._plan or sig != self._expect:
            self._plan = self.plan(hero, sheet, _rounds_left(state), _must_spend(state))
        action = self._plan.pop(0)
        if isinstance(action, Done) and state.illegal_reason(seat, action) is not None:
            # the search stopped at its node limit with dice left: one good spend
            action = _best_spend(hero, sheet, _rounds_left(state), self.weights, stop=False)
        if isinstance(action, SpendAction):
            after = hero.copy()
            after.spend(sheet, action)
            self._expect = (state.round, _signature(after))  # type: ignore[attr-defined]
        else:
            self._plan, self._expect = [], None
        return action

    def plan(
        self, hero: Hero, sheet: Sheet, rounds_left: int, must_spend: bool = True
    ) -> list[Action]:
        """The best sequence of spends for this round, ending with ``done``.

        A superpower that changes a die is searched only together with a spend of
        that die right after it (changing a die earlier never helps). To stay quick
        with a hundred heroes, a plan moves at most ``max_moves`` times and uses at
        most ``max_powers`` superpowers and ``max_wild`` wild dice per round; when
        every die must be spent (``must_spend``, R6) and those limits leave a die with
        no spend, any move or minion it can pay for is searched too."""
        memo: dict[tuple[Any, ...], tuple[float, _Plan]] = {}
        estimate_of = Estimator(sheet, rounds_left, self.weights)
        estimates: dict[tuple[Any, ...], float] = {}
        candidates: dict[tuple[Any, ...], tuple[_Step, ...]] = {}
        powers0, wild0 = hero.powers_left, hero.wild_spent
        done: _Plan = (Done(), None)

        def estimate_at(h: Hero, sig: tuple[Any, ...]) -> float:
            """The estimate, shared by positions that differ only in their dice."""
            key = (sig[0], sig[1], *sig[3:])
            value = estimates.get(key)
            if value is None:
                value = estimates[key] = estimate_of(h)
            return value

        def steps_at(h: Hero, sig: tuple[Any, ...], pending: int, moves: int) -> tuple[_Step, ...]:
            """The candidates, shared by positions alike where the hero stands."""
            key = self._candidates_key(h, sig, sheet, pending, moves, powers0, wild0)
            found = candidates.get(key)
            if found is None:
                found = candidates[key] = tuple(
                    _Step(
                        action,
                        action.to if isinstance(action, ChangeDie) else 0,
                        int(isinstance(action, _MOVES)),
                    )
                    for action in self._candidates(h, sheet, pending, moves, powers0, wild0)
                )
            return found

        def search(h: Hero, pending: int, moves: int) -> tuple[float, _Plan]:
            sig = _signature(h)
            key = (pending, moves, *sig)
            found = memo.get(key)
            if found is not None:
                return found
            stop = not pending and not (must_spend and any(not d.spent for d in h.dice))
            best: tuple[float, _Plan] = (estimate_at(h, sig), done) if stop else (-1e9, None)
            if len(memo) < self.node_limit:
                steps = steps_at(h, sig, pending, moves)
                if not steps and not stop:
                    steps = self._last_resort(h, sheet, pending)
                for action, pending_after, move in steps:
                    nxt = h.copy()
                    nxt.spend(sheet, action)
                    value, rest = search(nxt, pending_after, moves + move)
                    if value > best[0] + 1e-9:
                        best = (value, (action, rest))
            elif not pending:
                best = (estimate_at(h, sig), done)  # past the limit: choose() finishes
            memo[key] = best
            return best

        plan: list[Action] = []
        node = search(hero.copy(), 0, 0)[1]
        while node is not None:
            action, node = node
            plan.append(action)
        return plan

    @staticmethod
    def _last_resort(h: Hero, sheet: Sheet, pending: int) -> tuple[_Step, ...]:
        """Every move and minion the unspent dice (or the die just changed) pay for."""
        return tuple(
            _Step(action, 0, int(isinstance(action, Move)))
            for action in h.spend_actions(sheet)
            if isinstance(action, Move | Defeat) and (not pending or action.die == pending)
        )

    def _candidates_key(
        self,
        h: Hero,
        sig: tuple[Any, ...],
        sheet: Sheet,
        pending: int,
        moves: int,
        powers0: int,
        wild0: int,
    ) -> tuple[Any, ...]:
        """Everything :meth:`_candidates` reads: the limits left, the dice (from the
        signature ``sig``: their numbers; all of them for shapeshift, which reads the
        rolled numbers too), what is left to spend, and the marks and minions where
        the hero stands."""
        here = h.location
        return (
            pending,
            moves < self.max_moves,
            powers0 - h.powers_left < self.max_powers,
            h.wild_spent - wild0 < self.max_wild,
            bool(h.wild_left),
            bool(h.powers_left),
            here,
            h.marks[here - 1] if here != MIDDLE else (),
            h._minion_left(sheet),
            sig[2],
        )

    def _candidates(
        self, h: Hero, sheet: Sheet, pending: int, moves: int, powers0: int, wild0: int
    ) -> list[SpendAction]:
        """The spends worth searching: within the per-round limits, one of several
        empty pairs that pay alike, and a minion only with a die that cannot help."""
        out: list[SpendAction] = []
        can_move = moves < self.max_moves
        can_power = powers0 - h.powers_left < self.max_powers
        can_wild = h.wild_spent - wild0 < self.max_wild
        actions = h.spend_actions(sheet)
        helpful = {a.die for a in actions if isinstance(a, Help)}
        loc = sheet.location(h.location) if h.location != MIDDLE else None
        pair_start: int | None = None  # the empty pair to start, worked out once
        for action in actions:
            if pending and (getattr(action, "die", 0) != pending or isinstance(action, WildHelp)):
                continue
            if isinstance(action, _MOVES) and not can_move:
                continue
            if isinstance(action, _POWERS) and not can_power:
                continue
            if isinstance(action, _WILDS) and not can_wild:
                continue
            if isinstance(action, Defeat) and action.die in helpful and action.die != pending:
                continue
            if isinstance(action, _HELPS) and loc is not None and loc.kind is Kind.PAIRS:
                marks = h.marks[loc.number - 1]
                box = action.box - 1
                if not marks[box] and not marks[box ^ 1]:
                    if pair_start is None:
                        pair_start = self._pair_to_start(sheet, loc, marks)
                    if box != pair_start:
                        continue
            out.append(action)
        return out

    def _pair_to_start(self, sheet: Sheet, loc: Location, marks: tuple[int, ...]) -> int:
        """The empty pair a plan starts: the one that pays most (first box)."""
        best, worth = -1, -1.0
        for first in range(0, len(marks), 2):
            if marks[first]:
                continue
            value = sum(
                goal_worth(sheet, g.honor, g.wild, g.bystander, self.weights)
                for g in loc.goals
                if first in g.boxes
            )
            if value > worth:
                best, worth = first, value
        return best


class GreedyBot:
    """One spend at a time: the spend whose result estimates best, or done."""

    def __init__(self, rng: Rng, weights: Weights | None = None) -> None:
        self.rng = rng
        self.weights = weights or Weights()

    def choose(self, observation: Observation) -> Action:
        state, seat = observation.world(), observation.seat
        hero: Hero = state.heroes[seat]  # type: ignore[attr-defined]
        sheet: Sheet = state.sheet  # type: ignore[attr-defined]
        if hero.power is None:
            return _setup_choice(hero)
        stop = not _must_spend(state) or not hero.can_spend_a_die()
        return _best_spend(hero, sheet, _rounds_left(state), self.weights, stop)


BOTS: Mapping[str, BotFactory] = {
    "planner": PlannerBot,
    "greedy": GreedyBot,
}

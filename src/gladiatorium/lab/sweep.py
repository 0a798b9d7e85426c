"""Rule-option sweeps: how each combination of option values moves first-player
advantage, game length and the draw rate, each with a 95% interval.

Every combination plays the same seeds (game ``g`` of each uses the seed derived from
the run seed and ``g``), so two combinations differ by their rules, not by luck of
the draw until play itself diverges.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gladiatorium.core import (
    Game,
    OptionsError,
    Seat,
    best_bot,
    derive_seed,
    get_bot,
    get_game,
)
from gladiatorium.core.jobs import GameResult, Job, ResultsFile, Runner, run_jobs
from gladiatorium.core.stats import mean_interval, wilson_interval


def option_values(key: str, text: str) -> list[Any]:
    """``v1,v2,...`` of ``--option KEY=v1,v2``: a JSON list when it reads as one
    (``1,2``, ``true,false``, ``"a,b","c"``), else the texts between commas."""
    try:
        values = json.loads(f"[{text}]")
    except (ValueError, RecursionError):
        values = [part.strip() for part in text.split(",")]
    if not isinstance(values, list) or not values:
        raise OptionsError(f"--option {key}={text}: give one value or more, comma-separated")
    return values


def shown(value: Any) -> str:
    """An option value as typed: text bare, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value)


def check_option(game: Game[Any], key: str) -> None:
    fields = game.options_type.model_fields
    if key not in fields:
        known = ", ".join(sorted(fields))
        raise OptionsError(f"--option {key}: {game.info.slug} has no such option; it has {known}")


@dataclass(frozen=True)
class Combination:
    """One set of option values of the sweep, with the game's full options for it."""

    values: tuple[tuple[str, Any], ...]  # the swept options only
    options: Mapping[str, Any]  # JSON form, every option filled in
    players: int
    sides: tuple[tuple[Seat, ...], ...]
    bots: Mapping[Seat, str]

    @property
    def label(self) -> str:
        return " ".join(f"{k}={shown(v)}" for k, v in self.values) or "defaults"


@dataclass(frozen=True)
class Sweep:
    game: str
    axes: tuple[tuple[str, tuple[Any, ...]], ...]
    base: Mapping[str, Any]
    bots: tuple[str, ...]
    players: int | None
    games: int  # per combination
    seed: int
    combinations: tuple[Combination, ...]

    @classmethod
    def plan(
        cls,
        game_slug: str,
        axes: Mapping[str, Sequence[Any]],
        bots: Sequence[str],
        games: int,
        seed: int = 0,
        base: Mapping[str, Any] | None = None,
        players: int | None = None,
    ) -> Sweep:
        """Every combination checked by the game's own options before any game: an
        unknown option or a bad value is refused naming it."""
        game = get_game(game_slug)
        if not bots:
            raise OptionsError("--bots: name one bot or more")
        for name in bots:
            get_bot(game, name)
        for key in [*axes, *(base or {})]:
            check_option(game, key)
        fixed = dict(base or {})
        grid = tuple((k, tuple(v)) for k, v in axes.items())
        combos = []
        for chosen in itertools.product(*(values for _, values in grid)):
            swept = tuple(zip((k for k, _ in grid), chosen, strict=True))
            combos.append(combination(game, {**fixed, **dict(swept)}, swept, bots, players))
        slug = game.info.slug
        return cls(slug, grid, fixed, tuple(bots), players, games, seed, tuple(combos))

    def jobs(self) -> list[Job]:
        return [
            Job(
                index=n * self.games + g,
                game=self.game,
                options=combo.options,
                players=combo.players,
                seed=derive_seed(self.seed, g),
                bots=combo.bots,
            )
            for n, combo in enumerate(self.combinations)
            for g in range(self.games)
        ]

    def run_params(self) -> dict[str, Any]:
        """What a results file of this sweep must match to be resumed."""
        return {
            "command": "sweep",
            "game": self.game,
            "axes": [[k, list(v)] for k, v in self.axes],
            "base": dict(self.base),
            "bots": list(self.bots),
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
        }


def combination(
    game: Game[Any],
    values: Mapping[str, Any],
    swept: tuple[tuple[str, Any], ...],
    bots: Sequence[str],
    players: int | None,
) -> Combination:
    """The options of one combination, checked by starting a game with them; the bots
    take the sides in turn (a seat in no side, Hero Battle's moderator, gets the game's
    best bot)."""
    where = " ".join(f"{k}={shown(v)}" for k, v in swept)
    try:
        state = game.start(values, players, 0)
    except OptionsError as err:
        raise OptionsError(f"--option {where}: {err}") from err
    sides = game.sides(state)
    seating = {seat: best_bot(game) for seat in state.seats}
    for n, side in enumerate(sides):
        seating.update({seat: bots[n % len(bots)] for seat in side})
    options = state.options.model_dump(mode="json")
    return Combination(swept, options, state.players, sides, seating)


@dataclass(frozen=True)
class Figures:
    """What one combination's games say, each with its 95% interval."""

    games: int
    decisive: int
    first_side_wins: int
    draws: int
    length: tuple[float, float, float]  # mean actions, low, high
    rounds: tuple[float, float, float] | None

    @property
    def first_share(self) -> tuple[float, float, float]:
        """The first side's share of the games someone won (fair: 1 / sides)."""
        share = self.first_side_wins / self.decisive if self.decisive else 0.0
        return (share, *wilson_interval(self.first_side_wins, self.decisive))

    @property
    def draw_rate(self) -> tuple[float, float, float]:
        return (self.draws / self.games, *wilson_interval(self.draws, self.games))

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "decisive": self.decisive,
            "first_side_share": list(self.first_share),
            "draw_rate": list(self.draw_rate),
            "mean_actions": list(self.length),
            "mean_rounds": None if self.rounds is None else list(self.rounds),
        }


def figures(combo: Combination, results: Sequence[GameResult]) -> Figures:
    first = set(combo.sides[0])
    decisive = [r for r in results if r.winners]
    rounds = [r.rounds for r in results if r.rounds is not None]
    return Figures(
        games=len(results),
        decisive=len(decisive),
        first_side_wins=sum(1 for r in decisive if first & set(r.winners)),
        draws=sum(1 for r in results if r.draw),
        length=mean_interval([float(r.length) for r in results]),
        rounds=mean_interval([float(x) for x in rounds]) if len(rounds) == len(results) else None,
    )


@dataclass(frozen=True)
class SweepResult:
    sweep: Sweep
    rows: list[tuple[Combination, Figures]]

    def to_json(self) -> dict[str, Any]:
        s = self.sweep
        return {
            "game": s.game,
            "bots": list(s.bots),
            "games_per_combination": s.games,
            "seed": s.seed,
            "combinations": [
                {
                    "options": dict(combo.values),
                    "label": combo.label,
                    "sides": len(combo.sides),
                    "fair_first_side_share": 1 / len(combo.sides),
                    **f.to_json(),
                }
                for combo, f in self.rows
            ],
        }


def run_sweep(
    sweep: Sweep,
    runner: Runner | None = None,
    results: ResultsFile | None = None,
    on_done: Callable[[GameResult], None] | None = None,
) -> SweepResult:
    played = run_jobs(sweep.jobs(), runner, results, on_done)
    n = sweep.games
    rows = [
        (combo, figures(combo, played[i * n : (i + 1) * n]))
        for i, combo in enumerate(sweep.combinations)
    ]
    return SweepResult(sweep, rows)

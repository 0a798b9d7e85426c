"""Bot-vs-bot batches of one game, deterministic by seed, run by :mod:`gladiatorium.core.jobs`
(``simulate``, ``duel``, the lab and a game's own reports play them); many batches at once
on one runner (:func:`run_batches`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from gladiatorium.core import Seat, derive_seed
from gladiatorium.core.jobs import GameResult, Job, ResultsFile, Runner, run_jobs
from gladiatorium.core.stats import wilson_interval

__all__ = [
    "Batch",
    "GameResult",
    "Summary",
    "jobs_of",
    "run_batch",
    "run_batches",
    "wilson_interval",
]


@dataclass(frozen=True)
class Batch:
    """What to simulate: one game, fixed options, a bot per seat."""

    game: str
    options: Mapping[str, Any]
    players: int
    seed: int
    bots: Mapping[Seat, str]
    position: str | None = None  # a written position every game starts from


@dataclass
class Summary:
    games: int = 0
    draws: int = 0
    all_lost: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    team_wins: Counter[str] = field(default_factory=Counter)
    total_length: int = 0

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.total_length += result.length
        if result.all_lost:
            self.all_lost += 1
        elif not result.winners:
            self.draws += 1
        self.wins.update(result.winners)
        if result.team is not None:
            self.team_wins[result.team] += 1

    @property
    def mean_length(self) -> float:
        return self.total_length / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": dict(sorted(self.wins.items())),
            "team_wins": dict(sorted(self.team_wins.items())),
            "draws": self.draws,
            "all_lost": self.all_lost,
            "mean_length": self.mean_length,
        }


def jobs_of(batch: Batch, games: int, keep_records: bool = False) -> list[Job]:
    """The batch as ``games`` jobs; game ``i``'s seed is derived from the batch seed and
    ``i``, so a game's result does not depend on how many are played or where."""
    return [
        Job(
            index=i,
            game=batch.game,
            options=batch.options,
            players=batch.players,
            seed=derive_seed(batch.seed, i),
            bots=batch.bots,
            position=batch.position,
            keep_record=keep_records,
        )
        for i in range(games)
    ]


def run_batch(
    batch: Batch,
    games: int,
    jobs: int = 1,
    keep_records: bool = False,
    on_result: Callable[[GameResult], None] | None = None,
    runner: Runner | None = None,
    results: ResultsFile | None = None,
) -> Summary:
    """Play ``games`` games on ``runner`` (default: ``jobs`` local processes); the
    summary is the same whatever runs them. ``on_result`` hears of each game as it
    finishes; with ``results``, finished games are kept there and skipped on a rerun."""
    summary = Summary()
    runner = runner or Runner("local", jobs)
    for result in run_jobs(jobs_of(batch, games, keep_records), runner, results, on_result):
        summary.add(result)
    return summary


def batch_run(batch: Batch) -> dict[str, Any]:
    """What a results file of this batch must match to be resumed."""
    return {
        "command": "simulate",
        "game": batch.game,
        "options": dict(batch.options),
        "players": batch.players,
        "seed": batch.seed,
        "bots": dict(batch.bots),
        "position": batch.position,
    }


def run_batches(
    batches: Sequence[Batch],
    games: int,
    jobs: int = 1,
    on_result: Callable[[int, GameResult], None] | None = None,
    runner: Runner | None = None,
) -> list[Summary]:
    """Play ``games`` games of every batch; a summary per batch, in order. Game *i* of a
    batch is played from a seed derived from the batch's seed and *i*, so the figures are
    the same whatever runs them (``runner``, default ``jobs`` local processes).
    ``on_result(batch index, result)`` is told of each game as it finishes."""
    work = [
        replace(job, index=which * games + job.index)
        for which, batch in enumerate(batches)
        for job in jobs_of(batch, games)
    ]

    def each(result: GameResult) -> None:
        if on_result is not None:
            on_result(result.index // games, result)

    summaries = [Summary() for _ in batches]
    for result in run_jobs(work, runner or Runner("local", jobs), on_done=each):
        summaries[result.index // games].add(result)
    return summaries

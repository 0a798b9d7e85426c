"""Many batches at once on one runner: the lab's reports play dozens of small batches (a
pairing on a map), too small to pay for a pool of workers each."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from gladiatorium.lab.jobs import GameResult, Runner, run_jobs
from gladiatorium.lab.simulate import Batch, Summary, jobs_of


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

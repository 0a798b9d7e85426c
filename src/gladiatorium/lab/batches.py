"""Many batches at once on one pool of worker processes: the lab's reports play dozens of
small batches (a pairing on a map), too small to pay for a pool each."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor

from gladiatorium.lab.simulate import Batch, GameResult, Summary, play_one

#: games a worker plays per task, at most
CHUNK = 25


def run_batches(
    batches: Sequence[Batch],
    games: int,
    jobs: int = 1,
    on_result: Callable[[int, GameResult], None] | None = None,
) -> list[Summary]:
    """Play ``games`` games of every batch; a summary per batch, in order. Game *i* of a
    batch is played from a seed derived from the batch's seed and *i*, so the figures are
    the same whatever ``jobs`` is. ``on_result(batch index, result)`` is told of each game."""
    summaries = [Summary() for _ in batches]
    for which, result in _results(batches, games, jobs):
        summaries[which].add(result)
        if on_result is not None:
            on_result(which, result)
    return summaries


def _chunks(batches: Sequence[Batch], games: int) -> list[tuple[int, Batch, range]]:
    return [
        (which, batch, range(start, min(start + CHUNK, games)))
        for which, batch in enumerate(batches)
        for start in range(0, games, CHUNK)
    ]


def _play_chunk(task: tuple[int, Batch, range]) -> list[tuple[int, GameResult]]:
    which, batch, indices = task
    return [(which, play_one(batch, i, keep_record=False)) for i in indices]


def _results(batches: Sequence[Batch], games: int, jobs: int) -> Iterator[tuple[int, GameResult]]:
    tasks = _chunks(batches, games)
    if jobs <= 1:
        for task in tasks:
            yield from _play_chunk(task)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for results in pool.map(_play_chunk, tasks):
            yield from results

"""Bot-vs-bot batches, on one core or several (``jobs``), deterministic by seed."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from gladiatorium.core import Seat, derive_seed, get_game
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.core.record import record_of


@dataclass(frozen=True)
class Batch:
    """What to simulate: one game, fixed options, a bot per seat."""

    game: str
    options: Mapping[str, Any]
    players: int
    seed: int
    bots: Mapping[Seat, str]
    position: str | None = None  # a written position every game starts from


@dataclass(frozen=True)
class GameResult:
    index: int
    winners: tuple[Seat, ...]
    team: str | None
    length: int
    record: dict[str, Any] | None
    all_lost: bool = False


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


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_one(batch: Batch, index: int, keep_record: bool) -> GameResult:
    """Game ``index`` of the batch; its seed is derived from the batch seed."""
    from gladiatorium.games import load

    load()
    game = get_game(batch.game)
    seed = derive_seed(batch.seed, index)
    state = game.start(batch.options, batch.players, seed, batch.position)
    run_match(state, make_bots(game, seed, batch.bots))
    outcome = state.outcome()
    assert outcome is not None
    record = record_of(game, state, dict(batch.bots)).model_dump() if keep_record else None
    length = len(state.history)
    return GameResult(index, outcome.winners, outcome.team, length, record, outcome.lost)


def _play_chunk(args: tuple[Batch, list[int], bool]) -> list[GameResult]:
    batch, indices, keep = args
    return [play_one(batch, i, keep) for i in indices]


def run_batch(
    batch: Batch,
    games: int,
    jobs: int = 1,
    keep_records: bool = False,
    on_result: Callable[[GameResult], None] | None = None,
) -> Summary:
    """Play ``games`` games; results arrive in index order whatever ``jobs`` is."""
    summary = Summary()
    for result in _results(batch, games, jobs, keep_records):
        summary.add(result)
        if on_result is not None:
            on_result(result)
    return summary


def _results(batch: Batch, games: int, jobs: int, keep: bool) -> Iterator[GameResult]:
    if jobs <= 1:
        for i in range(games):
            yield play_one(batch, i, keep)
        return
    size = max(1, min(50, games // (jobs * 4) or 1))
    chunks = [(batch, list(range(i, min(i + size, games))), keep) for i in range(0, games, size)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for results in pool.map(_play_chunk, chunks):
            yield from results

"""Intervals for the lab's figures: Wilson for rates, Student's t for means."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Z95 = 1.959964
#: Student's t at 97.5% for 1..30 degrees of freedom (two-sided 95%)
T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


class WinTally:
    """Wins out of games with their 95% Wilson interval: the base of a dataclass that
    declares ``wins`` and ``games`` (and any other figures its JSON carries)."""

    wins: int
    games: int

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {**vars(self), "win_rate": self.wins / self.games, "low": low, "high": high}


def t95(freedom: int) -> float:
    """Student's t quantile for a two-sided 95% interval: the table to 30 degrees of
    freedom, then the Cornish-Fisher expansion (within 1e-4 there)."""
    if freedom < 1:
        raise ValueError("a t interval needs at least two values")
    if freedom <= len(T95):
        return T95[freedom - 1]
    z, v = Z95, float(freedom)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
    )


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% t interval (the mean alone when fewer than two values)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, mean, mean)
    spread = math.sqrt(math.fsum((x - mean) ** 2 for x in values) / (n - 1))
    half = t95(n - 1) * spread / math.sqrt(n)
    return (mean, mean - half, mean + half)

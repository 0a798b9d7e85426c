"""What a Superhero Gladiators power is worth in points: the power is played at several
levels (and so several costs) on a reference hero against a field of heroes, and the
hero's win rate is fitted against its points with a logistic curve.

Several specs of one power (say with a vulnerable and with a hidden gizmo) make several
series. The first is the reference: each later series is fitted on the reference's curve
with its power's points scaled by an unknown factor *m*, and the factor that fits best
(with a 95% likelihood-ratio interval) is what that version is worth next to the first,
to compare with what the table charges (x1.4 for a hidden gizmo over a vulnerable one).

Every level of a series plays the same seeds (the games are keyed by the heroes' names),
so the levels differ only by the power: common random numbers sharpen the slope.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gladiatorium.core import OptionsError
from gladiatorium.core.batches import GameResult
from gladiatorium.games.superhero_gladiators.hero_files import hero_from_data
from gladiatorium.games.superhero_gladiators.heroes import DesignRules, price
from gladiatorium.games.superhero_gladiators.lab.balance import (
    Entrant,
    Record,
    entrant,
    record_of,
    run_balance,
)

#: what a spec may set on the power besides its level (which the run varies)
SPEC_KEYS = ("type", "styles", "flaws", "gizmo", "uses")
#: a variant may go over the 200-point budget: the lab asks what a power is worth
HOUSE_POINTS = 1_000_000
HOUSE = DesignRules(power_points=HOUSE_POINTS)
#: the scale factors tried for a later series, and the likelihood-ratio cut (chi-square,
#: one degree of freedom, 95%)
FACTORS = tuple(f / 100 for f in range(10, 501))
CHI2_95 = 3.841459


@dataclass(frozen=True)
class PowerSpec:
    """``POWER[:KEY=VALUE,...]``: a power of the reference hero (or a new one, given its
    ``type``) with some of its fields changed; lists are joined with ``+``."""

    text: str
    power: str
    changes: Mapping[str, Any]


def parse_spec(text: str) -> PowerSpec:
    """Read a power spec; errors name the spec and the part."""
    name, _, rest = text.partition(":")
    if not name.strip():
        raise OptionsError(f"power spec {text!r}: name a power first (POWER[:KEY=VALUE,...])")
    changes: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or key not in SPEC_KEYS:
            raise OptionsError(
                f"power spec {text!r}: {item!r} is not KEY=VALUE with KEY one of "
                f"{', '.join(SPEC_KEYS)} (the level is set by --levels)"
            )
        value = value.strip()
        if key in ("styles", "flaws"):
            changes[key] = [v.strip() for v in value.split("+") if v.strip()]
        elif key == "uses" and value.isdigit():
            changes[key] = int(value)
        else:
            changes[key] = value
    return PowerSpec(text, name.strip(), changes)


def with_power(hero: Mapping[str, Any], spec: PowerSpec, level: int) -> dict[str, Any]:
    """The hero's data with the spec's power at ``level`` (added if the hero lacks it)."""
    data = {**hero, "powers": [dict(p) for p in hero.get("powers", [])]}
    named = [p for p in data["powers"] if str(p.get("name", "")).lower() == spec.power.lower()]
    if named:
        named[0].update(spec.changes, level=level)
        return data
    if "type" not in spec.changes:
        known = ", ".join(str(p.get("name")) for p in data["powers"])
        raise OptionsError(
            f"power spec {spec.text!r}: {hero.get('name')} has no power {spec.power!r} "
            f"(powers: {known}); to add one, give its type=..."
        )
    data["powers"].append({"name": spec.power, **spec.changes, "level": level})
    return data


def power_points(hero: Entrant, spec: PowerSpec) -> int:
    """What the spec's power costs on ``hero`` (a variant made by ``with_power``)."""
    parsed = hero_from_data(dict(hero.data), HOUSE)
    assert parsed.hero is not None
    [power] = [p for p in parsed.hero.powers if p.name.lower() == spec.power.lower()]
    return price(power).cost or 0


@dataclass(frozen=True)
class Level:
    """One point of a series: the power at a level, its cost and the hero's record."""

    level: int
    power_points: int
    hero_points: int
    record: Record


@dataclass(frozen=True)
class Fit:
    """``logit(win rate) = intercept + slope x points``, with the slope's standard error."""

    intercept: float
    slope: float
    slope_se: float
    log_likelihood: float

    def rate(self, points: float) -> float:
        return 1 / (1 + math.exp(-(self.intercept + self.slope * points)))

    @property
    def per_ten_points(self) -> float:
        """Win rate gained per 10 points near 50% (the curve's steepest part)."""
        return 10 * self.slope / 4


def fit_logistic(xs: Sequence[float], wins: Sequence[int], games: Sequence[int]) -> Fit:
    """Maximum-likelihood logistic fit of binomial counts (Newton's method, centred x)."""
    centre = sum(x * n for x, n in zip(xs, games, strict=True)) / max(1, sum(games))
    a = b = 0.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for x, k, n in zip(xs, wins, games, strict=True):
            u = x - centre
            p = 1 / (1 + math.exp(-(a + b * u)))
            w = n * p * (1 - p)
            ga, gb = ga + k - n * p, gb + (k - n * p) * u
            haa, hab, hbb = haa + w, hab + w * u, hbb + w * u * u
        det = haa * hbb - hab * hab
        if det <= 1e-12:
            break
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-10 or abs(b) > 50:
            break
    se = math.sqrt(haa / det) if det > 1e-12 else math.inf
    return Fit(a - b * centre, b, se, log_likelihood(xs, wins, games, a - b * centre, b))


def log_likelihood(
    xs: Sequence[float], wins: Sequence[int], games: Sequence[int], a: float, b: float
) -> float:
    total = 0.0
    for x, k, n in zip(xs, wins, games, strict=True):
        z = a + b * x
        # log p = -log(1 + e^-z), log(1 - p) = -log(1 + e^z), written to avoid overflow
        total -= k * _softplus(-z) + (n - k) * _softplus(z)
    return total


def _softplus(z: float) -> float:
    return z + math.log1p(math.exp(-z)) if z > 0 else math.log1p(math.exp(z))


@dataclass(frozen=True)
class Worth:
    """A later series' power against the reference's: the best factor, its interval
    (None where the interval reaches the end of the factors tried) and what the table
    charges."""

    factor: float
    low: float | None
    high: float | None
    charged: float


def worth(reference: Series, other: Series) -> Worth:
    """The factor *m* for which ``other``'s games fit the reference's curve best when its
    power counts ``m`` x the reference power's points, level for level."""
    base = reference.levels[0].hero_points - reference.levels[0].power_points
    ref_power = [lv.power_points for lv in reference.levels]
    wins = [lv.record.wins for s in (reference, other) for lv in s.levels]
    games = [lv.record.games for s in (reference, other) for lv in s.levels]
    profile = []
    for m in FACTORS:
        xs = [base + c for c in ref_power] + [base + m * c for c in ref_power]
        profile.append((fit_logistic(xs, wins, games).log_likelihood, m))
    best, factor = max(profile)
    inside = [m for ll, m in profile if 2 * (best - ll) <= CHI2_95]
    low = min(inside) if min(inside) > FACTORS[0] else None
    high = max(inside) if max(inside) < FACTORS[-1] else None
    charged = sum(lv.power_points for lv in other.levels) / max(1, sum(ref_power))
    return Worth(factor, low, high, charged)


@dataclass(frozen=True)
class Series:
    """A spec played at every level."""

    spec: PowerSpec
    levels: tuple[Level, ...]

    @property
    def fit(self) -> Fit:
        return fit_logistic(
            [lv.hero_points for lv in self.levels],
            [lv.record.wins for lv in self.levels],
            [lv.record.games for lv in self.levels],
        )


@dataclass(frozen=True)
class CostStudy:
    hero: str
    field: tuple[str, ...]
    maps: tuple[str, ...]
    games: int
    seed: int
    series: tuple[Series, ...]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": "superhero-gladiators",
            "hero": self.hero,
            "field": list(self.field),
            "maps": list(self.maps),
            "games_per_pairing": self.games,
            "seed": self.seed,
            "series": [],
        }
        for s in self.series:
            fit = s.fit
            entry: dict[str, Any] = {
                "spec": s.spec.text,
                "levels": [
                    {
                        "level": lv.level,
                        "power_points": lv.power_points,
                        "hero_points": lv.hero_points,
                        **lv.record.to_json(),
                    }
                    for lv in s.levels
                ],
                "fit": {
                    "intercept": round(fit.intercept, 6),
                    "slope_per_point": round(fit.slope, 6),
                    "slope_se": round(fit.slope_se, 6),
                    "win_rate_per_10_points": round(fit.per_ten_points, 6),
                },
            }
            if s is not self.series[0]:
                w = worth(self.series[0], s)
                entry["worth"] = {
                    "factor": w.factor,
                    "interval": [w.low, w.high],
                    "charged": round(w.charged, 6),
                    "against": self.series[0].spec.text,
                }
            out["series"].append(entry)
        return out


def variant(hero: Mapping[str, Any], spec: PowerSpec, level: int, source: str) -> Entrant:
    """The reference hero with the spec's power at ``level``; errors name the spec."""
    where = f"{source} with {spec.text} at level {level}"
    return entrant(with_power(hero, spec, level), where, HOUSE)


def run_cost(
    hero: Entrant,
    specs: Sequence[PowerSpec],
    field: Sequence[Entrant],
    levels: Sequence[int],
    maps: Mapping[str, str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    on_result: Callable[[int, GameResult], None] | None = None,
) -> CostStudy:
    """Play every spec at every level against the field (both sides, every map)."""
    foes = [f for f in field if f.name != hero.name]
    if not foes:
        raise OptionsError("--field: give at least one hero other than the reference hero")
    variants = [[variant(hero.data, s, lv, hero.source) for lv in levels] for s in specs]
    series = []
    for spec, entrants in zip(specs, variants, strict=True):
        played = [
            Level(
                lv,
                power_points(e, spec),
                e.points,
                _against_field(e, foes, maps, games, seed, jobs, on_result),
            )
            for lv, e in zip(levels, entrants, strict=True)
        ]
        series.append(Series(spec, tuple(played)))
    return CostStudy(
        hero.name, tuple(f.name for f in foes), tuple(maps), games, seed, tuple(series)
    )


def _against_field(
    hero: Entrant,
    foes: Sequence[Entrant],
    maps: Mapping[str, str],
    games: int,
    seed: int,
    jobs: int,
    on_result: Callable[[int, GameResult], None] | None,
) -> Record:
    result = run_balance(
        [hero, *foes], maps, games, seed, jobs, on_result, only=hero.name, power_points=HOUSE_POINTS
    )
    total = Record()
    for pairing, summary in result.pairings.items():
        total.add(record_of(summary, "1" if pairing.first == hero.name else "2"))
    return total

"""A Superhero Gladiators hero's gauntlet: the hero duels every sample hero, on both
sides of every sample arena, played by each bot given (the greedy bot and ``mcts`` by
default), a few games per pairing; its record against each sample and overall with 95%
Wilson intervals, and a fairness badge: its strength in points against what it costs.

A game's seed is derived from the run seed, the bot, the sample, the map, the side and
the game's number, never from the hero: every hero meets the same dice, so two heroes'
gauntlets differ by the heroes alone (common random numbers, as ``lab cost`` plays).

The badge reads the ``lab cost`` model: a hero's win rate against a foe follows a
logistic curve of the points between them, ``1 / (1 + exp(-b (x - foe's points)))``,
with the slope *b* that ``lab cost`` measured (:data:`POINT_SLOPE`). The hero's
*strength* is the *x* that fits its records against the samples best (maximum
likelihood, 95% likelihood-ratio interval, as ``lab cost`` prices a power): what a
hero priced as fairly as the samples would cost to do as well. A hero that costs more
than its strength is over-priced by the difference.
"""

from __future__ import annotations

import math
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gladiatorium.core import (
    OptionsError,
    UnknownGame,
    derive_seed,
    get_bot,
    get_game,
    register_game,
)
from gladiatorium.core.gauntlet import (
    DRAWN,
    LOST,
    WON,
    Gauntlet,
    GauntletSize,
    check_marks,
    games_text,
)
from gladiatorium.core.jobs import GameResult, Job
from gladiatorium.core.kept import cached
from gladiatorium.games.superhero_gladiators import GAME
from gladiatorium.games.superhero_gladiators.hero_files import (
    hero_data,
    hero_to_data,
    read_hero_text,
    sample_files,
)
from gladiatorium.games.superhero_gladiators.lab.balance import (
    DEFAULT_MAPS,
    SLUG,
    Entrant,
    Record,
    entrant,
)
from gladiatorium.games.superhero_gladiators.lab.cost import CHI2_95, log_likelihood
from gladiatorium.games.superhero_gladiators.map_files import map_text, shipped_maps

#: games per pairing unless told: the greedy bot is cheap (about 10 ms a game), ``mcts``
#: about two seconds a game on one core, so a default gauntlet plays 640 greedy games
#: and 64 of ``mcts`` (8 samples x 2 sides x 4 maps: 64 pairings)
DEFAULT_GAMES: tuple[tuple[str, int], ...] = (("greedy", 10), ("mcts", 1))
#: the logistic slope per point of the ``lab cost`` reference study
#: (docs/lab-balance/cost/cost.json: Static sparks, vulnerable, ``slope_per_point``):
#: about 11.6% of win rate per 10 points near an even match
POINT_SLOPE = 0.04654
#: how far beyond the samples' points a strength is looked for, and its step
STRENGTH_MARGIN = 400
STRENGTH_STEP = 0.5


@dataclass(frozen=True)
class Pairing:
    """Game conditions of one job: the bot on both sides, the sample, the map and the
    hero's side (``1``: the hero is team 1)."""

    bot: str
    opponent: str
    map: str
    side: str


def hero_of_text(text: str, source: str) -> Entrant:
    """The hero of a hero file's text (YAML or JSON); errors name ``source`` and the
    field."""
    read = read_hero_text(text, Path(source))
    if not read.valid or read.hero is None:
        problems = "; ".join(str(e) for e in read.errors) or "no hero"
        raise OptionsError(f"hero {source}: {problems}")
    return entrant(hero_to_data(read.hero), source)


def samples() -> dict[str, Entrant]:
    """Every current sample hero, by its file's stem (``cowboy``): each file read again
    only when its text changed (every hero published on a server plans a gauntlet)."""
    return {
        path.stem: _sample(str(path), path.read_text(encoding="utf-8")) for path in sample_files()
    }


@cached("superhero_gladiators.lab.gauntlet.samples", "superhero-gladiators", 16, "samples read")
def _sample(path: str, text: str) -> Entrant:
    """The sample hero of the file ``path`` whose text is ``text`` (the key: a changed
    file is read again). Callers copy its data before changing any of it."""
    return entrant(hero_data(path), Path(path).stem)


def check_maps(names: Sequence[str]) -> tuple[str, ...]:
    """Shipped map names (the server plays only those), the default when none."""
    chosen = tuple(names) or DEFAULT_MAPS
    shipped = shipped_maps()
    for name in chosen:
        if name not in shipped:
            raise OptionsError(
                f"--maps: no shipped map {name!r} (a gauntlet plays shipped maps: "
                f"{', '.join(shipped)})"
            )
    if len(set(chosen)) != len(chosen):
        raise OptionsError(f"--maps {','.join(chosen)}: a map is named twice")
    return chosen


def file_slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "hero"


class HeroGauntlet(Gauntlet):
    """A hero against every sample but itself (a sample's own gauntlet skips its
    mirror), every bot, map and side."""

    def __init__(self, text: str, seed: int, size: GauntletSize, source: str = "hero") -> None:
        register_game(GAME)  # the main command and the server have registered every game
        self.game = SLUG
        self.hero = hero_of_text(text, source)
        self.name = self.hero.name
        self.seed = seed
        self.games = size.games
        self.maps = check_maps(size.maps)
        game = get_game(SLUG)
        for bot, _ in self.games:
            try:
                get_bot(game, bot)  # an unknown bot or setting is refused by name
            except UnknownGame as err:
                raise OptionsError(f"--games: {err}") from err
        self.field = {
            stem: foe for stem, foe in samples().items() if dict(foe.data) != dict(self.hero.data)
        }
        self.pairings: list[Pairing] = []
        self._jobs: list[Job] = []
        self._plan()

    def _plan(self) -> None:
        game = get_game(SLUG)
        texts = {name: map_text(name) for name in self.maps}
        for bot, count in self.games:
            for stem, foe in self.field.items():
                for name in self.maps:
                    for side in ("1", "2"):
                        teams = [[dict(self.hero.data)], [dict(foe.data)]]
                        if side == "2":
                            teams.reverse()
                        values = {"teams": teams, "map": texts[name], "map_name": name}
                        options = game.make_options(values).model_dump(mode="json")
                        for number in range(count):
                            seed = derive_seed(self.seed, "gauntlet", bot, stem, name, side, number)
                            self._jobs.append(
                                Job(len(self._jobs), SLUG, options, 2, seed, {"1": bot, "2": bot})
                            )
                            self.pairings.append(Pairing(bot, stem, name, side))

    def jobs(self) -> list[Job]:
        return list(self._jobs)

    def mark(self, result: GameResult) -> str:
        side = self.pairings[result.index].side
        if side in result.winners:
            return WON
        return LOST if result.winners else DRAWN

    def file_name(self) -> str:
        return f"{file_slug(self.name)}.yaml"

    def command(self) -> str:
        words = ["gladiatorium", "lab", "gauntlet", self.file_name(), "--seed", str(self.seed)]
        words += ["--games", games_text(self.games), "--maps", ",".join(self.maps)]
        return shlex.join(words)

    def records(self, marks: str) -> dict[str, dict[str, Record]]:
        """Sample -> bot -> the hero's record against it (both sides, every map)."""
        check_marks(marks, len(self._jobs))
        found = {stem: {bot: Record() for bot, _ in self.games} for stem in self.field}
        for pairing, mark in zip(self.pairings, marks, strict=True):
            record = found[pairing.opponent][pairing.bot]
            record.wins += mark == WON
            record.losses += mark == LOST
            record.draws += mark == DRAWN
        return found

    def summary(self, marks: str) -> dict[str, Any]:
        records = self.records(marks)
        overall, by_bot = Record(), {bot: Record() for bot, _ in self.games}
        opponents = []
        for stem, per_bot in records.items():
            against = Record()
            for bot, record in per_bot.items():
                against.add(record)
                by_bot[bot].add(record)
            overall.add(against)
            foe = self.field[stem]
            opponents.append(
                {
                    "name": foe.name,
                    "sample": stem,
                    "points": foe.points,
                    "overall": against.to_json(),
                    "by_bot": {bot: r.to_json() for bot, r in per_bot.items()},
                }
            )
        foes = [(self.field[stem].points, sum_of(per_bot)) for stem, per_bot in records.items()]
        return {
            "game": SLUG,
            "hero": self.name,
            "points": self.hero.points,
            "seed": self.seed,
            "games": dict(self.games),
            "maps": list(self.maps),
            "games_played": len(marks),
            "overall": overall.to_json(),
            "by_bot": {bot: r.to_json() for bot, r in by_bot.items()},
            "opponents": opponents,
            "badge": badge(self.hero.points, foes),
            "command": self.command(),
        }


def sum_of(per_bot: Mapping[str, Record]) -> Record:
    total = Record()
    for record in per_bot.values():
        total.add(record)
    return total


def make_gauntlet(text: str, seed: int, size: GauntletSize) -> Gauntlet:
    """The package's gauntlet maker (registered by the loader as ``lab_gauntlet``)."""
    return HeroGauntlet(text, seed, size)


# ----- the fairness badge ------------------------------------------------------------------
@dataclass(frozen=True)
class Strength:
    """The points a fairly priced hero would cost to win as the hero does: the best fit
    and its 95% interval (None where it runs past the points looked at)."""

    points: float
    low: float | None
    high: float | None


def strength(foes: Sequence[tuple[int, Record]], slope: float = POINT_SLOPE) -> Strength:
    """The *x* for which ``1 / (1 + exp(-slope (x - P)))`` fits the wins against foes of
    points *P* best (draws count as games not won, as in ``lab cost``)."""
    played = [(p, r) for p, r in foes if r.games]
    if not played:
        return Strength(math.nan, None, None)
    xs = [-float(p) for p, _ in played]
    wins = [r.wins for _, r in played]
    games = [r.games for _, r in played]
    lowest = min(p for p, _ in played) - STRENGTH_MARGIN
    steps = int((max(p for p, _ in played) - lowest + STRENGTH_MARGIN) / STRENGTH_STEP)
    grid = [lowest + i * STRENGTH_STEP for i in range(steps + 1)]
    profile = [(log_likelihood(xs, wins, games, slope * x, slope), x) for x in grid]
    best, found = max(profile)
    inside = [x for ll, x in profile if 2 * (best - ll) <= CHI2_95]
    low = min(inside) if min(inside) > grid[0] else None
    high = max(inside) if max(inside) < grid[-1] else None
    return Strength(found, low, high)


def badge(points: int, foes: Sequence[tuple[int, Record]]) -> dict[str, Any]:
    """Over-priced, under-priced or fair: the hero's cost against its strength, by how
    many points, with the 95% interval (None: beyond the points looked at)."""
    found = strength(foes)
    if math.isnan(found.points):
        return {"verdict": "unknown", "points": points, "strength": None}
    over = points - found.points
    low = None if found.high is None else points - found.high
    high = None if found.low is None else points - found.low
    if low is not None and low > 0:
        verdict = "over-priced"
    elif high is not None and high < 0:
        verdict = "under-priced"
    else:
        verdict = "fair"
    return {
        "verdict": verdict,
        "points": points,
        "strength": found.points,
        "strength_interval": [found.low, found.high],
        "over_priced_by": over,
        "interval": [low, high],
        "slope_per_point": POINT_SLOPE,
        "words": badge_words(verdict, points, found),
    }


def badge_words(verdict: str, points: int, found: Strength) -> str:
    """``over-priced by 23 points: costs 180, plays like 157 (95%: 140 to 170)``."""

    def shown(value: float | None) -> str:
        return "..." if value is None else f"{value:.0f}"

    plays = f"costs {points}, plays like {found.points:.0f} (95%: {shown(found.low)} to "
    plays += f"{shown(found.high)})"
    if verdict == "fair":
        return f"fairly priced: {plays}"
    return f"{verdict} by {abs(points - found.points):.0f} points: {plays}"

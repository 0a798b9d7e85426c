"""Bot ratings with OpenSkill's Plackett-Luce model, and a ladder kept on disk.

Games are rated one at a time in a fixed order (the run's game index), so the same
games give the same ratings on every machine. A bot is shown by its ordinal,
``mu - 3 sigma``: a rating it holds with good confidence.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from gladiatorium.core import GladiatoriumError, Seat
from gladiatorium.core.files import FileRefused, flag_error, parse_json, read_text
from gladiatorium.core.jobs import GameResult
from gladiatorium.core.outcome import side_places

MODEL = PlackettLuce()
LADDER_KIND = "gladiatorium-ladder"
#: the largest ladder file read (a few hundred bytes a bot and a run)
MAX_LADDER_BYTES = 4 * 1024 * 1024


class LadderError(GladiatoriumError):
    """A ladder file that cannot be read, or one of another game or options."""


@dataclass
class Standing:
    """One bot's rating and record so far."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0
    draws: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws

    def to_json(self) -> dict[str, Any]:
        return {
            "rating": self.ordinal,
            "mu": self.mu,
            "sigma": self.sigma,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Standing:
        return cls(
            float(data["mu"]),
            float(data["sigma"]),
            int(data["games"]),
            int(data["wins"]),
            int(data["draws"]),
        )


def placing(
    result: GameResult, sides: Sequence[Sequence[Seat]], lineup: Sequence[str]
) -> list[tuple[str, int]]:
    """Each bot of a game (in the order first seated) with its place, 1 the best.

    The sides are placed as :func:`side_places` says (a side that won first, then by
    score, every side level in a draw). A bot that holds several sides takes the place
    of its best one."""
    best: dict[str, int] = {}
    places = side_places(result.winners, result.scores, sides)
    for bot, place in zip(lineup, places, strict=True):
        best[bot] = min(place, best.get(bot, place))
    order = sorted(set(best.values()))
    return [(bot, order.index(place) + 1) for bot, place in best.items()]


@dataclass
class Ratings:
    """Every bot's standing, updated game by game."""

    standings: dict[str, Standing] = field(default_factory=dict)

    def standing(self, bot: str) -> Standing:
        return self.standings.setdefault(bot, Standing())

    def rate(self, places: Sequence[tuple[str, int]], drawn: bool) -> None:
        """One game: each bot's place (ties allowed)."""
        bots = [bot for bot, _ in places]
        teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in map(self.standing, bots)]
        rated = MODEL.rate(teams, ranks=[float(place) for _, place in places])
        someone_behind = any(place > 1 for _, place in places)
        for (bot, place), [new] in zip(places, rated, strict=True):
            standing = self.standings[bot]
            standing.mu, standing.sigma = new.mu, new.sigma
            standing.games += 1
            if drawn:
                standing.draws += 1
            elif place == 1 and someone_behind:
                standing.wins += 1

    def table(self) -> list[tuple[str, Standing]]:
        """Best first (by ordinal), then by name."""
        return sorted(self.standings.items(), key=lambda item: (-item[1].ordinal, item[0]))

    def to_json(self) -> dict[str, Any]:
        return {bot: standing.to_json() for bot, standing in self.table()}


def rate_games(
    ratings: Ratings,
    results: Iterable[GameResult],
    sides: Sequence[Sequence[Seat]],
    lineup_of: Mapping[int, Sequence[str]],
) -> None:
    """Rate ``results`` in index order; ``lineup_of`` gives each game's bot per side."""
    for result in sorted(results, key=lambda r: r.index):
        ratings.rate(placing(result, sides, lineup_of[result.index]), result.draw)


@dataclass
class Ladder:
    """Ratings that later runs go on updating, kept as JSON: the game and options they
    hold for, the runs so far (seed, bots, games) and every bot's standing."""

    path: Path
    about: dict[str, Any]  # game, options, players: what every run must share
    runs: list[dict[str, Any]] = field(default_factory=list)
    ratings: Ratings = field(default_factory=Ratings)

    @classmethod
    def open(cls, path: Path, about: Mapping[str, Any]) -> Ladder:
        """The ladder at ``path``, or a new one if there is no file yet."""
        shared: dict[str, Any] = json.loads(json.dumps(dict(about)))
        folder = path.parent if str(path.parent) else Path(".")
        if not folder.is_dir():
            raise LadderError(f"--ladder {path}: the folder {folder} does not exist")
        if not path.exists():
            return cls(path, shared)
        try:
            data = parse_json(read_text(path, MAX_LADDER_BYTES), str(path))
        except FileRefused as err:
            raise LadderError(flag_error("--ladder", err)) from err
        if not isinstance(data, dict) or data.get("kind") != LADDER_KIND:
            raise LadderError(f"--ladder {path}: not a gladiatorium ladder")
        for key, value in shared.items():
            if data.get(key) != value:
                raise LadderError(
                    f"--ladder {path}: a ladder of other {key} ({data.get(key)!r}); "
                    "its runs must share the game, options and players"
                )
        try:
            standings = {str(b): Standing.from_json(s) for b, s in data["ratings"].items()}
            runs = [dict(run) for run in data["runs"]]
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise LadderError(f"--ladder {path}: field ratings or runs is broken ({err})") from err
        return cls(path, shared, runs, Ratings(standings))

    def seeds(self) -> set[int]:
        return {int(run["seed"]) for run in self.runs}

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": LADDER_KIND,
            **self.about,
            "model": "openskill PlackettLuce",
            "runs": self.runs,
            "ratings": self.ratings.to_json(),
        }

    def save(self) -> None:
        """Write the whole ladder to a new file, then put it in place (a stop half-way
        leaves the old ladder whole)."""
        temporary = self.path.with_name(self.path.name + ".new")
        try:
            temporary.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError as err:
            raise LadderError(f"--ladder {self.path}: cannot write it ({err.strerror})") from err

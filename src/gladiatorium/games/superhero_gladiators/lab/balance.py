"""Superhero Gladiators balance: every ordered pair of heroes, on several arenas, played
by the best bot; the win-rate matrix with 95% Wilson intervals (draws kept apart), each
hero's strength against the field beside its cost, and the pairings that are lopsided.

The figures are a pure function of (heroes, maps, games, seed): pairing *A* (team 1)
against *B* (team 2) on map *M* is a batch whose seed is derived from the run seed and
the three names, so adding a hero to a run leaves the other pairings' games unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gladiatorium.core import OptionsError, derive_seed, get_game, register_game
from gladiatorium.core.batches import Batch, GameResult, Summary, run_batches, wilson_interval
from gladiatorium.core.registry import best_bot, get_bot
from gladiatorium.games.superhero_gladiators import GAME
from gladiatorium.games.superhero_gladiators.hero_files import hero_data, hero_from_data
from gladiatorium.games.superhero_gladiators.heroes import RULES, DesignRules, points
from gladiatorium.games.superhero_gladiators.map_files import map_text, shipped_maps

SLUG = "superhero-gladiators"
#: the arenas a balance run fights on unless told: every shipped map but ``12``, whose
#: two squares leave nothing to play but the first blow
DEFAULT_MAPS = ("small", "pillars", "chasm", "colosseum")
#: a pairing is lopsided when one side wins more than this share of its games
LOPSIDED = 0.80


@dataclass(frozen=True)
class Entrant:
    """A hero taking part: its name, where it came from, its points and its data."""

    name: str
    source: str
    points: int
    data: Mapping[str, Any]


def entrant(data: Mapping[str, Any], source: str, rules: DesignRules = RULES) -> Entrant:
    """A hero from option data; its design errors name ``source`` and the field."""
    parsed = hero_from_data(dict(data), rules)
    if parsed.hero is None or parsed.errors:
        problems = "; ".join(f"{e.field or '(hero)'}: {e.message}" for e in parsed.errors)
        raise OptionsError(f"hero {source}: {problems}")
    return Entrant(parsed.hero.name, source, points(parsed.hero, rules).total, data)


def load_entrants(refs: Sequence[str], least: int = 2) -> list[Entrant]:
    """Heroes by sample name or hero file (errors name the file and the field); two
    heroes of one name are refused, since the report is keyed by name."""
    entrants = [entrant(hero_data(ref), ref) for ref in refs]
    seen: dict[str, str] = {}
    for e in entrants:
        if e.name in seen:
            raise OptionsError(f"{e.source}: the hero {e.name!r} is also given by {seen[e.name]}")
        seen[e.name] = e.source
    if len(entrants) < least:
        raise OptionsError(f"give at least {least} heroes (sample names or hero files)")
    return entrants


def arenas(names: Sequence[str]) -> dict[str, str]:
    """Map name -> map text, for shipped names or map files (errors name the map)."""
    chosen = list(names) or list(DEFAULT_MAPS)
    found = {given.rsplit("/", 1)[-1].removesuffix(".txt"): map_text(given) for given in chosen}
    if len(found) != len(chosen):
        raise OptionsError(f"--maps {','.join(chosen)}: a map is named twice")
    return found


def shipped_map_names() -> list[str]:
    return list(shipped_maps())


@dataclass(frozen=True)
class Pairing:
    """``first`` (team 1) against ``second`` (team 2) on ``map``."""

    first: str
    second: str
    map: str


@dataclass
class Record:
    """One hero's results against one foe (or the field): wins, losses, draws."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def add(self, other: Record) -> None:
        self.wins += other.wins
        self.losses += other.losses
        self.draws += other.draws

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "win_rate": round(self.win_rate, 6),
            "interval": [round(low, 6), round(high, 6)],
        }


def record_of(summary: Summary, seat: str) -> Record:
    """The record of ``seat`` in a two-seat batch; a match both sides lose is a draw."""
    other = "2" if seat == "1" else "1"
    return Record(summary.wins[seat], summary.wins[other], summary.draws + summary.all_lost)


@dataclass
class Balance:
    """A balance run's results: the heroes, the maps and every pairing's summary."""

    entrants: list[Entrant]
    maps: list[str]
    games: int
    seed: int
    bot: str
    pairings: dict[Pairing, Summary] = field(default_factory=dict)

    def matrix(self) -> dict[str, dict[str, Record]]:
        """Row hero's record against column hero, both sides and every map together."""
        names = [e.name for e in self.entrants]
        grid = {a: {b: Record() for b in names if b != a} for a in names}
        for pairing, summary in self.pairings.items():
            grid[pairing.first][pairing.second].add(record_of(summary, "1"))
            grid[pairing.second][pairing.first].add(record_of(summary, "2"))
        return grid

    def overall(self) -> dict[str, Record]:
        """Each hero's record against the rest of the field."""
        totals = {}
        for name, row in self.matrix().items():
            total = Record()
            for record in row.values():
                total.add(record)
            totals[name] = total
        return totals

    def verdict(self, name: str) -> str:
        """``dominates`` / ``dominated`` when the hero's interval against the field lies
        wholly above / below 50%, else ``even``."""
        low, high = self.overall()[name].interval
        return "dominates" if low > 0.5 else "dominated" if high < 0.5 else "even"

    def lopsided(self) -> list[tuple[str, str, Record]]:
        """(winner, loser, record) for every pair one side wins more than 80% of."""
        grid = self.matrix()
        return [
            (a, b, record)
            for a, row in grid.items()
            for b, record in row.items()
            if record.win_rate > LOPSIDED
        ]

    def drawn(self) -> list[tuple[Pairing, int, int]]:
        """(pairing, draws, games) for every pairing with a draw."""
        return [
            (p, record_of(s, "1").draws, s.games)
            for p, s in self.pairings.items()
            if record_of(s, "1").draws
        ]

    def to_json(self) -> dict[str, Any]:
        overall = self.overall()
        return {
            "game": SLUG,
            "bot": self.bot,
            "seed": self.seed,
            "games_per_pairing": self.games,
            "maps": self.maps,
            "heroes": [
                {
                    "name": e.name,
                    "source": e.source,
                    "points": e.points,
                    "verdict": self.verdict(e.name),
                    **overall[e.name].to_json(),
                }
                for e in self.entrants
            ],
            "matrix": {
                a: {b: r.to_json() for b, r in row.items()} for a, row in self.matrix().items()
            },
            "lopsided": [{"winner": a, "loser": b, **r.to_json()} for a, b, r in self.lopsided()],
            "pairings": [
                {
                    "first": p.first,
                    "second": p.second,
                    "map": p.map,
                    **record_of(s, "1").to_json(),
                }
                for p, s in self.pairings.items()
            ],
        }


def pairing_batches(
    entrants: Sequence[Entrant],
    maps: Mapping[str, str],
    seed: int,
    bot: str,
    only: str | None = None,
    **options: Any,
) -> dict[Pairing, Batch]:
    """A batch for every ordered pair of different heroes on every map (``only``: the
    pairs in which the hero of that name takes part)."""
    game = get_game(SLUG)
    batches = {}
    for first in entrants:
        for second in entrants:
            if first is second or only not in (None, first.name, second.name):
                continue
            for name, text in maps.items():
                values = {
                    "teams": [[dict(first.data)], [dict(second.data)]],
                    "map": text,
                    "map_name": name,
                    **options,
                }
                dumped = game.make_options(values).model_dump(mode="json")
                pairing = Pairing(first.name, second.name, name)
                key = derive_seed(seed, "balance", first.name, second.name, name)
                batches[pairing] = Batch(SLUG, dumped, 2, key, {"1": bot, "2": bot})
    return batches


def run_balance(
    entrants: Sequence[Entrant],
    maps: Mapping[str, str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    on_result: Callable[[int, GameResult], None] | None = None,
    only: str | None = None,
    bot: str | None = None,
    **options: Any,
) -> Balance:
    """Play ``games`` games of every ordered pairing on every map (``only``: those of one
    hero; ``bot``: the bot on both sides, ``mcts`` or ``mcts:iterations=64`` say, by
    default the best; ``options``: further match options, e.g. ``power_points`` for
    heroes over the budget)."""
    register_game(GAME)  # the main command has registered every game and bot
    game = get_game(SLUG)
    bot = bot or best_bot(game)
    get_bot(game, bot)  # an unknown bot or setting is refused before anything is played
    batches = pairing_batches(entrants, maps, seed, bot, only, **options)
    summaries = run_batches(list(batches.values()), games, jobs, on_result)
    result = Balance(list(entrants), list(maps), games, seed, bot)
    result.pairings = dict(zip(batches, summaries, strict=True))
    return result

"""Round-robin tournaments between bots, rated with OpenSkill.

Every combination of bots meets with every rotation of seats: in a two-sided game
``a, b, c`` play ``a-b, b-a, a-c, c-a, b-c, c-b``. In a game of more sides than bots
(Hero Battle's eight players) the bots fill the sides in turn (``a b c a b c a b``),
rotated the same way; a seat in no side (Hero Battle's moderator) gets the game's best
bot. A side is what :meth:`Game.sides` says: a seat, or in Gladiator
Chess a team's four commanders, all played by one bot. Each line-up plays ``games``
games; game ``i`` of the whole tournament gets the seed derived from the run seed and
``i``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from gladiatorium.core import OptionsError, Seat, best_bot, derive_seed, get_bot, get_game
from gladiatorium.core.jobs import GameResult, Job, ResultsFile, Runner, run_jobs
from gladiatorium.core.stats import WinTally
from gladiatorium.lab.ratings import Ratings, rate_games


@dataclass(frozen=True)
class Tournament:
    """A round robin of ``bots`` at ``game`` (options checked, players settled)."""

    game: str
    bots: tuple[str, ...]
    games: int  # per line-up
    seed: int
    options: Mapping[str, Any]  # JSON form, every option filled in
    players: int
    sides: tuple[tuple[Seat, ...], ...] = field(default=())
    #: seats in no side (Hero Battle's moderator), played by the game's best bot
    others: Mapping[Seat, str] = field(default_factory=dict)

    @classmethod
    def plan(
        cls,
        game_slug: str,
        bots: Sequence[str],
        games: int,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        players: int | None = None,
    ) -> Tournament:
        """A tournament checked before any game: the game, its options and players,
        at least two different bots it knows, and at least two sides to seat them."""
        game = get_game(game_slug)
        names = tuple(bots)
        if len(names) < 2:
            raise OptionsError("--bots: name at least two bots, e.g. --bots random,BEST")
        if len(set(names)) != len(names):
            raise OptionsError(f"--bots {','.join(names)}: a bot is named twice")
        for name in names:
            get_bot(game, name)
        if games < 1:
            raise OptionsError(f"--games {games}: give at least 1")
        state = game.start(options, players, 0)
        sides = game.sides(state)
        if len(sides) < 2:
            raise OptionsError(
                f"{game.info.slug} with {state.players} player(s) has one side; "
                "a tournament needs two or more (--players)"
            )
        dumped = state.options.model_dump(mode="json")
        in_sides = {seat for side in sides for seat in side}
        others = {seat: best_bot(game) for seat in state.seats if seat not in in_sides}
        return cls(game.info.slug, names, games, seed, dumped, state.players, sides, others)

    def lineups(self) -> list[tuple[str, ...]]:
        """The bot on each side, for every combination of bots and rotation of seats."""
        size = min(len(self.bots), len(self.sides))
        out = []
        for group in combinations(self.bots, size):
            for turn in range(size):
                rotated = group[turn:] + group[:turn]
                out.append(tuple(rotated[i % size] for i in range(len(self.sides))))
        return out

    def lineup_of(self) -> dict[int, tuple[str, ...]]:
        """Each game's line-up, by game index."""
        return {
            n * self.games + g: lineup
            for n, lineup in enumerate(self.lineups())
            for g in range(self.games)
        }

    def jobs(self) -> list[Job]:
        return [
            Job(
                index=index,
                game=self.game,
                options=self.options,
                players=self.players,
                seed=derive_seed(self.seed, index),
                bots=self.seating(lineup),
            )
            for index, lineup in self.lineup_of().items()
        ]

    def seating(self, lineup: Sequence[str]) -> dict[Seat, str]:
        seats = {seat: bot for side, bot in zip(self.sides, lineup, strict=True) for seat in side}
        return {**seats, **self.others}

    def run_params(self) -> dict[str, Any]:
        """What a results file of this tournament must match to be resumed."""
        return {
            "command": "tournament",
            "game": self.game,
            "options": dict(self.options),
            "players": self.players,
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
        }

    def about(self) -> dict[str, Any]:
        """What every run of a ladder must share."""
        return {"game": self.game, "options": dict(self.options), "players": self.players}


@dataclass(frozen=True)
class TournamentResult:
    tournament: Tournament
    results: list[GameResult]
    ratings: Ratings

    @property
    def draws(self) -> int:
        return sum(r.draw for r in self.results)

    def pairs(self) -> list[HeadToHead]:
        """Each pair of bots over the games that only the two of them played (every side
        one of theirs: a two-sided game, or a Battle of eight split between them): how
        often the first won. Pairs in the order of ``--bots``; none without such games."""
        t = self.tournament
        lineups = t.lineup_of()
        pairs: dict[tuple[str, ...], HeadToHead] = {
            (a, b): HeadToHead(a, b) for a, b in combinations(t.bots, 2)
        }
        for result in self.results:
            lineup = lineups[result.index]
            pair = pairs.get(tuple(b for b in t.bots if b in lineup))
            if pair is None:
                continue
            seating = t.seating(lineup)
            won = {seating[seat] for seat in result.winners}
            pair.games += 1
            if won == {pair.bot}:
                pair.wins += 1
            elif won == {pair.against}:
                pair.losses += 1
            else:
                pair.draws += 1  # a draw, everyone lost, or a win shared
        return [pair for pair in pairs.values() if pair.games]

    def to_json(self) -> dict[str, Any]:
        t = self.tournament
        return {
            "game": t.game,
            "bots": list(t.bots),
            "players": t.players,
            "sides": len(t.sides),
            "lineups": len(t.lineups()),
            "games_per_lineup": t.games,
            "games": len(self.results),
            "draws": self.draws,
            "seed": t.seed,
            "ratings": [{"bot": bot, **s.to_json()} for bot, s in self.ratings.table()],
            "head_to_head": [pair.to_json() for pair in self.pairs()],
        }


@dataclass
class HeadToHead(WinTally):
    """``bot`` against ``against`` in the games only they played."""

    bot: str
    against: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0


def run_tournament(
    tournament: Tournament,
    runner: Runner | None = None,
    results: ResultsFile | None = None,
    on_done: Callable[[GameResult], None] | None = None,
    ratings: Ratings | None = None,
) -> TournamentResult:
    """Play every game and rate them in game order, on top of ``ratings`` if given (a
    ladder's)."""
    played = run_jobs(tournament.jobs(), runner, results, on_done)
    rated = ratings if ratings is not None else Ratings()
    rate_games(rated, played, tournament.sides, tournament.lineup_of())
    return TournamentResult(tournament, played, rated)

"""A gauntlet: one item a player made (a Superhero Gladiators hero) played against a
fixed field by the lab's bots, game by game through the job runner, with the same
results for the same seed wherever and in whatever pieces its games are played.

The game's own part (its field, its arenas, its summary) lives in the game's folder
and is named by the package's ``lab_gauntlet`` function, which the loader registers
(:func:`~gladiatorium.core.registry.register_gauntlet`): the server runs a gauntlet
without naming a game, and the lab command of the game runs the same one.

A game played is kept as one mark from the item's side: :data:`WON`, :data:`LOST` or
:data:`DRAWN` (a draw, or both sides lost). A gauntlet's marks, in game order, are
all its summary is made from.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gladiatorium.core.errors import OptionsError
from gladiatorium.core.jobs import GameResult, Job

WON, LOST, DRAWN = "w", "l", "d"
MARKS = (WON, LOST, DRAWN)
#: the most games of one bot per pairing a gauntlet may ask for
MAX_GAMES_PER_PAIRING = 1000


@dataclass(frozen=True)
class GauntletSize:
    """How much a gauntlet plays: games per pairing for each bot (in the order given)
    and the boards played on (empty: the game's own choice)."""

    games: tuple[tuple[str, int], ...]
    maps: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"games": dict(self.games), "maps": list(self.maps)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GauntletSize:
        games = tuple((str(bot), int(n)) for bot, n in dict(data["games"]).items())
        return cls(games, tuple(str(m) for m in data.get("maps", ())))


def parse_games(text: str, where: str) -> tuple[tuple[str, int], ...]:
    """``greedy=10,mcts=1``: games per pairing by bot; errors name ``where``."""
    found: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        bot, sep, count = (s.strip() for s in part.partition("="))
        if not sep or not bot or not count.isdigit():
            raise OptionsError(f"{where} {text!r}: {part!r} is not BOT=GAMES (greedy=10)")
        if not 1 <= int(count) <= MAX_GAMES_PER_PAIRING or bot in found:
            raise OptionsError(
                f"{where} {text!r}: {part!r}: give each bot once, with 1 to "
                f"{MAX_GAMES_PER_PAIRING} games"
            )
        found[bot] = int(count)
    if not found:
        raise OptionsError(f"{where} {text!r}: name at least one bot (greedy=10,mcts=1)")
    return tuple(found.items())


def games_text(games: tuple[tuple[str, int], ...]) -> str:
    """The reverse of :func:`parse_games`."""
    return ",".join(f"{bot}={count}" for bot, count in games)


class Gauntlet(ABC):
    """One item's gauntlet, planned: every game as a job, in a fixed order."""

    #: the game's slug, the item's name and the run's seed
    game: str
    name: str
    seed: int

    @abstractmethod
    def jobs(self) -> list[Job]:
        """Every game of the gauntlet, indexed 0, 1, ... in order."""

    @abstractmethod
    def mark(self, result: GameResult) -> str:
        """How game ``result.index`` went for the item: WON, LOST or DRAWN."""

    @abstractmethod
    def summary(self, marks: str) -> dict[str, Any]:
        """The results (JSON) from every game's mark, in game order."""

    @abstractmethod
    def command(self) -> str:
        """The command line that plays the same gauntlet in the lab (``gladiatorium lab
        ...``), naming the item's file as :meth:`file_name`."""

    @abstractmethod
    def file_name(self) -> str:
        """The name the item's file is given in :meth:`command`."""


#: a game's gauntlet maker: (the item's text, seed, size) -> the planned gauntlet
GauntletMaker = Callable[[str, int, GauntletSize], Gauntlet]


def check_marks(marks: str, total: int) -> None:
    """Marks of a whole gauntlet: one known mark per game."""
    if len(marks) != total or set(marks) - set(MARKS):
        raise ValueError(f"expected {total} marks of {''.join(MARKS)}, got {len(marks)}")

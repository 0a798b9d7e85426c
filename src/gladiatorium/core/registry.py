"""The registry of games by slug, and of bots by game and name."""

from __future__ import annotations

from typing import Any

from gladiatorium.core.errors import UnknownGame
from gladiatorium.core.game import BotFactory, Game

_GAMES: dict[str, Game[Any]] = {}
_GENERIC_BOTS: dict[str, BotFactory] = {}


def register_game(game: Game[Any]) -> Game[Any]:
    """Add a game under its slug (a second registration of the slug replaces it)."""
    _GAMES[game.info.slug] = game
    return game


def register_generic_bot(name: str, factory: BotFactory) -> None:
    """A bot that plays every game (e.g. ``random``)."""
    _GENERIC_BOTS[name] = factory


def games() -> list[Game[Any]]:
    return [_GAMES[slug] for slug in sorted(_GAMES)]


def get_game(slug: str) -> Game[Any]:
    try:
        return _GAMES[slug]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise UnknownGame(f"no game {slug!r}; registered games: {known}") from None


def bots_for(game: Game[Any]) -> dict[str, BotFactory]:
    """The game's own bots (best first) then the generic ones."""
    return {**game.bots(), **_GENERIC_BOTS}


def best_bot(game: Game[Any]) -> str:
    return next(iter(bots_for(game)))


def get_bot(game: Game[Any], name: str) -> BotFactory:
    table = bots_for(game)
    try:
        return table[name]
    except KeyError:
        known = ", ".join(table) or "none"
        raise UnknownGame(f"no bot {name!r} for {game.info.slug}; bots: {known}") from None

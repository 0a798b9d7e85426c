"""The registry of games by slug, and of bots by game and name."""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gladiatorium.core.errors import UnknownGame
from gladiatorium.core.game import BotFactory, Game
from gladiatorium.core.state import State

if TYPE_CHECKING:  # the gauntlet reads the job runner, which reads the registry
    from gladiatorium.core.gauntlet import GauntletMaker

_GAMES: dict[str, Game[Any]] = {}
_GENERIC_BOTS: dict[str, BotFactory] = {}
#: a game's own lab reports, by the game's slug: a function naming them (see
#: :func:`register_lab_commands`)
_LAB_COMMANDS: dict[str, Callable[[], Mapping[str, object]]] = {}
#: a game's gauntlet maker, by the game's slug (see :func:`register_gauntlet`)
_GAUNTLETS: dict[str, Callable[[], GauntletMaker]] = {}


def register_game(game: Game[Any]) -> Game[Any]:
    """Add a game under its slug (a second registration of the slug replaces it)."""
    _GAMES[game.info.slug] = game
    return game


def register_generic_bot(name: str, factory: BotFactory) -> None:
    """A bot that plays every game (e.g. ``random``)."""
    _GENERIC_BOTS[name] = factory


def register_lab_commands(game: Game[Any], commands: Callable[[], Mapping[str, object]]) -> None:
    """A game's own lab reports (``gladiatorium lab NAME ...``, such as Superhero
    Gladiators' ``balance`` and ``cost``): ``commands()`` gives them by name, each a
    ``typer.Typer`` or a function typer reads as one command, as
    ``game.terminal.commands()`` does for the game's terminal commands. They live in the
    game's folder and are imported only when ``commands()`` is called; the loader
    registers the function a game's package exposes as ``lab_commands``."""
    _LAB_COMMANDS[game.info.slug] = commands


def lab_commands(game: Game[Any]) -> Mapping[str, object]:
    """The game's own lab reports by name (none by default)."""
    named = _LAB_COMMANDS.get(game.info.slug)
    return named() if named is not None else {}


def register_gauntlet(game: Game[Any], maker: Callable[[], GauntletMaker]) -> None:
    """A game's gauntlet (``core/gauntlet.py``): ``maker()`` gives the function that
    plans one, imported only when called; the loader registers the function a game's
    package exposes as ``lab_gauntlet``."""
    _GAUNTLETS[game.info.slug] = maker


def gauntlet_maker(slug: str) -> GauntletMaker:
    """The gauntlet planner of the game ``slug``; UnknownGame when it has none."""
    maker = _GAUNTLETS.get(slug)
    if maker is None:
        having = ", ".join(sorted(_GAUNTLETS)) or "none"
        raise UnknownGame(f"no gauntlet for {slug!r}; games with one: {having}")
    return maker()


def games() -> list[Game[Any]]:
    return [_GAMES[slug] for slug in sorted(_GAMES)]


def get_game(slug: str) -> Game[Any]:
    try:
        return _GAMES[slug]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise UnknownGame(f"no game {slug!r}; registered games: {known}") from None


def game_of(state: State[Any]) -> Game[Any]:
    """The game whose package defines the class of ``state``: a registered one, else
    the ``GAME`` its package exposes (a game used without ``games.load()``)."""
    package = type(state).__module__.rpartition(".")[0]
    for game in _GAMES.values():
        if type(game).__module__.startswith(package + "."):
            return game
    exposed = getattr(importlib.import_module(package), "GAME", None) if package else None
    if isinstance(exposed, Game):
        return exposed
    raise UnknownGame(f"no registered game plays a {type(state).__name__}")


@dataclass(frozen=True)
class Registered:
    """Where the registered games and generic bots come from, as plain names (it pickles):
    what a fresh worker process (a Ray task's) imports to register the same ones, so the
    engine never names the package that registers them (``gladiatorium.games.load``)."""

    games: tuple[tuple[str, str], ...]  # (slug, the package that exposes its GAME)
    bots: tuple[tuple[str, str], ...]  # (name, the module whose import registers it)


def registered() -> Registered:
    """What this process has registered (see :func:`restore`)."""
    return Registered(
        tuple((slug, type(game).__module__.rpartition(".")[0]) for slug, game in _GAMES.items()),
        tuple((name, getattr(f, "__module__", "") or "") for name, f in _GENERIC_BOTS.items()),
    )


def restore(given: Registered) -> None:
    """Register, in this process, the games and generic bots of ``given`` that are not
    registered yet: a game's package is imported and its ``GAME`` registered, a bot's
    module imported (its package registers it)."""
    for slug, package in given.games:
        if slug not in _GAMES and package:
            exposed = getattr(importlib.import_module(package), "GAME", None)
            if isinstance(exposed, Game):
                register_game(exposed)
    for name, module in given.bots:
        if name not in _GENERIC_BOTS and module:
            importlib.import_module(module)


def bots_for(game: Game[Any]) -> dict[str, BotFactory]:
    """The game's own bots (best first) then the generic ones."""
    return {**game.bots(), **_GENERIC_BOTS}


def best_bot(game: Game[Any]) -> str:
    return next(iter(bots_for(game)))


def get_bot(game: Game[Any], name: str) -> BotFactory:
    """The bot ``name``, or ``name:KEY=VALUE,...`` with settings of its own
    (``mcts:iterations=200``, ``mcts:ms=500``); an unknown bot or setting is an error
    naming the known ones."""
    base, _, settings = name.partition(":")
    table = bots_for(game)
    try:
        factory = table[base]
    except KeyError:
        known = ", ".join(table) or "none"
        raise UnknownGame(f"no bot {base!r} for {game.info.slug}; bots: {known}") from None
    if not settings:
        return factory
    return functools.partial(factory, **bot_settings(base, factory, settings))


def bot_settings(base: str, factory: BotFactory, text: str) -> dict[str, int | float]:
    """``KEY=NUMBER,...`` checked against the settings the bot's constructor takes."""
    allowed = [p for p in inspect.signature(factory).parameters if p != "rng"]
    out: dict[str, int | float] = {}
    for part in text.split(","):
        key, sep, value = (s.strip() for s in part.partition("="))
        if key not in allowed or not sep:
            takes = ", ".join(allowed) or "no settings"
            raise UnknownGame(f"bot {base}: no setting {key!r} (it takes {takes})")
        try:
            number = float(value)
        except ValueError:
            raise UnknownGame(f"bot {base}: {key}={value!r} is not a number") from None
        if not 0 <= number < 1e9:
            raise UnknownGame(f"bot {base}: {key}={value} is out of range")
        out[key] = int(number) if number.is_integer() else number
    return out

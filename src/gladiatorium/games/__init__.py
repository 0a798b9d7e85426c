"""The games, one package each. A package that exposes ``GAME`` is registered by
:func:`load`; a package still under construction simply does not expose it yet."""

from __future__ import annotations

import importlib
import pkgutil

from gladiatorium.core import register_game

_loaded = False


def load() -> None:
    """Register the generic bots and every built-in game (idempotent)."""
    global _loaded
    if _loaded:
        return
    importlib.import_module("gladiatorium.bots")
    for package in pkgutil.iter_modules(__path__, prefix=f"{__name__}."):
        module = importlib.import_module(package.name)
        game = getattr(module, "GAME", None)
        if game is not None:
            register_game(game)
    _loaded = True

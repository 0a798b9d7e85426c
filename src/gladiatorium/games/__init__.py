"""The games, one package each. A package that exposes ``GAME`` is registered by
:func:`load`; a package still under construction simply does not expose it yet. A
package may also expose ``lab_commands``, a function naming the game's own lab reports
(``gladiatorium lab NAME``), registered beside the game, and ``lab_gauntlet``, the
function that plans the game's gauntlet (core/gauntlet.py)."""

from __future__ import annotations

import importlib
import pkgutil

from gladiatorium.core import register_game, register_lab_commands
from gladiatorium.core.registry import register_gauntlet

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
            reports = getattr(module, "lab_commands", None)
            if reports is not None:
                register_lab_commands(game, reports)
            gauntlet = getattr(module, "lab_gauntlet", None)
            if gauntlet is not None:
                register_gauntlet(game, gauntlet)
    _loaded = True

"""Superhero Gladiators: design heroes (attributes, traits, powers and their cost),
then fight them in an arena."""

from collections.abc import Mapping

from gladiatorium.core.gauntlet import GauntletMaker
from gladiatorium.games.superhero_gladiators.game import SuperheroGladiators
from gladiatorium.games.superhero_gladiators.options import SuperheroGladiatorsOptions
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState

GAME = SuperheroGladiators()


def lab_commands() -> Mapping[str, object]:
    """``gladiatorium lab balance``, ``lab cost`` and ``lab gauntlet``, the game's own lab reports
    (registered by the loader; imported only when called)."""
    from gladiatorium.games.superhero_gladiators.lab import commands

    return {"balance": commands.balance, "cost": commands.cost, "gauntlet": commands.gauntlet}


def lab_gauntlet() -> GauntletMaker:
    """The planner of a hero's gauntlet (``lab/gauntlet.py``), which the server's
    gauntlet queue and ``gladiatorium lab gauntlet`` run (registered by the loader;
    imported only when called)."""
    from gladiatorium.games.superhero_gladiators.lab.gauntlet import make_gauntlet

    return make_gauntlet


__all__ = ["GAME", "SuperheroGladiators", "SuperheroGladiatorsOptions", "SuperheroGladiatorsState"]

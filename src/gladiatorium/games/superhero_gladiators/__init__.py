"""Superhero Gladiators: design heroes (attributes, traits, powers and their cost),
then fight them in an arena."""

from collections.abc import Mapping

from gladiatorium.games.superhero_gladiators.game import SuperheroGladiators
from gladiatorium.games.superhero_gladiators.options import SuperheroGladiatorsOptions
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState

GAME = SuperheroGladiators()


def lab_commands() -> Mapping[str, object]:
    """``gladiatorium lab balance`` and ``lab cost``, the game's own lab reports
    (registered by the loader; imported only when called)."""
    from gladiatorium.games.superhero_gladiators.lab import commands

    return {"balance": commands.balance, "cost": commands.cost}


__all__ = ["GAME", "SuperheroGladiators", "SuperheroGladiatorsOptions", "SuperheroGladiatorsState"]

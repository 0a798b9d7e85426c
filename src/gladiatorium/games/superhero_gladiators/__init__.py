"""Superhero Gladiators: design heroes (attributes, traits, powers and their cost),
then fight them in an arena."""

from gladiatorium.games.superhero_gladiators.game import SuperheroGladiators
from gladiatorium.games.superhero_gladiators.options import SuperheroGladiatorsOptions
from gladiatorium.games.superhero_gladiators.state import SuperheroGladiatorsState

GAME = SuperheroGladiators()

__all__ = ["GAME", "SuperheroGladiators", "SuperheroGladiatorsOptions", "SuperheroGladiatorsState"]

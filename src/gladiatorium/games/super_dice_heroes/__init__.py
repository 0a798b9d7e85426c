"""Super Dice Heroes: a roll-and-write superhero game for 1 to 100 players."""

from gladiatorium.games.super_dice_heroes.game import SuperDiceHeroes
from gladiatorium.games.super_dice_heroes.options import SuperDiceHeroesOptions
from gladiatorium.games.super_dice_heroes.state import SuperDiceHeroesState

GAME = SuperDiceHeroes()

__all__ = ["GAME", "SuperDiceHeroes", "SuperDiceHeroesOptions", "SuperDiceHeroesState"]

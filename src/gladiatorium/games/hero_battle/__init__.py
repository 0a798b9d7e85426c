"""Hero Battle (Mike Jones / Animalball Games): the moderator's engine."""

from gladiatorium.games.hero_battle.game import HeroBattle
from gladiatorium.games.hero_battle.options import HeroBattleOptions
from gladiatorium.games.hero_battle.state import HeroBattleState

GAME = HeroBattle()

__all__ = ["GAME", "HeroBattle", "HeroBattleOptions", "HeroBattleState"]

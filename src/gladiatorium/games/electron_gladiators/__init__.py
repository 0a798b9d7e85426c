"""Electron Gladiators: a two-player tank battle on a 21x21 arena."""

from gladiatorium.games.electron_gladiators.game import ElectronGladiators
from gladiatorium.games.electron_gladiators.options import ElectronGladiatorsOptions
from gladiatorium.games.electron_gladiators.state import ElectronGladiatorsState

GAME = ElectronGladiators()

__all__ = ["GAME", "ElectronGladiators", "ElectronGladiatorsOptions", "ElectronGladiatorsState"]

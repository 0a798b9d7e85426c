"""Gladiator Chess (Steve Wachs): chess on a 12 x 10 board with dice combat, for two
teams of up to four commanders. Rules in our words: docs/rules/gladiator-chess.md."""

from gladiatorium.games.gladiator_chess.game import GladiatorChess
from gladiatorium.games.gladiator_chess.options import GladiatorChessOptions
from gladiatorium.games.gladiator_chess.state import GladiatorChessState

GAME = GladiatorChess()

__all__ = ["GAME", "GladiatorChess", "GladiatorChessOptions", "GladiatorChessState"]

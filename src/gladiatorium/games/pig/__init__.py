"""Pig, the tiny example game of docs/architecture.md."""

from gladiatorium.games.pig.game import Pig, PigOptions, PigState

GAME = Pig()

__all__ = ["GAME", "Pig", "PigOptions", "PigState"]

"""Game-independent bots."""

from gladiatorium.bots.mcts import MctsBot
from gladiatorium.bots.random import RandomBot
from gladiatorium.core import register_generic_bot

register_generic_bot("random", RandomBot)
register_generic_bot("mcts", MctsBot)

__all__ = ["MctsBot", "RandomBot"]

"""Game-independent bots."""

from gladiatorium.bots.random import RandomBot
from gladiatorium.core import register_generic_bot

register_generic_bot("random", RandomBot)

__all__ = ["RandomBot"]

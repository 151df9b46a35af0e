"""Players for tests, demos and absent seats."""

from pbem.bots.bot import Bot
from pbem.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot"]

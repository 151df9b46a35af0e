"""Players for tests, demos and absent seats."""

from pbem.bots.random_bot import RandomBot

__all__ = ["RandomBot"]

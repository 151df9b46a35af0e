"""The ``random`` bot: chooses uniformly among the options it is offered."""

from __future__ import annotations

from pbem.engine.protocol import Decision
from pbem.engine.rng import Rng


class RandomBot:
    """Picks any legal option, from its own replayable generator."""

    name = "random"
    #: the options alone decide: the private part is never read, so a playout need not compute it
    reads_private = False

    def __init__(self, rng: Rng) -> None:
        self._rng = rng

    def choose(self, private: object | None, decision: Decision) -> str:
        """An option of ``decision``, uniformly; ``private`` (what only this player knows, the
        game's ``private(state, player)``) is what a cleverer bot would read."""
        options = decision.options
        return options[self._rng.randbelow(len(options), decision.kind)].id  # Rng.choice, a call fewer a decision

"""What a bot is: something that picks one option of a decision awaited from its player."""

from __future__ import annotations

from typing import Protocol

from pbem.engine.protocol import Decision


class Bot(Protocol):
    """A player for tests, demos and absent seats.

    ``reads_private`` says whether :meth:`choose` reads the player's private
    part: a bot that does not is handed ``None`` where a harness that plays
    in memory (:func:`pbem.bots.playout.play`) would otherwise compute the
    part for every step only to throw it away.
    """

    name: str
    reads_private: bool

    def choose(self, private: object | None, decision: Decision) -> str:
        """The id of one option of ``decision``; ``private`` is the game's
        ``private(state, player)`` when :attr:`reads_private`, else ``None``."""
        ...

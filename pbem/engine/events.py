"""What happened in a step: the public lines and each player's own, kept by the framework.

A turn file tells what happened in its own step only (docs/engine.md,
"Events"). A game on the kit keeps the step's lines in two members of its
state, which :class:`Events` names (``events`` and, per player, ``private``
unless the game names others); the rules add to them (:attr:`Events.say`,
:attr:`Events.tell`), the kit forgets them when a step begins
(:attr:`Events.begin_step`) and puts them under ``events`` in the public and
the private part (:meth:`Events.public_lines`, :meth:`Events.private_lines`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Events:
    """The members of a game's state that hold the lines of the step: ``public`` (a list of lines) and
    ``private`` (player -> list of lines).

    Its functions are made for these names once, so that a rule calls
    ``say(state, line)`` as it would a function of its own module.
    """

    say: Callable[[Any, str], None]
    """``say(state, line)``: a public line about what happened."""
    tell: Callable[[Any, str, str], None]
    """``tell(state, player, line)``: a line only ``player`` reads (the cards they draw)."""
    begin_step: Callable[[Any], None]
    """``begin_step(state)``: a new step; the lines of the last one are forgotten."""

    def __init__(self, public: str = "events", private: str = "private") -> None:
        self.public = public
        self.private = private

        def say(state: Any, line: str) -> None:
            state[public].append(line)

        def tell(state: Any, player: str, line: str) -> None:
            state[private].setdefault(player, []).append(line)

        def begin_step(state: Any) -> None:
            state[public] = []
            state[private] = {}

        self.say, self.tell, self.begin_step = say, tell, begin_step

    def __repr__(self) -> str:
        return f"Events(public={self.public!r}, private={self.private!r})"

    def empty(self) -> dict[str, Any]:
        """The two members of a state set up: no line yet."""
        return {self.public: [], self.private: {}}

    def public_lines(self, state: Any) -> list[str]:
        """The public lines of the step, for the public part."""
        return list(state[self.public])

    def private_lines(self, state: Any, player: str) -> list[str]:
        """``player``'s own lines of the step, for their private part."""
        return list(state[self.private].get(player, ()))

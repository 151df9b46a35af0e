"""What happened: the public and private lines of a step.

A step's lines (``state["events"]``, and ``state["private"]`` per player)
cover everything from the step's first choice to its last, standing orders
included; :func:`begin_step` forgets them when the next step begins. What
happened since a player's last move the view reads back from the turns
(:mod:`pbem.referee.since`), so the state keeps no log.
"""

from __future__ import annotations

from pbem.games.nightlancer.state import State


def begin_step(state: State) -> None:
    """A new step: the last step's lines are forgotten."""
    state["events"] = []
    state["private"] = {}


def say(state: State, line: str) -> None:
    """A public line about what happened."""
    state["events"].append(line)


def tell(state: State, player: str, line: str) -> None:
    """A line only ``player`` reads (the cards they draw)."""
    state["private"].setdefault(player, []).append(line)

"""What happened: the public and private lines of a step, and the rolling recent log.

A step's lines (``state["events"]``, and ``state["private"]`` per player)
cover everything from the step's first choice to its last, standing orders
included; :func:`begin_step` forgets them when the next step begins. The
last :data:`RECENT` public lines stay in ``state["recent"]``, so that a
mailed view shows what happened since the player's last move; bounded, so
that turn files do not grow with the game.
"""

from __future__ import annotations

from pbem.games.nightlancer.state import State

#: public lines kept in the rolling ``recent`` log
RECENT = 24


def begin_step(state: State) -> None:
    """A new step: the last step's lines are forgotten (``recent`` keeps the public ones)."""
    state["events"] = []
    state["private"] = {}


def say(state: State, line: str) -> None:
    """A public line about what happened."""
    state["events"].append(line)
    recent = state["recent"]
    recent.append(line)
    del recent[:-RECENT]


def tell(state: State, player: str, line: str) -> None:
    """A line only ``player`` reads (the cards they draw)."""
    state["private"].setdefault(player, []).append(line)

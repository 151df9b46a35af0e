"""Nightlancer on the engine's turn machine: tasks in steps, decision kinds, free actions.

The rules run as tasks in steps on the stack of :mod:`pbem.engine.machine`
(round, phase, step, mission, challenge, attempt, window, ...): each keeps
its own data while it runs, one handler per step, and finishes handing a
value to its parent (``task["ret"]``). A handler asks a decision
(:func:`ask`) of a kind whose options follow from the state; the kind
applies the choice to the task that asked (:func:`~pbem.engine.machine.top`).
Free actions (sell an Item, give KC, use a Contact on oneself) are offered
inside the decisions. Every module registers its steps and kinds on the
game's :class:`~pbem.engine.machine.TurnMachine` in its ``register``
function.
"""

from __future__ import annotations

from pbem.engine.machine import ask as ask_decision
from pbem.games.nightlancer.state import State


def ask(state: State, player: str, kind: str, prompt: str, *, simultaneous: bool = False,
        contacts: bool = False) -> None:
    """Leave a decision of ``player`` pending; its kind lists the options.

    ``contacts``: the player may use a Contact on themselves here as well
    (an "any time" effect that can change what they may do, see
    :mod:`.actions`).
    """
    ask_decision(state, player, kind, prompt, simultaneous=simultaneous,
                 data={"contacts": True} if contacts else None)


def may_use_contacts(data: dict[str, object] | None) -> bool:
    """Whether a decision was asked with ``contacts``."""
    return bool(data and data.get("contacts"))

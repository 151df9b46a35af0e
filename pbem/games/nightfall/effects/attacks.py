"""The in-play text only an attack gives: "when this minion attacks", a minion must block it. (Such
texts trigger once all attackers are sent, before any blocker is chosen: EN 150, EN 308; ruling 27;
those that also do what other texts do name the common effects, ``discard``, ``receive_wounds``...)"""

from __future__ import annotations

from typing import Any

from pbem.engine.machine import TurnMachine
from pbem.engine.rng import Rng
from pbem.games.nightfall.effects.common import (
    ask_minion,
    picked_minion,
)
from pbem.games.nightfall.flow import on_data
from pbem.games.nightfall.state import (
    State,
    current_combat,
    event,
    health,
    name,
)


def force_block(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """When this minion attacks, 1 minion of your choice must block it. A
    minion blocks one attacker (EN 152), so one already forced to block is
    not chosen again (a second such attacker picks another, if any)."""
    defender = ctx["defender"]
    forced = current_combat(state)["blocks"]
    records = [m for m in state["in_play"]
               if m["controller"] == defender and health(state, m) > 0 and m["card"] not in forced]
    ask_minion(state, ctx, params, "fx:force_block", "which minion must block it?", records)


def _force_block(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    record = picked_minion(state, option_id)
    if record is not None:
        current_combat(state)["blocks"][record["card"]] = data["ctx"]["minion"]
        event(state, f"{name(state, record['card'])} must block {name(state, data['ctx']['minion'])}")


def register(machine: TurnMachine[State]) -> None:
    """This module's tasks and answers, on the game's turn machine."""
    machine.answer("fx:force_block", on_data(_force_block))

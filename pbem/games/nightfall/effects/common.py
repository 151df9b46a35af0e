"""What effects share: scheduling a text, asking for targets, labels, the chain.

An effect is ``effect(state, ctx, params, rng)``: ``ctx`` says who carries it
out (``player``), from which card (``card``) and, for a card in the chain,
which entry of the chain (``entry``); ``params`` is the step from the card
data: its ``target`` (what it acts on, for an effect that acts on more than
one kind of thing), its ``amount`` (or ``amount_from``), its options. An
effect that needs a choice asks for it and is resumed by its answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.engine.machine import Task, TurnMachine, new_task, push
from pbem.engine.rng import Rng
from pbem.games.nightfall.flow import ask, on_data
from pbem.games.nightfall.state import (
    Archive,
    ChainEntry,
    Minion,
    State,
    clockwise_from,
    current_chain,
    event,
    health,
    minion,
    name,
    players,
    strength,
    zones,
)

#: an effect: ``effect(state, ctx, params, rng)``
Effect = Callable[[State, dict[str, Any], dict[str, Any], Rng], None]


def effect_task(function: Effect) -> Callable[[State, Task, Rng], None]:
    """A task that carries out ``function`` with the task's ``ctx`` and ``params``
    (the rest of an effect, after a choice)."""

    def run(state: State, task: Task, rng: Rng) -> None:
        function(state, task["ctx"], task["params"], rng)

    run.__doc__ = function.__doc__
    return run


def schedule(state: State, steps: list[dict[str, Any]], ctx: dict[str, Any]) -> list[dict[str, Any]]:
    """Tasks that carry out a text (a list of effect steps) in order."""
    return [new_task("effect", name=step["effect"], params=step, ctx=ctx) for step in steps]


# ------------------------------------------------------------- choosing

def choose(state: State, player: str, kind: str, prompt: str, options: list[tuple[str, str]], handler: str,
           data: dict[str, Any]) -> None:
    """Ask ``player``; a single option among public things is taken at once."""
    ask(state, player, kind, prompt, options, handler, data, forced=True)


def each_player_in_chosen_order(state: State, ctx: dict[str, Any], step: str, params: dict[str, Any],
                                affected: Callable[[str], bool] = lambda player: True) -> None:
    """Carry out the task ``step`` for every player it affects (a public test), one at
    a time, in the order the player whose card caused it chooses (EN 132:
    "the player whose card triggered the event chooses the order in which
    events resolve"); with one player affected there is nothing to order."""
    left = [p for p in [ctx["player"], *clockwise_from(state, ctx["player"])] if affected(p)]
    if left:
        _next_player(state, {"ctx": ctx, "step": step, "params": params, "left": left}, None, None)


def _next_player(state: State, data: dict[str, Any], option_id: str | None, rng: Any) -> None:
    if option_id is not None:
        target = option_id.split(":", 1)[1]
        data["left"].remove(target)
        if data["left"]:
            push(state, "player_order_rest", params=data, ctx=data["ctx"])
        push(state, data["step"], params=dict(data["params"], player=target), ctx=data["ctx"])
        return
    choose(state, data["ctx"]["player"], "order", f"{name(state, data['ctx']['card'])}: which player goes next?",
           [(f"player:{p}", p) for p in data["left"]], "fx:player_order", data)


def _player_order_rest(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    _next_player(state, params, None, rng)


def minion_label(state: State, record: Minion) -> str:
    return f"{name(state, record['card'])} ({record['controller']}, strength {strength(state, record)}, health {health(state, record)})"


def minion_options(state: State, records: list[Minion]) -> list[tuple[str, str]]:
    return [(f"minion:{m['card']}", minion_label(state, m)) for m in records]


def target_minions(state: State, ctx: dict[str, Any], params: dict[str, Any]) -> list[Minion]:
    """Minions in play a text may pick; with ``prefer_opposing`` an own minion
    only when no opponent has one (DE 77, DE 90, DE 95)."""
    records = list(state["in_play"])
    if params.get("prefer_opposing"):
        opposing = [m for m in records if m["controller"] != ctx["player"]]
        if opposing:
            return opposing
    return records


def picked_minion(state: State, option_id: str) -> Minion | None:
    return minion(state, option_id.split(":", 1)[1])


def player_options(state: State, ctx: dict[str, Any], opponents_only: bool = False) -> list[tuple[str, str]]:
    return [(f"player:{p}", p) for p in players(state) if not (opponents_only and p == ctx["player"])]


def entry_of(state: State, ctx: dict[str, Any]) -> ChainEntry | None:
    if ctx.get("entry") is None or state.get("chain") is None:
        return None
    return current_chain(state)["entries"][ctx["entry"]]


def memory_of(state: State, ctx: dict[str, Any]) -> dict[str, Any]:
    """What an earlier step of this chain card's text remembered for a later one (nothing out of a chain)."""
    entry = entry_of(state, ctx)
    return entry.get("memory", {}) if entry is not None else {}


#: what a step's ``amount_from`` may name: a figure an earlier step of the same text remembered
AMOUNTS_FROM = {"exiled-cost": "exiled_cost"}


def amount_of(state: State, ctx: dict[str, Any], params: dict[str, Any]) -> int:
    """A step's N: its ``amount``, or with ``amount_from`` the figure an earlier step of the text remembered
    (the cost of the card it exiled; 0 when it exiled none)."""
    if "amount_from" in params:
        return int(memory_of(state, ctx).get(AMOUNTS_FROM[params["amount_from"]], 0))
    return int(params["amount"])


def unresolved_before(state: State, ctx: dict[str, Any]) -> list[int]:
    """Indices of the chain cards still to resolve after this one, next first."""
    if ctx.get("entry") is None or state.get("chain") is None:
        return []
    entries = current_chain(state)["entries"]
    return [i for i in range(ctx["entry"] - 1, -1, -1) if not entries[i]["resolved"]]


def chain_entry_label(state: State, index: int) -> str:
    entry = current_chain(state)["entries"][index]
    return f"{name(state, entry['card'])} ({entry['controller']}, #{index + 1} in the chain)"


def ask_minion(state: State, ctx: dict[str, Any], params: dict[str, Any], handler: str, prompt: str,
               records: list[Minion], extra: dict[str, Any] | None = None) -> None:
    if not records:
        event(state, f"{name(state, ctx['card'])}: no minion in play to choose")
        return
    choose(state, ctx["player"], "target", f"{name(state, ctx['card'])}: {prompt}", minion_options(state, records),
           handler, {"ctx": ctx, "params": params, **(extra or {})})


def ask_from_discard_pile(state: State, ctx: dict[str, Any], options: list[tuple[str, str]], prompt: str,
                          none_label: str, handler: str) -> None:
    """Ask the player to pick from their own discard pile.

    Asked even when nothing there fits: only its owner may know what the pile
    holds beyond its top card (EN 105). An empty pile (a public count) asks nothing.
    """
    if not zones(state, ctx["player"])["discard"]:
        event(state, f"{ctx['player']}'s discard pile is empty")
        return
    ask(state, ctx["player"], "target", prompt, options or [("none", none_label)], handler, {"ctx": ctx})


def find_archive(state: State, archive_id: str) -> Archive:
    for archive in state["archives"]:
        if archive["id"] == archive_id:
            return archive
    raise KeyError(archive_id)


def archive_label(state: State, archive: Archive) -> str:
    where = "commons" if archive["owner"] is None else f"{archive['owner']}'s private archive"
    if archive["hidden"] or archive.get("secret"):
        return f"face-down archive {archive['id']} ({where}, {len(archive['cards'])} cards)"
    if not archive["cards"]:
        return f"archive {archive['id']} ({where}, empty)"
    return f"{name(state, archive['cards'][-1])} ({where}, {len(archive['cards'])} left)"


def register(machine: TurnMachine[State]) -> None:
    """This module's tasks and answers, on the game's turn machine."""
    machine.task("player_order_rest", effect_task(_player_order_rest))
    machine.answer("fx:player_order", on_data(_next_player))

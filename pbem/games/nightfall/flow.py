"""Work still to do, and decisions awaited: both are data in the state.

The rules run as a stack of small tasks (``state["tasks"]``, top last), each
a dict naming an operation registered with :func:`op`. A task that needs a
player's choice leaves a pending decision (:func:`ask`) naming the handler
registered with :func:`on_answer` that takes the answer, and returns; the
next move answers it and the stack runs on. No callbacks, no input().
"""

from __future__ import annotations

import re

from typing import Any, Callable, Iterable

from pbem.engine.rng import Rng
from pbem.games.nightfall.state import State

Op = Callable[[State, dict[str, Any], Rng], None]
Answer = Callable[[State, dict[str, Any], str, Rng], None]

OPS: dict[str, Op] = {}
ANSWERS: dict[str, Answer] = {}


def op(name: str) -> Callable[[Op], Op]:
    def register(function: Op) -> Op:
        OPS[name] = function
        return function

    return register


def on_answer(name: str) -> Callable[[Answer], Answer]:
    def register(function: Answer) -> Answer:
        ANSWERS[name] = function
        return function

    return register


def push(state: State, name: str, /, **args: Any) -> None:
    """Do ``name`` next (before anything already waiting)."""
    state["tasks"].append({"op": name, **args})


def push_all(state: State, tasks: Iterable[dict[str, Any]]) -> None:
    """Do these tasks next, in the order given."""
    for task in reversed(list(tasks)):
        state["tasks"].append(task)


def task(name: str, /, **args: Any) -> dict[str, Any]:
    return {"op": name, **args}


def distinct_labels(options: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Options whose labels would read alike (two copies of a minion in play)
    get the instance number of the card their id names, as the screen shows
    it (``#3``), so that a player can tell them apart."""
    counts: dict[str, int] = {}
    for _, label in options:
        counts[label] = counts.get(label, 0) + 1
    result = []
    for option_id, label in options:
        number = re.search(r"#(\d+)(?!.*#\d)", option_id)
        if counts[label] > 1 and number:
            label = f"{label} #{number.group(1)}"
        result.append((option_id, label))
    return result


def ask(
    state: State,
    player: str,
    kind: str,
    prompt: str,
    options: list[tuple[str, str]],
    handler: str,
    data: dict[str, Any] | None = None,
    pass_id: str | None = None,
    simultaneous: bool = False,
) -> None:
    """Leave a decision of ``player`` pending; ``handler`` takes the answer."""
    assert options, f"a {kind} decision needs options"
    assert len({o for o, _ in options}) == len(options), f"duplicate option ids in {kind}: {options}"
    state["pending"].append(
        {
            "player": player,
            "kind": kind,
            "prompt": prompt,
            "options": [{"id": i, "label": label} for i, label in distinct_labels(options)],
            "pass_id": pass_id,
            "simultaneous": simultaneous,
            "handler": handler,
            "data": data or {},
        }
    )


def run(state: State, rng: Rng) -> None:
    """Run tasks until a decision is pending or nothing is left."""
    while not state["pending"] and state["tasks"]:
        current = state["tasks"].pop()
        OPS[current["op"]](state, current, rng)


def answer(state: State, player: str, option_id: str, rng: Rng) -> None:
    """Hand ``player``'s choice to the handler of their pending decision."""
    for index, pending in enumerate(state["pending"]):
        if pending["player"] == player:
            break
    else:
        raise ValueError(f"no decision of {player!r} is pending")
    del state["pending"][index]
    ANSWERS[pending["handler"]](state, pending["data"], option_id, rng)
    run(state, rng)


def triggers_in_chosen_order(state: State, player: str, triggers: list[tuple[str, str, dict[str, Any]]]) -> None:
    """Run in-play effects that trigger at the same time, ``(id, label, task)``
    each: "the active player controls the order they resolve" (EN 124). One
    alone just runs, and so do copies of one card (the same label): their
    order cannot matter."""
    if len({label for _, label, _ in triggers}) == 1:
        push_all(state, [t[2] for t in triggers])
    elif triggers:
        push(state, "order_triggers", player=player, triggers=[list(t) for t in triggers])


@op("order_triggers")
def _order_triggers(state: State, task: dict[str, Any], rng: Rng) -> None:
    ask(state, task["player"], "trigger-order", "several in-play effects trigger at once: which resolves next?",
        [(option_id, label) for option_id, label, _ in task["triggers"]], "flow:trigger", task)


@on_answer("flow:trigger")
def _trigger_chosen(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    chosen = next(t for t in data["triggers"] if t[0] == option_id)
    rest = [t for t in data["triggers"] if t[0] != option_id]
    triggers_in_chosen_order(state, data["player"], [tuple(t) for t in rest])
    push(state, chosen[2]["op"], **{k: v for k, v in chosen[2].items() if k != "op"})

"""Work still to do, and decisions awaited: Nightfall on the engine's turn machine.

The rules run as one-shot tasks on the stack of :mod:`pbem.engine.machine`
(each task runs once; what is left it pushes as new tasks). A task that
needs a player's choice asks for it (:func:`ask`) with the options fixed
now, naming the answer that takes the choice from the decision's ``data``,
and returns; the next move answers it and the stack runs on. No callbacks,
no input(). Every module registers its tasks and answers on the game's
:class:`~pbem.engine.machine.TurnMachine` in its ``register`` function.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pbem.engine.machine import (
    KIND_DEFAULT,
    Answer,
    PassId,
    PendingDecision,
    Task,
    TurnMachine,
    push,
    push_all,
)
from pbem.engine.machine import ask as ask_decision
from pbem.engine.rng import Rng
from pbem.games.nightfall.ordertests import TESTS
from pbem.games.nightfall.state import State, current_turn, event, zones

#: an answer that carries on from the data its decision was asked with
DataAnswer = Callable[[State, dict[str, Any], str, Rng], None]
#: an in-play effect triggering now: ``(option id, label, task)``
Trigger = tuple[str, str, Task]

#: the kinds of decision, in the rulebook's words (what a standing order names)
KINDS = {
    "draft-pick": "pick a draft card (all players at once, EN 72-76)",
    "attack": "the opponent an attacking minion attacks (EN 147)",
    "combat-order": "which combat resolves next (EN 148)",
    "wound-window": "use a Martial Law wound before the blocks (DE 33)",
    "block": "whether a minion blocks, and which attacker (EN 152)",
    "block-order": "which blocker takes the damage next (EN 155, EN 167)",
    "strike": "which attacker deals its damage next, or a wound effect first",
    "chain-start": "start a chain with a card from hand, or pass (EN 173)",
    "add-to-chain": "add more cards to your own chain, or end it (EN 176-180)",
    "link": "link one or more cards to an opponent's chain, or pass (EN 177-181)",
    "feed": "pay a feed to carry out a text again (EN 202), or feed a wound effect",
    "feed-payment": "the card discarded to pay a feed",
    "target": "what a card's text acts on: a minion, a player, a card, an archive",
    "order": "the order of simultaneous events a card causes (EN 132)",
    "trigger-order": "the order of in-play effects that trigger at once (EN 124)",
    "discard": "a card to discard from hand",
    "optional": "whether to do what a text lets you do but does not make you do (DE 78)",
    "claim": "claim an archive's top card, discard for influence, or end the claim phase (EN 217-226)",
    "nothing-to-claim": "the claim phase with nothing left to claim: discard for influence, or end it (EN 217-226)",
    "wound-effect": "use a Nightfall wound's effect in the cleanup phase (EN 232)",
}


#: the kinds with an obvious pass: the option that declines, which a standing order to pass chooses
#: and the referee takes for a player whose decision passed its deadline (the default action "pass")
PASS_IDS = {
    "wound-window": "continue",
    "block": "no-block",
    "chain-start": "pass",
    "add-to-chain": "pass",
    "link": "pass",
    "feed": "stop",
    "optional": "decline",
    "claim": "done",
    "nothing-to-claim": "done",
    "wound-effect": "pass",
}


def _hand_is_empty(state: State, decision: PendingDecision) -> bool:
    """The player holds no card: hand sizes are public, so the options a hand
    would add (a card to play, link, feed or use) are known to be none."""
    return not zones(state, decision["player"])["hand"]


def _wound_effect_closed(state: State, decision: PendingDecision) -> bool:
    """A strike's or the cleanup's options beyond the public ones are the
    turn's wound effects from hand: none once the turn's wound effect is used
    (public: ``wound_effect_used``), or with no card in hand. Discarding a
    further wound for the Nightfall wound effect offers the wounds in hand."""
    first_ask = decision.get("answer") in ("combat:strike", "turn:wound")
    return _hand_is_empty(state, decision) or (first_ask and current_turn(state)["wound_used"])


def _claims_are_public(state: State, decision: PendingDecision) -> bool:
    """The claim phase offers each claimable archive whose cost is seen and
    paid for (public), each untried face-down archive (public), one discard
    per card in hand (hand sizes are public) and the end: how many is public,
    unless the player has a secret archive, whose top card's cost only they see."""
    player = decision["player"]
    return not any(a.get("secret") and a["owner"] == player and a["cards"] for a in state["archives"])


#: when a decision of a kind has a number of options that follows from public
#: facts alone, so that one with a single option is taken without asking
#: (docs/trust.md "Decisions with one option", ruling 30). The other kinds
#: are taken at once only when asked as ``forced`` (choices among public
#: things); decisions whose options come from a hand are otherwise always asked.
PUBLIC_COUNTS: dict[str, Callable[[State, PendingDecision], bool]] = {
    "chain-start": _hand_is_empty,
    "add-to-chain": _hand_is_empty,
    "link": _hand_is_empty,
    "wound-window": _hand_is_empty,
    "feed": _hand_is_empty,
    "strike": _wound_effect_closed,
    "wound-effect": _wound_effect_closed,
    "claim": _claims_are_public,
    "nothing-to-claim": _hand_is_empty,
}


def _taken(state: State, decision: PendingDecision, option_id: str, label: str) -> None:
    """The public line of a decision the machine took: its one option is public (it is
    taken only where how many options there are is public, among public things)."""
    event(state, f"{decision['player']}'s {decision['kind']} decision: {label} (the only option, taken without asking)")


def on_data(handler: DataAnswer) -> Answer[State]:
    """The machine's answer for a handler that works from its decision's ``data``."""

    def answer(state: State, decision: PendingDecision, option_id: str, rng: Rng) -> None:
        handler(state, decision["data"], option_id, rng)

    answer.__doc__ = handler.__doc__
    return answer


#: the instance number of the last card an option id names (``#3``)
_COPY_NUMBER = re.compile(r"#(\d+)(?!.*#\d)")


def distinct_labels(options: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Options whose labels would read alike (two copies of a minion in play)
    get the instance number of the card their id names, as the screen shows
    it (``#3``), so that a player can tell them apart."""
    if len(options) < 2 or len({label for _, label in options}) == len(options):  # one option reads alike to none
        return options
    counts: dict[str, int] = {}
    for _, label in options:
        counts[label] = counts.get(label, 0) + 1
    result = []
    for option_id, label in options:
        if counts[label] > 1:
            number = _COPY_NUMBER.search(option_id)
            if number:
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
    pass_id: PassId = KIND_DEFAULT,
    simultaneous: bool = False,
    forced: bool = False,
) -> None:
    """Leave a decision of ``player`` pending; the answer ``handler`` takes the choice.

    ``pass_id`` overrides the kind's (:data:`PASS_IDS`; ``None``: no pass
    here). ``forced``: a single option is taken at once (only among public
    things).
    """
    ask_decision(state, player, kind, prompt, options=distinct_labels(options), answer=handler, data=data or {},
                pass_id=pass_id, simultaneous=simultaneous, forced=forced)


def triggers_in_chosen_order(state: State, player: str, triggers: list[Trigger]) -> None:
    """Run in-play effects that trigger at the same time, ``(id, label, task)``
    each: "the active player controls the order they resolve" (EN 124). One
    alone just runs, and so do copies of one card (the same label): their
    order cannot matter."""
    if len({label for _, label, _ in triggers}) == 1:
        push_all(state, [t[2] for t in triggers])
    elif triggers:
        push(state, "order_triggers", player=player, triggers=[list(t) for t in triggers])


def _order_triggers(state: State, task: Task, rng: Rng) -> None:
    ask(state, task["player"], "trigger-order", "several in-play effects trigger at once: which resolves next?",
        [(option_id, label) for option_id, label, _ in task["triggers"]], "flow:trigger", task)


def _trigger_chosen(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    chosen = next(t for t in data["triggers"] if t[0] == option_id)
    rest = [t for t in data["triggers"] if t[0] != option_id]
    triggers_in_chosen_order(state, data["player"], [(t[0], t[1], t[2]) for t in rest])
    push_all(state, [dict(chosen[2])])


def register(machine: TurnMachine[State]) -> None:
    """The decision kinds (with what orders for each may test, :mod:`.ordertests`), and this module's task
    and answer, on the game's turn machine."""
    for kind in KINDS:
        machine.kind(kind, pass_id=PASS_IDS.get(kind), public_count=PUBLIC_COUNTS.get(kind), tests=TESTS.get(kind, ()))
    machine.on_taken(_taken)
    machine.task("order_triggers", _order_triggers)
    machine.answer("flow:trigger", on_data(_trigger_chosen))

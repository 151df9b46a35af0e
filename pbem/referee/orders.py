"""Standing orders: a player's instruction to pass decisions of some kinds for them.

A move's sealed payload may carry ``standing_orders: {"auto_pass": {KIND:
MODE}}``. ``always`` passes whenever the decision offers its pass option,
``when-only-option`` only when passing is the only option, and ``off``
cancels the order. Orders name only the game's own decision kinds
(:meth:`pbem.engine.protocol.Game.decision_kinds`) and are few and short
(``schemas/standing-orders.schema.json``), so the sections that keep them
stay small whatever a player sends.

Orders are set with a move, by the awaited player: with choices, or alone
when the orders answer the player's open decision at once. So every turn a
move writes answers a real decision, and nobody grows the archive for
nothing.
"""

from __future__ import annotations

import copy
from typing import Any

from pbem.engine.protocol import Decision, Game, GameState, apply_choice
from pbem.engine.rng import Rng

#: what a standing order may say for one decision kind
MODES = ("always", "when-only-option", "off")
#: standing orders answer at most this many decisions in one step (a guard
#: against a game that would offer the same pass for ever)
AUTO_CHOICE_LIMIT = 10_000

Orders = dict[str, dict[str, Any]]

#: why a move of standing orders alone is refused when it leaves the open decision open
ANSWER_NOTHING = (
    "standing orders alone must answer your open {kind} decision, but these answer nothing now: "
    "send them with a choice (--choose), so that the move answers a decision"
)
#: why a move of standing orders alone is refused from a player who is not awaited
NOT_AWAITED = "standing orders are set with a move when you are awaited"


class OrdersLoop(Exception):
    """The game offered passes for ever: standing orders answered too many decisions in one step."""


def unknown_kinds(game: Game, update: dict[str, Any] | None) -> list[str]:
    """The kinds ``update`` names that are not decision kinds of ``game`` (sorted)."""
    if not update:
        return []
    return sorted(set(update.get("auto_pass", {})) - game.decision_kinds())


def kinds_text(game: Game) -> str:
    """The game's decision kinds, for a message: ``"block, draft-pick, link"``."""
    return ", ".join(sorted(game.decision_kinds()))


def merge(orders: Orders, player: str, update: dict[str, Any] | None) -> Orders:
    """The standing orders of every player after ``player``'s ``update`` ("off" cancels an order)."""
    merged = copy.deepcopy(orders)
    if not update:
        return merged
    auto_pass = dict(merged.get(player, {}).get("auto_pass", {}))
    for kind, mode in update.get("auto_pass", {}).items():
        if mode == "off":
            auto_pass.pop(kind, None)
        else:
            auto_pass[kind] = mode
    if auto_pass:
        merged[player] = {"auto_pass": auto_pass}
    else:
        merged.pop(player, None)
    return merged


def answers(decision: Decision, player_orders: dict[str, Any] | None) -> bool:
    """Whether a player's standing orders pass ``decision`` now."""
    mode = (player_orders or {}).get("auto_pass", {}).get(decision.kind)
    pass_id = decision.pass_id
    if mode is None or pass_id is None or decision.option(pass_id) is None:
        return False
    return mode == "always" or (mode == "when-only-option" and len(decision.options) == 1)


def carry_out(game: Game[GameState], state: GameState, orders: Orders, rng: Rng,
              step: list[dict[str, str]]) -> GameState:
    """Answer, for players with a standing order, the pass decisions it covers, in a loop.

    Each answer is recorded in ``step`` as ``"by": "standing-order"``.
    Without an order nothing is answered for a player, so an opponent cannot
    tell from the record whether they could have acted.
    """
    for _ in range(AUTO_CHOICE_LIMIT):
        for decision in game.awaiting(state):
            if answers(decision, orders.get(decision.player)):
                assert decision.pass_id is not None
                state = apply_choice(game, state, decision.player, decision.pass_id, rng, decision=decision)
                step.append({"player": decision.player, "option": decision.pass_id, "by": "standing-order"})
                break
        else:
            return state
    raise OrdersLoop(f"standing orders answered {AUTO_CHOICE_LIMIT} decisions in one step; the game loops")

"""Effects on your discard pile."""

from __future__ import annotations

from typing import Any

from pbem.engine.machine import TurnMachine
from pbem.engine.rng import Rng
from pbem.games.nightfall.effects.common import ask_from_discard_pile, entry_of
from pbem.games.nightfall.flow import ask, on_data
from pbem.games.nightfall.state import (
    State,
    card,
    event,
    exile,
    is_order,
    is_wound,
    name,
    zones,
)


def exile_order_card(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Exile 1 order card from your discard pile (DE 56, DE 89; wounds are not order cards); its cost is
    remembered for the text's next steps (``amount_from = "exiled-cost"``: "deal damage equal to its cost",
    EN 301)."""
    pile = zones(state, ctx["player"])["discard"]
    options = [(f"card:{c}", f"{name(state, c)} (cost {card(state, c)['cost']})") for c in pile if is_order(state, c)]
    ask_from_discard_pile(state, ctx, options, f"{name(state, ctx['card'])}: exile which card from your discard pile?",
                          "no order card in your discard pile", "fx:exile_order_card")


def _exile_order_card(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    ctx = data["ctx"]
    if option_id == "none":
        event(state, f"{ctx['player']} exiles nothing")
        return
    card_id = option_id.split(":", 1)[1]
    zones(state, ctx["player"])["discard"].remove(card_id)
    exile(state, card_id)
    cost = card(state, card_id)["cost"]
    entry = entry_of(state, ctx)
    if entry is not None:
        entry.setdefault("memory", {})["exiled_cost"] = cost
    event(state, f"{ctx['player']} exiles {name(state, card_id)} (cost {cost})")


def exile_from_discard(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Exile up to N cards from your discard pile; if only wounds were
    exiled, one goes back (DE 94)."""
    _exile_pick(state, {"ctx": ctx, "left": params["amount"], "exiled": []}, None, rng)


def _exile_pick(state: State, data: dict[str, Any], option_id: str | None, rng: Rng) -> None:
    player = data["ctx"]["player"]
    pile = zones(state, player)["discard"]
    if option_id is not None and option_id != "done":
        card_id = option_id.split(":", 1)[1]
        pile.remove(card_id)
        exile(state, card_id)
        data["exiled"].append(card_id)
        data["left"] -= 1
        event(state, f"{player} exiles {name(state, card_id)}")
    if option_id != "done" and data["left"] > 0 and pile:
        options = sorted({(f"card:{c}", name(state, c)) for c in pile}) + [("done", "exile no more")]
        ask(state, player, "target", f"{name(state, data['ctx']['card'])}: exile a card from your discard pile?",
            options, "fx:exile_from_discard", data)
        return
    if data["exiled"] and all(is_wound(state, c) for c in data["exiled"]):
        back = data["exiled"][-1]
        state["exiled"].remove(back)
        pile.append(back)
        event(state, f"only wounds were exiled: {name(state, back)} goes back to {player}'s discard pile")


def register(machine: TurnMachine[State]) -> None:
    """This module's tasks and answers, on the game's turn machine."""
    machine.answer("fx:exile_order_card", on_data(_exile_order_card))
    machine.answer("fx:exile_from_discard", on_data(_exile_pick))

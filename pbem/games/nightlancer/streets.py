"""The Streets phase (rulebook 3.2).

In Turn Order each player buys a Black Market card, fulfils an Agenda,
takes a Loan, buys Prospects or passes, until all pass consecutively; then
the Open Black Market is discarded. Shaken players take no actions (5.2).
"""

from __future__ import annotations

from typing import Any

from pbem.engine.machine import PendingDecision, Task, TurnMachine, finish, top
from pbem.engine.rng import Rng
from pbem.games.nightlancer import agendas, tokens
from pbem.games.nightlancer.challenges import (
    automatic_contact,
    open_window,
    others_in_turn_order,
)
from pbem.games.nightlancer.effects import cyber_duplicate, new_mods
from pbem.games.nightlancer.flow import ask
from pbem.games.nightlancer.state import State
from pbem.games.nightlancer.zones import (
    card,
    current_event,
    discard,
    tableau_zone,
)

MAX_LOANS = 2
LOAN_KC = 10


def price(state: State, player: str, item: str) -> int:
    return prices(state, player, [item])[item]


def prices(state: State, player: str, items: list[str]) -> dict[str, int]:
    """What ``player`` pays for each of ``items``: its cost less the discounts on its type (Skills, the
    Nightlancer's special), never below 0. The permanent effects are read once for all the items."""
    discounts: dict[str, int] = {}
    for effect in tokens.permanent_effects(state, player):
        if effect["effect"] == "discount":
            for item_type in set(effect["types"]):
                discounts[item_type] = discounts.get(item_type, 0) + effect["amount"]
    paid = {}
    for item in items:
        data = card(state, item)
        paid[item] = max(0, data["cost"] - discounts.get(data["type"], 0))
    return paid


def prospect_price(state: State) -> int:
    return card(state, current_event(state))["price"]


def streets_turn(state: State, frame: Task, rng: Rng) -> None:
    """The next player's turn, until all pass consecutively."""
    order = state["order"]
    if frame["passes"] >= len(order):
        for c in state["market"]:
            discard(state, c)
        if state["market"]:
            tokens.say(state, "The Open Black Market is discarded.")
        state["market"] = []
        finish(state)
        return
    player = order[frame["idx"] % len(order)]
    if tokens.seat(state, player)["shaken"]:
        frame["passes"] += 1
        frame["idx"] += 1
        return
    ask(state, player, "streets", contacts=True,
        prompt="Streets: buy, fulfil an Agenda, take a Loan, buy Prospects or pass")


def streets_bought(state: State, frame: Task, rng: Rng) -> None:
    """The reaction window after a buy is closed: the buy completes (or falls through)."""
    mods = frame.pop("ret")
    complete_buy(state, frame.pop("buyer"), frame.pop("item"), mods)
    frame["step"] = "start"
    frame["idx"] += 1


def streets_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    player = decision["player"]
    p = tokens.seat(state, player)
    options = []
    costs = prices(state, player, state["market"])
    for c in state["market"]:
        cost = costs[c]
        if p["kc"] >= cost and not cyber_duplicate(state, player, c):
            data = card(state, c)
            marks = ", ".join([data["type"].title()] + [t.title() for t in data["traits"]])
            options.append((f"buy:{c}", f"Buy {data['name']} ({marks}) for {cost} KC"))
    for c in agendas.fulfillable(state, player):
        options.append((f"fulfil:{c}", f"Fulfil the Agenda {card(state, c)['name']}"))
    if p["loans"] < MAX_LOANS:
        options.append(("loan", f"Take a Loan ({LOAN_KC} KC)"))
    each = prospect_price(state)
    for n in range(1, p["kc"] // each + 1):
        options.append((f"prospects:{n}", f"Buy {n} Prospect{'s' if n > 1 else ''} for {n * each} KC"))
    options.append(("pass", "Pass"))
    return options


def streets_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    player = decision["player"]
    p = tokens.seat(state, player)
    parts = option.split(":")
    if parts[0] == "pass":
        frame["passes"] += 1
        frame["idx"] += 1
        tokens.say(state, f"{player} passes.")
        return
    frame["passes"] = 0
    if parts[0] == "buy":
        item = parts[1]
        tokens.say(state, f"{player} buys {card(state, item)['name']}.")
        if state["mode"] == "competitive":
            frame["step"], frame["buyer"], frame["item"] = "bought", player, item
            open_window(state, "buy", player, others_in_turn_order(state, player), what=card(state, item)["name"])
            return
        mods = new_mods()
        automatic_contact(state, player, "buy", mods, rng)
        complete_buy(state, player, item, mods)
    elif parts[0] == "fulfil":
        agendas.fulfil(state, player, parts[1], rng)
    elif parts[0] == "loan":
        p["loans"] += 1
        p["kc"] += LOAN_KC
        tokens.say(state, f"{player} takes a Loan of {LOAN_KC} KC.")
    elif parts[0] == "prospects":
        n = int(parts[1])
        p["kc"] -= n * prospect_price(state)
        p["prospects"] += n
        tokens.say(state, f"{player} buys {n} Prospect(s).")
    frame["idx"] += 1


def complete_buy(state: State, player: str, item: str, mods: dict[str, Any]) -> None:
    """Pay and take the card, unless a contact cancelled the buy: then the
    black market card is discarded and nothing is paid (6.1, ruling)."""
    state["market"].remove(item)
    if mods["cancel"]:
        discard(state, item)
        tokens.say(state, f"The sale of {card(state, item)['name']} falls through; the card is discarded.")
        return
    p = tokens.seat(state, player)
    p["kc"] -= price(state, player, item)
    tableau_zone(state, player, item).append(item)


def register(machine: TurnMachine[State]) -> None:
    """This module's steps and decision kinds, on the game's turn machine."""
    machine.steps("streets", {"start": streets_turn, "bought": streets_bought})
    machine.kind("streets", prompt="Your Streets phase turn", pass_id="pass", options=streets_options, apply=streets_apply)

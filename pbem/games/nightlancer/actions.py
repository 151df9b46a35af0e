"""Free actions offered inside a player's decisions.

* Sell an Item (3 "Sell items"): "At any time a player may sell Item cards
  (Armour, Gear or Weapon cards)" for half the cost, rounded down: offered
  in every decision.
* Use a Contact on yourself whose effect applies at any time (heal, KC,
  Heat, draw): in the decisions where such an effect can change what the
  player may do (``contacts=True``: Streets turns, Loan costs, Take
  missions, Skill purchases, the parts of an Event, the game end).
* Give KC to another player (6.1 cooperative: "The players may exchange KC
  amongst themselves at any time"): in every decision, 1, 2, 5 or 10 KC at
  a time (several gifts make any sum).

These do not end the decision: the same decision is asked again.
"""

from __future__ import annotations

from pbem.engine.machine import PendingDecision, TurnMachine
from pbem.engine.rng import Rng
from pbem.games.nightlancer import effects, tokens
from pbem.games.nightlancer.flow import may_use_contacts
from pbem.games.nightlancer.state import Card, State
from pbem.games.nightlancer.texts import describe_effect
from pbem.games.nightlancer.zones import card, discard

GIFTS = (1, 2, 5, 10)


def sale_price(data: Card) -> int:
    """What an Item sells for: half its cost, rounded down (``data``: its card)."""
    return data["cost"] // 2


def sell(state: State, player: str, item: str) -> None:
    p = tokens.seat(state, player)
    p["items"].remove(item)
    if item in p["loadout"]:
        p["loadout"].remove(item)
    if item in p["spent"]:
        p["spent"].remove(item)
    discard(state, item)
    data = card(state, item)
    p["kc"] += sale_price(data)
    tokens.say(state, f"{player} sells {data['name']} for {sale_price(data)} KC.")


def sell_offers(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    offers = []
    for c in tokens.seat(state, decision["player"])["items"]:
        data = card(state, c)
        offers.append((f"sell:{c}", f"Sell {data['name']} for {sale_price(data)} KC"))
    return offers


def sell_apply(state: State, player: str, option: str, rng: Rng) -> None:
    sell(state, player, option.split(":")[1])


def use_offers(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    if not may_use_contacts(decision.get("data")):
        return []
    offers = []
    for c in tokens.seat(state, decision["player"])["hand"]:
        data = card(state, c)
        if data["kind"] != "contact":
            continue
        for n, effect in enumerate(data["self"], start=1):
            # effects.self_applies(effect, "anytime") inline: asked of every contact effect in hand, in most decisions
            if effect["effect"] in effects.ANYTIME_SELF:
                offers.append((f"use:{c}:{n}", f"Play {data['name']}: {describe_effect(effect)}"))
    return offers


def use_apply(state: State, player: str, option: str, rng: Rng) -> None:
    _, contact, n = option.split(":")
    data = card(state, contact)
    tokens.seat(state, player)["hand"].remove(contact)
    discard(state, contact)
    effect = data["self"][int(n) - 1]
    tokens.say(state, f"{player} plays {data['name']}: {describe_effect(effect)}.")
    effects.apply_self(state, player, effect, effects.new_mods(), rng)


def give_offers(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    if state["mode"] != "cooperative":
        return []
    player = decision["player"]
    p = tokens.seat(state, player)
    return [(f"give:{other}:{n}", f"Give {n} KC to {other}")
            for other in state["order"] if other != player for n in GIFTS if p["kc"] >= n]


def give_apply(state: State, player: str, option: str, rng: Rng) -> None:
    _, other, n = option.split(":")
    tokens.seat(state, player)["kc"] -= int(n)
    tokens.seat(state, other)["kc"] += int(n)
    tokens.say(state, f"{player} gives {n} KC to {other}.")


def register(machine: TurnMachine[State]) -> None:
    """The free actions, offered in this order after a decision's own options."""
    machine.free_action("sell", sell_offers, sell_apply)
    machine.free_action("use", use_offers, use_apply)
    machine.free_action("give", give_offers, give_apply)

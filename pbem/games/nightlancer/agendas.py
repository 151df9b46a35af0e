"""Agenda cards: requirements, costs and rewards (rulebook 3.2 "Fulfil an Agenda").

"An Agenda card may be fulfilled if the conditions on the card are met. To
fulfil it the costs must be paid in full." This is the Agenda's own rule
over 5.2 "Paying costs", which lets other actions discard Health and
Resolve as far as they go: an Agenda's KC, Health and Resolve costs must
all be there in full (ruling R28). Paying the last Health or Resolve is
paying in full, and Shakes (5.2).
"""

from __future__ import annotations

from typing import Any

from pbem.engine.rng import Rng
from pbem.games.nightlancer import tokens
from pbem.games.nightlancer.cards import ITEM_TYPES
from pbem.games.nightlancer.effects import draw_contacts
from pbem.games.nightlancer.state import Seat, State
from pbem.games.nightlancer.zones import card

#: the requirements that count a token the seat holds, under the same name
HELD_TOKENS = frozenset({"heat", "kc", "loans", "ideals", "prospects"})


def measure(state: State, player: str, need: dict[str, Any]) -> int:
    p = tokens.seat(state, player)
    what = need["need"]
    if what in HELD_TOKENS:  # the commonest requirements, read first
        return p[what]  # type: ignore[literal-required]
    if what == "cards":
        return sum(1 for c in p["items"] + p["cyber"] if card(state, c)["type"] == need["of"])
    if what == "items":
        return sum(1 for c in p["items"] if card(state, c)["type"] in ITEM_TYPES)
    if what == "contacts":
        return len(tokens.contacts_in_hand(state, player))
    if what == "skills":
        return len(p["skills"])
    if what == "missions":
        return p["missions_done"]
    raise KeyError(what)


#: the kinds of Agenda card a player may hold and fulfil
AGENDA_KINDS = ("agenda", "personal_agenda")


def requirements_met(state: State, player: str, data: dict[str, Any]) -> bool:
    """Whether ``player`` meets every requirement of the Agenda card ``data``."""
    for need in data["requires"]:
        value = measure(state, player, need)
        if "at_least" in need and value < need["at_least"]:
            return False
        if "at_most" in need and value > need["at_most"]:
            return False
    return True


def holds_cost(p: Seat, cost: dict[str, int]) -> bool:
    """Whether the seat holds the whole cost of an Agenda: KC, Health and Resolve (R28)."""
    return (p["kc"] >= cost.get("kc", 0) and p["health"] >= cost.get("health", 0)
            and p["resolve"] >= cost.get("resolve", 0))


def fulfillable(state: State, player: str) -> list[str]:
    """The Agendas in ``player``'s hand they may fulfil now, in the order held: the requirements are met and the
    cost is held in full. Each card is looked up once (a Streets turn offers them in every decision)."""
    p = tokens.seat(state, player)
    found = []
    for c in p["hand"]:
        data = card(state, c)
        if data["kind"] in AGENDA_KINDS and requirements_met(state, player, data) and holds_cost(p, data["cost"]):
            found.append(c)
    return found


def fulfil(state: State, player: str, agenda: str, rng: Rng) -> None:
    """Pay the cost, place the Agenda face-up beside the Nightlancer, take the reward."""
    data = card(state, agenda)
    p = tokens.seat(state, player)
    p["hand"].remove(agenda)
    p["fulfilled"].append(agenda)
    cost, reward = data["cost"], data["reward"]
    p["kc"] -= cost.get("kc", 0)
    tokens.say(state, f"{player} fulfils the Agenda {data['name']}.")
    if cost.get("health") or cost.get("resolve"):
        tokens.lose(state, player, health=cost.get("health", 0), resolve=cost.get("resolve", 0))
    if state.get("over"):
        return
    p["prospects"] += reward.get("prospects", 0)
    p["kc"] += reward.get("kc", 0)
    tokens.cool(state, player, reward.get("cool", 0))
    if reward.get("heal"):
        tokens.heal(state, player, reward["heal"], reward["heal"])
    for _ in range(reward.get("ideals", 0)):
        tokens.gain_ideal(state, player)
    if reward.get("draw"):
        draw_contacts(state, player, reward["draw"], rng)

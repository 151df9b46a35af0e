"""Tokens and status: Health, Resolve, KC, Heat, Ideals, Shaken, Techshock.

Rulebook 5.2 "Paying costs": KC is paid only in full; Health and Resolve
are discarded as far as they go, and a player who runs out is Shaken.
Rulebook 5.2 "Nightlancer status" gives Shaken and Techshock.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.errors import present
from pbem.games.nightlancer.crews import leave_mission

# re-exported: the rules modules write tokens.say and tokens.tell
from pbem.games.nightlancer.events import say as say
from pbem.games.nightlancer.events import tell as tell
from pbem.games.nightlancer.outcome import techshock_defeat
from pbem.games.nightlancer.state import Card, Seat, State
from pbem.games.nightlancer.zones import card

MAX_IDEALS = 6


def seat(state: State, player: str) -> Seat:
    return state["seats"][player]


def contacts_in_hand(state: State, player: str) -> list[str]:
    """The Contact cards in ``player``'s hand (the rest are Agendas); how many is public (3.2)."""
    return [c for c in seat(state, player)["hand"] if card(state, c)["kind"] == "contact"]


def permanent_effects(state: State, player: str) -> list[dict[str, Any]]:
    """Effects always in effect: the Nightlancer's special and its Skill cards."""
    p = seat(state, player)
    effects: list[dict[str, Any]] = []
    if p["nightlancer"]:
        effects.extend(card(state, p["nightlancer"])["special"])
    for skill in p["skills"]:
        effects.extend(card(state, skill)["effects"])
    return effects


def _sum(state: State, player: str, name: str, with_cyber: bool = True) -> int:
    total = sum(e["amount"] for e in permanent_effects(state, player) if e["effect"] == name)
    if with_cyber:
        for c in seat(state, player)["cyber"]:
            total += sum(e["amount"] for e in card(state, c)["effects"] if e["effect"] == name)
    return total


def nightlancer_of(state: State, player: str) -> Card:
    """The card of the Nightlancer ``player`` plays (picked at set-up)."""
    return card(state, present(seat(state, player)["nightlancer"], f"{player}'s Nightlancer"))


def ability(state: State, player: str, name: str) -> int:
    """The Nightlancer's rating in one ability: the printed rating and what raises it (Skills, 5.1)."""
    raised = sum(e["amount"] for e in permanent_effects(state, player) if e["effect"] == "ability" and name in e["abilities"])
    rating: int = nightlancer_of(state, player)["abilities"][name]
    return rating + raised


def max_health(state: State, player: str) -> int:
    return nightlancer_of(state, player)["health"] + _sum(state, player, "max_health")


def max_resolve(state: State, player: str) -> int:
    return nightlancer_of(state, player)["resolve"] + _sum(state, player, "max_resolve")


def income(state: State, player: str) -> int:
    return _sum(state, player, "income")


def extra_contacts(state: State, player: str) -> int:
    return _sum(state, player, "extra_contacts")


def is_techshock(state: State, player: str) -> bool:
    return seat(state, player)["ideals"] == 0


def heal(state: State, player: str, health: int = 0, resolve: int = 0) -> None:
    """Take Health and Resolve up to the Nightlancer's maximum."""
    p = seat(state, player)
    p["health"] = min(max_health(state, player), p["health"] + health)
    p["resolve"] = min(max_resolve(state, player), p["resolve"] + resolve)


def lose(state: State, player: str, health: int = 0, resolve: int = 0) -> None:
    """Discard Health and Resolve as far as they go; running out Shakes (5.2)."""
    p = seat(state, player)
    p["health"] = max(0, p["health"] - health)
    p["resolve"] = max(0, p["resolve"] - resolve)
    if (health and p["health"] == 0) or (resolve and p["resolve"] == 0):
        shake(state, player)


def gain_heat(state: State, player: str, amount: int) -> None:
    if amount > 0:
        seat(state, player)["heat"] += amount
        say(state, f"{player} gains {amount} Heat.")


def cool(state: State, player: str, amount: int) -> None:
    p = seat(state, player)
    p["heat"] = max(0, p["heat"] - amount)


def shake(state: State, player: str) -> None:
    """Rulebook 5.2 "Shaken": off the mission, lose an Ideal; never Shaken twice;
    Shaken again in Techshock gains a Heat instead."""
    p = seat(state, player)
    if p["shaken"]:
        return
    p["shaken"] = True
    say(state, f"{player} is Shaken.")
    leave_mission(state, player)
    if p["ideals"] == 0:
        gain_heat(state, player, 1)
    else:
        lose_ideal(state, player)


def lose_ideal(state: State, player: str) -> None:
    p = seat(state, player)
    if p["ideals"] == 0:
        return
    p["ideals"] -= 1
    if p["ideals"] == 0:
        say(state, f"{player} is in Techshock.")
        techshock_defeat(state, player)


def gain_ideal(state: State, player: str) -> None:
    """Rulebook 3.2 "Fulfil an Agenda": at 6 Ideals, Resolve goes to maximum instead."""
    p = seat(state, player)
    if p["ideals"] >= MAX_IDEALS:
        p["resolve"] = max_resolve(state, player)
        say(state, f"{player} is at 6 Ideals and recovers Resolve to maximum instead.")
    else:
        p["ideals"] += 1
        say(state, f"{player} gains an Ideal ({p['ideals']}).")

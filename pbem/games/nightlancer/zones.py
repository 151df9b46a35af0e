"""Decks, discard piles and where every card lies.

Decks are lists with the top card first. Rulebook 5.2 "Discard": "If a
deck of cards runs out, shuffle the discard pile to make a new deck" (the
event deck never is: when it is empty the game ends).
"""

from __future__ import annotations

from typing import Any

from pbem.engine.errors import present
from pbem.engine.kit import Zone
from pbem.engine.rng import Rng
from pbem.engine.screen import key_of
from pbem.games.nightlancer.cards import CYBER_TYPES
from pbem.games.nightlancer.events import say
from pbem.games.nightlancer.state import State

#: deck name -> discard pile it is rebuilt from
RESHUFFLED = {
    "contact": "contact",
    "black_market": "black_market",
    "skill": "skill",
    "agenda": "agenda",
    "low": "low",
    "high": "high",
}


def current_event(state: State) -> str:
    """The Event card of this round (3.1 "Draw cards step")."""
    return present(state["event"], "the round's Event card")


def card(state: State, instance: str) -> dict[str, Any]:
    """The catalogue entry of a card instance."""
    return state["catalogue"]["cards"][key_of(instance)]


def kind(state: State, instance: str) -> str:
    return card(state, instance)["kind"]


def name(state: State, instance: str) -> str:
    return card(state, instance)["name"]


def draw(state: State, deck: str, rng: Rng) -> str | None:
    """Draw the top card of ``deck``, rebuilding it from its discard pile if empty."""
    cards = state["decks"][deck]
    if not cards and deck in RESHUFFLED:
        pile = state["discards"][RESHUFFLED[deck]]
        if pile:
            cards.extend(rng.shuffled(pile, label=f"reshuffle-{deck}"))
            pile.clear()
            say(state, f"The {deck.replace('_', ' ')} discard pile is shuffled into a new deck.")
    if not cards:
        return None
    return cards.pop(0)


def tableau_zone(state: State, player: str, instance: str) -> list[str]:
    """Where a Black Market card a player takes lies: with their Cyber (Cyberware and
    Cyberweapons) or their Items."""
    seat = state["seats"][player]
    return seat["cyber"] if card(state, instance)["type"] in CYBER_TYPES else seat["items"]


def discard_pile(state: State, instance: str) -> str:
    """The discard pile a card goes to (rulebook 5.2: "the discard pile for that card type")."""
    k = kind(state, instance)
    if k == "mission":
        return "low" if card(state, instance)["profile"] == "low" else "high"
    return k


def discard(state: State, instance: str) -> None:
    state["discards"][discard_pile(state, instance)].append(instance)


def all_cards(state: State) -> list[str]:
    """Every card instance in every zone (for the conservation invariant)."""
    found: list[str] = []
    for cards in state["decks"].values():
        found.extend(cards)
    for cards in state["discards"].values():
        found.extend(cards)
    found.extend(state["box"])
    found.extend(state["market"])
    found.extend(slot["card"] for slot in state["missions"])
    if state["event"]:
        found.append(state["event"])
    for p in state["seats"].values():
        for zone in ("hand", "items", "cyber", "skills", "fulfilled"):
            found.extend(p[zone])
    for frame in state["stack"]:
        found.extend(frame.get("drawn", []))
    return found


def zones(state: State) -> list[Zone]:
    """Every zone a player may not see, for the referee's per-zone commitments, with who sees it.

    Each deck in order (top first) and the boxed (face-down, unused) event
    cards: nobody; each player's hand (contacts and agendas, in the order
    held) and the Skills they have drawn and not yet bought or discarded:
    that player; the sealed Nightlancer picks and assist choices not yet
    revealed (each player sees only their own): nobody; any die faces a
    scenario has pinned: nobody.
    """
    found = [Zone(f"deck:{name}", list(cards), (), (("decks", name),))
             for name, cards in sorted(state["decks"].items())]
    # the box holds the unused cards of every kind: a read of any is taken for a read of the boxed events
    found.append(Zone("box:event", [c for c in state["box"] if kind(state, c) == "event"], (), (("box",),)))
    found.append(Zone("dice", list(state["dice"]), (), (("dice",),)))
    stack = state["stack"]
    for player in state["players"]:
        found.append(Zone(f"hand:{player}", list(state["seats"][player]["hand"]), (player,),
                          (("seats", player, "hand"),)))
        draws = [i for i, f in enumerate(stack) if f["type"] == "skills" and f["player"] == player]
        found.append(Zone(f"skill-draw:{player}", [c for i in draws for c in stack[i]["drawn"]], (player,),
                          tuple(("stack", i, "drawn") for i in draws)))
    picks: list[Any] = []
    assists: list[Any] = []
    pick_places: list[tuple[str | int, ...]] = []
    assist_places: list[tuple[str | int, ...]] = []
    for index, frame in enumerate(stack):
        if frame["type"] == "game":
            picks.extend([p, frame["picks"][p]] for p in sorted(frame.get("picks", {})))
            pick_places.append(("stack", index, "picks"))
        if frame["type"] == "challenge":
            assists.extend([p, frame["assist"][p]] for p in sorted(frame["assist"]))
            assist_places.append(("stack", index, "assist"))
    found.append(Zone("sealed:picks", picks, (), tuple(pick_places)))
    found.append(Zone("sealed:assist", assists, (), tuple(assist_places)))
    return found

"""Effects on your deck."""

from __future__ import annotations

from typing import Any

from pbem.engine.machine import TurnMachine, push_all
from pbem.engine.rng import Rng
from pbem.engine.screen import key_of
from pbem.games.nightfall.effects.common import (
    entry_of,
    memory_of,
    schedule,
)
from pbem.games.nightfall.flow import ask, on_data
from pbem.games.nightfall.state import (
    State,
    card,
    current_chain,
    event,
    name,
    private_event,
    reshuffle,
    zones,
)


def search_deck(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Look through your deck, draw 1 card of your choice, shuffle the deck
    (EN 213)."""
    z = zones(state, ctx["player"])
    if not z["deck"] and z["discard"]:
        # a draw that needs cards shuffles the discard pile into a new deck first (EN 106)
        reshuffle(state, ctx["player"], rng)
    deck = z["deck"]
    if not deck:
        event(state, f"{ctx['player']} has no card to draw")
        return
    keys = sorted({key_of(c) for c in deck})
    ask(state, ctx["player"], "target", f"{name(state, ctx['card'])}: draw which card from your deck?",
        [(f"take:{k}", state["catalog"][k]["name"]) for k in keys], "fx:search_deck", {"ctx": ctx})


def _search_deck(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    ctx = data["ctx"]
    z = zones(state, ctx["player"])
    wanted = option_id.split(":", 1)[1]
    chosen = min(c for c in z["deck"] if key_of(c) == wanted)
    z["deck"].remove(chosen)
    z["hand"].append(chosen)
    rng.shuffle(z["deck"], label="search")
    entry = entry_of(state, ctx)
    if entry is not None:
        entry.setdefault("memory", {})["drawn"] = chosen
    event(state, f"{ctx['player']} looks through the deck, draws a card and shuffles the deck")
    private_event(state, ctx["player"], f"you draw {name(state, chosen)}")


def play_drawn_chain_text(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Reveal the card drawn by this card's chain text and carry out its
    chain text; it stays in hand (EN 310, DE 97)."""
    drawn = memory_of(state, ctx).get("drawn")
    if drawn is None:
        return
    event(state, f"{ctx['player']} reveals {name(state, drawn)}")
    text = list(card(state, drawn).get("chain", []))
    if current_chain(state)["starter"] == ctx["player"]:
        text += card(state, drawn).get("your_chain", [])
    push_all(state, schedule(state, text, dict(ctx, card=drawn)))


def register(machine: TurnMachine[State]) -> None:
    """This module's tasks and answers, on the game's turn machine."""
    machine.answer("fx:search_deck", on_data(_search_deck))

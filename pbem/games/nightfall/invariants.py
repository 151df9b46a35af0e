"""Conservation rules every state must keep (for the playout tests)."""

from __future__ import annotations

from collections import Counter

from pbem.engine.errors import invariant
from pbem.games.nightfall.state import State, all_cards, card, current_turn


def check_invariants(state: State) -> None:
    """Raise :class:`~pbem.engine.errors.InvariantError` at the first conservation rule the state breaks."""
    cards = all_cards(state)
    duplicates = [c for c, n in Counter(cards).items() if n > 1]
    invariant(not duplicates, lambda: f"cards in two places at once: {duplicates}")
    if state["census"]:
        # the census holds the wounds too, so this conserves them with every other card
        invariant(sorted(cards) == state["census"], lambda: (
            f"cards not conserved: missing {sorted(set(state['census']) - set(cards))}, "
            f"new {sorted(set(cards) - set(state['census']))}"))
    invariant(0 <= state["face_up"] <= len(state["wound_stack"]), "more face-up wounds than the stack holds")
    for record in state["in_play"]:
        data = card(state, record["card"])
        invariant(data["type"] == "minion", f"{record['card']} in play is not a minion")
        invariant(0 <= record["damage"] <= data["health"], f"{record['card']} has damage {record['damage']}")
        invariant(record["controller"] in state["players"] and record["owner"] in state["players"],
                  f"{record['card']} is owned or controlled by nobody seated")
    # the message is built only for a card that breaks the rule: this runs at every step of every playout
    misplaced = [(c, zone) for z in state["zones"].values() for zone in ("hand", "deck", "discard")
                 for c in z[zone] if card(state, c)["type"] not in ("minion", "action", "wound")]
    invariant(not misplaced, lambda: f"{misplaced[0][0]} in a {misplaced[0][1]} is neither an order card nor a wound")
    if state["turn"] is not None:
        invariant(current_turn(state)["influence"] >= 0, "negative influence")
    if not state["over"]:
        invariant(bool(state["pending"]), "the game is not over but no decision is awaited")
    for pending in state["pending"]:
        invariant(bool(pending.get("options")), f"a {pending['kind']} decision without options")

"""Conservation rules every state must keep (for the playout tests)."""

from __future__ import annotations

from collections import Counter

from pbem.games.nightfall.game_setup import all_cards
from pbem.games.nightfall.state import State, card, is_wound


def check_invariants(state: State) -> None:
    cards = all_cards(state)
    duplicates = [c for c, n in Counter(cards).items() if n > 1]
    assert not duplicates, f"cards in two places at once: {duplicates}"
    if state["census"]:
        assert sorted(cards) == state["census"], (
            f"cards not conserved: missing {sorted(set(state['census']) - set(cards))}, "
            f"new {sorted(set(cards) - set(state['census']))}")
        wounds = [c for c in cards if is_wound(state, c)]
        assert len(wounds) == sum(1 for c in state["census"] if is_wound(state, c)), "wounds not conserved"
    assert 0 <= state["face_up"] <= len(state["wound_stack"]), "more face-up wounds than the stack holds"
    for record in state["in_play"]:
        data = card(state, record["card"])
        assert data["type"] == "minion", f"{record['card']} in play is not a minion"
        assert 0 <= record["damage"] <= data["health"], f"{record['card']} has damage {record['damage']}"
        assert record["controller"] in state["players"] and record["owner"] in state["players"]
    for p, z in state["zones"].items():
        for zone in ("hand", "deck", "discard"):
            for c in z[zone]:
                assert is_wound(state, c) or card(state, c)["type"] in ("minion", "action")
    if state["turn"] is not None:
        assert state["turn"]["influence"] >= 0, "negative influence"
    if not state["over"]:
        assert state["pending"], "the game is not over but no decision is awaited"
    for pending in state["pending"]:
        assert pending["options"], f"a {pending['kind']} decision without options"

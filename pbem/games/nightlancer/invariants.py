"""Conservation rules checked at every step of random playouts."""

from __future__ import annotations

from collections import Counter

from pbem.engine.errors import invariant
from pbem.games.nightlancer import tokens
from pbem.games.nightlancer.state import State
from pbem.games.nightlancer.tokens import MAX_IDEALS
from pbem.games.nightlancer.zones import all_cards, card


def check_invariants(state: State) -> None:
    """Raise :class:`~pbem.engine.errors.InvariantError` at the first conservation rule the state breaks."""
    cards, census = all_cards(state), state["census"]
    # sorted lists, not Counters: Counter's == is a Python loop over every card, at every step of a playout
    invariant(sorted(cards) == sorted(census), lambda: (
        f"cards not conserved: extra {Counter(cards) - Counter(census)}, missing {Counter(census) - Counter(cards)}"))
    for name in state["players"]:
        p = tokens.seat(state, name)
        counts = {"health": p["health"], "resolve": p["resolve"], "ideals": p["ideals"], "kc": p["kc"],
                  "heat": p["heat"], "prospects": p["prospects"], "loans": p["loans"]}
        for field, value in counts.items():
            invariant(value >= 0 or (field == "prospects" and state["over"]), f"{name}: {field} is {value}")
        invariant(p["loans"] <= 2, f"{name} has {p['loans']} loans")
        invariant(p["ideals"] <= MAX_IDEALS, f"{name} has {p['ideals']} Ideals")
        if p["nightlancer"]:
            invariant(p["health"] <= tokens.max_health(state, name), f"{name}: Health above maximum")
            invariant(p["resolve"] <= tokens.max_resolve(state, name), f"{name}: Resolve above maximum")
            if not p["shaken"] and state["phase"] != "setup":
                invariant(p["health"] > 0 and p["resolve"] > 0, f"{name} has run out but is not Shaken")
        invariant(len(p["loadout"]) <= 3 and set(p["loadout"]) <= set(p["items"]),
                  f"{name}'s Loadout {p['loadout']} is not up to 3 of their Items")
        invariant(set(p["spent"]) <= set(p["items"] + p["cyber"]), f"{name} has Spent cards they do not own")
        for c in p["cyber"]:
            invariant(card(state, c)["type"] in ("cyberware", "cyberweapon"), f"{name}'s Cyber {c} is not Cyberware")
        invariant(len({card(state, c)["id"] for c in p["cyber"]}) == len(p["cyber"]), f"{name} owns a duplicate Cyberware")
    seen: list[str] = []
    for slot in state["missions"]:
        invariant(len(slot["crews"]) <= 2, f"more than two Crews on {slot['card']}")
        positions = [c["pos"] for c in slot["crews"]]
        invariant(len(set(positions)) == len(positions), f"two crews in one position on {slot['card']}")
        for crew in slot["crews"]:
            invariant(bool(crew["members"]), "an empty crew stays on a mission")
            seen.extend(crew["members"])
    invariant(len(seen) == len(set(seen)), "a Nightlancer token is on two missions")
    for entry in state["pending"]:
        invariant(entry["player"] in state["players"], f"a decision of {entry['player']}, who is not seated")
    invariant(state["over"] or bool(state["pending"]), "the game waits for nobody")

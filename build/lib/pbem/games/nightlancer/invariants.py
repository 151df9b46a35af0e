"""Conservation rules checked at every step of random playouts."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.games.nightlancer import tokens
from pbem.games.nightlancer.tokens import MAX_IDEALS
from pbem.games.nightlancer.zones import all_cards, card

State = dict[str, Any]


def check_invariants(state: State) -> None:
    found = Counter(all_cards(state))
    census = Counter(state["census"])
    assert found == census, f"cards not conserved: extra {found - census}, missing {census - found}"
    for name in state["players"]:
        p = tokens.seat(state, name)
        for field in ("health", "resolve", "ideals", "kc", "heat", "prospects", "loans"):
            assert p[field] >= 0 or (field == "prospects" and state["over"]), f"{name}: {field} is {p[field]}"
        assert p["loans"] <= 2, f"{name} has {p['loans']} loans"
        assert p["ideals"] <= MAX_IDEALS
        if p["nightlancer"]:
            assert p["health"] <= tokens.max_health(state, name), f"{name}: Health above maximum"
            assert p["resolve"] <= tokens.max_resolve(state, name), f"{name}: Resolve above maximum"
            if not p["shaken"] and state["phase"] not in ("setup",):
                assert p["health"] > 0 and p["resolve"] > 0, f"{name} has run out but is not Shaken"
        assert len(p["loadout"]) <= 3 and set(p["loadout"]) <= set(p["items"])
        assert set(p["spent"]) <= set(p["items"] + p["cyber"])
        for c in p["cyber"]:
            assert card(state, c)["type"] in ("cyberware", "cyberweapon")
        assert len({card(state, c)["id"] for c in p["cyber"]}) == len(p["cyber"]), f"{name} owns a duplicate Cyberware"
    seen: list[str] = []
    for slot in state["missions"]:
        assert len(slot["crews"]) <= 2
        positions = [c["pos"] for c in slot["crews"]]
        assert len(set(positions)) == len(positions), f"two crews in one position on {slot['card']}"
        for crew in slot["crews"]:
            assert crew["members"], "an empty crew stays on a mission"
            seen.extend(crew["members"])
    assert len(seen) == len(set(seen)), "a Nightlancer token is on two missions"
    for entry in state["pending"]:
        assert entry["player"] in state["players"]
    assert state["over"] or state["pending"], "the game waits for nobody"

"""What each player may know: the one exit for hidden information.

Public: counts the table sees (hand, deck and discard sizes, wounds each
player holds), the top of each discard pile, minions in play, the chain,
face-up archives, exiled cards, whether face-up wounds remain (their exact
number only with ``count_face_up``: "you may not count", DE 30), and the
public events since the last decision. A player's view adds their hand,
their discard pile (EN 105), their own face-down archives and draft cards,
their own decision and their private events. Deck orders, other hands,
other players' draft cards and pending picks never leave the state.
"""

from __future__ import annotations

import copy
from typing import Any

from pbem.engine.rng import Rng
from pbem.games.nightfall.state import State, card, health, name, strength, wound_count


def _cards(state: State, ids: list[str]) -> list[dict[str, str]]:
    return [{"id": c, "name": name(state, c)} for c in ids]


def _archive(state: State, archive: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    seen = not archive["hidden"] and (not archive.get("secret") or archive["owner"] == viewer)
    top = archive["cards"][-1] if archive["cards"] else None
    data: dict[str, Any] = {"id": archive["id"], "owner": archive["owner"], "count": len(archive["cards"]),
                            "face_down": not seen or bool(archive.get("secret"))}
    if seen and top is not None:
        data.update({"top": top, "name": name(state, top), "cost": card(state, top)["cost"]})
    return data


def public(state: State) -> dict[str, Any]:
    seats = {}
    for p in state["players"]:
        z = state["zones"][p]
        seats[p] = {
            "hand": len(z["hand"]),
            "deck": len(z["deck"]),
            "discard": len(z["discard"]),
            "discard_top": z["discard"][-1] if z["discard"] else None,
            "wounds": wound_count(state, p),
        }
    turn = state["turn"]
    data: dict[str, Any] = {
        "game": "nightfall",
        "players": list(state["players"]),
        "first_player": state["first"],
        "seats": seats,
        "turn": None if turn is None else {
            "player": turn["player"], "number": turn["number"], "phase": turn["phase"],
            "influence": turn["influence"], "wound_effect_used": turn["wound_used"],
        },
        "face_up_wounds": state["face_up"] if state["options"]["count_face_up"] else ("some" if state["face_up"] else "none"),
        "in_play": [
            {"card": m["card"], "name": name(state, m["card"]), "owner": m["owner"], "controller": m["controller"],
             "strength": strength(state, m), "health": health(state, m)}
            for m in state["in_play"]
        ] if turn is not None else [],
        "chain": None if not state["chain"] else {
            "starter": state["chain"]["starter"],
            "cards": [{"card": e["card"], "name": name(state, e["card"]), "owner": e["owner"],
                       "controller": e["controller"], "kicker": e["kicker"], "resolved": e["resolved"],
                       "cancelled": e["cancelled"]} for e in state["chain"]["entries"]],
        },
        "archives": [_archive(state, a, None) for a in state["archives"]],
        "exiled": sorted(state["exiled"]),
        "awaiting": [{"player": d["player"], "kind": d["kind"]} for d in state["pending"]],
        "events": list(state["events"]),
        "over": state["over"],
    }
    if state["draft"] is not None:
        draft = state["draft"]
        data["draft"] = {"mode": draft["mode"], "round": draft["round"] + 1, "rounds": len(draft["schedule"]),
                         "commons_laid_out": [state["catalog"][k]["name"] for k in draft["commons"]]}
    if state["series"] is not None:
        data["series"] = {"target": state["series"]["target"], "totals": dict(state["series"]["totals"]),
                          "games": len(state["series"]["games"])}
    if state["over"]:
        data["final"] = state["final"]
    return data


def view(state: State, player: str) -> dict[str, Any]:
    data = public(state)
    z = state["zones"][player]
    data["archives"] = [_archive(state, a, player) for a in state["archives"]]
    mine: dict[str, Any] = {
        "player": player,
        "hand": _cards(state, z["hand"]),
        "discard": _cards(state, z["discard"]),
        "events": list(state["private_events"].get(player, [])),
        "decision": None,
    }
    for pending in state["pending"]:
        if pending["player"] == player:
            mine["decision"] = {k: pending[k] for k in ("kind", "prompt", "options", "pass_id", "simultaneous")}
    if state["draft"] is not None:
        draft = state["draft"]
        mine["draft"] = {
            "hand": [state["catalog"][k]["name"] for k in draft["hands"][player]],
            "private_picks": [state["catalog"][k]["name"] for k in draft["private"][player]],
            "picked_now": state["catalog"][draft["chosen"][player]]["name"] if player in draft["chosen"] else None,
        }
    data["you"] = mine
    return data


def conceal(state: State, player: str, rng: Rng) -> State:
    """A copy with everything ``player`` cannot know redrawn: every deck's
    order, the other players' hands and the unseen part of their discard
    piles (redrawn among that player's hidden zones, sizes kept), the wound stack's order, face-
    down archives of others, and others' draft cards and pending picks."""
    s = copy.deepcopy(state)
    others = [p for p in s["players"] if p != player]
    for p in others:
        # each player's wound count is public, so his hidden cards are redrawn among his own zones
        z = s["zones"][p]
        pool = rng.shuffled(z["hand"] + z["deck"] + z["discard"][:-1], label="conceal")
        top = z["discard"][-1:]
        sizes = (len(z["hand"]), len(z["deck"]))
        z["hand"], z["deck"], z["discard"] = pool[:sizes[0]], pool[sizes[0]:sum(sizes)], pool[sum(sizes):] + top
    rng.shuffle(s["zones"][player]["deck"], label="conceal")
    rng.shuffle(s["wound_stack"], label="conceal")
    for archive in s["archives"]:
        if archive["hidden"]:
            rng.shuffle(archive["cards"], label="conceal")
    secret = [a for a in s["archives"] if a.get("secret") and a["owner"] != player]
    for size in {len(a["cards"]) for a in secret}:
        same = [a for a in secret if len(a["cards"]) == size]  # sizes are public
        contents = rng.shuffled([a["cards"] for a in same], label="conceal")
        for archive, cards in zip(same, contents):
            archive["cards"] = cards
    draft = s["draft"]
    if draft is not None:
        hidden = draft["set_aside"] + draft["face_down"]
        for p in others:
            hidden += draft["hands"][p] + draft["private"][p]
        rng.shuffle(hidden, label="conceal")
        draft["set_aside"], hidden = hidden[:len(draft["set_aside"])], hidden[len(draft["set_aside"]):]
        draft["face_down"], hidden = hidden[:len(draft["face_down"])], hidden[len(draft["face_down"]):]
        for p in others:
            n, m = len(draft["hands"][p]), len(draft["private"][p])
            draft["hands"][p], hidden = hidden[:n], hidden[n:]
            draft["private"][p], hidden = hidden[:m], hidden[m:]
            if p in draft["chosen"]:
                draft["chosen"][p] = rng.choice(draft["hands"][p], label="conceal")
    for p in others:
        s["private_events"].pop(p, None)
    s["pending"] = [d if d["player"] == player else dict(d, options=[{"id": "hidden", "label": "hidden"}], data={})
                    for d in s["pending"]]
    return s


def render(data: dict[str, Any]) -> str:
    """A view as text for a terminal."""
    lines = []
    turn = data.get("turn")
    if turn:
        lines.append(f"Turn {turn['number']}: {turn['player']}, {turn['phase']} phase, influence {turn['influence']}")
    lines.append(f"Face-up wounds: {data['face_up_wounds']}")
    for p, seat in data["seats"].items():
        lines.append(f"  {p}: hand {seat['hand']}, deck {seat['deck']}, discard {seat['discard']}, wounds {seat['wounds']}")
    if data["in_play"]:
        lines.append("In play:")
        for m in data["in_play"]:
            lines.append(f"  {m['name']} ({m['controller']}) strength {m['strength']} health {m['health']}")
    if data["chain"]:
        lines.append("Chain: " + " -> ".join(c["name"] + (" [resolved]" if c["resolved"] else "") for c in data["chain"]["cards"]))
    lines.append("Archives: " + "; ".join(
        f"{a['id']}: {a.get('name', 'face down')} x{a['count']}" for a in data["archives"]))
    if data.get("series"):
        lines.append("Series totals: " + ", ".join(f"{p} {t}" for p, t in data["series"]["totals"].items()))
    for line in data["events"]:
        lines.append(f"- {line}")
    you = data.get("you")
    if you:
        for line in you["events"]:
            lines.append(f"- ({line})")
        lines.append("Your hand: " + ", ".join(c["name"] for c in you["hand"]))
        if you.get("draft"):
            lines.append("Your draft cards: " + ", ".join(you["draft"]["hand"]))
        if you["decision"]:
            lines.append(f"Your decision ({you['decision']['kind']}): {you['decision']['prompt']}")
            for o in you["decision"]["options"]:
                lines.append(f"  {o['id']}: {o['label']}")
    if data.get("final"):
        lines.append(f"Game over: {data['final']['winner']} wins")
    return "\n".join(lines)

"""What each player may know: the one exit for hidden information.

Public: counts the table sees (hand, deck and discard sizes, wounds each
player holds), the top of each discard pile, minions in play (which are
protected from damage this turn), the chain (which kickers fire by colour
or were granted, whose damage is doubled), the influence a discarded action
gives this turn, face-up archives, exiled cards, whether face-up wounds
remain (their exact number only with ``count_face_up``: "you may not
count", DE 30) and the top face-up wound (face up on the stack, EN 70), and
the public events of the last step. A player's private part holds what
they know besides: their hand, their discard pile (EN 105), the tops of
their own secret archives, their draft picks (where each went, for the
whole game), during the draft their draft cards, and their private events
of the last step. Deck orders, other hands, other players' draft cards and
picks never leave the state.

Both parts name cards by id (``koi-jiang#3``); what a card is and does is the
static card data of :func:`.screen.card_facts`, which :func:`.screen.render`
joins to them for an 80-column screen, naming cards by name.
"""

from __future__ import annotations

import copy
from typing import Any

from pbem.engine.kit import Zone
from pbem.engine.rng import Rng
from pbem.engine.screen import key_of
from pbem.games.nightfall.state import (
    Archive,
    State,
    discarded_action_influence,
    health,
    strength,
    wound_count,
)


def _archive(archive: Archive) -> dict[str, Any]:
    """An archive as the table sees it: a face-up archive shows its top card."""
    seen = not archive["hidden"] and not archive.get("secret")
    data: dict[str, Any] = {"id": archive["id"], "owner": archive["owner"], "count": len(archive["cards"]),
                            "face_down": not seen}
    if seen and archive["cards"]:
        data["top"] = archive["cards"][-1]
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
            "action_influence": discarded_action_influence(state),
        },
        "face_up_wounds": state["face_up"] if state["options"]["count_face_up"] else ("some" if state["face_up"] else "none"),
        "top_wound": key_of(state["wound_stack"][-1]) if state["face_up"] else None,
        "in_play": [
            {"card": m["card"], "owner": m["owner"], "controller": m["controller"],
             "strength": strength(state, m), "health": health(state, m),
             "protected": m["card"] in turn["protected"]}
            for m in state["in_play"]
        ] if turn is not None else [],
        "chain": None if not state["chain"] else {
            "starter": state["chain"]["starter"],
            "cards": [{"card": e["card"], "owner": e["owner"], "controller": e["controller"], "kicker": e["kicker"],
                       "kicker_granted": e["force_kicker"] and not e["kicker"],
                       "damage_multiplier": e.get("multiplier", 1),
                       "resolved": e["resolved"], "cancelled": e["cancelled"]} for e in state["chain"]["entries"]],
        },
        "archives": [_archive(a) for a in state["archives"]],
        "exiled": sorted(state["exiled"]),
        "over": state["over"],
    }
    combat = turn.get("combat") if turn is not None else None
    if combat is not None:
        # everything about the combat is on the table: who attacks whom, the blocks and their order, who has struck
        data["combat"] = {"attacks": dict(combat["assign"]), "resolved": list(combat["done"]),
                          "defender": combat["defender"], "blocks": dict(combat["blocks"]),
                          "block_order": {a: list(o) for a, o in combat["order"].items()},
                          "struck": list(combat["struck"])}
    if state["draft"] is not None:
        draft = state["draft"]
        data["draft"] = {"mode": draft["mode"], "round": draft["round"] + 1, "rounds": len(draft["schedule"]),
                         "commons": list(draft["commons"])}
    if state["series"] is not None:
        data["series"] = {"target": state["series"]["target"], "totals": dict(state["series"]["totals"]),
                          "games": len(state["series"]["games"])}
    if state["over"]:
        data["final"] = state["final"]
    return data


def private(state: State, player: str) -> dict[str, Any]:
    """What ``player`` knows besides the public part: hand, discard pile, the top of each of
    their own secret archives, their draft picks (``draft_picks``: where each went, the whole game
    long), during the draft their draft cards and sealed pick (their private events the kit adds)."""
    z = state["zones"][player]
    mine: dict[str, Any] = {
        "hand": list(z["hand"]),
        "discard": list(z["discard"]),
        "archive_tops": {a["id"]: a["cards"][-1] for a in state["archives"]
                         if a.get("secret") and a["owner"] == player and not a["hidden"] and a["cards"]},
        "draft_picks": [list(pick) for pick in state["draft_picks"][player]],
    }
    if state["draft"] is not None:
        draft = state["draft"]
        mine["draft"] = {
            "hand": sorted(draft["hands"][player]),
            "picked_now": draft["chosen"].get(player),
        }
    return mine


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
    # the top face-up wound is seen by all (EN 70); the rest of the stack is not
    unseen = len(s["wound_stack"]) - (1 if s["face_up"] else 0)
    s["wound_stack"][:unseen] = rng.shuffled(s["wound_stack"][:unseen], label="conceal")
    for archive in s["archives"]:
        if archive["hidden"]:
            rng.shuffle(archive["cards"], label="conceal")
    secret = [a for a in s["archives"] if a.get("secret") and a["owner"] != player]
    for size in {len(a["cards"]) for a in secret}:
        same = [a for a in secret if len(a["cards"]) == size]  # sizes are public
        contents = rng.shuffled([a["cards"] for a in same], label="conceal")
        for archive, cards in zip(same, contents, strict=True):
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
    # where the others' picks went: the cards, by destination, redrawn among them
    picks = [pick for p in others for pick in s["draft_picks"][p]]
    cards = rng.shuffled([card_key for card_key, _ in picks], label="conceal")
    for pick, card_key in zip(picks, cards, strict=True):
        pick[0] = card_key
    for p in others:
        s["private_events"].pop(p, None)
    s["pending"] = [d if d["player"] == player else {**d, "options": [{"id": "hidden", "label": "hidden"}], "data": {}}
                    for d in s["pending"]]
    return s


def zones(state: State) -> list[Zone]:
    """Every zone some player may not see, by name, in order (top card last), with who sees it, for the
    referee's per-zone commitments: each player's hand and discard pile (EN 105: only its owner looks
    through it), seen by that player, and deck, seen by nobody; the wound stack's face-down part and
    face-up part (nobody: only the top of the stack is seen, EN 70, and that is public); every face-down
    archive (nobody) and secret archive (its owner); during the draft each player's draft cards, private
    picks and sealed pick (that player), the commons picked face down and the draft cards set aside
    (nobody)."""
    found: list[Zone] = []
    for p in state["players"]:
        z = state["zones"][p]
        found += [Zone(f"hand:{p}", list(z["hand"]), (p,), (("zones", p, "hand"),)),
                  Zone(f"deck:{p}", list(z["deck"]), (), (("zones", p, "deck"),)),
                  Zone(f"discard:{p}", list(z["discard"]), (p,), (("zones", p, "discard"),))]
    stack = state["wound_stack"]
    split = len(stack) - state["face_up"]
    # one list holds both parts of the wound stack (and its public top card): a read of either is a read of both
    found.append(Zone("wounds:face-down", list(stack[:split]), (), (("wound_stack",),)))
    found.append(Zone("wounds:face-up", list(stack[split:]), (), (("wound_stack",),)))
    for index, archive in enumerate(state["archives"]):
        if archive["hidden"] or archive.get("secret"):
            owner = archive["owner"]
            seen = (owner,) if owner is not None and not archive["hidden"] else ()
            found.append(Zone(f"archive:{archive['id']}", list(archive["cards"]), seen,
                              (("archives", index, "cards"),)))
    draft = state["draft"]
    if draft is not None:
        for p in state["players"]:
            found += [Zone(f"draft-hand:{p}", list(draft["hands"][p]), (p,), (("draft", "hands", p),)),
                      Zone(f"draft-private:{p}", list(draft["private"][p]), (p,), (("draft", "private", p),)),
                      Zone(f"draft-pick:{p}", [draft["chosen"][p]] if p in draft["chosen"] else [], (p,),
                           (("draft", "chosen", p),))]
        found.append(Zone("draft-commons-face-down", sorted(draft["face_down"]), (), (("draft", "face_down"),)))
        found.append(Zone("draft-set-aside", list(draft["set_aside"]), (), (("draft", "set_aside"),)))
    return found

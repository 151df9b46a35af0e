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
static card data of :func:`card_facts`, which :func:`render` joins to them
for an 80-column screen, naming cards by name (:mod:`pbem.engine.screen`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from pbem.engine.protocol import SealedSizes
from pbem.engine.rng import Rng
from pbem.engine.screen import CardNames, card_name, key_of, settle_names, wrap
from pbem.games.nightfall.cards import build_catalogue
from pbem.games.nightfall.state import (
    Archive,
    State,
    discarded_action_influence,
    health,
    strength,
    wound_count,
)

CARD_FACTS = ("name", "type", "colour", "links", "kicker_colour", "cost", "strength", "health", "text")


def card_facts(scenario: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What a player needs to decide about each card of the scenario, by card key:
    type, colour, link colours (the colours that may be linked to it, EN 177),
    the colour that fires its kicker (the card it is linked to, EN 184), cost,
    strength and health, and its printed text (Chain / Your Chain / In Play /
    Kicker / Feed)."""
    catalog = build_catalogue(scenario["card_data"])
    return {key: {k: entry[k] for k in CARD_FACTS if k in entry} for key, entry in sorted(catalog.items())}


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
        "events": list(state["events"]),
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
    long), during the draft their draft cards and sealed pick, their private events."""
    z = state["zones"][player]
    mine: dict[str, Any] = {
        "hand": list(z["hand"]),
        "discard": list(z["discard"]),
        "events": list(state["private_events"].get(player, [])),
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


def hidden_zones(state: State) -> dict[str, list[str]]:
    """Every zone some player may not see, by name, in order (top card last),
    for the referee's per-zone commitments: each player's hand, deck and
    discard pile (EN 105: only its owner looks through it), the wound stack
    (face-up part and face-down part), every face-down or secret archive, and
    during the draft each player's draft cards, private picks and sealed pick,
    the commons picked face down and the draft cards set aside."""
    zones: dict[str, list[str]] = {}
    for p in state["players"]:
        z = state["zones"][p]
        for zone in ("hand", "deck", "discard"):
            zones[f"{zone}:{p}"] = list(z[zone])
    stack = state["wound_stack"]
    split = len(stack) - state["face_up"]
    zones["wounds:face-down"] = list(stack[:split])
    zones["wounds:face-up"] = list(stack[split:])
    for archive in state["archives"]:
        if archive["hidden"] or archive.get("secret"):
            zones[f"archive:{archive['id']}"] = list(archive["cards"])
    draft = state["draft"]
    if draft is not None:
        for p in state["players"]:
            zones[f"draft-hand:{p}"] = list(draft["hands"][p])
            zones[f"draft-private:{p}"] = list(draft["private"][p])
            zones[f"draft-pick:{p}"] = [draft["chosen"][p]] if p in draft["chosen"] else []
        zones["draft-commons-face-down"] = sorted(draft["face_down"])
        zones["draft-set-aside"] = list(draft["set_aside"])
    return zones


def facts_line(facts: Mapping[str, Any]) -> str:
    """What a card is, in one line: ``purple minion, links purple, cost 0, strength 1, health 2``
    (a wound: ``wound, bite``)."""
    if facts["type"] == "wound":
        return "wound"
    parts = [f"{facts['colour']} {facts['type']}", "links " + "/".join(facts["links"])]
    if facts.get("kicker_colour"):
        parts.append(f"kicker when linked to {facts['kicker_colour']}")
    parts.append(f"cost {facts['cost']}")
    if facts["type"] == "minion":
        parts.append(f"strength {facts['strength']}, health {facts['health']}")
    return ", ".join(parts)


def card_text(facts: Mapping[str, Any]) -> str:
    """A card in full, for ``pbem card`` and ``pbem view --cards``: its name and facts, then its
    printed text (Chain / Your Chain / In Play / Kicker / Feed), wrapped to the screen."""
    return "\n".join(_card_lines(str(facts["name"]), facts, ""))


def _card_lines(name: str, facts: Mapping[str, Any] | None, indent: str = "  ") -> list[str]:
    """A card a player decides with: its name and facts, its text on the lines below."""
    if facts is None:
        return [indent + name]
    lines = wrap(f"{name}: {facts_line(facts)}", indent, indent + "    ")
    if facts.get("text"):
        lines += wrap(str(facts["text"]), indent + "    ", indent + "    ")
    return lines


#: where a draft pick went, as the screen says it
PICKED_TO = {"private": "private archives", "commons": "commons", "removed": "removed"}


def _kind_name(name: CardNames, key: str) -> str:
    """A card key (a kind of card, not a copy: a draft pick, the top face-up wound) by its name,
    without counting it among the copies the screen tells apart."""
    return card_name(key, name.facts(key))


def _kind(facts: Mapping[str, Any] | None) -> str:
    """``red action``, ``white minion``, ``wound``: what a card is, in two words."""
    if facts is None:
        return "?"
    return "wound" if facts["type"] == "wound" else f"{facts['colour']} {facts['type']}"


def render(public: dict[str, Any], private: dict[str, Any] | None, cards: dict[str, dict[str, Any]]) -> str:
    """A view as text for an 80-column terminal: the table, then your cards.

    The cards you decide with (your hand, your draft cards, the chain, the
    minions in play) come with their facts and text; the archives one line
    each (the top card's name, kind and cost, and how many are left: ``pbem
    card NAME`` or ``pbem view --cards`` print the texts). Two copies of one
    card on the screen are named with their copy numbers. What happened,
    your decision and its numbered options are printed by the CLI around
    this text. ``private`` is ``None`` for an onlooker."""
    return "\n".join(settle_names(cards, lambda name: _screen(public, private, name)))


def _screen(data: dict[str, Any], private: dict[str, Any] | None, name: CardNames) -> list[str]:
    mine = private or {}
    lines = []
    turn = data.get("turn")
    if turn:
        lines.append(f"Turn {turn['number']}: {turn['player']}'s {turn['phase']} phase"
                     + (f", influence {turn['influence']}" if turn["phase"] == "claim" else "")
                     + (", wound effect used" if turn["wound_effect_used"] else ""))
    lines += wrap((f"First player: {data['first_player']}. " if data["first_player"] else "")
                  + f"Face-up wounds left: {data['face_up_wounds']}"
                  + (f" (top: {_kind_name(name, data['top_wound'])})" if data.get("top_wound") else ""))
    if turn and turn["action_influence"] > 1:
        lines.append(f"This turn a discarded action gives {turn['action_influence']} influence")
    for p, seat in data["seats"].items():
        top = f" (top: {name(seat['discard_top'])})" if seat["discard_top"] else ""
        lines += wrap(f"{p}: hand {seat['hand']}, deck {seat['deck']}, discard {seat['discard']}{top}, "
                      f"wounds {seat['wounds']}", "  ")
    if data.get("draft"):
        draft = data["draft"]
        lines.append(f"Draft ({draft['mode']}), round {draft['round']} of {draft['rounds']}")
        if draft.get("commons"):
            lines.append("Commons laid out before the draft:")
            lines += _compact([(name(k), name.facts(k), "") for k in draft["commons"]])
    if data["in_play"]:
        lines.append("In play:")
        for m in data["in_play"]:
            facts = name.facts(m["card"])
            owner = "" if m["owner"] == m["controller"] else f" (owned by {m['owner']})"
            now = f"strength {m['strength']}, health {m['health']}"
            if facts is not None and facts["type"] == "minion":
                now += f" of {facts['health']}" + (f" (printed strength {facts['strength']})"
                                                   if m["strength"] != facts["strength"] else "")
            if m["protected"]:
                now += ", protected from damage this turn"
            lines += wrap(f"{m['controller']}{owner}: {name(m['card'])}, {_kind(facts)}, {now}", "  ", "      ")
            if facts is not None and facts.get("text"):
                lines += wrap(str(facts["text"]), "      ", "      ")
    if data.get("combat"):
        combat = data["combat"]
        lines.append("Combat:" if combat["attacks"] else "Combat: no attack declared yet")
        for attacker, defender in combat["attacks"].items():
            blockers = [name(b) for b, a in combat["blocks"].items() if a == attacker]
            lines += wrap(f"attack: {name(attacker)} -> {defender}"
                          + (f", blocked by {', '.join(blockers)}" if blockers else "")
                          + (" (has struck)" if attacker in combat["struck"] else ""), "  ")
    if data["chain"]:
        lines.append(f"Chain (started by {data['chain']['starter']}; resolves last card first):")
        for i, c in enumerate(data["chain"]["cards"], 1):
            marks = [m for m, on in (("kicker fires", c["kicker"]), ("kicker granted", c["kicker_granted"]),
                                     (f"damage x{c['damage_multiplier']}", c["damage_multiplier"] != 1),
                                     ("resolved", c["resolved"]), ("cancelled", c["cancelled"])) if on]
            lines += _card_lines(f"{i}. {c['controller']}{' [' + ', '.join(marks) + ']' if marks else ''}: "
                                 f"{name(c['card'])}", name.facts(c["card"]))
        last = name.facts(data["chain"]["cards"][-1]["card"])
        if last and not data["chain"]["cards"][-1]["resolved"]:
            lines.append(f"  a card linked now must be {' or '.join(last['links'])}")
    if data["archives"]:
        tops = mine.get("archive_tops", {})
        lines.append("Archives (claim the top card for its cost; pbem card NAME for its text):")
        if tops:
            lines.append("  (secret: an archive of yours whose top card only you see)")
        rows = []
        for a in data["archives"]:
            top = a.get("top") or tops.get(a["id"])
            note = f"{a['count']} left" + (", secret" if a["id"] in tops else "")
            rows.append((a["id"], name(top) if top else "face down", name.facts(top) if top else None, note))
        width = max(len(r[0]) for r in rows)
        lines += _compact([(f"{r[0]:<{width}}  {r[1]}", r[2], r[3]) for r in rows])
    if data.get("series"):
        lines += wrap("Series totals: " + ", ".join(f"{p} {t}" for p, t in data["series"]["totals"].items()))
    if private is not None:
        hand = mine["hand"]
        lines.append(f"Your hand ({len(hand)}):" if hand else "Your hand: empty")
        for c in hand:
            lines += _card_lines(name(c), name.facts(c))
        if mine.get("draft_picks"):
            picks = [f"{_kind_name(name, k)} ({PICKED_TO[to]})" for k, to in mine["draft_picks"]]
            lines += wrap("Your draft picks: " + ", ".join(picks))
        if mine.get("draft"):
            draft = mine["draft"]
            if draft.get("picked_now"):
                lines.append(f"Your pick this round (sealed): {name(draft['picked_now'])}")
            lines.append("Your draft cards:")
            for k in draft["hand"]:
                lines += _card_lines(name(k), name.facts(k))
    return lines


def _compact(rows: list[tuple[str, Mapping[str, Any] | None, str]]) -> list[str]:
    """Cards one line each, in columns: the name, what it is and its cost, a note (``7 left``)."""
    cells = [(what, "" if facts is None else _kind(facts)
              + ("" if facts.get("cost") is None else f", cost {facts['cost']}"), note) for what, facts, note in rows]
    first = max(len(c[0]) for c in cells)
    second = max(len(c[1]) for c in cells)
    return [f"  {a:<{first}}  {b:<{second}}  {c}".rstrip() for a, b, c in cells]


#: The padded sizes of the sealed sections, the same for 2 to 5 seats: a player's section (hand,
#: discard pile, private events, draft picks), what an awaited decision adds by kind (its options and
#: their labels; most kinds fit the default), the referee's compressed section. Measured over random
#: games of every scenario and seat count (the largest seen: 812 bytes without a decision, 2140 with
#: ``target``, 2446 with ``claim`` (Common Ground with 5 players: 15 archives in the commons), 1322 with
#: another kind; 2961 bytes of compressed state) with a margin of a fifth or more, a tenth for ``claim``;
#: ``tests/trust/test_sealed_sizes.py`` checks that random games never outgrow them.
SEALED_SIZES = SealedSizes(player=1024, decision=512, decisions={"claim": 1792, "nothing-to-claim": 1792, "target": 1536, "draft-pick": 256},
                           referee=4096)

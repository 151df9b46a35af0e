"""What the table sees and what one player sees (one exit for hidden information).

Public: tokens, tableau cards (Items, Cyber, Skills, fulfilled Agendas,
Spent cards), counts of hands and decks, each starting Agenda still in the
hand (the Nightlancer card shows it), discard piles, the Open Black
Market, the missions and Crews, the current event and the challenge under
way. Private to a player: their hand, the Skill cards they have drawn and
not yet bought, their own sealed choices (Nightlancer pick, assist) and
their private event lines of the last step (``events``, added by the kit). Secret from all: deck orders, the boxed event
cards, pinned dice.

Both parts name cards by id (``beat-cop#2``); what a card is and does is the
static card data of :func:`.screen.card_facts` (by design id), joined to them
by :func:`.screen.render` for an 80-column screen, naming cards by name.
"""

from __future__ import annotations

import copy
from typing import Any

from pbem.engine.rng import Rng
from pbem.games.nightlancer import effects, tokens
from pbem.games.nightlancer.cards import CHALLENGE_ABILITY
from pbem.games.nightlancer.state import Slot, State
from pbem.games.nightlancer.zones import card, kind


def _mission(slot: Slot) -> dict[str, Any]:
    return {"card": slot["card"], "deal": slot["deal"],
            "crews": [{"pos": c["pos"], "members": c["members"]} for c in sorted(slot["crews"], key=lambda c: c["pos"])]}


def _challenge(state: State) -> dict[str, Any] | None:
    """The attempt under way: the score so far (ability + cards in use + contacts played, all public)
    against the difficulty; the die is added at the roll."""
    mods = None
    for frame in reversed(state["stack"]):
        if frame["type"] == "window" and frame["trigger"] == "challenge" and mods is None:
            mods = frame["mods"]
        if frame["type"] == "attempt":
            mods = mods if mods is not None else frame["mods"]
            player, ctype = frame["player"], frame["ctype"]
            ability = tokens.ability(state, player, CHALLENGE_ABILITY[ctype])
            k = effects.kit(state, player, ctype, frame["ctx"], mods.get("leave_out", []))
            return {"player": player, "challenge": ctype, "difficulty": frame["difficulty"],
                    "ability": ability, "cards": k["bonus"], "cards_used": list(k["used"]),
                    "cards_left_out": list(mods.get("leave_out", [])),
                    "armour": k["armour"], "enables": bool(k["enables"]),
                    "contacts": {key: v for key, v in mods.items() if key in ("bonus", "penalty", "armour", "steady", "enables")}}
    return None


def public(state: State) -> dict[str, Any]:
    players = {}
    for name in state["players"]:
        p = tokens.seat(state, name)
        nl = p["nightlancer"]
        contacts = len(tokens.contacts_in_hand(state, name))
        players[name] = {
            "nightlancer": nl,
            "health": p["health"], "max_health": tokens.max_health(state, name) if nl else 0,
            "resolve": p["resolve"], "max_resolve": tokens.max_resolve(state, name) if nl else 0,
            "ideals": p["ideals"], "techshock": bool(nl) and p["ideals"] == 0,
            "kc": p["kc"], "heat": p["heat"], "prospects": p["prospects"], "loans": p["loans"],
            "shaken": p["shaken"], "deal_token": p["deal"], "missions_completed": p["missions_done"],
            "items": list(p["items"]), "cyber": list(p["cyber"]), "skills": list(p["skills"]),
            "fulfilled": list(p["fulfilled"]), "spent": list(p["spent"]), "loadout": list(p["loadout"]),
            "hand_contacts": contacts,
            "hand_agendas": len(p["hand"]) - contacts,
            "starting_agenda": starting_agenda_in_hand(state, name),
        }
    return {
        "game": "nightlancer",
        "mode": state["mode"],
        "hardened": state["hardened"],
        "round": state["round"],
        "phase": state["phase"],
        "turn_order": list(state["order"]),
        "event": state["event"],
        "decks": {k: len(v) for k, v in state["decks"].items()},
        "discards": {k: list(v) for k, v in state["discards"].items()},
        "black_market": list(state["market"]),
        "missions": [_mission(s) for s in state["missions"]],
        "challenge": _challenge(state),
        "players": players,
        "result": state["outcome"],
    }


def starting_agenda_in_hand(state: State, player: str) -> str | None:
    """The player's starting Agenda while it is in their hand: public, since their Nightlancer card
    shows it (2.2 "Take the starting Agenda card shown in the Setup area")."""
    p = tokens.seat(state, player)
    if not p["nightlancer"]:
        return None
    agenda: str = card(state, p["nightlancer"])["agenda"]
    return agenda if agenda in p["hand"] else None


def private(state: State, player: str) -> dict[str, Any]:
    """What ``player`` knows besides the public part: hand, Skills drawn, own sealed choices (their private
    lines of the step the kit adds)."""
    p = tokens.seat(state, player)
    secret: dict[str, Any] = {"hand": list(p["hand"])}
    for frame in state["stack"]:
        if frame["type"] == "skills" and frame["player"] == player:
            secret["skill_draw"] = list(frame["drawn"])
        if frame["type"] == "challenge" and player in frame["assist"]:
            secret["my_assist"] = frame["assist"][player]
        if frame["type"] == "game" and player in frame.get("picks", {}):
            secret["my_pick"] = frame["picks"][player]
    return secret


def conceal(state: State, player: str, rng: Rng) -> State:
    """Redraw everything ``player`` may not know (for the leak test)."""
    s = copy.deepcopy(state)
    others = [p for p in s["players"] if p != player]
    for k in ("contact", "agenda"):
        pool = list(s["decks"][k])
        sizes = []
        for o in others:
            hand = s["seats"][o]["hand"]
            mine = [c for c in hand if kind(s, c) == k]
            sizes.append(len(mine))
            pool.extend(mine)
            s["seats"][o]["hand"] = [c for c in hand if kind(s, c) != k]
        rng.shuffle(pool, label="conceal")
        for o, n in zip(others, sizes, strict=True):
            s["seats"][o]["hand"].extend(pool[:n])
            pool = pool[n:]
        s["decks"][k] = pool
    for k in ("black_market", "low", "high"):
        rng.shuffle(s["decks"][k], label="conceal")
    skill_pool = list(s["decks"]["skill"])
    drawn_frames = [f for f in s["stack"] if f["type"] == "skills" and f["player"] != player]
    for f in drawn_frames:
        skill_pool.extend(f["drawn"])
    rng.shuffle(skill_pool, label="conceal")
    for f in drawn_frames:
        n = len(f["drawn"])
        f["drawn"], skill_pool = skill_pool[:n], skill_pool[n:]
    s["decks"]["skill"] = skill_pool
    for deck in ("early", "late"):
        in_deck = [i for i, e in enumerate(s["decks"]["event"]) if card(s, e)["deck"] == deck]
        boxed = [e for e in s["box"] if kind(s, e) == "event" and card(s, e)["deck"] == deck]
        pool = [s["decks"]["event"][i] for i in in_deck] + boxed
        rng.shuffle(pool, label="conceal")
        for i in in_deck:
            s["decks"]["event"][i] = pool.pop(0)
        s["box"] = [e for e in s["box"] if not (kind(s, e) == "event" and card(s, e)["deck"] == deck)] + pool
    s["dice"] = [rng.randbelow(6, label="conceal") for _ in s["dice"]]
    for frame in s["stack"]:
        if frame["type"] == "challenge":
            for o in others:
                if o in frame["assist"]:
                    frame["assist"][o] = bool(rng.randbelow(2, label="conceal"))
        if frame["type"] == "game":
            for o in others:
                if o in frame.get("picks", {}):
                    frame["picks"][o] = rng.choice(sorted(c["id"] for c in s["catalogue"]["cards"].values() if c["kind"] == "nightlancer"), label="conceal")
    for o in others:
        s["private"].pop(o, None)
    return s

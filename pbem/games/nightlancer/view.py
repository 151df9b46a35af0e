"""What the table sees and what one player sees (one exit for hidden information).

Public: tokens, tableau cards (Items, Cyber, Skills, fulfilled Agendas,
Spent cards), counts of hands and decks, each starting Agenda still in the
hand (the Nightlancer card shows it), discard piles, the Open Black
Market, the missions and Crews, the current event and the challenge under
way. Private to a player: their hand, the Skill cards they have drawn and
not yet bought, their own sealed choices (Nightlancer pick, assist) and
their private event lines of the last step (``events``). Secret from all: deck orders, the boxed event
cards, pinned dice.

Both parts name cards by id (``beat-cop#2``); what a card is and does is the
static card data of :func:`card_facts` (by design id), joined to them by
:func:`render` for an 80-column screen, naming cards by name
(:mod:`pbem.engine.screen`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from pbem.engine.protocol import SealedSizes
from pbem.engine.rng import Rng
from pbem.engine.screen import CardNames, settle_names, wrap
from pbem.games.nightlancer import agendas, effects, tokens
from pbem.games.nightlancer.cards import CHALLENGE_ABILITY, COMBAT_COST, SPECIAL_CHALLENGES, catalogue
from pbem.games.nightlancer.state import Slot, State
from pbem.games.nightlancer.zones import card, kind


def _facts(data: dict[str, Any]) -> dict[str, Any]:
    """One card design as a player reads it: name and kind, and what its kind prints."""
    out: dict[str, Any] = {"name": data["name"], "kind": data["kind"]}
    if data["kind"] in ("black_market", "starting_item"):
        out.update(type=data["type"], cost=data["cost"], traits=data["traits"],
                   text="; ".join(effects.describe(e) for e in data["effects"]))
    elif data["kind"] == "skill":
        out["text"] = "; ".join(effects.describe(e) for e in data["effects"])
    elif data["kind"] == "contact":
        out.update(type=data["type"], self=[effects.describe(e) for e in data["self"]],
                   against=effects.describe(data["against"]))
    elif data["kind"] in ("agenda", "personal_agenda"):
        out.update(requires=data["requires"], cost=data["cost"], reward=data["reward"], text=agendas.describe(data))
    elif data["kind"] == "nightlancer":
        out.update(abilities=data["abilities"], special=data.get("special_text"))
    elif data["kind"] == "event":
        out.update(text=data["text"], prospect_price=data["price"])
    elif data["kind"] == "mission":
        out.update(profile=data["profile"], traits=data["traits"], stages=data["stages"], rewards=data["rewards"])
    if "traits" in data:
        out["traits"] = data["traits"]
    if data.get("spend"):
        out["spend"] = True
    return out


def card_facts(scenario: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The card data a player reads, by design id (an instance ``beat-cop#2`` is design ``beat-cop``)."""
    return {key: _facts(data) for key, data in sorted(catalogue(scenario["card_data"])["cards"].items())}


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
        "events": list(state["events"]),
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
    """What ``player`` knows besides the public part: hand, Skills drawn, own sealed choices, private lines."""
    p = tokens.seat(state, player)
    secret: dict[str, Any] = {"hand": list(p["hand"]), "events": list(state["private"].get(player, []))}
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


def card_line(c: Mapping[str, Any], name: str | None = None) -> str:
    """One card as a player reads it: name, type, cost, traits, text (``name``: as the screen names it)."""
    head = [c.get("type", "").replace("_", " ").title()] if c.get("type") else []
    if "cost" in c and isinstance(c["cost"], int):
        head.append(f"{c['cost']} KC")
    head.extend(t.title() for t in c.get("traits", []))
    if "self" in c:
        text = f"for you: {c['self'][0]} OR {c['self'][1]}; against another: {c['against']}"
    else:
        text = c.get("text", "")
    return (name or c.get("name", "?")) + (f" ({', '.join(head)})" if head else "") + (f": {text}" if text else "")


def _abilities(abilities: dict[str, int]) -> str:
    return ", ".join(f"{k.title()} {v}" for k, v in abilities.items())


def _mission_lines(mission: Mapping[str, Any], indent: str) -> list[str]:
    """A mission's stages (the challenge options, the penalty for failing) and its rewards."""
    lines = []
    for n, stage in enumerate(mission["stages"], start=1):
        options = " or ".join(f"{o['challenge'].title()} {o['difficulty']}" for o in stage["options"])
        penalty = stage["penalty"]
        failed = {"heat": f"{penalty.get('amount')} Heat", "abort": "Abort"}.get(
            penalty["kind"], f"{penalty.get('challenge', '').title()} {penalty.get('difficulty')} combat")
        lines += wrap(f"Stage {n}: {options}; penalty {failed}", indent)
    rewards = "; ".join(f"{size}: {r['kc']} KC" + (f" +{r['prospects']} Prospects" if r["prospects"] else "")
                        + (f" {r['skills']} Skill draw" if r["skills"] else "") + (f" +{r['heat']} Heat" if r["heat"] else "")
                        for size, r in enumerate(mission["rewards"], start=1))
    return lines + wrap(f"Reward each, by Crew size: {rewards}", indent)


def card_text(c: Mapping[str, Any]) -> str:
    """A card in full, for ``pbem card`` and ``pbem view --cards``: what its kind prints, wrapped to the screen."""
    kind_name = c["kind"].replace("_", " ").title()
    if c["kind"] == "mission":
        traits = ", ".join(t.title() for t in c["traits"]) or "no traits"
        return "\n".join(wrap(f"{c['name']} (Mission, {c['profile']}-profile, {traits})")
                         + _mission_lines(c, "    "))
    if c["kind"] == "nightlancer":
        lines = wrap(f"{c['name']} (Nightlancer): {_abilities(c['abilities'])}")
        return "\n".join(lines + (wrap(f"special: {c['special']}", "    ") if c.get("special") else []))
    if c["kind"] == "event":
        return "\n".join(wrap(f"{c['name']} (Event): {c['text']} Prospects cost {c['prospect_price']} KC."))
    line = card_line(c, None if c.get("type") else f"{c['name']} ({kind_name})")
    return "\n".join(wrap(line + (" [Spend]" if c.get("spend") else "")))


def _challenge_line(c: dict[str, Any], name: CardNames) -> str:
    contacts = c["contacts"]
    net = contacts["bonus"] - contacts["penalty"]
    total = c["ability"] + c["cards"] + net
    used = []
    for instance in c["cards_used"]:
        data = name.facts(instance) or {}
        marks = [t.title() for t in data.get("traits", [])] + (["Spend"] if data.get("spend") else [])
        used.append(name(instance) + (f" - {', '.join(marks)}" if marks else ""))
    cards_text = f" ({'; '.join(used)})" if used else ""
    line = (f"Challenge: {c['player']} attempts {c['challenge'].title()}"
            + (f" {c['difficulty']}" if c["difficulty"] is not None else " (face-off: beat the other Crew)")
            + f": ability {c['ability']} + cards and specials {c['cards']}{cards_text} + contacts {net:+d} = {total} + die (+0 to +3)")
    extras = []
    if c["challenge"] in COMBAT_COST:
        cost = max(0, COMBAT_COST[c["challenge"]] - c["armour"] - contacts["armour"])
        extras.append(f"pays {cost} Health before the roll (Armour {c['armour'] + contacts['armour']})")
    if c["challenge"] in SPECIAL_CHALLENGES:
        has = c["enables"] or c["challenge"] in contacts["enables"]
        extras.append(f"{c['challenge'].title()} {'provided' if has else 'NOT provided: the attempt will fail'}")
    if contacts["steady"]:
        extras.append("ignores a Resolve symbol")
    if c["cards_left_out"]:
        extras.append("kept back: " + ", ".join(name(i) for i in c["cards_left_out"]))
    return line + ("; " + "; ".join(extras) if extras else "")


def render(public: dict[str, Any], private: dict[str, Any] | None, cards: dict[str, dict[str, Any]]) -> str:
    """A view as text for an 80-column terminal (the CLI prints what happened before it and the
    numbered options after it); ``private`` is ``None`` for an onlooker, ``cards`` the card data by
    design id. Two copies of one card on the screen are named with their copy numbers."""
    return "\n".join(settle_names(cards, lambda name: _screen(public, private, name)))


def _screen(data: dict[str, Any], private: dict[str, Any] | None, name: CardNames) -> list[str]:
    def line_of(instance: str) -> str:
        return card_line(name.facts(instance) or {}, name(instance))

    lines = [f"Nightlancer ({data['mode']}{', hardened' if data['hardened'] else ''}) - round {data['round']}, {data['phase']} phase"]
    if data["event"]:
        e = name.facts(data["event"]) or {}
        lines += wrap(f"Event: {name(data['event'])} - {e.get('text', '')} Prospects cost {e.get('prospect_price')} KC.")
    lines += wrap("Turn order: " + ", ".join(data["turn_order"]))
    for who, p in data["players"].items():
        flags = [f for f, on in (("Shaken", p["shaken"]), ("Techshock", p["techshock"])) if on]
        nl = name.facts(p["nightlancer"]) if p["nightlancer"] else None
        lines += wrap(f"{who} ({name(p['nightlancer']) if nl else 'no Nightlancer yet'})"
                      + (f" [{', '.join(flags)}]" if flags else ""), "- ", "    ")
        lines += wrap(f"Health {p['health']}/{p['max_health']}, Resolve {p['resolve']}/{p['max_resolve']}, "
                      f"Ideals {p['ideals']}, KC {p['kc']}, Heat {p['heat']}, Prospects {p['prospects']}, "
                      f"Loans {p['loans']}", "    ")
        lines += wrap(f"hand {p['hand_contacts']} Contacts + {p['hand_agendas']} Agendas, "
                      f"Deal token {'in hand' if p['deal_token'] else 'placed'}, "
                      f"missions completed {p['missions_completed']}", "    ")
        if nl:
            lines += wrap(f"abilities: {_abilities(nl['abilities'])}" + (f"; special: {nl['special']}" if nl["special"] else ""),
                          "    ")
        for c in p["items"] + p["cyber"] + p["skills"]:
            marks = [m for m, on in (("in Loadout", c in p["loadout"]), ("Spent", c in p["spent"])) if on]
            lines += wrap(line_of(c) + (f" [{', '.join(marks)}]" if marks else ""), "    ")
        if p["loadout"]:
            lines += wrap("Loadout: " + ", ".join(name(c) for c in p["loadout"]), "    ")
        if p["starting_agenda"]:
            lines += wrap("starting Agenda in hand: " + line_of(p["starting_agenda"]), "    ")
        for c in p["fulfilled"]:
            lines.append(f"    fulfilled: {name(c)}")
    if data["black_market"]:
        lines.append("Open Black Market:")
        for c in data["black_market"]:
            lines += wrap(line_of(c), "    ")
    for m in data["missions"]:
        mission = name.facts(m["card"]) or {"profile": "?", "traits": [], "stages": [], "rewards": []}
        crews = "; ".join(f"{c['pos']} Crew: {', '.join(c['members'])} (Boss {c['members'][0]})" for c in m["crews"]) or "no crew"
        deal = f", Deal token of {m['deal']}" if m["deal"] else ""
        lines += wrap(f"Mission {name(m['card'])} ({mission['profile']}-profile, "
                      f"{', '.join(t.title() for t in mission['traits']) or 'no traits'}{deal}): {crews}")
        lines += _mission_lines(mission, "    ")
    if data["challenge"]:
        lines += wrap(_challenge_line(data["challenge"], name))
    if private is not None:
        hand = private["hand"]
        lines.append("Your hand:" + ("" if hand else " empty"))
        for c in hand:
            lines += wrap(line_of(c), "    ")
        if private.get("skill_draw"):
            lines.append("Skills drawn:")
            for c in private["skill_draw"]:
                lines += wrap(line_of(c), "    ")
    return lines


#: The padded sizes of the sealed sections, the same for 1 to 4 seats: a player's section (hand, Skills
#: drawn, own sealed choices, private lines), what an awaited decision adds by kind (its options and
#: their labels; most kinds fit the default), the referee's compressed section. Measured over random
#: games of every scenario and seat count (the largest seen: 466 bytes without a decision, 4750 with
#: ``take-mission``, 3041 with ``streets``, 1913 with ``pick``, 1540 with another kind; 3923 bytes of
#: compressed state) with a margin of a sixth or more; ``tests/trust/test_sealed_sizes.py`` checks that
#: random games never outgrow them.
SEALED_SIZES = SealedSizes(player=768, decision=1024, decisions={"pick": 1536, "streets": 2816, "take-mission": 4864},
                           referee=4608)

"""What a Nightlancer view looks like: the card data players read, a view drawn as text, a card in full.

Everything ``pbem view`` and ``pbem card`` need of Nightlancer, without its
rules: the scenario as set up (:mod:`.data`, :mod:`.cards`), the card
facts of :func:`card_facts` (their texts in words: :mod:`.texts`), the
screen of :func:`render` and the card texts of :func:`card_text`. The rules'
game object (:class:`.game.Nightlancer`) offers the same through its
protocol methods; :data:`SCREEN` offers them to the registry
(:func:`pbem.engine.registry.find_screen`), which a reader of a view uses
without importing the rules.

The turn's public and private parts (:mod:`.view`) name cards by id
(``beat-cop#2``); :func:`render` joins the card data to them (by design id)
for an 80-column screen, naming cards by name (:mod:`pbem.engine.screen`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.engine.kitscreen import KitScreen
from pbem.engine.screen import CardNames, settle_names, wrap
from pbem.games.nightlancer.cards import COMBAT_COST, SPECIAL_CHALLENGES, catalogue
from pbem.games.nightlancer.data import DATA
from pbem.games.nightlancer.texts import describe_agenda, describe_effect


def _facts(data: dict[str, Any]) -> dict[str, Any]:
    """One card design as a player reads it: name and kind, and what its kind prints."""
    out: dict[str, Any] = {"name": data["name"], "kind": data["kind"]}
    if data["kind"] in ("black_market", "starting_item"):
        out.update(type=data["type"], cost=data["cost"], traits=data["traits"],
                   text="; ".join(describe_effect(e) for e in data["effects"]))
    elif data["kind"] == "skill":
        out["text"] = "; ".join(describe_effect(e) for e in data["effects"])
    elif data["kind"] == "contact":
        out.update(type=data["type"], self=[describe_effect(e) for e in data["self"]],
                   against=describe_effect(data["against"]))
    elif data["kind"] in ("agenda", "personal_agenda"):
        out.update(requires=data["requires"], cost=data["cost"], reward=data["reward"], text=describe_agenda(data))
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


def card_facts(setup: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The card data a player reads, by design id (an instance ``beat-cop#2`` is design ``beat-cop``)."""
    return {key: _facts(data) for key, data in sorted(catalogue(setup["card_data"])["cards"].items())}


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


class NightlancerScreen(KitScreen):
    """What reading a Nightlancer game needs (:class:`pbem.engine.protocol.GameScreen`), without the rules:
    its data (scenarios, options, card data) and its drawing."""

    data = DATA

    def cards(self, setup: Any) -> dict[str, dict[str, Any]]:
        return card_facts(setup)

    def render(self, public: Any, private: Any, cards: Any) -> str:
        return render(public, private, cards)

    def card_text(self, facts: Any) -> str:
        return card_text(facts)


#: the screen of Nightlancer, for the registry
SCREEN = NightlancerScreen()

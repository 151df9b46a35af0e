"""What a Nightfall view looks like: the card data players read, a view drawn as text, a card in full.

Everything ``pbem view`` and ``pbem card`` need of Nightfall, without its
rules: the scenario as set up (:mod:`.data`, :mod:`.cards`), the card
facts of :func:`card_facts`, the screen of :func:`render` and the card texts
of :func:`card_text`. The rules' game object (:class:`.game.Nightfall`) offers
the same through its protocol methods; :data:`SCREEN` offers them to the
registry (:func:`pbem.engine.registry.find_screen`), which a reader of a view
uses without importing the rules.

The turn's public and private parts (:mod:`.view`) name cards by id
(``koi-jiang#3``); :func:`render` joins the card data to them for an
80-column screen, naming cards by name (:mod:`pbem.engine.screen`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.engine.kitscreen import KitScreen
from pbem.engine.screen import CardNames, card_name, settle_names, wrap
from pbem.games.nightfall.cards import build_catalogue
from pbem.games.nightfall.data import DATA

CARD_FACTS = ("name", "type", "colour", "links", "kicker_colour", "cost", "strength", "health", "text")


def card_facts(setup: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What a player needs to decide about each card of the scenario, by card key:
    type, colour, link colours (the colours that may be linked to it, EN 177),
    the colour that fires its kicker (the card it is linked to, EN 184), cost,
    strength and health, and its printed text (Chain / Your Chain / In Play /
    Kicker / Feed)."""
    catalog = build_catalogue(setup["card_data"])
    return {key: {k: entry[k] for k in CARD_FACTS if k in entry} for key, entry in sorted(catalog.items())}


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


class NightfallScreen(KitScreen):
    """What reading a Nightfall game needs (:class:`pbem.engine.protocol.GameScreen`), without the rules:
    its data (scenarios, options, card data) and its drawing.

    Its scenarios are read as the rules read them but for one check: the
    effect names a card file uses are the rules' vocabulary, checked when a
    game is set up (:meth:`.game.Nightfall.check_card_data`). A game
    directory's ``game.toml`` pins the scenario it was set up with by its
    hash, which the reader checks against what this loads.
    """

    data = DATA

    def cards(self, setup: Any) -> dict[str, dict[str, Any]]:
        return card_facts(setup)

    def render(self, public: Any, private: Any, cards: Any) -> str:
        return render(public, private, cards)

    def card_text(self, facts: Any) -> str:
        return card_text(facts)


#: the screen of Nightfall, for the registry
SCREEN = NightfallScreen()

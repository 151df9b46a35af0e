"""Card data: loading a card file, the catalogue kept in the state, card instances.

Cards are data (``scenarios/nightlancer/cards.toml``, schema
``schemas/cards-nightlancer.schema.json``) naming effects from the small
vocabulary in :mod:`.effects`. Copies of a card get instance ids
``"design#1"``, ``"design#2"`` ... assigned in file order *before* any
shuffle, so an id says nothing about where a card lies in a deck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.engine.errors import ScenarioError
from pbem.engine.plain import copy_plain
from pbem.engine.remembered import for_the_last_object

if TYPE_CHECKING:  # pragma: no cover
    # a type only: card data imports no rule (the state module is the turn machine's), so that reading a
    # view (:mod:`.screen`) loads the card data without the rules
    from pbem.games.nightlancer.state import Catalogue

#: the card file format this package reads (v2: a Skill names only what 5.1 says Skills do)
CARDS_FORMAT = "pbem-nightlancer-cards-v2"

#: rulebook 5.2 "Challenge types": each challenge uses the named ability
CHALLENGE_ABILITY = {
    "covert": "covert",
    "streetwise": "streetwise",
    "technical": "technical",
    "cracking": "technical",
    "demolitions": "technical",
    "distraction": "covert",
    "close": "close",
    "gunfighter": "gunfighter",
    "marksman": "marksman",
}
NORMAL_CHALLENGES = ("covert", "streetwise", "technical")
SPECIAL_CHALLENGES = ("cracking", "demolitions", "distraction")
COMBAT_CHALLENGES = ("close", "gunfighter", "marksman")
#: rulebook 5.2 "Combat challenges": Health paid before the roll
COMBAT_COST = {"close": 3, "gunfighter": 2, "marksman": 1}

ITEM_TYPES = ("armour", "weapon", "gear")
CYBER_TYPES = ("cyberware", "cyberweapon")
WEAPON_TYPES = ("weapon", "cyberweapon")

#: card-file section -> card kind stored in the catalogue
SECTIONS = {
    "nightlancer": "nightlancer",
    "starting_item": "starting_item",
    "black_market": "black_market",
    "contact": "contact",
    "skill": "skill",
    "agenda": "agenda",
    "personal_agenda": "personal_agenda",
    "event": "event",
    "mission": "mission",
}
#: kinds whose copies get ``#n`` instance ids
COPIED_KINDS = ("black_market", "contact", "skill", "agenda")

#: component counts of rulebook 1.2
COMPONENT_COUNTS = {
    "nightlancer": 8,
    "starting_item": 8,
    "personal_agenda": 8,
    "contact": 60,
    "black_market": 60,
    "skill": 36,
    "agenda": 42,
}


def validate_cards(data: dict[str, Any], where: str = "card data") -> None:
    """What a card file's data alone tells beyond its schema: ids used once, each Nightlancer's starting
    Item and Agenda, enough events for two players."""
    ids: set[str] = set()
    for section in SECTIONS:
        for entry in data.get(section, []):
            if entry["id"] in ids:
                raise ScenarioError(f"{where}: card id {entry['id']!r} is used twice")
            ids.add(entry["id"])
    for nightlancer in data["nightlancer"]:
        if nightlancer["item"] not in {i["id"] for i in data["starting_item"]}:
            raise ScenarioError(f"{where}: {nightlancer['id']}: no starting item {nightlancer['item']!r}")
        if nightlancer["agenda"] not in {a["id"] for a in data["personal_agenda"]}:
            raise ScenarioError(f"{where}: {nightlancer['id']}: no personal agenda {nightlancer['agenda']!r}")
    events = data["event"]
    for deck in ("early", "late"):
        if sum(1 for e in events if e["deck"] == deck) < 5:
            raise ScenarioError(f"{where}: at least 5 {deck} events are needed (two-player set-up)")


def catalogue(data: dict[str, Any]) -> Catalogue:
    """The card catalogue stored in the state: design id -> card (with its ``kind``)."""
    cards: dict[str, Any] = {}
    for section, kind in SECTIONS.items():
        for entry in data.get(section, []):
            card = dict(entry)
            card["kind"] = kind
            cards[entry["id"]] = card
    # a deep copy: the state must never share objects with the loaded scenario
    built: Catalogue = {"set": data["set"], "die": data["die"]["faces"], "cards": cards}
    return copy_plain(built)


#: :func:`catalogue` of a card data, one for every state set up from that same card data object, one after
#: another (games played in memory): the catalogue is static and no rule changes it, so states may share it, as
#: every state the referee opens in a process shares one read-only; building it anew, a deep copy of some 3,000
#: containers and strings, was a tenth of a random four-player game. A test that changes a card in one state
#: copies the catalogue first.
shared_catalogue = for_the_last_object(catalogue)


def instances(data: dict[str, Any], section: str) -> list[str]:
    """Instance ids of one section, in file order (before any shuffle)."""
    result: list[str] = []
    for entry in data.get(section, []):
        if section in COPIED_KINDS:
            result.extend(f"{entry['id']}#{n}" for n in range(1, entry.get("copies", 1) + 1))
        else:
            result.append(entry["id"])
    return result

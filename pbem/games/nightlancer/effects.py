"""The effect vocabulary: what card data may name, and what each name does.

A card names effects (``{effect = "bonus", amount = 2, challenges = [...]}``);
this module gives each name its rule. No card is named here.

* Permanent (Nightlancer special, Skill, Cyberware, Items): ``bonus``,
  ``enables`` (provides a special challenge's requirement), ``armour``
  (combat challenges cost that much less Health), ``max_health``,
  ``max_resolve``, ``income`` (KC in Downtime), ``extra_contacts`` (Draw
  cards step), ``discount`` (black market cost), ``ability`` (raises
  ability ratings, so every challenge that uses them). A Skill names only
  ``ability``, ``extra_contacts`` and ``income``: 5.1 "They can modify the
  ability ratings of a Nightlancer or allow extra Contact cards or KC to be
  taken during the Prep phase" (the card schema holds it).
* Contact, played on yourself: in a challenge ``bonus``, ``enables``,
  ``armour``, ``steady`` (ignore a Resolve symbol); at any of your
  decisions ``heal``, ``gain_kc``, ``cool`` (lose Heat), ``draw`` (Contact
  cards); on starting a First Crew ``deal`` (place the Deal token).
* Contact, played against an opponent: on a challenge ``penalty``,
  ``drain`` (discard Health/Resolve), ``heat``; on a black market buy
  ``cancel_buy``; as they complete a mission ``skim`` (KC reward reduced)
  and ``payment_heat``.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.rng import Rng
from pbem.games.nightlancer import tokens
from pbem.games.nightlancer.cards import COMBAT_CHALLENGES, CYBER_TYPES, WEAPON_TYPES
from pbem.games.nightlancer.state import State
from pbem.games.nightlancer.zones import card, draw

Effect = dict[str, Any]

ANYTIME_SELF = ("heal", "gain_kc", "cool", "draw")
BUY_AGAINST = ("cancel_buy",)
PAYMENT_AGAINST = ("skim", "payment_heat")


def new_mods() -> dict[str, Any]:
    """Modifiers contacts put on one attempt, buy or payment."""
    return {"bonus": 0, "penalty": 0, "enables": [], "armour": 0, "steady": False,
            "cancel": False, "skim": 0, "heat": 0, "leave_out": []}


# --- cards in use ----------------------------------------------------------


def usable_cards(state: State, player: str, ctx: dict[str, Any]) -> list[str]:
    """Item and Cyber cards the player may use in this challenge.

    On a mission only the Loadout (3.3 "Gear up") and Cyberware/Cyberweapons;
    in an Event every card but those with Obvious (3.1 "Event step");
    Stealthy bars Loud, Incognito bars Obvious (3.3 "Mission traits");
    Spent cards can't be used (5.2).
    """
    p = tokens.seat(state, player)
    items = list(p["items"]) if ctx.get("event") else list(p["loadout"])
    cards = items + list(p["cyber"])
    traits = ctx.get("traits", [])
    result = []
    for c in cards:
        data = card(state, c)
        if c in p["spent"]:
            continue
        if "loud" in data["traits"] and "stealthy" in traits:
            continue
        if "obvious" in data["traits"] and ("incognito" in traits or ctx.get("event")):
            continue
        result.append(c)
    return result


def _bonus(effects: list[Effect], ctype: str) -> int:
    return sum(e["amount"] for e in effects if e["effect"] == "bonus" and ctype in e["challenges"])


def _enables(effects: list[Effect], ctype: str) -> bool:
    return any(e["effect"] == "enables" and ctype in e["challenges"] for e in effects)


def _armour(effects: list[Effect]) -> int:
    return sum(e["amount"] for e in effects if e["effect"] == "armour")


def kit(state: State, player: str, ctype: str, ctx: dict[str, Any], leave_out: Any = ()) -> dict[str, Any]:
    """What the player's cards add to an attempt.

    Rulebook 5.2: Skill and Cyberware always apply; any number of Gear cards.
    5.1: "only one Armour card may be used in a challenge" and "only one
    Weapon or Cyberweapon card may be used in a challenge" (5.2 says the same
    of combat): in every challenge the best Weapon or Cyberweapon and the
    best Armour count (a card that provides the special ability first, then
    the most help; ties: the one without Loud). Every effect of a card in use
    counts (an Armour card's bonus to Streetwise, a Weapon that enables
    Demolitions). Cards in ``leave_out`` are the ones the player chose not to
    use (a Loud or single-use card kept back, see ``challenges``).
    """
    combat = ctype in COMBAT_CHALLENGES
    permanent = tokens.permanent_effects(state, player)
    result: dict[str, Any] = {"bonus": _bonus(permanent, ctype), "enables": _enables(permanent, ctype),
              "armour": _armour(permanent) if combat else 0, "used": []}

    def take(c: str, bonus: int, enables: bool, armour: int) -> None:
        result["bonus"] += bonus
        result["enables"] = result["enables"] or enables
        result["armour"] += armour
        result["used"].append(c)

    weapons, armours = [], []
    for c in usable_cards(state, player, ctx):
        if c in leave_out:
            continue
        data = card(state, c)
        effects = data["effects"]
        bonus, enables, armour = _bonus(effects, ctype), _enables(effects, ctype), _armour(effects) if combat else 0
        if not (bonus or enables or armour):
            continue
        ranked = (enables, bonus + armour, "loud" not in data["traits"], c, bonus, armour)
        if data["type"] in WEAPON_TYPES:
            weapons.append(ranked)
        elif data["type"] == "armour":
            armours.append(ranked)
        else:
            take(c, bonus, enables, armour)
    for group in (weapons, armours):
        if group:
            best = max(group)
            take(best[3], best[4], best[0], best[5])
    return result


# --- contacts ---------------------------------------------------------------


def self_applies(effect: Effect, when: str, ctype: str | None = None) -> bool:
    """Whether a positive contact effect can apply now ("A Contact can be played
    at any time it can apply", 5.1)."""
    name = effect["effect"]
    if when == "challenge":
        if name in ("bonus", "enables"):
            return ctype in effect["challenges"]
        if name == "armour":
            return ctype in COMBAT_CHALLENGES
        if name == "steady":
            return True
        return name in ANYTIME_SELF
    if when == "anytime":
        return name in ANYTIME_SELF
    if when == "first-crew":
        return name == "deal"
    return False


def against_applies(effect: Effect, trigger: str, ctype: str | None = None) -> bool:
    name = effect["effect"]
    if trigger == "challenge":
        if name == "penalty":
            return ctype in effect["challenges"]
        return name in ("drain", "heat")
    if trigger == "buy":
        return name in BUY_AGAINST
    if trigger == "payment":
        return name in PAYMENT_AGAINST
    return False


def apply_self(state: State, player: str, effect: Effect, mods: dict[str, Any], rng: Rng) -> None:
    name = effect["effect"]
    p = tokens.seat(state, player)
    if name == "bonus":
        mods["bonus"] += effect["amount"]
    elif name == "enables":
        mods["enables"].extend(effect["challenges"])
    elif name == "armour":
        mods["armour"] += effect["amount"]
    elif name == "steady":
        mods["steady"] = True
    elif name == "heal":
        tokens.heal(state, player, effect["health"], effect["resolve"])
    elif name == "gain_kc":
        p["kc"] += effect["amount"]
    elif name == "cool":
        tokens.cool(state, player, effect["amount"])
    elif name == "draw":
        draw_contacts(state, player, effect["amount"], rng)
    elif name == "deal":
        pass  # the take-missions step places the Deal token
    else:  # pragma: no cover - the schema admits no other name
        raise ValueError(f"unknown self effect {name!r}")


def apply_against(state: State, target: str, effect: Effect, mods: dict[str, Any]) -> None:
    name = effect["effect"]
    if name == "penalty":
        mods["penalty"] += effect["amount"]
    elif name == "drain":
        tokens.lose(state, target, health=effect["health"], resolve=effect["resolve"])
    elif name == "heat":
        tokens.gain_heat(state, target, effect["amount"])
    elif name == "cancel_buy":
        mods["cancel"] = True
    elif name == "skim":
        mods["skim"] += effect["amount"]
    elif name == "payment_heat":
        mods["heat"] += effect["amount"]
    else:  # pragma: no cover
        raise ValueError(f"unknown against effect {name!r}")


def draw_contacts(state: State, player: str, count: int, rng: Rng) -> None:
    p = tokens.seat(state, player)
    for _ in range(count):
        c = draw(state, "contact", rng)
        if c is not None:
            p["hand"].append(c)
            tokens.tell(state, player, f"You draw {card(state, c)['name']}.")  # a name, never an id, on a screen


def cyber_duplicate(state: State, player: str, instance: str) -> bool:
    """3.2 "Buy a Black Market card": no duplicate of Cyberware/Cyberweapon already owned."""
    data = card(state, instance)
    if data["type"] not in CYBER_TYPES:
        return False
    return any(card(state, c)["id"] == data["id"] for c in tokens.seat(state, player)["cyber"])

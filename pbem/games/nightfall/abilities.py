"""In-play abilities: what a minion's In Play text does, as card data.

A minion's ``in_play`` list names abilities from this small vocabulary; the
rules ask this module about a card's data and never name a card. Four
shapes:

* **keywords**, no parameters: ``stays_in_play`` (not discarded after your
  combat, EN 170-171), ``survives_zero_health`` (need not be destroyed at 0
  health: its controller chooses, DE 78), ``immune_to_destroy``
  ("protected from destroy effects", DE 52), ``blocks_direct_damage``
  ("This card blocks damage inflicted on you", EN 167);
* **exile_when** with ``when = "destroyed"`` or ``"destroyed_or_discarded"``:
  a starting minion's exile line (EN 127);
* **modifiers** with an ``amount``: ``strength_aura`` (each of your minions,
  this one included, has +N strength; auras stack, DE 79),
  ``blocked_damage_reduction`` (an attacker this minion blocks deals N less
  damage), ``action_discard_influence`` (in your turn an action card you
  discard for influence gives N, DE 76, DE 82);
* **triggers**, naming an effect of :mod:`.effects` with its parameters:
  ``on_attack`` ("when this minion attacks": once all attackers are sent,
  before any blocker is chosen, EN 150, EN 308; ruling 27),
  ``on_friendly_destroyed`` (when a minion you control is destroyed, this
  one included, DE 71), ``at_turn_start`` (at the start of your turn,
  before your combat, DE 72) and ``at_cleanup_end`` ("at the end of your
  cleanup phase", after the wound effect, DE 73). A trigger of any kind may hold a
  ``condition``: ``alone`` (you control no other minion).
"""

from __future__ import annotations

from typing import Any

#: one entry of a card's ``in_play`` list
Ability = dict[str, Any]

KEYWORDS = ("stays_in_play", "survives_zero_health", "immune_to_destroy", "blocks_direct_damage")
MODIFIERS = ("strength_aura", "blocked_damage_reduction", "action_discard_influence")
TRIGGERS = ("on_attack", "on_friendly_destroyed", "at_turn_start", "at_cleanup_end")
CONDITIONS = ("alone",)
#: every name an ``in_play`` entry may give as its ``ability``
VOCABULARY = (*KEYWORDS, "exile_when", *MODIFIERS, *TRIGGERS)


def _named(card: dict[str, Any], name: str) -> list[Ability]:
    return [a for a in card.get("in_play", []) if a.get("ability") == name]


def _amounts(card: dict[str, Any], name: str) -> list[int]:
    """The amounts of the card's modifiers called ``name``: in one comprehension, as strength auras are
    summed for every minion whose strength is read."""
    return [a["amount"] for a in card.get("in_play", []) if a.get("ability") == name]


# --- keywords


def stays_in_play(card: dict[str, Any]) -> bool:
    return bool(_named(card, "stays_in_play"))


def survives_zero_health(card: dict[str, Any]) -> bool:
    return bool(_named(card, "survives_zero_health"))


def immune_to_destroy(card: dict[str, Any]) -> bool:
    return bool(_named(card, "immune_to_destroy"))


def blocks_direct_damage(card: dict[str, Any]) -> bool:
    return bool(_named(card, "blocks_direct_damage"))


def exiled_when(card: dict[str, Any], how: str) -> bool:
    """Whether the card is exiled when it leaves play ``how`` (``"destroyed"`` or ``"discarded"``)."""
    return any(how in line["when"].split("_or_") for line in _named(card, "exile_when"))


# --- modifiers


def strength_aura(card: dict[str, Any]) -> int:
    """Strength this minion adds to each minion its controller controls."""
    return sum(_amounts(card, "strength_aura"))


def blocked_damage_reduction(card: dict[str, Any]) -> int:
    """Damage an attacker this minion blocks deals less."""
    return sum(_amounts(card, "blocked_damage_reduction"))


def action_discard_influence(card: dict[str, Any]) -> int:
    """Influence an action discarded in its controller's turn gives, at least (0: no such text)."""
    return max(_amounts(card, "action_discard_influence"), default=0)


# --- triggers


def triggers(card: dict[str, Any], when: str, controlled: int) -> list[Ability]:
    """The card's triggers of kind ``when`` (one of :data:`TRIGGERS`) whose condition holds, in card order.

    ``controlled``: how many minions the card's controller controls now,
    itself included (``alone``: just it).
    """
    return [ability for ability in _named(card, when) if _condition_holds(ability, controlled)]


def _condition_holds(ability: Ability, controlled: int) -> bool:
    condition = ability.get("condition")
    return condition is None or (condition == "alone" and controlled == 1)

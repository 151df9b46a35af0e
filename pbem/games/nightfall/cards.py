"""Card data: load a card file (TOML) into the catalogue a game state carries.

Cards are data (``scenarios/nightfall/cards.toml``) plus the effect functions
of :mod:`.effects`, which the data names. The catalogue travels inside the
state, so a game set up from an owner's own card file (``--cards FILE``)
keeps playing by that file.

This module is data alone: it imports no rule, so that drawing a screen
(:mod:`.screen`) reads the card data without the rules. The effect names a
card file uses are checked against the rules' vocabulary by whoever holds
it (:func:`check_effect_names`, when a game is set up).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from pbem.engine.errors import ScenarioError

#: the card file format this package reads (/2: in-play triggers name their effects; Quick Start sets; /3:
#: an effect that acts on more than one kind of thing names its target: ``damage`` with ``target = "minion"``)
CARDS_FORMAT = "nightfall-cards/3"
#: what changed in this version of the format, for a card file of an older one
CARDS_SINCE = ("effects are verbs with a target: damage_minion is {effect = \"damage\", target = \"minion\"}, "
               "damage_player {effect = \"damage\", target = \"player\"}; see the shipped cards.toml")
WOUND_TYPES = ("bite", "burn", "bleed")


def validate_cards(data: dict[str, Any], where: str = "card file") -> None:
    """What a card file's data alone tells beyond its schema: its colours and its Quick Start sets (the
    effect names it uses: :func:`check_effect_names`)."""
    for card in data["card"]:
        for colour in [card["colour"], *card["links"], card.get("kicker_colour", card["colour"])]:
            if colour not in data["colours"]:
                raise ScenarioError(f"{where}: {card['key']}: unknown colour {colour!r}")
    drafted = {card["key"] for card in data["card"] if card["group"] in ("draft", "promo")}
    for quick_start_set in data.get("quick_start_sets", []):
        for key in quick_start_set:
            if key not in drafted:
                raise ScenarioError(f"{where}: Quick Start set {quick_start_set}: {key!r} is not a draft card")


def check_effect_names(data: dict[str, Any], where: str, effects: Collection[str],
                       targets: Mapping[str, Collection[str]]) -> None:
    """Refuse a card file that names an effect outside ``effects`` (the rules' vocabulary,
    :data:`pbem.games.nightfall.effects.EFFECTS`), in a card text or an in-play ability, or a target the
    effect does not take (``targets``: :data:`pbem.games.nightfall.effects.TARGETS`)."""
    for card in data["card"]:
        steps = [step for part in ("chain", "your_chain", "kicker") for step in card.get(part, [])]
        for step in steps + [ability for ability in card.get("in_play", []) if "effect" in ability]:
            effect = step["effect"]
            if effect not in effects:
                raise ScenarioError(f"{where}: {card['key']}: unknown effect {effect!r}")
            allowed = targets.get(effect, ())
            if allowed and step.get("target") not in allowed:
                raise ScenarioError(f"{where}: {card['key']}: the {effect} effect needs a target, one of "
                                    f"{', '.join(allowed)}, not {step.get('target')!r}")
            if not allowed and "target" in step:
                raise ScenarioError(f"{where}: {card['key']}: the {effect} effect takes no target")


def quick_start_sets(data: dict[str, Any]) -> list[list[str]]:
    """The Quick Start sets of a card file (EN 84-90), as the state keeps them."""
    return [list(cards) for cards in data.get("quick_start_sets", [])]


def build_catalogue(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Card key -> card data, wounds included (one entry per wound kind and type)."""
    catalogue: dict[str, dict[str, Any]] = {}
    for card in data["card"]:
        entry = {k: v for k, v in card.items() if k not in ("source", "note")}
        entry.setdefault("chain", [])
        entry.setdefault("your_chain", [])
        entry.setdefault("kicker", [])
        entry.setdefault("in_play", [])
        catalogue[card["key"]] = entry
    for wound in data["wound"]:
        for wound_type in WOUND_TYPES:
            key = f"{wound['key']}-{wound_type}"
            catalogue[key] = {
                "key": key,
                "name": f"{wound['name']} ({wound_type})",
                "type": "wound",
                "kind": wound["kind"],
                "wound_type": wound_type,
                "per_type": wound["per_type"],
                "text": wound["text"],
            }
    return catalogue

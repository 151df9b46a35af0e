"""Card data: load a card file (TOML) into the catalog a game state carries.

Cards are data (``scenarios/nightfall/cards.toml``) plus the effect functions
of :mod:`.effects`, which the data names. The catalog travels inside the
state, so a game set up from an owner's own card file (``--cards FILE``)
keeps playing by that file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.engine.errors import ScenarioError
from pbem.engine.scenario_files import check_schema, read_toml
from pbem.games.nightfall.effects import EFFECTS
from pbem.resources import scenario_dir

CARDS_FORMAT = "nightfall-cards/1"
WOUND_TYPES = ("bite", "burn", "bleed")


def default_cards_path() -> Path:
    return scenario_dir("nightfall") / "cards.toml"


def read_cards(path: str | Path | None = None) -> dict[str, Any]:
    """Read and validate a card file; return it as plain data."""
    path = Path(path) if path is not None else default_cards_path()
    data = read_toml(path, "Nightfall card file")
    validate_cards(data, str(path))
    return data


def validate_cards(data: dict[str, Any], where: str = "card file") -> None:
    """Check a card file against ``schemas/cards-nightfall.schema.json`` and
    against the effect names this package knows."""
    check_schema(data, "cards-nightfall", where)
    for card in data["card"]:
        for part in ("chain", "your_chain", "kicker"):
            for step in card.get(part, []):
                if step["effect"] not in EFFECTS:
                    raise ScenarioError(f"{where}: {card['key']}: unknown effect {step['effect']!r}")
        for ability in card.get("in_play", []):
            if "effect" in ability and ability["effect"] not in EFFECTS:
                raise ScenarioError(f"{where}: {card['key']}: unknown effect {ability['effect']!r}")
        for colour in [card["colour"], *card["links"], card.get("kicker_colour", card["colour"])]:
            if colour not in data["colours"]:
                raise ScenarioError(f"{where}: {card['key']}: unknown colour {colour!r}")


def build_catalog(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Card key -> card data, wounds included (one entry per wound kind and type)."""
    catalog: dict[str, dict[str, Any]] = {}
    for card in data["card"]:
        entry = {k: v for k, v in card.items() if k not in ("source", "note")}
        entry.setdefault("chain", [])
        entry.setdefault("your_chain", [])
        entry.setdefault("kicker", [])
        entry.setdefault("in_play", [])
        catalog[card["key"]] = entry
    for wound in data["wound"]:
        for wound_type in WOUND_TYPES:
            key = f"{wound['key']}-{wound_type}"
            catalog[key] = {
                "key": key,
                "name": f"{wound['name']} ({wound_type})",
                "type": "wound",
                "kind": wound["kind"],
                "wound_type": wound_type,
                "per_type": wound["per_type"],
                "text": wound["text"],
            }
    return catalog

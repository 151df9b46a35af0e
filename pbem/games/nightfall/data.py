"""Nightfall's data: its folder of scenarios, options and card data (:class:`~pbem.engine.gamedata.GameData`).

A scenario (``scenarios/nightfall/NAME.toml``, or a file named by its path)
names its card file and sets some options; loading it settles every option
(checked against ``scenarios/nightfall/options.toml``) and reads the card
data, from the owner's own card file (``--cards FILE``) if one is given.
Static data only, no rule: both the rules (:class:`.game.Nightfall`) and the
screen (:mod:`.screen`) read it, the rules with the effect names of the card
data checked against their vocabulary as well.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.engine.errors import ScenarioError
from pbem.engine.gamedata import CardFile, GameData
from pbem.games.nightfall.cards import CARDS_FORMAT, CARDS_SINCE, validate_cards
from pbem.resources import scenario_dir


def _combinations(options: dict[str, Any], where: str | None) -> None:
    """Variants that cannot be played together (EN 249-250)."""
    if "open-archives" in options["variants"] and "common-ground" in options["variants"]:
        raise ScenarioError(f"{where + ': ' if where else ''}Open Archives and Common Ground cannot be combined")


DATA = GameData(
    "nightfall", scenario_dir("nightfall"), title="Nightfall", scenario_format="nightfall-scenario/1",
    scenario_schema="scenario-nightfall",
    card_file=CardFile(what="Nightfall card file", format=CARDS_FORMAT, schema="cards-nightfall",
                       since=CARDS_SINCE, validate=validate_cards),
    check_options=_combinations,
)


def read_cards(path: str | Path | None = None) -> dict[str, Any]:
    """Read a card file (the shipped one by default) and check what its data alone tells."""
    return DATA.read_cards(path if path is not None else DATA.folder / "cards.toml")

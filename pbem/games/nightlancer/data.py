"""Nightlancer's data: its folder of scenarios, options and card data (:class:`~pbem.engine.gamedata.GameData`).

A scenario (``scenarios/nightlancer/NAME.toml``, or a file named by its
path) names its card file and sets some options; loading it settles every
option (checked against ``scenarios/nightlancer/options.toml``) and reads
the card data, from the owner's own card file (``--cards FILE``) if one is
given. Static data only, no rule: both the rules (:class:`.game.Nightlancer`)
and the screen (:mod:`.screen`) read it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.engine.gamedata import CardFile, GameData
from pbem.games.nightlancer.cards import CARDS_FORMAT, validate_cards
from pbem.resources import scenario_dir

DATA = GameData(
    "nightlancer", scenario_dir("nightlancer"), title="Nightlancer", scenario_format="pbem-nightlancer-scenario-v1",
    scenario_schema="scenario-nightlancer",
    card_file=CardFile(what="Nightlancer card file", format=CARDS_FORMAT, schema="cards-nightlancer",
                       since="in which a Skill names only ability (raise ability ratings), extra_contacts or "
                             "income: rulebook 5.1 \"Skill cards\"", validate=validate_cards),
)


def read_card_file(path: str | Path) -> dict[str, Any]:
    """Parse and check a card file; raise :class:`~pbem.engine.errors.ScenarioError` naming the problem."""
    return DATA.read_cards(path)

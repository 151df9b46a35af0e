"""A Nightlancer scenario as set up: its file, its options and its card data.

A scenario (``scenarios/nightlancer/NAME.toml``, or a file named by its
path) names its card file and sets some options; loading it settles every
option (checked against ``scenarios/nightlancer/options.toml``) and reads the
card data, from the owner's own card file (``--cards FILE``) if one is given.

Static data only, no rule: both the rules (:class:`.game.Nightlancer`) and
the screen (:mod:`.screen`) load scenarios here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pbem.engine.errors import ScenarioError
from pbem.engine.options import OptionTable, read_option_table
from pbem.engine.scenario_files import check_schema, read_toml, scenario_names
from pbem.games.nightlancer.cards import read_card_file
from pbem.resources import scenario_dir

#: the format of a Nightlancer scenario file
SCENARIO_FORMAT = "pbem-nightlancer-scenario-v1"


def scenarios() -> Sequence[str]:
    """The shipped scenarios; the first is the standard set-up."""
    return scenario_names(scenario_dir("nightlancer"), SCENARIO_FORMAT)


def option_table() -> OptionTable:
    """The options of Nightlancer (mode, hardened), declared in ``scenarios/nightlancer/options.toml``."""
    return read_option_table("nightlancer", scenario_dir("nightlancer") / "options.toml")


def load_scenario(name: str, cards: str | None = None) -> dict[str, Any]:
    """The scenario ``name`` (a shipped one, or the path of a file) with every option settled and its card
    data under ``card_data``: from ``cards`` if given, else from the card file the scenario names."""
    path = scenario_dir("nightlancer") / f"{name}.toml"
    if not path.is_file():
        path = Path(name)
        if not path.is_file():
            raise ScenarioError(f"unknown Nightlancer scenario {name!r}; shipped: {', '.join(scenarios())}")
    scenario = read_toml(path, "Nightlancer scenario")
    check_schema(scenario, "scenario-nightlancer", str(path))
    scenario["options"] = option_table().settle(scenario.get("options", {}), where=str(path))
    card_path = Path(cards) if cards else path.parent / scenario.get("cards", "cards.toml")
    return {**scenario, "card_data": read_card_file(card_path)}

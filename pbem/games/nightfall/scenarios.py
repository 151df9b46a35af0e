"""A Nightfall scenario as set up: its file, its options and its card data.

A scenario (``scenarios/nightfall/NAME.toml``, or a file named by its path)
names its card file and sets some options; loading it settles every option
(checked against ``scenarios/nightfall/options.toml``) and reads the card
data, from the owner's own card file (``--cards FILE``) if one is given.

Static data only, no rule: both the rules (:class:`.game.Nightfall`) and
the screen (:mod:`.screen`) load scenarios here, the rules with the effect
names of the card data checked against their vocabulary as well.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pbem.engine.errors import ScenarioError
from pbem.engine.options import OptionTable, read_option_table
from pbem.engine.scenario_files import check_schema, read_toml, scenario_names
from pbem.resources import scenario_dir

#: the format of a Nightfall scenario file
SCENARIO_FORMAT = "nightfall-scenario/1"


def scenarios() -> Sequence[str]:
    """The shipped scenarios; the first is the standard set-up."""
    return scenario_names(scenario_dir("nightfall"), SCENARIO_FORMAT)


def option_table() -> OptionTable:
    """The options of Nightfall, declared in ``scenarios/nightfall/options.toml``."""
    return read_option_table("nightfall", scenario_dir("nightfall") / "options.toml")


def game_options(scenario: dict[str, Any], players: Sequence[str] | None = None,
                 where: str | None = None) -> dict[str, Any]:
    """Every option, as the scenario sets it (checked against the declaration) or by default."""
    options = option_table().settle(scenario.get("options", {}), players, where)
    if "open-archives" in options["variants"] and "common-ground" in options["variants"]:
        raise ScenarioError(f"{where + ': ' if where else ''}Open Archives and Common Ground cannot be combined")
    return options


def load_scenario(name: str, cards: str | None, read_cards: Callable[[Path], dict[str, Any]]) -> dict[str, Any]:
    """The scenario ``name`` (a shipped one, or the path of a ``.toml`` file) with every option settled and
    its card data under ``card_data``: read with ``read_cards`` from ``cards`` if given, else from the card
    file the scenario names."""
    path = Path(name) if name.endswith(".toml") else scenario_dir("nightfall") / f"{name}.toml"
    scenario = read_toml(path, "Nightfall scenario")
    check_schema(scenario, "scenario-nightfall", str(path))
    scenario["options"] = game_options(scenario, where=str(path))
    card_file = Path(cards) if cards is not None else scenario_dir("nightfall") / scenario.get("cards", "cards.toml")
    scenario["card_data"] = read_cards(card_file)
    return scenario

"""Each game declares its options as data.

``scenarios/GAME/options.toml`` (``pbem-game-options/1``) names every
setting a scenario's ``[options]`` table or ``pbem new --option`` may set,
with its type, default, allowed values and help. The generic loader in
:mod:`pbem.engine.options` checks the declaration, the scenarios and the
chosen values against it, and the value chosen reaches the rules. That every
option a scenario uses and the rules read is declared is the conformance
suite's (``tests/conformance/test_game_data.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.engine import Rng, ScenarioError
from pbem.engine.options import OptionError, parse_option_table, set_up_options
from pbem.games import nightfall, nightlancer


def declaration(**entry) -> dict:
    return {"format": "pbem-game-options/1", "option": [entry]}


def test_scenario_options_outside_the_declaration_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('format = "nightfall-scenario/1"\nname = "mine"\n[options]\ndraft = "fast"\n')
    with pytest.raises(ScenarioError, match="option draft: 'fast' is not allowed"):
        nightfall.GAME.load_scenario(str(path))
    path.write_text('format = "nightfall-scenario/1"\nname = "mine"\n[options]\nspeed = 3\n')
    with pytest.raises(ScenarioError, match="nightfall has no option 'speed'; its options: draft, variants"):
        nightfall.GAME.load_scenario(str(path))


def test_a_chosen_value_reaches_the_rules() -> None:
    setup = nightfall.GAME.load_scenario("quick-start")
    set_up_options(nightfall.GAME, setup, {"count_face_up": True, "first_player": "bo"}, ["al", "bo"])
    state = nightfall.GAME.new_state(setup, ["al", "bo"], Rng.from_seed(1))
    assert nightfall.GAME.public(state)["face_up_wounds"] == 20
    assert state["first"] == "bo"
    setup = nightlancer.GAME.load_scenario("standard")
    set_up_options(nightlancer.GAME, setup, {"hardened": 2}, ["al", "bo"])
    assert nightlancer.GAME.new_state(setup, ["al", "bo"], Rng.from_seed(1))["hardened"] == 2


def test_a_scenario_setting_stands_unless_an_option_is_chosen_over_it() -> None:
    setup = nightfall.GAME.load_scenario("quick-start")
    assert setup["options"]["draft"] == "quick-start"
    set_up_options(nightfall.GAME, setup, {"draft": "five-card"}, ["al", "bo"])
    assert setup["options"]["draft"] == "five-card"


def test_the_loader_refuses_a_declaration_whose_default_it_does_not_allow() -> None:
    with pytest.raises(ScenarioError, match="the default of option mode"):
        parse_option_table("g", declaration(name="mode", type="text", values=["a", "b"], default="c", help="h"), "x")
    with pytest.raises(ScenarioError, match="needs a default"):
        parse_option_table("g", declaration(name="n", type="integer", help="h"), "x")
    with pytest.raises(ScenarioError, match="x: option/0"):
        parse_option_table("g", declaration(name="n", type="float", default=1, help="h"), "x")
    with pytest.raises(ScenarioError, match="x: option/0"):
        parse_option_table("g", declaration(name="n", type="boolean", default=True, minimum=0, help="h"), "x")


def test_a_value_is_parsed_by_its_type() -> None:
    table = parse_option_table("g", {"format": "pbem-game-options/1", "option": [
        {"name": "on", "type": "boolean", "default": False, "help": "h"},
        {"name": "n", "type": "integer", "minimum": 1, "maximum": 3, "default": 1, "help": "h"},
        {"name": "some", "type": "text-list", "values": ["a", "b"], "default": [], "help": "h"},
        {"name": "who", "type": "player", "help": "h"},
    ]}, "x")
    assert table.parse({"on": "yes", "n": "3", "some": "b,a", "who": "bo"}, ["al", "bo"]) == {
        "on": True, "n": 3, "some": ["b", "a"], "who": "bo"}
    assert table.parse({"some": ""}) == {"some": []}
    assert table.settle({}) == {"on": False, "n": 1, "some": [], "who": None}
    for texts, message in (({"n": "4"}, "from 1 to 3"), ({"n": "1.0"}, "whole number"), ({"some": "a,a"}, "twice"),
                           ({"who": "cy"}, "seated players: al, bo"), ({"on": "1.5"}, "true or false")):
        with pytest.raises(OptionError, match=message):
            table.parse(texts, ["al", "bo"])
    with pytest.raises(OptionError, match="expected true or false"):
        table.settle({"on": 1})  # a scenario's value keeps its type: 1 is not true

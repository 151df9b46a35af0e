"""Worked examples pinned as scenario files (scenarios/nightlancer/example-*.toml)."""

from __future__ import annotations

import json

import jsonschema

from pbem.engine.rng import Rng
from pbem.games.nightlancer import GAME
from pbem.resources import scenario_dir, schema_path

from .helpers import Table


def test_every_example_scenario_matches_the_scenario_schema():
    import tomllib

    schema = json.loads(schema_path("scenario-nightlancer").read_text())
    examples = sorted(scenario_dir("nightlancer").glob("example-*.toml"))
    assert examples
    for path in examples:
        jsonschema.validate(tomllib.loads(path.read_text()), schema)


def test_example_face_off_the_second_crew_equals_the_first_crews_score_and_wins():
    state = GAME.new_state(GAME.load_scenario("example-face-off"), ["ana", "ben"], Rng.from_seed(0))
    t = Table(state)
    t.choose("ana", "first:low-courier-run")
    t.choose("ben", "second:low-courier-run")
    t.until_kind("face-off", script={"choose-option": "option:1"})
    # Stages 1 and 2 passed by both Crews on +3 rolls; the First Crew keeps the lead
    t.choose("ana", "fight:marksman")
    t.choose("ben", "fight")
    t.until(lambda t: "wins the fight" in t.events())
    # ana: Marksman 2 + 1 = 3 is the difficulty; ben: Marksman 1 + 2 = 3 equals it
    assert "The Second Crew wins the fight: the First Crew is defeated." in t.events()
    t.until(lambda t: "ben takes 11 KC" in t.events(), script={"choose-option": "option:2"})
    assert "ben takes 11 KC" in t.events()

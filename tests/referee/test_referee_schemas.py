"""The JSON Schemas of the referee's files and outputs are themselves sound."""

from __future__ import annotations

import json

import jsonschema
import pytest

from pbem.referee import formats
from pbem.resources import data_dir, schema_path
from pbem.schemas import Validator, validator


@pytest.mark.parametrize("path", sorted(data_dir("schemas").glob("*.schema.json")), ids=lambda p: p.name)
def test_every_shipped_schema_is_a_sound_2020_12_schema(path) -> None:
    """Scenario and card schemas included: readers build their validators without checking the schema."""
    jsonschema.Draft202012Validator.check_schema(json.loads(path.read_text()))
    Validator.check_schema(json.loads(path.read_text()))


def test_readers_build_their_validators_without_checking_the_schema_at_run_time(monkeypatch) -> None:
    """Checking a schema against the metaschema costs milliseconds per schema and process;
    the shipped schemas are checked here instead, once."""
    def refuse(*args, **kwargs):
        raise AssertionError("check_schema at run time")

    monkeypatch.setattr(Validator, "check_schema", refuse)
    monkeypatch.setattr(jsonschema.Draft202012Validator, "check_schema", refuse)
    built = validator(json.loads(schema_path("move").read_text()))
    assert not built.is_valid({"format": formats.MOVE})


@pytest.mark.parametrize("fmt", sorted(formats.SCHEMAS))
def test_each_format_has_a_2020_12_schema_with_an_id_and_its_format_const(fmt: str) -> None:
    schema = json.loads(schema_path(formats.SCHEMAS[fmt]).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].startswith("urn:pbem:schema:")
    assert schema["properties"]["format"] == {"const": fmt}


def test_a_reader_refuses_an_unknown_version_by_name() -> None:
    problem = formats.format_problem({"format": "pbem-turn/9"}, formats.TURN)
    assert problem == "unknown format version 'pbem-turn/9': this pbem reads 'pbem-turn/3'"


@pytest.mark.parametrize("old, fmt", [("pbem-turn/1", formats.TURN), ("pbem-turn/2", formats.TURN),
                                      ("pbem-player-view/1", formats.PLAYER_VIEW),
                                      ("pbem-referee/1", formats.REFEREE), ("pbem-cli-view/1", formats.CLI_VIEW)])
def test_the_formats_before_sealed_padding_are_refused_by_name(old: str, fmt: str) -> None:
    """Sections that held the whole view and the card catalogue, unpadded, are another format."""
    problem = formats.format_problem({"format": old}, fmt)
    assert problem == f"unknown format version {old!r}: this pbem reads {fmt!r}"


def test_a_document_of_another_kind_is_named() -> None:
    assert "not a 'pbem-turn/3' document" in str(formats.format_problem({"format": "pbem-move/1"}, formats.TURN))


def test_the_names_game_toml_is_read_by_without_its_schema_are_the_schemas_patterns() -> None:
    """A game.toml that a signed turn vouches for is not checked against its schema
    (pbem.referee.gamefile.GameFile.from_doc), but its game id, seat names and scenario name still are,
    by the same patterns (they name files on the player's machine): the two must not drift apart."""
    from pbem.referee.gamefile import GAME_ID, PLAYER_NAME, SCENARIO_NAME

    schema = json.loads(schema_path("game").read_text(encoding="utf-8"))["properties"]
    assert f"^{GAME_ID.pattern}$" == schema["game_id"]["pattern"]
    assert f"^{PLAYER_NAME.pattern}$" == schema["players"]["items"]["properties"]["name"]["pattern"]
    assert f"^{SCENARIO_NAME.pattern}$" == schema["scenario"]["pattern"]

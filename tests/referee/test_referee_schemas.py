"""The JSON Schemas of the referee's files and outputs are themselves sound."""

from __future__ import annotations

import json

import jsonschema
import pytest

from pbem.referee import formats
from pbem.resources import schema_path


@pytest.mark.parametrize("fmt", sorted(formats.SCHEMAS))
def test_each_format_has_a_2020_12_schema_with_an_id_and_its_format_const(fmt: str) -> None:
    schema = json.loads(schema_path(formats.SCHEMAS[fmt]).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].startswith("urn:pbem:schema:")
    assert schema["properties"]["format"] == {"const": fmt}


def test_a_reader_refuses_an_unknown_version_by_name() -> None:
    problem = formats.format_problem({"format": "pbem-turn/9"}, formats.TURN)
    assert problem == "unknown format version 'pbem-turn/9': this pbem reads 'pbem-turn/2'"


def test_a_document_of_another_kind_is_named() -> None:
    assert "not a 'pbem-turn/2' document" in formats.format_problem({"format": "pbem-move/1"}, formats.TURN)

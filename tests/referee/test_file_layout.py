"""pbem's file layout, written and checked fast: ``dump_json`` is ``indented_json``, byte for byte (issue 9).

``pbem verify`` checks that every file the referee signed is exactly the
bytes pbem writes for its document, so that no byte of a signed file can
change unnoticed (whitespace, member order, ``\\u0041`` for ``A``). The
referee writes and verify computes those bytes with
:func:`pbem.referee.storage.dump_json`, which hands every array and object
holding no other to the standard library's C encoder; it must give the
bytes of :func:`pbem.referee.storage.indented_json`, the layout's
definition, for every document JSON can hold, and a file laid out
otherwise must fail.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_referee import make_table
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.referee import submit, verify
from pbem.referee.errors import VerificationFailed
from pbem.referee.storage import dump_json, indented_json

strings = st.text(st.characters(exclude_categories=("Cs",)), max_size=8)
documents = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | strings,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(strings, children, max_size=4),
    max_leaves=40,
)


@given(documents)
@settings(max_examples=400)
def test_the_layout_of_any_document_is_indented_jsons(document):
    assert dump_json(document) == indented_json(document)


@pytest.mark.parametrize("value", [
    (1, [2, {"a": ()}]),            # tuples are arrays
    {"b": {1, 2}},                  # what JSON cannot hold goes to indented_json, which refuses it as before
    {1: "a", "b": [None]},          # a name that is not a string, as indented_json writes it
])
def test_a_value_json_does_not_read_is_laid_out_or_refused_as_indented_json_does(value):
    try:
        expected: bytes | str = indented_json(value)
    except (TypeError, ValueError) as error:
        expected = repr(error)
    try:
        found: bytes | str = dump_json(value)
    except (TypeError, ValueError) as error:
        found = repr(error)
    assert found == expected


def test_nesting_deeper_than_the_fast_path_goes_is_laid_out_as_indented_json_does():
    deep: object = {"x": [1, "y"]}
    for level in range(100):
        deep = [level, deep] if level % 2 else {"a": deep, "b": []}
    assert dump_json(deep) == indented_json(deep)


def test_every_file_of_a_game_is_laid_out_as_the_referee_wrote_it(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    hand = table.view("alice").private["hand"]
    submit(table.dir, table.move("alice", f"card-{hand[0]}"), table.referee)
    files = sorted(table.dir.rglob("*.json"))
    assert len(files) >= 5  # two turns, a move, two views
    for path in files:
        data = path.read_bytes()
        assert indented_json(json.loads(data)) == data, path


@pytest.mark.parametrize("relayout", [
    lambda doc: json.dumps(doc, indent=4, sort_keys=True).encode() + b"\n",
    lambda doc: json.dumps(doc, sort_keys=True).encode() + b"\n",
    lambda doc: json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False).encode(),  # no final newline
    lambda doc: json.dumps(doc, indent=2, sort_keys=True, separators=(", ", ": ")).encode() + b"\n",
    lambda doc: json.dumps(doc, indent=2).encode() + b"\n",  # members in the order they were read
    lambda doc: json.dumps(doc, indent=2, sort_keys=True).encode().replace(b'"turn"', b'"\\u0074urn"') + b"\n",
])
def test_a_turn_laid_out_otherwise_fails_verify(tmp_path: Path, relayout) -> None:
    table = make_table(tmp_path)
    path = table.dir / "turns" / "000000.json"
    doc = json.loads(path.read_bytes())
    doc = {"public": doc.pop("public"), **doc}  # read in another order than the sorted one
    data = relayout(doc)
    assert data != path.read_bytes() and json.loads(data) == doc
    path.write_bytes(data)
    with pytest.raises(VerificationFailed, match="byte for byte"):
        verify(table.dir)

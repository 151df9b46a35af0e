"""pbem's file layout, written and checked fast: ``dump_json`` is ``indented_json``, byte for byte.

``pbem verify`` checks that every file the referee signed is exactly the
bytes pbem writes for its document, so that no byte of a signed file can
change unnoticed (whitespace, member order, ``\\u0041`` for ``A``). The
referee writes and verify computes those bytes with
:func:`pbem.referee.storage.dump_json`, which hands a plain document to
orjson; it must give the bytes of
:func:`pbem.referee.storage.indented_json`, the layout's definition (the
standard library's), for every document JSON can hold, and a file laid out
otherwise must fail.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers_referee import make_table
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.crypto.canonical import canonical_json, compact_is_canonical, is_plain
from pbem.crypto.keys import generate
from pbem.crypto.signing import sign_document, signed_bytes
from pbem.referee import formats, submit, verify
from pbem.referee.errors import GameDirError, VerificationFailed
from pbem.referee.records import check_layout, parse_record
from pbem.referee.storage import dump_json, dump_json_and_compact, indented_json

strings = st.text(st.characters(exclude_categories=["Cs"]), max_size=8)
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


def test_every_character_below_u_0080_and_some_beyond_in_names_and_values_is_laid_out_as_indented_json_does():
    characters = [chr(code) for code in range(0x80)] + ["\u2028", "\u2029", "\ufeff", "\uffff", "é", "\U0001f600"]
    document: dict[str, Any] = {character: [character, character * 3, {character: character}] for character in characters}
    document["all"] = "".join(characters)
    assert dump_json(document) == indented_json(document)
    both = dump_json_and_compact(document, "all")
    assert both is not None
    rest = {name: value for name, value in document.items() if name != "all"}
    assert both == (indented_json(document),
                    json.dumps(rest, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode())


def test_nesting_deeper_than_orjson_goes_is_laid_out_as_indented_json_does():
    deep: object = {"x": [1, "y"]}
    for level in range(300):
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


# --- the layout and the compact form together (what verify reads a referee's file with) ----------------

#: strings made of what a layout or a canonical form must get right: quotes, backslashes, line feeds, control
#: characters, spaces, separators, brackets, accents, a character beyond U+FFFF (whose names sort otherwise
#: in the canonical form)
tricky = st.text(st.sampled_from(['"', "\\", "\n", "\x01", "\x02", " ", ":", ",", "{", "}", "[", "]", "é",
                                  "\u2028", "\U0001f600", "a", "z"]), max_size=6)
tricky_documents = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | tricky | strings,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(tricky | strings, children, max_size=4),
    max_leaves=40,
)
signatures = st.fixed_dictionaries({"alg": st.just("ed25519"), "signer": tricky, "value": tricky})


@given(st.dictionaries(tricky | strings, tricky_documents | documents, min_size=1, max_size=6),
       st.none() | signatures)
@settings(max_examples=500)
def test_the_layout_and_the_compact_form_without_the_signature_are_the_standard_librarys(document, signature):
    if signature is not None:
        document = {**document, "signature": signature}
    both = dump_json_and_compact(document, "signature")
    if not is_plain(document):  # a float: dump_json and the strict reader's canonical form deal with it
        assert both is None
        return
    assert both is not None
    laid, compact = both
    assert laid == dump_json(document) == indented_json(document)
    rest = {name: value for name, value in document.items() if name != "signature"}
    assert compact == json.dumps(rest, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()
    if is_plain(document) and compact_is_canonical(compact):
        assert compact == signed_bytes(document) == canonical_json(rest)


@pytest.mark.parametrize("value", [{}, [], "x", {"a": {1, 2}}, {1: "a"}, {"a": {"b": [1, 2]}, 2: 3}, {"a": 0.5},
                                   {"a": 2**53}])
def test_what_is_not_a_plain_object_is_left_to_dump_json(value):
    assert dump_json_and_compact(value, "signature") is None


def test_a_name_beyond_u_ffff_is_not_taken_for_canonical():
    document = {"\U0001f600": 1, "\uffff": 2}  # UTF-16 puts the first first, code points the second
    both = dump_json_and_compact(document, "signature")
    assert both is not None
    _laid, compact = both
    assert not compact_is_canonical(compact) and compact != canonical_json(document)


_KEY = generate("referee")


@given(st.dictionaries(tricky | strings, tricky_documents, max_size=5), st.integers(0, 10**6))
@settings(max_examples=150, deadline=None)
def test_a_record_read_with_its_layout_is_read_as_without_and_laid_out_only_if_so(members, where):
    """``parse_record(layout=True)`` gives the hash, the signed bytes and the verdict of ``check_layout`` that
    reading without it and ``dump_json`` give, for the file pbem writes and for bytes changed in it."""
    document = sign_document({**members, "format": formats.TURN}, _KEY)
    data = dump_json(document)
    cut = where % len(data)
    changed = [data, data[:-1], data + b" ", data[:cut] + b" " + data[cut:], data.replace(b"\n", b"\r\n", 1),
               data.replace(b": ", b":", 1), data.replace(b"  ", b"   ", 1), data.replace(b"\n ", b"\n", 1),
               json.dumps(document, indent=2, sort_keys=True).encode() + b"\n"]
    for candidate in changed:
        try:
            read = [parse_record(candidate, Path("x.json"), formats.TURN, _KEY.public, by_referee=True,
                                 layout=layout) for layout in (False, True)]
        except GameDirError as error:  # unreadable, or a signature that no longer verifies: so both ways
            with pytest.raises(GameDirError) as again:
                parse_record(candidate, Path("x.json"), formats.TURN, _KEY.public, by_referee=True, layout=True)
            assert str(again.value) == str(error)
            continue
        assert (read[1].hash, read[1].signed, read[1].plain) == (read[0].hash, read[0].signed, read[0].plain)
        assert read[1].laid_out in (None, candidate == dump_json(read[1].doc))
        for record in read:
            if candidate == dump_json(record.doc):
                assert check_layout(record) is record
            else:
                with pytest.raises(GameDirError, match="byte for byte"):
                    check_layout(record)


# --- the depth of a laid-out file, read from its indentation -------------------------------------------------


def nested(depth: int, innermost: Any, kind: str = "list") -> Any:
    """``depth`` arrays (or objects) one inside the other, the innermost holding ``innermost`` (or empty)."""
    value: Any = innermost
    for level in range(depth):
        empty = level == 0 and innermost is None
        if kind == "list" or (kind == "mixed" and level % 2):
            value = [] if empty else [value]
        else:
            value = {} if empty else {"k": value}
    return value


@given(documents | st.builds(nested, st.integers(1, 12), st.none() | st.integers(),
                             st.sampled_from(["list", "dict", "mixed"])),
       st.integers(1, 14))
@settings(max_examples=400)
def test_a_laid_out_document_nests_no_deeper_than_its_indentation_shows(document, limit):
    from pbem.crypto.canonical import json_depth
    from pbem.referee.storage import laid_out_within_depth

    shown = laid_out_within_depth(dump_json(document), limit)
    if shown:
        assert json_depth(document) <= limit
    if json_depth(document) < limit:  # the bound is tight but for a document exactly ``limit`` deep
        assert shown


#: a turn of its schema (whatever its signature, a turn is read only when it is one), its public part to fill
_TURN = {"format": formats.TURN, "game_id": "0" * 16, "game": "sha256:" + "0" * 64, "turn": 0, "previous": None,
         "move": None, "move_file": None, "mover": None, "joins": None, "awaiting": [], "result": None,
         "commitments": {"sections": {"referee": "sha256:" + "0" * 64}, "zones": {}}, "seed": None,
         "sealed": {"referee": "-----BEGIN AGE ENCRYPTED FILE-----\n"}}


@pytest.mark.parametrize("kind", ["list", "dict", "mixed"])
@pytest.mark.parametrize("innermost", [None, 7], ids=["empty", "not empty"])
def test_a_signed_file_nested_past_the_limit_is_refused_laid_out_or_not(kind, innermost):
    """The top object and 64 more levels inside it is one too many; 63 more is the most there may be."""
    for depth, refused in [(64, True), (63, False)]:
        document = sign_document({**_TURN, "public": nested(depth, innermost, kind)}, _KEY)
        for data in (dump_json(document), json.dumps(document).encode()):
            for layout in (False, True):
                if refused:
                    with pytest.raises(GameDirError, match="unreadable: JSON nesting depth 65 exceeds the limit of 64"):
                        parse_record(data, Path("x.json"), formats.TURN, _KEY.public, by_referee=True, layout=layout)
                else:
                    record = parse_record(data, Path("x.json"), formats.TURN, _KEY.public, by_referee=True,
                                          layout=layout)
                    assert record.doc == document

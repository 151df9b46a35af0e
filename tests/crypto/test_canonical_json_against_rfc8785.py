"""Canonical JSON is RFC 8785 byte for byte, whichever encoder writes it.

``canonical_json`` hands most documents to orjson and the rest to its own
serialiser. Both are checked here against an
independent implementation, the ``rfc8785`` package, over random documents
and over the real documents of real games: turn files, every sealed
section, move files, sealed choices, ``game.toml``.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.bots.random_bot import RandomBot
from pbem.crypto.canonical import MAX_SAFE_INTEGER, canonical_json
from pbem.crypto.errors import MalformedError
from pbem.crypto.keys import generate
from pbem.crypto.seal import open_plaintext
from pbem.engine.rng import Rng
from pbem.referee import new_game, sealing, submit
from pbem.referee.demo import bot_move
from pbem.referee.gamefile import GameFile

#: every character but lone surrogates (which have no UTF-8 form), astral ones included
names = st.text(st.characters(exclude_categories=["Cs"]), max_size=6)
strings = st.text(st.characters(exclude_categories=["Cs"]))

plain_values = st.recursive(
    st.none() | st.booleans() | st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER) | strings,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(names, children, max_size=5),
    max_leaves=40,
)

any_values = st.recursive(
    st.none() | st.booleans() | st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)
    | st.floats(allow_nan=False, allow_infinity=False) | strings,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(names, children, max_size=5),
    max_leaves=40,
)


@given(plain_values)
@settings(max_examples=300)
def test_documents_without_floats_are_written_as_rfc8785_writes_them(value):
    assert canonical_json(value) == rfc8785.dumps(value)


@given(any_values)
@settings(max_examples=300)
def test_documents_with_floats_are_written_as_rfc8785_writes_them(value):
    assert canonical_json(value) == rfc8785.dumps(value)


def test_every_character_below_u_0080_and_some_beyond_in_names_and_values_is_written_as_rfc8785_writes_it():
    characters = [chr(code) for code in range(0x80)] + ["\u2028", "\u2029", "\ufeff", "\uffff", "é"]
    document: dict[str, Any] = {character: [character, character * 3, {character: character}] for character in characters}
    document["all"] = "".join(characters)
    assert canonical_json(document) == rfc8785.dumps(document)


def test_a_document_nested_deeper_than_orjson_goes_is_written_as_rfc8785_writes_it():
    deep: Any = {"x": [1, "y"]}
    for level in range(300):
        deep = [level, deep] if level % 2 else {"a": deep, "b": []}
    assert canonical_json(deep) == rfc8785.dumps(deep)


def test_names_beyond_the_basic_plane_sort_by_utf16_code_units_not_code_points():
    """U+1F600 is the surrogate pair D83D DE00 in UTF-16, which sorts before U+FB33; by code point it sorts after."""
    value = {"\U0001f600": 1, "\ufb33": 2, "a": 3}
    assert canonical_json(value) == rfc8785.dumps(value)
    assert canonical_json(value).decode("utf-8") == '{"a":3,"\U0001f600":1,"\ufb33":2}'


def test_an_astral_character_in_a_value_keeps_the_code_point_order_of_names():
    value = {"\ufb33": "\U0001f600", "a": ["\U0001f600"]}
    assert canonical_json(value) == rfc8785.dumps(value)


@pytest.mark.parametrize("name", [1, True, None, 1.5])
def test_a_member_name_that_is_not_a_string_is_refused_not_written_as_one(name):
    with pytest.raises(MalformedError):
        canonical_json({name: 0})
    with pytest.raises(MalformedError):
        canonical_json([{"a": {name: 0}}])


@pytest.mark.parametrize("value", [2**53, -(2**53), [1, 2**60], {"a": 2**53}])
def test_integers_beyond_the_exact_range_are_refused_wherever_they_sit(value):
    with pytest.raises(MalformedError):
        canonical_json(value)


def test_integral_doubles_are_written_as_ecmascript_integers_not_as_python_reprs():
    for value in (1e16, 1e21, 1.0, -0.0, [2.0**60]):
        assert canonical_json(value) == rfc8785.dumps(value)


def test_a_lone_surrogate_is_refused():
    for value in ("\ud800", {"a": ["x\udfff"]}, {"\ud800": 1}):
        with pytest.raises(MalformedError):
            canonical_json(value)


def _real_documents(game: str, players: int, steps: int) -> list[Any]:
    """Every document a real game's files hold or seal, over its first ``steps`` steps."""
    names = ["ann", "bob", "cyd", "dee", "eve"][:players]
    keys = {name: generate(name) for name in ["referee", *names]}
    bots = {p: RandomBot(Rng.from_seed(f"rfc8785-{game}-{p}")) for p in names}
    found: list[object] = []
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp) / "game"
        new_game(directory, game, [(p, keys[p].public) for p in names], keys["referee"], seed=bytes([9]) * 32)
        found.append(GameFile.read(directory / "game.toml").to_doc())
        for _ in range(steps):
            made = bot_move(directory, keys, bots)
            if made is None:
                break
            move = json.loads(made.data)
            found += [move, sealing.open_with_seed(move["sealed_choices"], bytes([9]) * 32)]
            step = submit(directory, made.data, keys["referee"])
            turn = json.loads((directory / "turns" / f"{step.turn:06d}.json").read_bytes())
            found.append(turn)
            for name, text in turn["sealed"].items():
                if name == "referee":
                    found.append(sealing.decompress(open_plaintext(text, [keys["referee"]])))
                else:
                    found.append(json.loads(open_plaintext(text, [keys[name]])))
    return found


@pytest.mark.parametrize("game,players", [("nightfall", 2), ("nightfall", 5), ("nightlancer", 4)])
def test_the_documents_of_real_games_are_written_as_rfc8785_writes_them(game, players):
    documents = _real_documents(game, players, steps=12)
    assert len(documents) > 40
    for document in documents:
        assert canonical_json(document) == rfc8785.dumps(document)

"""Which documents are plain (:func:`is_plain`), the ones the C encoder writes as RFC 8785 does.

``is_plain`` decides which of two encoders writes a canonical form, so any
change to how it walks a document must give the same answer for every
input. The reference below is the walk it replaced, which looks at every
value in turn; the tests compare the two over random documents that hold
everything a plain document must not: floats (``1.0``, ``-0.0``, ``1e16``),
integers just beyond ±(2**53-1), names that are not strings, sets, bytes,
and subclasses of dict, list, str and int (an ``IntEnum``), whose instances
are not plain even though the C encoder would write them.
"""

from __future__ import annotations

import json
from enum import IntEnum
from typing import Any

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

import pbem.crypto.canonical as canonical
from pbem.crypto.canonical import MAX_SAFE_INTEGER, canonical_json, is_plain
from pbem.crypto.errors import MalformedError


def reference_is_plain(value: Any, limit: int) -> bool:
    """The walk ``is_plain`` was at first: every value popped in turn, at most ``limit`` containers."""
    pending = [value]
    containers = 0
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is int:
            if -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
                continue
            return False
        if kind is dict:
            for name in item:
                if type(name) is not str:
                    return False
            pending.extend(item.values())
        elif kind is list or kind is tuple:
            pending.extend(item)
        else:
            return False
        containers += 1
        if containers > limit:
            return False
    return True


class Colour(IntEnum):
    RED = 1


class Name(str):
    pass


class Count(int):
    pass


class Members(dict):
    pass


class Items(list):
    pass


#: every character but lone surrogates, astral ones included
_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=4)

_integers = st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER) | st.sampled_from(
    [MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER, MAX_SAFE_INTEGER + 1, -MAX_SAFE_INTEGER - 1, 2**64, 10**16])

_not_plain_scalars = (
    st.sampled_from([1.0, -0.0, 1e16, 0.5, Colour.RED, Count(3), b"", b"x", frozenset({1}), Ellipsis])
    | st.floats(allow_nan=False, allow_infinity=False)
    | _text.map(Name)
    | st.sets(st.integers(0, 3), max_size=2)
)

_names = _text | st.sampled_from([1, True, None, 1.5, Name("a"), Colour.RED])


def _documents(leaves: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        leaves,
        lambda children: (
            st.lists(children, max_size=4)
            | st.lists(children, max_size=4).map(tuple)
            | st.dictionaries(_text, children, max_size=4)
            | st.dictionaries(_names, children, max_size=3)
            | st.lists(children, max_size=3).map(Items)
            | st.dictionaries(_text, children, max_size=3).map(Members)
        ),
        max_leaves=30,
    )


#: mostly plain documents, so that a single value that is not plain sits deep inside many of them
_mixed = _documents(st.none() | st.booleans() | _integers | _text | _not_plain_scalars)
#: documents made only of what can be plain (and integers beyond the exact range)
_json_like = st.recursive(
    st.none() | st.booleans() | _integers | _text,
    lambda children: st.lists(children, max_size=4) | st.lists(children, max_size=4).map(tuple)
    | st.dictionaries(_text, children, max_size=4),
    max_leaves=40,
)


def _outcome(write: Any) -> tuple[str, Any]:
    try:
        return "bytes", write()
    except MalformedError as error:
        return "refused", str(error)


@given(_mixed | _json_like)
@settings(max_examples=600)
def test_is_plain_gives_the_answer_of_the_walk_of_every_value(value):
    assert is_plain(value) is reference_is_plain(value, canonical._PLAIN_CONTAINERS)


@given(_json_like)
@settings(max_examples=300)
def test_is_plain_agrees_on_documents_that_can_be_plain(value):
    plain = reference_is_plain(value, canonical._PLAIN_CONTAINERS)
    assert is_plain(value) is plain
    if plain:
        assert canonical_json(value) == rfc8785.dumps(value)


@given(_mixed | _json_like)
@settings(max_examples=300)
def test_canonical_json_writes_or_refuses_what_the_serialiser_alone_does(value):
    """Whichever encoder ``is_plain`` picks, the bytes (or the refusal) are the serialiser's."""
    written = _outcome(lambda: canonical_json(value))
    assert written == _outcome(lambda: canonical_json(value, plain=False))
    assert written == _outcome(lambda: canonical_json(value, plain=reference_is_plain(value, 1 << 20)))


@given(_mixed | _json_like, st.integers(0, 6))
@settings(max_examples=400)
def test_the_container_limit_counts_each_array_and_object_where_it_is_held(value, limit):
    """A container held at several places counts once for each (the walk meets it there each time)."""
    shared = [value, value, {"a": value, "b": [value]}]
    old = canonical._PLAIN_CONTAINERS
    canonical._PLAIN_CONTAINERS = limit
    try:
        for document in (value, shared):
            assert is_plain(document) is reference_is_plain(document, limit)
    finally:
        canonical._PLAIN_CONTAINERS = old


def test_exactly_as_many_containers_as_the_limit_are_plain_and_one_more_are_not():
    inner: list[Any] = []
    at_limit = [inner] * (canonical._PLAIN_CONTAINERS - 1)  # and the outer list: the limit
    assert is_plain(at_limit)
    assert not is_plain([*at_limit, inner])


@pytest.mark.parametrize("limit", [0, 1, 5])
def test_a_document_that_holds_itself_is_not_plain(monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    monkeypatch.setattr(canonical, "_PLAIN_CONTAINERS", limit)
    loop: list[Any] = ["a", 1]
    loop.append(loop)
    members: dict[str, Any] = {"a": [None]}
    members["b"] = {"c": members}
    for cycle in (loop, members, [loop], (members,)):
        assert not is_plain(cycle)


@pytest.mark.parametrize("value", [
    "a", "\U0001f600", 0, True, False, None, MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER, [], {}, (), [[[]]],
    {"a": [1, (2, "b")], "c": {"d": None}}, ["x"] * 40, {"n": [MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER]},
])
def test_plain_documents(value):
    assert is_plain(value)
    assert canonical_json(value) == rfc8785.dumps(json.loads(json.dumps(value)))


@pytest.mark.parametrize("value", [
    1.0, -0.0, 1e16, MAX_SAFE_INTEGER + 1, -MAX_SAFE_INTEGER - 1, Colour.RED, Count(1), Name("a"), b"a",
    {1}, Members(), Items(), {1: "a"}, {True: 1}, {None: 1}, {1.5: 1}, {Name("a"): 1}, {"a": 1, 2: "b"},
    [1, 2, 2**53], {"a": {"b": [[1.0]]}}, ["a", "b", Name("c")], {"a": ["b", (Colour.RED,)]},
    [{"a": 1}, {"b": 2, 3: 4}], [[], [[]], [[{"x": [frozenset()]}]]],
])
def test_documents_that_are_not_plain(value):
    assert not is_plain(value)
    assert not reference_is_plain(value, 1 << 20)

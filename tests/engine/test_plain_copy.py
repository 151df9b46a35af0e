"""``copy_plain``: a deep copy of plain JSON data that is exactly the JSON round trip's, sharing nothing."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.bots.playout import play
from pbem.engine import find_game
from pbem.engine.plain import copy_plain

PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=40,
)


def _containers(value: Any) -> list[Any]:
    """Every dict and list inside ``value``, ``value`` included."""
    if isinstance(value, dict):
        return [value, *(c for v in value.values() for c in _containers(v))]
    if isinstance(value, list):
        return [value, *(c for v in value for c in _containers(v))]
    return []


@settings(max_examples=200, deadline=None)
@given(PLAIN)
def test_a_copy_is_what_the_json_round_trip_gives(value: Any) -> None:
    assert copy_plain(value) == json.loads(json.dumps(value))


def test_a_copy_of_a_real_state_shares_no_container_with_it() -> None:
    for name in ("nightfall", "nightlancer"):
        state = play(find_game(name), ["ann", "bob", "cyd"], 1).state
        copied = copy_plain(state)
        assert copied == json.loads(json.dumps(state))
        originals = {id(c) for c in _containers(state)}
        assert not originals & {id(c) for c in _containers(copied)}


def test_one_list_in_two_places_becomes_two_lists_as_in_json() -> None:
    shared = [1, 2]
    copied = copy_plain({"a": shared, "b": shared})
    assert copied == {"a": [1, 2], "b": [1, 2]}
    copied["a"].append(3)
    assert copied["b"] == [1, 2]

"""The replay compares a rebuilt turn with the turn file member by member: exactly when their
canonical forms (without the signature) are equal, whichever members it takes as they are."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.crypto.canonical import canonical_json
from pbem.referee.replay import same_canonical_form

names = st.sampled_from(["a", "b", "sealed", "public", "\U0001f600", "\uffff", "signature"])
values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["", "x", '"', "\n"]),
    lambda children: st.lists(children, max_size=3) | st.tuples(children) | st.dictionaries(names, children, max_size=3),
    max_leaves=12,
)
documents = st.dictionaries(names.filter(lambda name: name != "signature"), values, max_size=4)


@given(documents, documents, st.booleans())
@settings(max_examples=400)
def test_two_documents_compare_equal_exactly_when_their_canonical_forms_are(rebuilt, found, share):
    if share:  # members taken from the found document as they are, or objects of its very members
        for name in list(found)[::2]:
            member = found[name]
            rebuilt[name] = dict(member) if type(member) is dict else member
    signed = {**found, "signature": {"alg": "ed25519", "signer": "x", "value": "y"}}
    assert same_canonical_form(rebuilt, signed) == (canonical_json(rebuilt) == canonical_json(found))
    assert same_canonical_form(rebuilt, signed, plain=True) == same_canonical_form(rebuilt, signed)


def test_true_is_not_one_and_a_tuple_is_an_array():
    found = {"a": [1, True], "signature": {}}
    assert not same_canonical_form({"a": [True, True]}, found)
    assert not same_canonical_form({"a": [1, 1]}, found)
    assert same_canonical_form({"a": (1, True)}, found)
    assert not same_canonical_form({"a": [1, True], "b": None}, found)
    assert not same_canonical_form({}, found)
    assert same_canonical_form(copy.deepcopy({"a": [1, True]}), found)

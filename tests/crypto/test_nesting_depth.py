"""The nesting depth of a JSON text, which bounds every sealed section (``check_plaintext``).

:func:`~pbem.crypto.canonical.nesting_depth` measures the text with byte
operations; it must give what walking the parsed document gives
(:func:`~pbem.crypto.canonical.json_depth`), whatever the strings hold:
brackets, quotes, backslashes and runs of them.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.crypto.canonical import canonical_json, json_depth, nesting_depth
from pbem.crypto.errors import SealTooLarge
from pbem.crypto.seal import MAX_SEALED_DEPTH, check_plaintext

#: strings made mostly of what could fool a text scan: brackets, quotes, backslashes
tricky = st.text(st.sampled_from([*'[]{}"\\,:a\né', "\U0001f600"]), max_size=12)
documents = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53 - 1), 2**53 - 1) | tricky,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(tricky, children, max_size=4),
    max_leaves=30,
)


@given(documents)
@settings(max_examples=400)
def test_the_depth_of_a_text_is_the_depth_of_its_document(document):
    for text in (canonical_json(document), json.dumps(document, indent=2, ensure_ascii=False).encode()):
        assert nesting_depth(text) == json_depth(document)
        assert nesting_depth(text.decode()) == json_depth(document)


@pytest.mark.parametrize("string", ['\\', '\\\\', '\\"', '"', '\\\\"', '\\\\\\', '[\\"]', "]]]]"])
def test_escaped_quotes_and_backslashes_end_no_string(string):
    assert nesting_depth(canonical_json([[string, "]"], {"[": string}])) == 2


def test_a_section_nested_deeper_than_a_reader_opens_is_refused():
    deep: Any = "]"
    for _ in range(MAX_SEALED_DEPTH + 1):
        deep = [deep, '\\"[']
    with pytest.raises(SealTooLarge, match=f"nested {MAX_SEALED_DEPTH + 1} deep"):
        check_plaintext(canonical_json(deep))
    check_plaintext(canonical_json(deep[0]))  # one level less: within the bound

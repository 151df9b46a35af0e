"""parse_json_strict: what pbem refuses to read."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.crypto.canonical import MAX_SAFE_INTEGER, is_plain, parse_json_strict, parse_json_strict_plain
from pbem.crypto.errors import MalformedError


def test_a_plain_document_is_read():
    assert parse_json_strict(b'{"a": [1, 2.5, "x"], "b": null}') == {"a": [1, 2.5, "x"], "b": None}


def test_oversized_input_is_refused():
    with pytest.raises(MalformedError, match="exceeds the limit"):
        parse_json_strict(b"[" + b"1," * 600_000 + b"1]")
    assert parse_json_strict(b"[1,2]", max_bytes=5) == [1, 2]
    with pytest.raises(MalformedError):
        parse_json_strict(b"[1, 2]", max_bytes=5)


@pytest.mark.parametrize("data", [b'"\xff"', b'"\xc3"', b'"\xed\xa0\x80"', b"\xef\xbb\xbf{}"])
def test_invalid_utf8_and_byte_order_marks_are_refused(data):
    with pytest.raises(MalformedError):
        parse_json_strict(data)


@pytest.mark.parametrize("data", [b"", b"{", b"{'a': 1}", b"[1,]", b"01", b"{} {}", b"undefined"])
def test_non_json_is_refused(data):
    with pytest.raises(MalformedError, match="not JSON"):
        parse_json_strict(data)


def test_duplicate_member_names_are_refused_even_when_nested():
    with pytest.raises(MalformedError, match="duplicate"):
        parse_json_strict(b'{"a": {"b": 1, "b": 2}}')


@pytest.mark.parametrize("data", [b"NaN", b"[Infinity]", b"[-Infinity]", b"[1e400]", b"[-1e999]"])
def test_nan_infinity_and_overflowing_numbers_are_refused(data):
    with pytest.raises(MalformedError):
        parse_json_strict(data)


def test_integers_beyond_the_exact_double_range_are_refused_unless_canonical_doubles():
    assert parse_json_strict(b"9007199254740991") == 9007199254740991
    # As RFC 8785 writes large doubles: read back as those doubles.
    assert parse_json_strict(b"9007199254740992") == 2.0**53
    assert parse_json_strict(b"-295147905179352830000") == -(2.0**68)
    # An integer that a double would round is refused rather than changed.
    for text in (b"9007199254740993", b"295147905179352825856", b"1" * 5000, b"9" * 320):
        with pytest.raises(MalformedError):
            parse_json_strict(text)


def test_nesting_deeper_than_the_limit_is_refused_before_parsing():
    assert parse_json_strict(b"[" * 64 + b"]" * 64) is not None
    with pytest.raises(MalformedError, match="depth 65"):
        parse_json_strict(b"[" * 65 + b"]" * 65)
    # A million brackets would exhaust the parser's stack; the scan refuses them first.
    with pytest.raises(MalformedError, match="depth"):
        parse_json_strict(b"[" * 500_000 + b"]" * 500_000)


def test_brackets_inside_strings_do_not_count_towards_depth():
    text = b'{"a": "' + b"[[[[" * 100 + b'\\"]]"}'
    assert parse_json_strict(text) == {"a": "[[[[" * 100 + '"]]'}


@pytest.mark.parametrize("data", [b'"\\ud800"', b'{"\\udc00": 1}', b'["\\ude00\\ud83d"]'])
def test_lone_surrogates_are_refused(data):
    with pytest.raises(MalformedError, match="surrogate"):
        parse_json_strict(data)


def test_escaped_surrogate_pairs_are_characters():
    assert parse_json_strict(b'"\\ud83d\\ude00"') == "\U0001f600"


def _texts(value):
    """The texts a parser meets for ``value``: compact, indented, and with integers written long."""
    yield json.dumps(value, ensure_ascii=False).encode()
    yield json.dumps(value, indent=2, sort_keys=True).encode()


_numbers = (st.integers(-(2**60), 2**60) | st.floats(allow_nan=False, allow_infinity=False)
            | st.sampled_from([MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER, 10**15 - 1, -(10**15 - 1), 10**15, 2**53,
                               1e16, 0.0, -0.0]))
_documents = st.recursive(
    st.none() | st.booleans() | st.text(max_size=4) | _numbers,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=4),
    max_leaves=25,
)


@given(_documents)
@settings(max_examples=300)
def test_reading_a_document_says_whether_it_is_plain_as_is_plain_does(value):
    for data in _texts(value):
        try:
            expected = parse_json_strict(data)
        except MalformedError:  # an integer beyond the doubles' exact range that is no double's text
            with pytest.raises(MalformedError):
                parse_json_strict_plain(data)
            continue
        read, plain = parse_json_strict_plain(data)
        assert read == expected
        assert plain == is_plain(read)


@pytest.mark.parametrize(("data", "plain"), [
    (b'{"a": [1, "x", null, true]}', True),
    (b"[999999999999999, -999999999999999]", True),
    (b"[9007199254740991, -9007199254740991]", True),
    (b"[1.0]", False),
    (b'{"a": {"b": [2e3]}}', False),
    (b"[18014398509481984]", False),  # 2**54, a double's canonical text: read as that double
])
def test_a_number_read_as_a_double_makes_a_document_not_plain(data, plain):
    assert parse_json_strict_plain(data)[1] is plain


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5, 6])
def test_the_depth_limit_holds_for_short_and_long_texts(depth):
    """A text longer than the limit is measured by walking what it parsed to, a shorter one cannot exceed it."""
    for padding in ("", "x" * 100):
        text = "[" * depth + json.dumps(padding) + "]" * depth
        assert parse_json_strict(text.encode(), max_depth=depth) == json.loads(text)
        with pytest.raises(MalformedError, match="nesting depth"):
            parse_json_strict(text.encode(), max_depth=depth - 1)

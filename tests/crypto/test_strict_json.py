"""parse_json_strict: what pbem refuses to read."""

from __future__ import annotations

import pytest

from pbem.crypto.canonical import parse_json_strict
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

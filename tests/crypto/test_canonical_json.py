"""RFC 8785 (JCS) canonical JSON and document hashes."""

from __future__ import annotations

import hashlib
import json
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.crypto.canonical import MAX_SAFE_INTEGER, canonical_json, document_hash, format_number, parse_json_strict
from pbem.crypto.errors import MalformedError

# RFC 8785 Appendix B: IEEE 754 doubles (as hex) and their canonical text.
APPENDIX_B = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


def double(hex_bits: str) -> float:
    return struct.unpack(">d", bytes.fromhex(hex_bits))[0]


@pytest.mark.parametrize(("bits", "expected"), APPENDIX_B)
def test_numbers_are_written_as_ecmascript_writes_them(bits, expected):
    assert format_number(double(bits)) == expected
    assert canonical_json(double(bits)) == expected.encode()


@pytest.mark.parametrize("bits", ["7fffffffffffffff", "7ff0000000000000", "fff0000000000000"])
def test_nan_and_infinity_have_no_canonical_form(bits):
    with pytest.raises(MalformedError):
        canonical_json([double(bits)])


def test_the_rfc_example_object_is_canonicalised_byte_for_byte():
    """RFC 8785 section 3.2.2."""
    text = (
        '{\n  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n'
        '  "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",\n'
        '  "literals": [null, true, false]\n}'
    )
    expected = (
        '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'
    )
    assert canonical_json(parse_json_strict(text.encode())) == expected.encode()


def test_members_are_sorted_by_utf16_code_units():
    """RFC 8785 section 3.2.3: the emoji (a surrogate pair, D83D) sorts before U+FB33."""
    text = (
        '{"\\u20ac": "Euro Sign", "\\r": "Carriage Return", "\\ufb33": "Hebrew Letter Dalet With Dagesh",'
        ' "1": "One", "\\ud83d\\ude00": "Emoji: Grinning Face", "\\u0080": "Control",'
        ' "\\u00f6": "Latin Small Letter O With Diaeresis"}'
    )
    canonical = canonical_json(parse_json_strict(text.encode()))
    assert list(json.loads(canonical).values()) == [
        "Carriage Return",
        "One",
        "Control",
        "Latin Small Letter O With Diaeresis",
        "Euro Sign",
        "Emoji: Grinning Face",
        "Hebrew Letter Dalet With Dagesh",
    ]


def test_the_rfc_utf8_example_encodes_to_its_bytes():
    """RFC 8785 section 3.2.4."""
    assert canonical_json({"peach": "This sorting order", "péché": "is wrong according to French", "pêche": "but canonicalization MUST", "sin": "ignore locale"}) == (
        '{"peach":"This sorting order","péché":"is wrong according to French",'
        '"pêche":"but canonicalization MUST","sin":"ignore locale"}'
    ).encode()


def test_control_characters_use_lower_case_unicode_escapes_and_the_short_forms():
    assert canonical_json("\x00\x1f\b\t\n\f\r\"\\/\x7f") == b'"\\u0000\\u001f\\b\\t\\n\\f\\r\\"\\\\/\x7f"'


def test_non_ascii_is_written_as_utf8_not_escaped():
    assert canonical_json("é😀") == "\"é😀\"".encode()


def test_integral_floats_are_written_as_integers():
    assert canonical_json([1.0, -2.0, 1e20, 0.5]) == b"[1,-2,100000000000000000000,0.5]"


def test_integers_beyond_two_to_the_53_are_refused():
    assert canonical_json(MAX_SAFE_INTEGER) == str(MAX_SAFE_INTEGER).encode()
    with pytest.raises(MalformedError):
        canonical_json(MAX_SAFE_INTEGER + 1)


@pytest.mark.parametrize("value", [{1: "x"}, {"s": {1, 2}}, b"bytes", "\ud800", {"\udc00": 1}, object()])
def test_values_without_a_json_form_are_refused(value):
    with pytest.raises(MalformedError):
        canonical_json(value)


def test_booleans_are_literals_not_numbers():
    assert canonical_json([True, False, None, 0, 1]) == b"[true,false,null,0,1]"


def test_tuples_serialise_as_arrays():
    assert canonical_json({"a": (1, 2)}) == b'{"a":[1,2]}'


def test_document_hash_covers_the_canonical_form_without_the_signature():
    doc = {"b": 1, "a": [1, 2], "signature": {"value": "x"}}
    expected = "sha256:" + hashlib.sha256(b'{"a":[1,2],"b":1}').hexdigest()
    assert document_hash(doc) == expected
    assert document_hash({"a": [1, 2], "b": 1}) == expected
    assert document_hash(doc, exclude=()) != expected


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_canonical_form_reads_back_to_the_same_value_and_is_a_fixed_point(value):
    canonical = canonical_json(value)
    again = parse_json_strict(canonical)
    assert again == value  # 1.0 reads back as 1, and 1 == 1.0
    assert canonical_json(again) == canonical


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_every_finite_double_round_trips_through_its_canonical_text(value):
    assert float(format_number(value)) == value


def test_a_plain_document_that_holds_one_list_twice_is_written_twice_over() -> None:
    """The C encoder runs without its check for cycles (a plain document has none): a list held twice,
    which is no cycle, is written at both places, as the serialiser writes it."""
    from pbem.crypto.canonical import _serialise

    shared = ["b", 1, {"c": None}]
    doc = {"x": shared, "y": [shared, shared]}
    out: list[str] = []
    _serialise(doc, out)
    assert canonical_json(doc) == "".join(out).encode() == b'{"x":["b",1,{"c":null}],"y":[["b",1,{"c":null}],["b",1,{"c":null}]]}'

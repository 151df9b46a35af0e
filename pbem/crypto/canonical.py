"""Canonical JSON (RFC 8785, "JCS"), document hashes and a strict JSON reader.

Everything pbem signs or hashes is first put in the one canonical form of
RFC 8785: no insignificant whitespace, object members sorted by the UTF-16
code units of their names, strings with the minimal JSON escaping, and
numbers written as ECMAScript's ``Number.prototype.toString`` writes an IEEE
754 double. Two parties who agree on the data therefore agree on the bytes,
whatever JSON library wrote the file they received.

:func:`parse_json_strict` is the only way pbem reads JSON that came from
elsewhere. It refuses everything RFC 8785 (by way of I-JSON, RFC 7493) says an
interoperable document must not contain, so that whatever it accepts has a
canonical form.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from itertools import accumulate
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any

import orjson

from pbem.crypto.errors import MalformedError
from pbem.digests import sha256_hex

#: how deeply the strict reader lets arrays and objects nest, unless it is told otherwise
MAX_DEPTH = 64

# I-JSON (RFC 7493 section 2.2): integers outside this range are not exactly
# representable as IEEE 754 doubles, so they have no reliable canonical form.
MAX_SAFE_INTEGER = 2**53 - 1

# The C encoder of the standard library escapes exactly what RFC 8785
# section 3.2.2.2 asks: '"', '\\', the five short escapes, other control
# characters as lower-case \u00xx, and nothing else. Lone surrogates pass it
# and are caught when the whole text is encoded to UTF-8.
_string = encode_basestring


def format_number(value: float | int) -> str:
    """Write a number as ECMAScript ``Number.prototype.toString`` does (RFC 8785 section 3.2.2.3).

    Integers must lie within I-JSON's exact range; floats must be finite.
    ``-0`` is written ``0``.
    """
    if isinstance(value, bool):
        raise MalformedError("a boolean is not a number")
    if isinstance(value, int):
        if abs(value) > MAX_SAFE_INTEGER:
            raise MalformedError(
                f"integer {value} is outside the exactly representable range ±(2**53-1) (RFC 7493)"
            )
        return str(value)
    if not isinstance(value, float):
        raise MalformedError(f"{value!r} is not a JSON number")
    if math.isnan(value) or math.isinf(value):
        raise MalformedError(f"{value!r} is not allowed in JSON (RFC 8785 section 3.2.2.3)")
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    # repr gives the shortest digit string that reads back as the same
    # double, which is the digit string ECMAScript chooses; only the layout
    # of those digits differs.
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + (int(exponent) if exponent else 0)
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    k, n = len(digits), point
    # The four cases of ECMA-262 Number::toString, steps 6 to 10.
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        exp = ("+" if e >= 0 else "-") + str(abs(e))
        text = digits + "e" + exp if k == 1 else digits[0] + "." + digits[1:] + "e" + exp
    return sign + text


def _utf16_key(name: str) -> bytes:
    # Big-endian UTF-16 bytes compare in the same order as the code units.
    try:
        return name.encode("utf-16-be")
    except UnicodeEncodeError:
        raise MalformedError(f"object member name {name!r} holds a lone surrogate") from None


def _serialise(value: Any, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_string(value))
    elif isinstance(value, (int, float)):
        out.append(format_number(value))
    elif isinstance(value, dict):
        for name in value:
            if not isinstance(name, str):
                raise MalformedError(f"object member name {name!r} is not a string")
        out.append("{")
        for index, name in enumerate(sorted(value, key=_utf16_key)):
            if index:
                out.append(",")
            out.append(_string(name))
            out.append(":")
            _serialise(value[name], out)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for index, item in enumerate(value):
            if index:
                out.append(",")
            _serialise(item, out)
        out.append("]")
    else:
        raise MalformedError(f"a {type(value).__name__} has no JSON form: {value!r}")


def canonical_json(obj: Any, plain: bool | None = None) -> bytes:
    """The RFC 8785 canonical form of ``obj``, as UTF-8 bytes.

    ``obj`` is made of dicts with string keys, lists (or tuples), strings,
    integers within ±(2**53-1), finite floats, booleans and None. Anything
    else raises :class:`MalformedError`.

    Most documents are written by orjson, which gives exactly the RFC 8785
    bytes for them (:func:`is_plain`, and see below); the rest (floats,
    astral characters in names, anything to refuse) by the serialiser above.
    ``plain`` is ``is_plain(obj)``, if the caller has just found it.
    """
    if is_plain(obj) if plain is None else plain:
        try:
            data = orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)
        except orjson.JSONEncodeError:  # a lone surrogate, or nesting deeper than orjson goes
            pass
        else:
            if compact_is_canonical(data):
                return data
    out: list[str] = []
    _serialise(obj, out)
    return _utf8("".join(out))


# orjson (with sorted names, compact) writes RFC 8785 for a "plain" document: dicts with str keys,
# lists and tuples, str, bool, None and ints within ±(2**53-1); it writes what the standard library's
# C encoder writes with separators (",", ":"), sort_keys and ensure_ascii=False, twenty times sooner:
# * strings: it escapes exactly what RFC 8785 section 3.2.2.2 asks (see ``_string`` above: '"', '\\',
#   the five short escapes, other control characters as lower-case \u00xx, nothing else) and writes
#   the rest as UTF-8; it refuses a lone surrogate, which the serialiser then refuses too;
# * integers: in decimal, which is ECMAScript's text for an integer within the exact range; floats are
#   not plain (orjson, like ``float.__repr__``, differs from ECMAScript, and writes NaN as null);
# * member order: by code points, where RFC 8785 sorts by UTF-16 code units. The two orders differ only
#   when a name holds a character beyond U+FFFF (its surrogates sort below U+E000-U+FFFF), so a text
#   holding any such character is written by the serialiser instead (compact_is_canonical).
# Non-str keys are not plain either. tests/crypto/test_canonical_json_against_rfc8785.py compares this
# with an independent implementation of RFC 8785 over random documents and real games' documents.


#: a document with more arrays and objects than this is left to the serialiser (which also
#: meets a cyclic structure, where this walk would never end)
_PLAIN_CONTAINERS = 1 << 20


def is_plain(value: Any) -> bool:
    """Whether ``value`` is a plain document: dicts with str names, lists, tuples, str, bool, None and
    ints within ±(2**53-1), and no float; what orjson writes as RFC 8785 does (see above).

    Types are exact: a subclass of str, int, dict or list (an ``IntEnum``) is not plain. A document
    holding more than ``_PLAIN_CONTAINERS`` arrays and objects, each counted wherever it is held, is
    not plain either.
    """
    # Only arrays and objects go on the stack; each member is looked at in the loop over its container
    # (the document itself in a list of its own, which is not counted), a tenth fewer instructions than
    # pushing and popping every value. The checks stay per member in Python rather than per container in
    # C (set(map(type, members)), itertools.compress to pick the containers, max(map(abs, ints))): a
    # game's documents hold about five members a container, and on CPython 3.11 each such pass costs
    # a member about half what this loop does, and setting one up what the loop spends on several
    # members, so that walk took 1.6 times the instructions of this one.
    pending = [[value]]
    pop, push = pending.pop, pending.append
    containers = -1
    while pending:
        item = pop()
        containers += 1
        if containers > _PLAIN_CONTAINERS:
            return False
        if type(item) is dict:
            for name in item:
                if type(name) is not str:
                    return False
            item = item.values()
        for member in item:
            kind = type(member)
            if kind is str:
                continue
            if kind is dict or kind is list or kind is tuple:
                push(member)
            elif kind is int:
                if not -MAX_SAFE_INTEGER <= member <= MAX_SAFE_INTEGER:
                    return False
            elif kind is not bool and member is not None:
                return False
    return True


def compact_is_canonical(data: bytes) -> bool:
    """Whether ``data``, the UTF-8 text orjson writes for a plain document, is its canonical
    form: it is unless it holds a character beyond U+FFFF (whose UTF-8 starts with a byte F0 to F4), where
    the two orders of names may differ (see above)."""
    return data.isascii() or _ASTRAL_UTF8.search(data) is None


_ASTRAL_UTF8 = re.compile(b"[\xf0-\xf4]")


def _utf8(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        near = text[max(0, exc.start - 20) : exc.start]
        raise MalformedError(
            f"a string holds a lone surrogate, which has no UTF-8 form (after {near!r})"
        ) from None


def document_hash(doc: dict, exclude: Iterable[str] = ("signature",)) -> str:
    """``"sha256:"`` and the hex SHA-256 of the canonical form of ``doc`` without the ``exclude`` top-level members."""
    if not isinstance(doc, dict):
        raise MalformedError(f"only a JSON object has a document hash, not a {type(doc).__name__}")
    excluded = set(exclude)
    body = {name: value for name, value in doc.items() if name not in excluded}
    return sha256_ref(canonical_json(body))


def sha256_ref(data: bytes) -> str:
    """``"sha256:"`` and the hex SHA-256 of ``data``: how the records name a file or a canonical form by its hash."""
    return "sha256:" + sha256_hex(data)


# --- the strict reader ----------------------------------------------------

#: every byte but a quote and the four brackets, which are all that the nesting depth needs
_NOT_STRUCTURE = bytes(set(range(256)) - set(b'"[]{}'))
#: a bracket as one step of depth, a signed byte: +1 for an opening, -1 (0xff) for a closing one
_DEPTH_STEP = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")


def nesting_depth(text: str | bytes) -> int:
    """The deepest nesting of arrays and objects in a JSON text, counted outside strings, without recursion.

    Done on bytes by the standard library's C code: escaped backslashes and
    quotes are dropped (an escape pairs a backslash with the next
    character, and a run of them pairs from its left, as ``replace`` goes),
    then every byte but quotes and brackets; what lies between the
    remaining quotes is a string's, and each bracket left is one step up or
    down, summed by ``accumulate``. The regular expression and Python
    generator this replaces were a twentieth of ``pbem verify --replay``,
    which measures the referee's section of every turn.

    A string holding no bracket leaves its two quotes side by side; when
    dropping every such pair leaves no quote, each string was one (pairs
    are dropped from the left, so the first pair is the first string's
    quotes, and so on) and what is left is the brackets outside strings,
    without cutting the text at each quote.
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    kept = data.translate(None, _NOT_STRUCTURE)
    outside = kept.replace(b'""', b"")
    if b'"' in outside:  # a string holds a bracket
        outside = b"".join(kept.split(b'"')[::2])
    return max(accumulate(memoryview(outside.translate(_DEPTH_STEP)).cast("b")), default=0)


def within_depth(text: str | bytes, max_depth: int) -> bool:
    """Whether ``text`` certainly nests no deeper than ``max_depth``: it holds no more brackets than that."""
    if isinstance(text, str):
        return text.count("[") + text.count("{") <= max_depth
    return text.count(b"[") + text.count(b"{") <= max_depth


def json_depth(value: Any) -> int:
    """The deepest nesting of arrays and objects in a parsed value (0 for a scalar), without recursion."""
    containers = (dict, list, tuple)
    level = [value] if type(value) in containers else []
    depth = 0
    while level:
        depth += 1
        below: list[Any] = []
        for item in level:
            below += [child for child in (item.values() if type(item) is dict else item)
                      if type(child) in containers]
        level = below
    return depth


def check_depth(value: Any, max_depth: int = MAX_DEPTH) -> None:
    """Refuse (:class:`MalformedError`) a parsed value nested deeper than ``max_depth``, as the strict reader does."""
    depth = json_depth(value)
    if depth > max_depth:
        raise MalformedError(f"JSON nesting depth {depth} exceeds the limit of {max_depth}")


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        name = next(name for name, _ in pairs if name in seen or seen.add(name))  # type: ignore[func-returns-value]
        raise MalformedError(f"duplicate object member name {name!r}")
    return obj


def _refuse_constant(name: str) -> None:
    raise MalformedError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise MalformedError(f"number {text[:40]} is too large for an IEEE 754 double")
    return value


def _safe_int(text: str) -> int | float:
    """An integer literal: exact within ±(2**53-1); beyond, the double it denotes, but
    only if it is that double's canonical text (as JCS writes 1e16 or 2**68), so that no
    integer is silently rounded."""
    if len(text) > 400:
        raise MalformedError(f"integer {text[:40]}… is too large for an IEEE 754 double")
    value = int(text)
    if abs(value) <= MAX_SAFE_INTEGER:
        return value
    try:
        as_double = float(value)
    except OverflowError:
        raise MalformedError(f"integer {text[:40]}… is too large for an IEEE 754 double") from None
    if format_number(as_double) != text:
        raise MalformedError(
            f"integer {text[:40]} is outside the exactly representable range ±(2**53-1) "
            "and is not the canonical text of a double"
        )
    return as_double


#: the escape of a surrogate code unit, the only way a lone surrogate gets into parsed text
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _check_strings(value: Any) -> None:
    """Refuse lone surrogates (written as ``\\ud800`` escapes) anywhere in a parsed value."""
    _utf8(json.dumps(value, ensure_ascii=False))


def parse_json_strict(data: bytes, max_bytes: int = 1 << 20, max_depth: int = MAX_DEPTH) -> Any:
    """Read one JSON value from ``data``, refusing anything without a canonical form.

    Refused, with :class:`MalformedError`: more than ``max_bytes`` bytes;
    bytes that are not UTF-8 (a byte order mark included); text that is not
    JSON; an object naming a member twice; ``NaN`` and ``Infinity``; numbers
    beyond the range of a double, and integers beyond ±(2**53-1) unless they
    are the canonical text of a double (read as that double); arrays and
    objects nested deeper than ``max_depth``; strings holding lone surrogates.

    Depth: a text no longer than ``max_depth`` is within it; any other is
    parsed, then measured (:func:`json_depth`, whose walk of the arrays and
    objects costs less than counting the brackets of a text whose strings are
    long, such as a turn's sealed sections). The parser cannot exhaust the
    stack: it stops at Python's recursion limit, which is refused too.
    """
    return parse_json_strict_plain(data, max_bytes, max_depth)[0]


def parse_json_strict_plain(data: bytes, max_bytes: int = 1 << 20, max_depth: int = MAX_DEPTH,
                            measure_depth: bool = True) -> tuple[Any, bool]:
    """:func:`parse_json_strict`'s value, and whether it is plain (:func:`is_plain`), found as it is read.

    JSON names are strings, so a parsed value is plain unless one of its
    numbers is read as a double (a fraction, an exponent, an integer beyond
    ±(2**53-1)), or it holds more arrays and objects than :func:`is_plain`
    walks (only a text of more than twice that many bytes can).

    ``measure_depth=False`` leaves ``max_depth`` to the caller (the parser's
    own limit still holds), who checks it before anything but orjson looks at
    the value: with :func:`check_depth`, or by a proof of its own, as a reader
    of a file that is exactly pbem's layout of its document finds the depth
    in the file's indentation
    (:func:`pbem.referee.storage.laid_out_within_depth`), some thirty times
    sooner than the walk (a twentieth of a plain ``verify``).
    """
    doubles: list[str] = []

    def parse_float(text: str) -> float:
        doubles.append(text)
        return _finite_float(text)

    def parse_int(text: str) -> int | float:
        if len(text) < 16:  # within ±(10**15 - 1), inside ±(2**53-1): the common case, at once
            return int(text)
        value = _safe_int(text)
        if type(value) is float:
            doubles.append(text)
        return value

    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise MalformedError(f"JSON input must be bytes, not {type(data).__name__}")
    data = bytes(data)
    if len(data) > max_bytes:
        raise MalformedError(f"JSON input of {len(data)} bytes exceeds the limit of {max_bytes} bytes")
    if data.startswith(b"\xef\xbb\xbf"):
        raise MalformedError("JSON input starts with a byte order mark")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedError(f"JSON input is not valid UTF-8 (byte {exc.start}: {exc.reason})") from None
    try:
        value = json.loads(
            text,
            object_pairs_hook=_refuse_duplicates,
            parse_constant=_refuse_constant,
            parse_float=parse_float,
            parse_int=parse_int,
        )
    except json.JSONDecodeError as exc:
        raise MalformedError(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise MalformedError(f"JSON nesting depth exceeds the limit of {max_depth} "
                             "(and the parser's own)") from None
    if measure_depth and len(text) > max_depth:
        check_depth(value, max_depth)
    if "\\u" in text and _SURROGATE_ESCAPE.search(text):
        _check_strings(value)
    return value, not doubles and (len(data) <= 2 * _PLAIN_CONTAINERS or is_plain(value))

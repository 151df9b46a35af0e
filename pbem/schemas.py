"""The one JSON Schema validator class pbem checks every document with.

JSON Schema's ``integer`` admits any number with a zero fractional part, so
the stock validators accept ``1.0`` where a turn number is meant. RFC 8785
writes ``1.0`` and ``1`` alike, so a signed move rewritten with ``"turn":
1.0`` keeps its signature and would reach code that indexes and formats with
it. Here ``integer`` means a JSON integer and nothing else (``type(x) is
int``: no float, no bool), and ``number`` is an int or a float, never a bool.
A ``pattern``'s ``$`` is the end of the text, as in ECMA-262, not also the
place before a final line feed, as in Python's ``re`` (:mod:`pbem.patterns`).
Every schema pbem ships (file formats, scenarios, card data) is checked with
:data:`Validator`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError
from jsonschema.validators import Draft202012Validator, extend

from pbem.patterns import compile_pattern


def _is_integer(_checker: Any, value: Any) -> bool:
    return type(value) is int


def _is_number(_checker: Any, value: Any) -> bool:
    return type(value) in (int, float)


def _pattern(validator: Any, pattern: str, instance: Any, _schema: Any) -> Iterator[ValidationError]:
    """``pattern`` with ECMA-262's ``$`` (:mod:`pbem.patterns`); jsonschema's message."""
    if validator.is_type(instance, "string") and not compile_pattern(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


#: Draft 2020-12 with exact integers and ECMA-262's ``$`` in patterns: what every pbem schema is checked with
Validator = extend(
    Draft202012Validator,
    validators={"pattern": _pattern},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine_many({"integer": _is_integer, "number": _is_number}),
)


def validator(schema: dict[str, Any], **kwargs: Any) -> jsonschema.protocols.Validator:
    """A :data:`Validator` for ``schema`` (a 2020-12 schema; ``kwargs`` go to the validator).

    The schema itself is not checked here, at run time: every shipped
    schema is checked by the tests (``tests/referee/test_referee_schemas.py``).
    """
    return Validator(schema, format_checker=Validator.FORMAT_CHECKER, **kwargs)

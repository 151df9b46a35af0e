"""A quick yes for the documents a command checks on its way: a few JSON Schema keywords, without jsonschema.

``jsonschema`` (with ``referencing``, ``rpds`` and ``attrs``) takes longer
to import than the rest of a ``pbem move`` or ``pbem submit``. The schemas
of the documents those commands check (the move file, the sealed choices)
use a handful of keywords; :func:`satisfies` evaluates exactly those, with
Draft 2020-12's meaning and pbem's exact integers (:mod:`pbem.schemas`).

It only ever says "yes, this document is valid" or "not sure": ``False``
means invalid *or* a keyword (or a ``const``/``enum`` value) it does not
evaluate, and the caller then asks :mod:`jsonschema`, which gives the
verdict and the message. So a schema that gains a keyword stays checked in
full; it is only slower. The tests compare its answers with jsonschema's
over real documents, the hostile corpus and generated ones
(``tests/referee/test_schema_subset.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

#: keywords that say nothing about the instance
_ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "$comment"})
#: the scalars whose equality is JSON's (no bool equals an int here: type first)
_SCALARS = (str, int, bool, type(None))


@cache
def _pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _equal(instance: Any, value: Any) -> bool | None:
    """JSON equality for a scalar ``value``; ``None`` (not sure) for a value of another kind."""
    if type(value) not in _SCALARS:
        return None
    return type(instance) is type(value) and instance == value


def _is_type(instance: Any, name: str) -> bool | None:
    if name == "object":
        return isinstance(instance, dict)
    if name == "array":
        return isinstance(instance, list)
    if name == "string":
        return isinstance(instance, str)
    if name == "integer":
        return type(instance) is int
    if name == "number":
        return type(instance) in (int, float)
    if name == "boolean":
        return type(instance) is bool
    if name == "null":
        return instance is None
    return None


def satisfies(schema: Any, instance: Any, resolve: Callable[[str], Any]) -> bool:
    """Whether ``instance`` is valid under ``schema`` for certain (``False``: invalid or not sure).

    ``resolve`` gives the schema a ``$ref`` names. Draft 2020-12: each
    keyword checks the instance types it is about and passes the others.
    """
    if schema is True:
        return True
    if not isinstance(schema, dict):
        return False
    for keyword, value in schema.items():
        if keyword in _ANNOTATIONS:
            continue
        if not _keyword(keyword, value, schema, instance, resolve):
            return False
    return True


def _keyword(keyword: str, value: Any, schema: dict[str, Any], instance: Any,
             resolve: Callable[[str], Any]) -> bool:
    """Whether ``instance`` meets one keyword of ``schema`` for certain."""
    if keyword == "type":
        return _is_type(instance, value) is True if isinstance(value, str) else False
    if keyword == "const":
        return _equal(instance, value) is True
    if keyword == "enum":
        if not isinstance(value, list):
            return False
        verdicts = [_equal(instance, member) for member in value]
        return None not in verdicts and True in verdicts
    if keyword == "$ref":
        return satisfies(resolve(value), instance, resolve)
    if keyword == "not":
        # only a ``not`` of a ``const`` is decided here: "not sure" inside a ``not`` would be a yes
        if not (isinstance(value, dict) and set(value) == {"const"}):
            return False
        verdict = _equal(instance, value["const"])
        return verdict is False
    if keyword == "anyOf":
        return isinstance(value, list) and any(satisfies(part, instance, resolve) for part in value)
    if isinstance(instance, str):
        if keyword == "pattern":
            return _pattern(value).search(instance) is not None
        return keyword in _NUMBER | _ARRAY | _OBJECT
    if type(instance) in (int, float):
        if keyword == "minimum":
            return bool(instance >= value)
        if keyword == "maximum":
            return bool(instance <= value)
        return keyword in _STRING | _ARRAY | _OBJECT
    if isinstance(instance, list):
        if keyword == "items":
            return all(satisfies(value, item, resolve) for item in instance)
        if keyword == "maxItems":
            return len(instance) <= value
        if keyword == "minItems":
            return len(instance) >= value
        return keyword in _STRING | _NUMBER | _OBJECT
    if isinstance(instance, dict):
        if keyword == "required":
            return all(name in instance for name in value)
        if keyword == "properties":
            return all(satisfies(value[name], member, resolve)
                       for name, member in instance.items() if name in value)
        if keyword == "additionalProperties":
            if "patternProperties" in schema:
                return False
            named = schema.get("properties", {})
            return all(satisfies(value, member, resolve) for name, member in instance.items() if name not in named)
        if keyword == "propertyNames":
            return all(satisfies(value, name, resolve) for name in instance)
        if keyword == "maxProperties":
            return len(instance) <= value
        return keyword in _STRING | _NUMBER | _ARRAY
    return keyword in _STRING | _NUMBER | _ARRAY | _OBJECT


#: the keywords evaluated here that are about one kind of instance only (the others pass)
_STRING = frozenset({"pattern"})
_NUMBER = frozenset({"minimum", "maximum"})
_ARRAY = frozenset({"items", "maxItems", "minItems"})
_OBJECT = frozenset({"required", "properties", "additionalProperties", "propertyNames", "maxProperties"})

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


# --- the same, compiled ------------------------------------------------------

_ALL = _STRING | _NUMBER | _ARRAY | _OBJECT
_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda instance: isinstance(instance, dict),
    "array": lambda instance: isinstance(instance, list),
    "string": lambda instance: isinstance(instance, str),
    "integer": lambda instance: type(instance) is int,
    "number": lambda instance: type(instance) in (int, float),
    "boolean": lambda instance: type(instance) is bool,
    "null": lambda instance: instance is None,
}
#: compiled schemas by the id of the schema (kept with it, so that the id is not reused)
_COMPILED: dict[tuple[int, Callable[[str], Any]], tuple[Any, Callable[[Any], bool]]] = {}


def _always(_instance: Any) -> bool:
    return True


def _never(_instance: Any) -> bool:
    return False


def compiled(schema: Any, resolve: Callable[[str], Any]) -> Callable[[Any], bool]:
    """:func:`satisfies` for ``schema``, as a function of the instance alone.

    The schema is read once into a closure per keyword, so that checking a
    document does not look each keyword up again (a move file and its
    sealed choices in every step of ``pbem verify --replay``: issue 9).
    Each closure gives :func:`_keyword`'s answer for every instance: the
    same dispatch on the keyword and then on the instance's type, decided
    ahead where it does not depend on the instance; a keyword in a form
    not compiled here is left to :func:`_keyword` itself. ``resolve`` must
    give the same schema for a name every time, as the shipped schemas'
    does: a ``$ref`` is compiled when it is first followed.
    """
    key = (id(schema), resolve)
    found = _COMPILED.get(key)
    if found is not None and found[0] is schema:
        return found[1]
    if schema is True:
        check: Callable[[Any], bool] = _always
    elif not isinstance(schema, dict):
        check = _never
    else:
        checks = [_compile_keyword(keyword, value, schema, resolve)
                  for keyword, value in schema.items() if keyword not in _ANNOTATIONS]

        def check(instance: Any) -> bool:
            return all(one(instance) for one in checks)

    _COMPILED[key] = (schema, check)
    return check


def _compile_keyword(keyword: str, value: Any, schema: dict[str, Any],
                     resolve: Callable[[str], Any]) -> Callable[[Any], bool]:
    """A function of the instance giving ``_keyword(keyword, value, schema, instance, resolve)``."""
    if keyword == "type":
        return _TYPES.get(value, _never) if isinstance(value, str) else _never
    if keyword == "const":
        if type(value) not in _SCALARS:
            return _never
        kind = type(value)
        return lambda instance: type(instance) is kind and instance == value
    if keyword == "enum":
        if not isinstance(value, list) or any(type(member) not in _SCALARS for member in value):
            return _never
        members = [(type(member), member) for member in value]
        return lambda instance: any(type(instance) is kind and instance == member for kind, member in members)
    if keyword == "$ref":
        target: list[Callable[[Any], bool]] = []

        def follow(instance: Any) -> bool:
            if not target:
                target.append(compiled(resolve(value), resolve))
            return target[0](instance)

        return follow
    if keyword == "not":
        if not (isinstance(value, dict) and set(value) == {"const"}):
            return _never
        excluded = value["const"]
        if type(excluded) not in _SCALARS:
            return _never
        kind = type(excluded)
        return lambda instance: not (type(instance) is kind and instance == excluded)
    if keyword == "anyOf":
        if not isinstance(value, list):
            return _never
        parts = [compiled(part, resolve) for part in value]
        return lambda instance: any(part(instance) for part in parts)
    return _by_type(keyword, value, schema, resolve)


def _by_type(keyword: str, value: Any, schema: dict[str, Any],
             resolve: Callable[[str], Any]) -> Callable[[Any], bool]:
    """A keyword about one kind of instance: its check for that kind, and for the others the answer that
    :func:`_keyword` gives them whatever they hold."""
    def interpreted(instance: Any) -> bool:
        return _keyword(keyword, value, schema, instance, resolve)

    on_string: Callable[[Any], bool] = _always if keyword in _NUMBER | _ARRAY | _OBJECT else _never
    on_number: Callable[[Any], bool] = _always if keyword in _STRING | _ARRAY | _OBJECT else _never
    on_array: Callable[[Any], bool] = _always if keyword in _STRING | _NUMBER | _OBJECT else _never
    on_object: Callable[[Any], bool] = _always if keyword in _STRING | _NUMBER | _ARRAY else _never
    if keyword == "pattern":
        on_string = interpreted if not isinstance(value, str) else _searcher(_pattern(value))
    elif keyword in ("minimum", "maximum"):
        on_number = interpreted
    elif keyword == "items":
        item = compiled(value, resolve)
        on_array = lambda instance: all(item(member) for member in instance)  # noqa: E731
    elif keyword in ("maxItems", "minItems"):
        on_array = interpreted
    elif keyword == "properties" and isinstance(value, dict):
        named = {name: compiled(part, resolve) for name, part in value.items()}
        on_object = lambda instance: all(named[name](member)  # noqa: E731
                                         for name, member in instance.items() if name in named)
    elif keyword == "additionalProperties" and "patternProperties" not in schema:
        listed = schema.get("properties", {})
        other = compiled(value, resolve)
        on_object = lambda instance: all(other(member)  # noqa: E731
                                         for name, member in instance.items() if name not in listed)
    elif keyword == "required" and isinstance(value, list):
        names = list(value)
        on_object = lambda instance: all(name in instance for name in names)  # noqa: E731
    elif keyword in _OBJECT:
        on_object = interpreted
    other_kinds = keyword in _ALL

    def check(instance: Any) -> bool:
        if isinstance(instance, str):
            return on_string(instance)
        if type(instance) in (int, float):
            return on_number(instance)
        if isinstance(instance, list):
            return on_array(instance)
        if isinstance(instance, dict):
            return on_object(instance)
        return other_kinds

    return check


def _searcher(pattern: re.Pattern[str]) -> Callable[[Any], bool]:
    return lambda instance: pattern.search(instance) is not None

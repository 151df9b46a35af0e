"""A quick yes for the documents a command checks on its way: a few JSON Schema keywords, without jsonschema.

``jsonschema`` (with ``referencing``, ``rpds`` and ``attrs``) takes longer
to import than the rest of a ``pbem move`` or ``pbem submit``. The schemas
of the documents those commands check (the move file, the sealed choices)
use a handful of keywords; :func:`satisfies` evaluates exactly those, with
Draft 2020-12's meaning, pbem's exact integers (:mod:`pbem.schemas`) and
ECMA-262's ``$`` in a ``pattern`` (:mod:`pbem.patterns`).

It only ever says "yes, this document is valid" or "not sure": ``False``
means invalid *or* a keyword it does not evaluate, or one in a form it does
not read (a ``const`` that is an object, a ``pattern`` that is no regular
expression), and the caller then asks :mod:`jsonschema`, which gives the
verdict and the message. So a schema that gains a keyword stays checked in
full; it is only slower. The tests compare its answers with jsonschema's
over real documents, the hostile corpus, generated documents and every
keyword in odd forms (``tests/referee/test_schema_subset.py``).

A schema is read once, into a function of the instance per keyword
(:func:`compiled`), so that checking a document does not look each keyword
up again: a move file and its sealed choices are checked in every step of
``pbem verify --replay``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pbem.patterns import compile_pattern

#: a compiled schema or keyword: whether an instance is valid for certain
Check = Callable[[Any], bool]

#: keywords that say nothing about the instance
_ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "$comment"})


def _always(_instance: Any) -> bool:
    return True


def _never(_instance: Any) -> bool:
    return False


#: the Python types of a JSON number (not bool, whose type is not int's)
_NUMBER_TYPES = (int, float)


def _is_number(instance: Any) -> bool:
    return type(instance) in _NUMBER_TYPES


#: the JSON types, with pbem's exact integers (no float, no bool) and numbers (no bool)
_TYPES: dict[str, Check] = {
    "object": lambda instance: isinstance(instance, dict),
    "array": lambda instance: isinstance(instance, list),
    "string": lambda instance: isinstance(instance, str),
    "integer": lambda instance: type(instance) is int,
    "number": _is_number,
    "boolean": lambda instance: type(instance) is bool,
    "null": lambda instance: instance is None,
}

#: compiled schemas by the id of the schema and the resolver (the schema kept too, so that its id is not reused)
_COMPILED: dict[tuple[int, Callable[[str], Any]], tuple[Any, Check]] = {}


def satisfies(schema: Any, instance: Any, resolve: Callable[[str], Any]) -> bool:
    """Whether ``instance`` is valid under ``schema`` for certain (``False``: invalid or not sure).

    ``resolve`` gives the schema a ``$ref`` names. Draft 2020-12: each
    keyword checks the instance types it is about and passes the others.
    """
    return compiled(schema, resolve)(instance)


def compiled(schema: Any, resolve: Callable[[str], Any]) -> Check:
    """:func:`satisfies` for ``schema``, as a function of the instance alone, made once per schema.

    ``resolve`` must give the same schema for a name every time, as the
    shipped schemas' does: a ``$ref`` is compiled when it is first followed
    (so that a schema may refer to itself).
    """
    key = (id(schema), resolve)
    found = _COMPILED.get(key)
    if found is not None and found[0] is schema:
        return found[1]
    check: Check
    if schema is True:
        check = _always
    elif not isinstance(schema, dict):
        check = _never
    else:
        checks = [_keyword(keyword, value, schema, resolve)
                  for keyword, value in schema.items() if keyword not in _ANNOTATIONS]
        if _never in checks:
            check = _never
        elif len(checks) == 1:
            check = checks[0]
        else:
            def check(instance: Any) -> bool:
                # a loop, not all() over a generator: fewer instructions a check, of which a replay makes many
                for one in checks:  # noqa: SIM110
                    if not one(instance):
                        return False
                return True

    _COMPILED[key] = (schema, check)
    return check


def _keyword(keyword: str, value: Any, schema: dict[str, Any], resolve: Callable[[str], Any]) -> Check:
    """Whether an instance meets one keyword of ``schema`` for certain (:func:`_never` for one not read here)."""
    if keyword == "type":
        return _TYPES.get(value, _never) if isinstance(value, str) else _never
    if keyword == "const":
        return _equal_to(value)
    if keyword == "enum":
        members = [_equal_to(member) for member in value] if isinstance(value, list) else [_never]
        if _never in members:
            return _never
        return lambda instance: any(member(instance) for member in members)
    if keyword == "$ref":
        return _reference(value, resolve) if isinstance(value, str) else _never
    if keyword == "not":
        # only a ``not`` of a ``const`` is read: "not sure" inside a ``not`` would be a yes
        equal = _equal_to(value["const"]) if isinstance(value, dict) and set(value) == {"const"} else _never
        if equal is _never:
            return _never
        return lambda instance: not equal(instance)
    if keyword == "anyOf":
        if not isinstance(value, list):
            return _never
        parts = [compiled(part, resolve) for part in value]
        return lambda instance: any(part(instance) for part in parts)
    about = _about_one_kind(keyword, value, schema, resolve)
    if about is None:
        return _never
    kind, check = about
    if kind is None:  # about numbers
        return lambda instance: type(instance) not in _NUMBER_TYPES or check(instance)
    return lambda instance: not isinstance(instance, kind) or check(instance)


def _equal_to(value: Any) -> Check:
    """Equality with a scalar ``value`` as JSON Schema's: a bool equals only a bool, a number any number of
    the same value (``1.0`` is ``1``); :func:`_never` for a value that is an array or an object."""
    if type(value) in (int, float):
        return lambda instance: _is_number(instance) and instance == value
    if type(value) in (str, bool, type(None)):
        kind = type(value)
        return lambda instance: type(instance) is kind and instance == value
    return _never


def _reference(uri: str, resolve: Callable[[str], Any]) -> Check:
    target: list[Check] = []

    def follow(instance: Any) -> bool:
        if not target:
            target.append(compiled(resolve(uri), resolve))
        return target[0](instance)

    return follow


def _about_one_kind(keyword: str, value: Any, schema: dict[str, Any],
                    resolve: Callable[[str], Any]) -> tuple[type | None, Check] | None:
    """For a keyword about one kind of instance (instances of other kinds pass it): that kind, as the Python
    type of its instances (``None`` for numbers: an int or a float, not a bool), and the keyword's check for
    an instance of it; ``None`` for a keyword or a form not read here."""
    if keyword == "pattern" and isinstance(value, str):
        try:
            pattern = compile_pattern(value)
        except re.error:
            return None
        return str, lambda instance: pattern.search(instance) is not None
    if keyword in ("minimum", "maximum") and _is_number(value):
        if keyword == "minimum":
            return None, lambda instance: bool(instance >= value)
        return None, lambda instance: bool(instance <= value)
    if keyword in ("minItems", "maxItems", "maxProperties") and type(value) is int:
        if keyword == "minItems":
            return list, lambda instance: len(instance) >= value
        return list if keyword == "maxItems" else dict, lambda instance: len(instance) <= value
    if keyword == "items":
        item = compiled(value, resolve)
        return list, lambda instance: all(map(item, instance))
    if keyword == "required" and isinstance(value, list) and all(isinstance(name, str) for name in value):
        names = frozenset(value)
        return dict, lambda instance: instance.keys() >= names
    if keyword == "properties" and isinstance(value, dict):
        named = {name: compiled(part, resolve) for name, part in value.items()}

        def properties(instance: dict[str, Any]) -> bool:
            for name, member in instance.items():
                check = named.get(name)
                if check is not None and not check(member):
                    return False
            return True

        return dict, properties
    if keyword == "additionalProperties" and "patternProperties" not in schema:
        listed = schema.get("properties", {})
        if not isinstance(listed, dict):
            return None
        other = compiled(value, resolve)
        if other is _never:  # no other member at all, the common form: the names alone decide
            return dict, lambda instance: instance.keys() <= listed.keys()
        return dict, lambda instance: all(other(member) for name, member in instance.items() if name not in listed)
    if keyword == "propertyNames":
        name_check = compiled(value, resolve)
        return dict, lambda instance: all(map(name_check, instance))
    return None

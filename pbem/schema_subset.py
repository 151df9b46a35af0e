"""A quick yes for the documents a command checks on its way: a few JSON Schema keywords, without jsonschema.

``jsonschema`` (with ``referencing``, ``rpds`` and ``attrs``) takes longer
to import than the rest of a ``pbem move`` or ``pbem submit``. The schemas
of the documents the commands check on their way (the move file, the sealed
choices; the turn files and the player's section of them, which every
reader checks against their schema although the referee signed them) use a
handful of keywords; :func:`satisfies` evaluates exactly those, with
Draft 2020-12's meaning, pbem's exact integers (:mod:`pbem.schemas`) and
ECMA-262's ``$`` in a ``pattern`` (:mod:`pbem.patterns`). A ``oneOf`` is
read where its parts exclude one another — by their types, or by the
``const`` of a member every part requires — since "exactly one" is then
"any one", which a check that may only say "yes, for certain" can decide.

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
        if isinstance(value, list) and value and all(isinstance(name, str) and name in _TYPES for name in value):
            kinds = [_TYPES[name] for name in value]
            return lambda instance: any(kind(instance) for kind in kinds)
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
    if keyword == "anyOf" or (keyword == "oneOf" and _exclusive(value)):
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


def _types_of(schema: Any) -> frozenset[str] | None:
    """The JSON types an instance valid under ``schema`` may have, as its ``type`` keyword says (``integer``
    among them wherever ``number`` is); None when it does not say (in a form read here)."""
    if not isinstance(schema, dict):
        return None
    value = schema.get("type")
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or not all(isinstance(n, str) and n in _TYPES for n in names):
        return None
    return frozenset(names) | ({"integer"} if "number" in names else set())


def _discriminant(schema: Any) -> tuple[str, str] | None:
    """A member ``schema`` requires, with the string its ``const`` must be (an object schema), or None."""
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return None
    required, properties = schema.get("required"), schema.get("properties")
    if not isinstance(required, list) or not isinstance(properties, dict):
        return None
    for name in required:
        member = properties.get(name) if isinstance(name, str) else None
        if isinstance(member, dict) and isinstance(member.get("const"), str):
            return name, member["const"]
    return None


def _exclusive(parts: Any) -> bool:
    """Whether no instance can be valid under two of ``parts`` (a ``oneOf``'s): their types do not meet, or
    each is an object schema requiring one same member with a ``const`` of its own."""
    if not isinstance(parts, list) or not parts:
        return False
    types = [_types_of(part) for part in parts]
    if all(t is not None for t in types):
        seen: set[str] = set()
        for kinds in types:
            assert kinds is not None
            if seen & kinds:
                break
            seen |= kinds
        else:
            return True
    marks = [_discriminant(part) for part in parts]
    if any(mark is None for mark in marks):
        return False
    names = {mark[0] for mark in marks if mark is not None}
    values = [mark[1] for mark in marks if mark is not None]
    return len(names) == 1 and len(set(values)) == len(values)


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
    if keyword in ("minLength", "maxLength") and type(value) is int:
        if keyword == "minLength":
            return str, lambda instance: len(instance) >= value
        return str, lambda instance: len(instance) <= value
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

"""Copying plain JSON data (the states and the data games keep in them) fast.

A game state is plain JSON data (:mod:`pbem.engine.protocol`): dicts with
str keys, lists, str, int, bool, None. Copying one deeply is what a game
does when the state must not share objects with a scenario it was set up
from, or one object must not stand in two places of the state (two places
holding one list would not survive the JSON round trip of a stored state).
"""

from __future__ import annotations

import marshal
from typing import Any, TypeVar, cast

T = TypeVar("T")

#: marshal's format 2 writes an object as often as it occurs: it has no back-references (format 3 has), so
#: a copy never holds one object in two places, exactly as ``json.loads(json.dumps(value))`` would give
_NO_REFERENCES = 2


def copy_plain(value: T) -> T:
    """A deep copy of plain JSON data, equal to ``json.loads(json.dumps(value))`` and sharing no
    object with ``value`` nor any object between two of its places.

    Done by a round trip through :mod:`marshal` (C, in memory, never stored: its format may change
    between Python versions), about twice as fast as the JSON round trip and three times
    :func:`copy.deepcopy`. ``ValueError`` for what marshal cannot write; a tuple stays a tuple,
    so this is for data that is already plain JSON.

    A ``dict`` or ``list`` of a subclass, which marshal does not write (the
    referee's read-only static members, :mod:`pbem.referee.static`), is
    copied as a plain one, by a walk in Python: slower, and only for data
    that holds one.
    """
    try:
        return cast(T, marshal.loads(marshal.dumps(cast(Any, value), _NO_REFERENCES)))
    except ValueError:
        return cast(T, _copy_walk(value))


def _copy_walk(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _copy_walk(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy_walk(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_copy_walk(item) for item in value)
    return marshal.loads(marshal.dumps(value, _NO_REFERENCES))  # a scalar, or marshal's ValueError

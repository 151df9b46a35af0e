"""The static members of a game's states: read-only, and shared by every state of the process.

A game declares which members of its states are a pure function of the
set-up (:meth:`~pbem.engine.protocol.Game.static_state`: a card catalogue of
17 KiB for Nightfall, 61 KiB for Nightlancer). The referee keeps them out of
every sealed section and puts them back when it opens one. A game must not
change one: the change would be lost when the section is opened again, so a
game that tries is stopped with an error of the game, never sealed without
the change.

How that is made sure costs a step nothing. The members are
loaded once per set-up and process, as **read-only** containers
(:class:`StaticDict`, :class:`StaticList`, subclasses of ``dict`` and
``list``) that every state opened in the process shares; scalars are
immutable already. A rule reads them as it reads plain JSON data (``==``
with a plain value, ``isinstance``, JSON encoding, ``+`` and slicing, which
give plain lists, ``dict(...)``); each method that may change one (item
assignment or deletion, ``append``, ``extend``, ``+=``, ``sort``, ``pop``,
``update``, ``setdefault`` of a new name, ``clear``...) raises the
:class:`~pbem.referee.errors.GameDirError` that the step raises for a
changed static member, at the very line of the rule that tried; nothing
changed, so no later state of the process, in this step or another game,
sees a change. A copy (``copy.copy``, ``copy.deepcopy``,
:func:`~pbem.engine.plain.copy_plain`, pickling) is a plain, mutable one, as
the copy of a plain value is. Before sealing, the referee checks that each
static member of the state is still the shared object (identity), or else
equal to it (a game that put a rebuilt value in its place), as
:func:`~pbem.referee.core.dynamic_state` does.

Building the read-only members costs a process about what the first step
paid before for a copy and a comparison (:meth:`StaticMembers.of` copies the
game's own values rather than reading back their canonical JSON), so a
one-shot ``pbem submit``, which opens one state, is no slower; every later
step of the process pays nothing for them.

Two ways were set aside. A fresh deep copy per opened state compared with
a pristine copy before sealing (what the referee did) cost some 2 ms of a
12 ms Nightlancer step: the copy (``marshal``) and the deep comparison.
One cached copy, compared before sealing and reloaded after a failed
comparison, keeps the comparison, and a copy that has escaped into another
live state of the process (a test that changes a state on purpose, two
games in one run) could be changed after its comparison and before the
next state is opened with it.

What no Python object can refuse is a deliberate call of the base class's
method past the subclass (``dict.__setitem__(member, ...)``), a call of
``member.__init__(...)`` (left to ``dict``'s and ``list``'s own, which
build the containers fastest) or C code that writes into a container
directly: no game rule does any of these, and one that did would be
sabotage of the process it runs in, not a mistake in a rule.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any, ClassVar, NoReturn

from pbem.crypto.canonical import canonical_json, is_plain
from pbem.engine.plain import copy_plain
from pbem.immutable import Immutable
from pbem.referee.errors import GameDirError


def changed_message(state_kind: str, name: str) -> str:
    """The error of a game that changed the static member ``name`` of its state (``state_kind``: which state)."""
    return (f"the {state_kind} state changed its member {name!r}, which the game declares static "
            "(a pure function of the set-up); the referee cannot seal it")


def _refuse(self: StaticDict | StaticList, *args: Any, **kwargs: Any) -> NoReturn:
    raise GameDirError(changed_message(*self._member))


class StaticDict(dict):  # type: ignore[type-arg]
    """A JSON object of a static member: reads as a ``dict``, refuses every change (see the module).

    Each member has its own subclass (:func:`_classes`), which names it in the error.
    """

    __slots__ = ()
    #: (the state's kind, the static member's name), which the error names
    _member: ClassVar[tuple[str, str]] = ("game", "?")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = update = _refuse

    def setdefault(self, key: Any, default: Any = None) -> Any:
        """The value of ``key``, which is there: a name it lacks would be added, which is refused."""
        if key in self:
            return self[key]
        _refuse(self)

    def __copy__(self) -> dict[Any, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[Any, Any]:
        return {key: copy.deepcopy(value, memo) for key, value in self.items()}

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        return dict, (dict(self),)


class StaticList(list):  # type: ignore[type-arg]
    """A JSON array of a static member: reads as a ``list``, refuses every change (see the module)."""

    __slots__ = ()
    _member: ClassVar[tuple[str, str]] = ("game", "?")

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return [copy.deepcopy(value, memo) for value in self]

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        return list, (list(self),)


#: the classes of each static member's containers, by (the state's kind, the member's name)
_CLASSES: dict[tuple[str, str], tuple[type[StaticDict], type[StaticList]]] = {}


def _classes(member: tuple[str, str]) -> tuple[type[StaticDict], type[StaticList]]:
    found = _CLASSES.get(member)
    if found is None:
        body = {"__slots__": (), "_member": member}
        found = _CLASSES[member] = (type("StaticDict", (StaticDict,), body), type("StaticList", (StaticList,), body))
    return found


#: the types of the containers :func:`_freezer` copies (a tuple, which a plain value may hold, as an array)
_CONTAINERS = frozenset((dict, list, tuple))


def _freezer(member: tuple[str, str]) -> Callable[[Any], Any]:
    """What copies a plain JSON value of ``member`` into read-only containers (its scalars are shared).

    Made for speed, since a one-shot ``pbem submit`` pays it (Nightlancer's
    catalogue holds some 1,100 objects and 480 arrays): a Python call per
    container, none per scalar, and each container filled by ``dict``'s and
    ``list``'s own ``__init__``, in C.
    """
    static_dict, static_list = _classes(member)

    def freeze(value: Any) -> Any:
        if type(value) is dict:
            return static_dict({name: freeze(item) if type(item) in _CONTAINERS else item
                                for name, item in value.items()})
        return static_list([freeze(item) if type(item) in _CONTAINERS else item for item in value])

    return freeze


def is_static(value: Any) -> bool:
    """``value`` is a read-only container of a static member."""
    return isinstance(value, (StaticDict, StaticList))


class StaticMembers(Immutable):
    """The members of a game's states that are a pure function of its set-up (:meth:`Game.static_state`).

    Kept as canonical JSON, and as read-only values that every state opened
    with them shares (:meth:`members`; see the module). Immutable, and
    equal to (and hashed as) another of the same canonical JSON.
    """

    __slots__ = ("_shared", "canonical")
    _key = ("canonical",)
    canonical: bytes
    #: the members as read-only JSON values
    _shared: dict[str, Any]

    def __init__(self, canonical: bytes, state_kind: str = "game", members: dict[str, Any] | None = None) -> None:
        """``state_kind`` names the states in the error of a change (the game's name); ``members`` are the
        values ``canonical`` holds, if the caller has them plain (:func:`~pbem.crypto.canonical.is_plain`:
        then they read back from ``canonical`` as they are, but for a tuple, which is an array)."""
        if members is None:
            members = json.loads(canonical)
        self._set(canonical=canonical, _shared={
            name: _freezer((state_kind, name))(value) if type(value) in _CONTAINERS else value
            for name, value in members.items()
        })

    @classmethod
    def of(cls, members: dict[str, Any], state_kind: str = "game") -> StaticMembers:
        """The static members ``members`` (the game's :meth:`~pbem.engine.protocol.Game.static_state`),
        copied: nothing of theirs is shared with the game's objects but the scalars."""
        plain = is_plain(members)
        return cls(canonical_json(members, plain), state_kind, members if plain else None)

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self._shared)

    def members(self) -> dict[str, Any]:
        """The members, read-only and shared, for a state the game may work on (a new ``dict`` of them)."""
        return dict(self._shared)

    def matches(self, name: str, value: Any) -> bool:
        """``value`` is the member ``name``: the shared object itself (which nothing changed), or equal to it."""
        member = self._shared[name]
        return value is member or value == member


def working_copy(state: dict[str, Any]) -> dict[str, Any]:
    """A copy of a state to apply rules to (:func:`~pbem.engine.plain.copy_plain`), its static members shared.

    The read-only members need no copy, and :mod:`marshal` writes no
    subclass of ``dict``: the rest is copied with :func:`copy_plain` (which
    copies a read-only value it meets deeper, slower, as a plain one).
    """
    shared = {name: value for name, value in state.items() if is_static(value)}
    if not shared:
        return copy_plain(state)
    copied = copy_plain({name: value for name, value in state.items() if name not in shared})
    return {name: shared[name] if name in shared else copied[name] for name in state}

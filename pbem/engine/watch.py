"""Watching a trial application of the rules: the draws it makes and the hidden cards it reads.

:mod:`pbem.engine.foresight` applies a player's choice to a copy of the
state to learn whether what follows depends on something the player does not
know. Two things would make it so, and both are watched here:

* a **draw** from the step's generator: the copy is given a
  :class:`WatchingRng`, which stops the trial at the first draw that has more
  than one outcome (``randbelow(1)`` and the shuffle of one card draw
  nothing, and tell nothing);
* a **read** of a zone the player may not see: each such zone's containers
  in the copy are replaced by a :class:`WatchedList` or :class:`WatchedDict`
  (:func:`install`), which stop the trial at the first read of their
  content.

What counts as a read: whatever gives the rules an element, or lets them
branch on one: indexing and slicing, iterating (``for``, ``list(...)``,
``sorted``, ``"".join``, ``json.dumps``, a copy), ``in``, ``index``,
``count``, ``remove``, ``pop``, comparing, ``repr``, sorting. What does not:
``len()`` and truthiness (a pile's count is public), and writes that take
nothing out (``append``, ``extend``, ``insert``, ``del`` by position,
``clear``, ``reverse``): the rules learn nothing from them, and a card put
into a hidden pile is one they knew. A dict is watched for the values of
its watched keys (``None``: all of them); its keys are public (who has
picked, which archive).

The trial stops with :class:`Crossing`, a ``BaseException`` so that no
``except Exception`` of a rule swallows it; the :class:`Watch` keeps the
first boundary met even if something did. C code that reads a list's items
past its methods (``heapq``) would read unseen: no rule does, and the
conformance suite checks every game's verdicts against redraws of what the
player may not know (``tests/conformance/test_foresight.py``), so a read
that slipped through is found as the leak it would be.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

from pbem.engine.rng import Rng

#: the boundaries a watch meets: a draw from the generator, a read of a hidden zone
DRAW = "draw"
HIDDEN = "hidden"

#: a place in a state: the keys (member names, list positions) from its root to a container or a dict's member
Place = tuple[str | int, ...]


class Crossing(BaseException):
    """The trial met an information boundary (its :class:`Watch` says which); raised to stop it at once."""


class Watch:
    """What one trial met: ``crossed`` is the first boundary (:data:`DRAW` or :data:`HIDDEN`), or ``None``.

    While ``active``, a read of a watched container or a draw stops the
    trial; :meth:`stop` ends the watching, so that the trial's result can be
    copied and read freely.
    """

    __slots__ = ("active", "crossed")

    def __init__(self) -> None:
        self.active = True
        self.crossed: str | None = None

    def meet(self, boundary: str) -> None:
        if self.active:
            if self.crossed is None:
                self.crossed = boundary
            raise Crossing(boundary)

    def stop(self) -> None:
        self.active = False


def _reading(base: type, name: str) -> Any:
    """The method ``name`` of ``base``, after the watch's check: it reads a hidden element."""
    method = getattr(base, name)

    def read(self: Any, *args: Any, **kwargs: Any) -> Any:
        self._watch.meet(HIDDEN)
        return method(self, *args, **kwargs)

    read.__name__ = read.__qualname__ = name
    return read


def _copying(self: Any, *args: Any) -> NoReturn:
    """A copy of a watched container (``copy.copy``, ``copy.deepcopy``, pickling) reads all of it."""
    self._watch.meet(HIDDEN)
    raise Crossing(HIDDEN)  # pragma: no cover - meet raises while the watch is active, and nothing copies after


class WatchedList(list):  # type: ignore[type-arg]
    """A list of a hidden zone, in a trial's copy: reading an element meets :data:`HIDDEN` (see the module)."""

    __slots__ = ("_watch",)
    _watch: Watch

    def __radd__(self, other: Any) -> Any:
        self._watch.meet(HIDDEN)
        return other + list.copy(self)

    __copy__ = __deepcopy__ = __reduce_ex__ = __reduce__ = _copying


#: the methods of a list that give the rules an element or let them branch on one
LIST_READS = ("__getitem__", "__iter__", "__reversed__", "__contains__", "index", "count", "remove", "pop", "copy",
              "sort", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__mul__", "__rmul__",
              "__repr__")
for _name in LIST_READS:
    setattr(WatchedList, _name, _reading(list, _name))


class WatchedDict(dict):  # type: ignore[type-arg]
    """A dict of a hidden zone, in a trial's copy: reading the value of a watched key (``keys``; ``None``:
    any) meets :data:`HIDDEN`; its keys are public (see the module)."""

    __slots__ = ("_keys", "_watch")
    _watch: Watch
    _keys: frozenset[Any] | None

    def _reads(self, key: Any) -> None:
        if self._keys is None or key in self._keys:
            self._watch.meet(HIDDEN)

    def __getitem__(self, key: Any) -> Any:
        self._reads(key)
        return dict.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        if dict.__contains__(self, key):
            self._reads(key)
        return dict.get(self, key, default)

    def pop(self, key: Any, *default: Any) -> Any:
        if dict.__contains__(self, key):
            self._reads(key)
        return dict.pop(self, key, *default)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if dict.__contains__(self, key):
            self._reads(key)
        return dict.setdefault(self, key, default)

    def __iter__(self) -> Any:
        # the keys are public; defined so that C code that copies a dict (``dict(d)``, ``{**d}``) takes the
        # keys and then each value through __getitem__, rather than reading the values past it
        return dict.__iter__(self)

    __copy__ = __deepcopy__ = __reduce_ex__ = __reduce__ = _copying


#: the methods of a dict that give the rules a value, whatever its key
DICT_READS = ("values", "items", "popitem", "copy", "__eq__", "__ne__", "__or__", "__ror__", "__repr__")
for _name in DICT_READS:
    setattr(WatchedDict, _name, _reading(dict, _name))
del _name


def watched(value: Any, watch: Watch, keys: Iterable[Any] | None = None) -> WatchedList | WatchedDict:
    """``value`` (a list or dict) as a watched container of the same content; for a dict, ``keys`` are the
    members whose values are watched (``None``: every one)."""
    if isinstance(value, list):
        found: WatchedList | WatchedDict = WatchedList(list.__iter__(value))
    else:
        found = WatchedDict(dict.items(value))
        found._keys = None if keys is None else frozenset(keys)
    found._watch = watch
    return found


def install(state: Any, places: Iterable[Place], watch: Watch) -> bool:
    """Replace what lies at each of ``places`` in ``state`` by a watched container; whether every one could be.

    A place ends at a list or a dict (all of its content is watched) or at
    a member of a dict that holds no container (a sealed pick: that
    member's value is watched, the dict's other members are not). A place
    that is not in the state now (a zone not there) is skipped. One that
    cannot be watched (the state's root, a member of the root that is no
    container, a place through something else than lists and dicts) makes
    the watch incomplete: ``False``, and the caller treats every choice as
    crossing a boundary.
    """
    complete = True
    for place in places:
        if not place:
            complete = False
            continue
        parent = _follow(state, place[:-1])
        last = place[-1]
        if parent is None or not _holds(parent, last):
            continue
        target = _get(parent, last)
        if isinstance(target, (WatchedList, WatchedDict)) and target._watch is watch:
            if isinstance(target, WatchedDict):
                target._keys = None  # now watched whole
        elif isinstance(target, (list, dict)):
            _put(parent, last, watched(target, watch))
        elif isinstance(parent, WatchedDict) and parent._watch is watch:
            if parent._keys is not None:
                parent._keys = parent._keys | {last}
        elif isinstance(parent, dict) and len(place) >= 2:
            owner = _follow(state, place[:-2])
            if owner is None:
                complete = False
            else:
                _put(owner, place[-2], watched(parent, watch, [last]))
        else:
            complete = False
    return complete


def _get(container: Any, key: str | int) -> Any:
    """``container[key]``, read past any watch."""
    if isinstance(container, dict):
        return dict.__getitem__(container, key)
    return list.__getitem__(container, key)  # type: ignore[index]


def _put(container: Any, key: str | int, value: Any) -> None:
    if isinstance(container, dict):
        dict.__setitem__(container, key, value)
    else:
        list.__setitem__(container, key, value)  # type: ignore[call-overload, assignment]


def _holds(container: Any, key: str | int) -> bool:
    if isinstance(container, dict):
        return dict.__contains__(container, key)
    return isinstance(key, int) and -list.__len__(container) <= key < list.__len__(container)


def _follow(state: Any, keys: Sequence[str | int]) -> Any:
    """The container ``keys`` lead to from ``state``, read past any watch, or ``None`` if there is none."""
    node = state
    for key in keys:
        if isinstance(node, dict) and isinstance(key, str) and dict.__contains__(node, key):
            node = dict.__getitem__(node, key)
        elif isinstance(node, list) and isinstance(key, int) and -list.__len__(node) <= key < list.__len__(node):
            node = list.__getitem__(node, key)
        else:
            return None
    return node if isinstance(node, (list, dict)) else None


def unwatch(value: Any) -> Any:
    """A plain copy of ``value``, every watched container in it read as the plain one it stands for."""
    if isinstance(value, dict):
        return {key: unwatch(item) for key, item in dict.items(value)}
    if isinstance(value, list):
        return [unwatch(item) for item in list.__iter__(value)]
    return value


class WatchingRng(Rng):
    """A generator for a trial: the first draw with more than one outcome meets :data:`DRAW`."""

    __slots__ = ("_watch",)

    def __init__(self, watch: Watch) -> None:
        super().__init__(b"\x00" * 32)
        self._watch = watch

    def randbelow(self, n: int, label: str = "") -> int:
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        if n > 1:
            self._watch.meet(DRAW)
        return 0

    def _bytes(self, count: int, label: str) -> bytes:
        self._watch.meet(DRAW)
        return b"\x00" * count  # pragma: no cover - meet raises while the watch is active

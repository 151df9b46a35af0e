"""Value classes without dataclasses.

A frozen dataclass compiles its generated methods when its module is
imported, about a millisecond a class on Python 3.11, which every command
would pay for classes it uses for microseconds (docs/performance.md, "Records without dataclasses"). These classes
share their few methods instead: the members named by ``_key`` make a
value's equality and ``repr`` (:class:`Value`); an :class:`Immutable` value
sets its members once in ``__init__`` (:meth:`Immutable._set`) and is hashed
by them too.
"""

from __future__ import annotations

from typing import Any, ClassVar


class Value:
    """Equal to another of its class with the same ``_key`` members, and shown by them; unhashable, since
    its members may change (see :class:`Immutable`)."""

    __slots__ = ()
    #: the members that make the value: compared and shown, in this order
    _key: ClassVar[tuple[str, ...]]

    def _members(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._key)

    def __eq__(self, other: object) -> bool:
        return other.__class__ is self.__class__ and other._members() == self._members()  # type: ignore[attr-defined]

    # no __hash__: Python leaves a class that defines __eq__ alone unhashable

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{name}={getattr(self, name)!r}' for name in self._key)})"


class Immutable(Value):
    """A value set once: equal to (and hashed as) another of its class with the same ``_key`` members."""

    __slots__ = ()

    def _set(self, **members: Any) -> None:
        for name, value in members.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot delete {name!r}")

    def __hash__(self) -> int:
        return hash(self._members())

"""What a game builds from a loaded object, remembered for the next call with that same object.

Games played in memory (bots, tests, benchmarks) set up state after state
from one loaded scenario, and some of what a state holds is built from its
card data, which never changes once loaded, and never changed by a rule (a
static member: :meth:`~pbem.engine.protocol.Game.static_state`). Building
it again for every state was a tenth of a random Nightlancer game.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def for_the_last_object(build: Callable[[K], V]) -> Callable[[K], V]:
    """``build``, whose result is remembered for the last object it was called with, found by identity.

    Identity, not equality: the object is not looked at, only recognised.
    It is held while its result is remembered, so that another object made
    later cannot be taken for it (an ``id`` is reused only once its object is
    gone). One entry only: a run sets up its states from one object at a time.
    The result is shared by every caller, so neither it nor the object may be
    changed.
    """
    last: tuple[K, V] | None = None

    @functools.wraps(build)
    def remembered(value: K) -> V:
        nonlocal last
        if last is None or last[0] is not value:
            last = (value, build(value))
        return last[1]

    return remembered

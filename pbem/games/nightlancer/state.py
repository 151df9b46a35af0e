"""The game state as plain data: typed, but still JSON.

Cards are instance ids (``design#n``, see :mod:`.cards`); decks and discard
piles are lists with the top card first. The turn machine's ``stack``,
``pending`` and ``over`` are part of it (:mod:`pbem.engine.machine`).
"""

# No ``from __future__ import annotations`` here: given strings, typing would compile some 55 annotations
# for these on every step's start-up (docs/performance.md, "Annotations evaluated at import"). The
# annotations below name only what is defined above them.

from typing import Any, TypedDict

from pbem.engine.machine import MachineState

#: a card's data in the catalogue (its card-file entry and its ``kind``)
Card = dict[str, Any]


class Seat(TypedDict):
    """One player's tokens, tableau and hand (rulebook 2.2)."""

    nightlancer: str | None
    health: int
    resolve: int
    ideals: int
    kc: int
    heat: int
    prospects: int
    loans: int
    shaken: bool
    deal: bool
    items: list[str]
    cyber: list[str]
    skills: list[str]
    fulfilled: list[str]
    hand: list[str]
    spent: list[str]
    loadout: list[str]
    missions_done: int


class Crew(TypedDict):
    """A Crew on a mission: Nightlancer tokens top first, so ``members[0]`` is the Boss (3.1)."""

    label: str
    pos: str
    members: list[str]


class Slot(TypedDict):
    """A mission in the open mission area, its Crews and the Deal token placed on it."""

    card: str
    crews: list[Crew]
    deal: str | None


class Catalogue(TypedDict):
    """The card data a game keeps: the set, the die faces, every card by design id."""

    set: dict[str, Any]
    die: list[dict[str, Any]]
    cards: dict[str, Card]


class Outcome(TypedDict):
    winners: list[str]
    scores: dict[str, int]
    summary: str
    details: dict[str, Any]


class State(MachineState):
    """A Nightlancer game."""

    format: str
    scenario: str
    mode: str
    hardened: int
    players: list[str]
    order: list[str]
    catalogue: Catalogue
    round: int
    phase: str
    decks: dict[str, list[str]]
    discards: dict[str, list[str]]
    box: list[str]
    market: list[str]
    missions: list[Slot]
    event: str | None
    seats: dict[str, Seat]
    events: list[str]
    private: dict[str, list[str]]
    dice: list[int]
    outcome: Outcome | None
    census: list[str]

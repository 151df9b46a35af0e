"""What a player's orders may test of a decision: a game's vocabulary, declared with each decision kind.

A player's order for a kind of decision (docs/referee.md, "Orders") is a
list of rules, each choosing an option when some facts hold, and a fallback.
The facts a rule may name are **order tests**: a few that every game has
(:data:`GENERIC`: the option's id, a card it names, its label) and the
ones a game declares with each decision kind
(:meth:`pbem.engine.machine.TurnMachine.kind`, ``tests=``), as data and a
named predicate, like its cards: for a link, the colour of the chain's last
card; for a block, the minion asked to block and the attacker of each option.

A test is about the **decision** (read once: ``read(state, pending)``) or
about each **option** (``read(state, pending, option_id)``), and gives a
value of one type: ``text``, ``integer``, ``boolean`` or ``text-list`` (a
rule's text matches when it is one of them). A test reads only what the
decision's player may know (their hand, the table), never what they may not:
the referee carries the order out with the whole state in hand, and a
choice made on a fact hidden from the player would show it to the table in
the public events. The conformance suite checks it over random positions of
every game (``tests/conformance/test_no_timing_channel.py``).

The generic tests read the decision alone: ``option`` an option's id,
``card`` the design key of a card its id names (an id names a card as one of
its ``:``-separated parts, ``KEY#N`` for one copy or ``KEY``: ``link:koi-jiang#3``
names ``koi-jiang``), ``label`` its label (a rule gives a pattern: see
:func:`label_matches`).
"""

# No ``from __future__ import annotations`` here: the NamedTuple below would compile its annotations at each
# import (docs/performance.md, "Annotations evaluated at import"); they name only what is defined above them.

import fnmatch
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

#: the types of value a test gives
TYPES = ("text", "integer", "boolean", "text-list")
#: what a test is about: the decision as a whole, or each of its options
ABOUT = ("decision", "option")


class OrderTest(NamedTuple):
    """One fact a rule of an order may name: its ``name`` (``chain-colour``), what it is ``about``
    (``decision`` or ``option``), the ``type`` of its value, a line of ``help`` in the rulebook's words,
    the text ``values`` it can take where they are few (the colours), and ``read``: ``read(state, pending)``
    for a decision test, ``read(state, pending, option_id)`` for an option test (``pending`` is the
    machine's :class:`~pbem.engine.machine.PendingDecision`), giving the value, or ``None`` where the
    fact does not apply (an option that names no card has no colour)."""

    name: str
    about: str
    type: str
    help: str
    read: Callable[..., Any]
    values: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The test as ``pbem games --orders --json`` lists it (without its predicate)."""
        data: dict[str, Any] = {"name": self.name, "about": self.about, "type": self.type, "help": self.help}
        if self.values:
            data["values"] = list(self.values)
        return data


def decision_test(name: str, help: str, read: Callable[[Any, Any], Any], type: str = "text",
                  values: Iterable[str] = ()) -> OrderTest:
    """A test of the decision as a whole: ``read(state, pending)``."""
    return _made(OrderTest(name, "decision", type, help, read, tuple(values)))


def option_test(name: str, help: str, read: Callable[[Any, Any, str], Any], type: str = "text",
                values: Iterable[str] = ()) -> OrderTest:
    """A test of each option: ``read(state, pending, option_id)``."""
    return _made(OrderTest(name, "option", type, help, read, tuple(values)))


def _made(test: OrderTest) -> OrderTest:
    if test.type not in TYPES:
        raise ValueError(f"order test {test.name!r}: type {test.type!r} is not one of {', '.join(TYPES)}")
    if test.name in GENERIC_NAMES:
        raise ValueError(f"order test {test.name!r}: every game has it already (the generic tests)")
    return test


# --- the tests every game has --------------------------------------------------------------------------


def cards_named(option_id: str) -> list[str]:
    """The design keys of the cards an option's id names: every ``:``-separated part after the first (the
    verb) that is not a number, a copy's ``KEY#N`` as ``KEY`` (``link:koi-jiang#3``: ``["koi-jiang"]``;
    ``sell:cyberdeck``: ``["cyberdeck"]``; ``pass``: none)."""
    keys = []
    for part in option_id.split(":")[1:]:
        key, _, copy = part.partition("#")
        if key and not key.isdigit() and (not copy or copy.isdigit()):
            keys.append(key)
    return keys


def label_matches(label: str, pattern: str) -> bool:
    """Whether an option's ``label`` matches a rule's ``pattern``: case apart, ``*`` stands for any text
    and ``?`` for one character, and the pattern must match the whole label (``*smoke*`` matches
    ``"Bad Smoke"``)."""
    return fnmatch.fnmatchcase(label.casefold(), pattern.casefold().replace("[", "[[]"))


#: the type of the generic ``label`` test: a rule gives a pattern (:func:`label_matches`)
PATTERN = "pattern"
#: the names of the tests every game has; a game declares none of these
GENERIC_NAMES = ("option", "card", "label")

#: the tests every game has, on the options of any decision: their ``read`` takes the option's id and label
GENERIC: Mapping[str, OrderTest] = {
    "option": OrderTest("option", "option", "text", "the option's id, as pbem view shows it in brackets",
                        lambda option_id, label: option_id),
    "card": OrderTest("card", "option", "text-list",
                      "a card the option names, by its design key (koi-jiang names every copy: koi-jiang#3)",
                      lambda option_id, label: cards_named(option_id)),
    "label": OrderTest("label", "option", PATTERN,
                       "the option's label, matched by a pattern: * for any text, ? for one character",
                       lambda option_id, label: label),
}

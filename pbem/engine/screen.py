"""Helpers every game's screen uses: lines that fit a terminal, cards named apart, card look-up.

A screen is what ``pbem view`` prints: plain text for an 80-column terminal.
Three things are the same for every game, so they live here:

* **width**: :func:`wrap` breaks a long line at spaces, continuing it on
  indented lines, so that a screen fits :data:`WIDTH` columns (a word longer
  than the width is left whole rather than cut);
* **names**: a card is named by its printed name, never by its id
  (``bad-smoke#3``). When two copies of one card are on the same screen,
  each is named with its copy number, ``"Bad Smoke" #1`` and ``"Bad Smoke"
  #3``: the number is the one in its id, fixed for the whole game, and the
  one the game's option labels add when two options would read alike.
  :func:`settle_names` renders a screen twice to learn which cards it shows
  before naming any;
* **look-up**: :func:`find_cards` finds a card of the static card data by
  what a person types (any case, without quotes or punctuation, a part of
  the name, a near miss), for ``pbem card``.

Card data is the game's :meth:`~pbem.engine.protocol.Game.cards`: a mapping
from card key to facts with at least a ``name``; an instance id is
``KEY#N``.
"""

# No ``from __future__ import annotations`` here (docs/performance.md, "Annotations evaluated at import").
# The annotations below name only what is defined above them (those of names imported for type checking
# alone are strings).

import difflib
import re
import textwrap
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any, NamedTuple

#: the columns a screen fits
WIDTH = 80


def wrap(text: str, indent: str = "", more: str | None = None, width: int = WIDTH) -> list[str]:
    """``text`` as lines of at most ``width`` columns: the first begins with ``indent``, the
    others with ``more`` (default: ``indent`` and four spaces). Breaks only at spaces."""
    more = indent + "    " if more is None else more
    lines = textwrap.wrap(text, width=width, initial_indent=indent, subsequent_indent=more,
                          break_long_words=False, break_on_hyphens=False)
    return lines or [indent.rstrip()]


@lru_cache(maxsize=4096)
def key_of(card_id: str) -> str:
    """The card key of an instance id (``bad-smoke#3`` -> ``bad-smoke``); a key is its own.

    Remembered: the rules look a card up by its instance id some fifteen to
    twenty times a step, and a remembered key is a string whose hash is
    known, where a key cut anew must be hashed for each look-up.
    A game's instance ids are a few hundred.
    """
    return card_id.partition("#")[0]


def copy_number(card_id: str) -> str | None:
    """The copy number of an instance id (``bad-smoke#3`` -> ``3``), or ``None`` for a key."""
    return card_id.split("#", 1)[1] if "#" in card_id else None


def card_name(key: str, facts: Any) -> str:
    """A card's printed name from its facts (the key when the facts name none)."""
    return str(facts["name"]) if isinstance(facts, Mapping) and "name" in facts else key


class CardNames:
    """Names for the cards of one screen, by instance id.

    ``shown`` is every card id the screen names: a card key with two
    distinct copies among them is named with each copy's number
    (``"Bad Smoke" #3``); any other card by its name alone. A card the
    card data does not know keeps its key, never a raw instance id.
    """

    def __init__(self, cards: Mapping[str, Mapping[str, Any]], shown: Iterable[str] = ()) -> None:
        self.cards = cards
        self.asked: list[str] = []
        copies: dict[str, set[str]] = {}
        for card_id in shown:
            copies.setdefault(key_of(card_id), set()).add(card_id)
        self._apart = {key for key, ids in copies.items() if len(ids) > 1}

    def facts(self, card_id: str) -> Mapping[str, Any] | None:
        return self.cards.get(key_of(card_id))


    def __call__(self, card_id: str) -> str:
        """The name of ``card_id`` on this screen."""
        self.asked.append(card_id)
        key = key_of(card_id)
        name = card_name(key, self.cards.get(key))
        number = copy_number(card_id)
        return f"{name} #{number}" if key in self._apart and number is not None else name


def settle_names(cards: Mapping[str, Mapping[str, Any]], build: Callable[[CardNames], list[str]]) -> list[str]:
    """The lines ``build`` makes with names settled for the whole screen.

    ``build`` is called twice: once to learn every card the screen names,
    then with names that tell apart the copies of one card among them, so
    that a card is named the same way everywhere on the screen.
    """
    probe = CardNames(cards)
    build(probe)
    return build(CardNames(cards, shown=probe.asked))


# --- look-up -------------------------------------------------------------------------------


def normal(text: str) -> str:
    """A name as a person types it: lower case, letters and digits, single spaces (``J.J.`` -> ``j j``,
    ``Mongrels' Trap`` and ``mongrel's trap`` -> ``mongrels trap``)."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", re.sub(r"['\u2019]", "", text.lower())).split())


class CardMatch(NamedTuple):
    """What :func:`find_cards` found: the card keys meant, else near names to suggest."""

    query: str
    keys: list[str]
    suggestions: list[str]
    #: the query is part of several names (``suggestions`` are those), rather than of none
    ambiguous: bool = False


def find_cards(cards: Mapping[str, Mapping[str, Any]], query: str, suggest: int = 6) -> CardMatch:
    """The cards ``query`` names, in this order of preference:

    1. a card key or an instance id (``bad-smoke``, ``bad-smoke#3``);
    2. the name, in any case, without quotes or punctuation (``bad smoke``,
       ``jj mcteague``): every card of that name;
    3. a part of the name (``smoke``) when exactly one card has it.

    Otherwise no key, and ``suggestions``: the names that contain the part
    typed (more than one), or else the names closest to it.
    """
    key = key_of(query.strip())
    if key in cards:
        return CardMatch(query, [key], [])
    wanted, tight = normal(query), normal(query).replace(" ", "")
    printed = {k: card_name(k, facts) for k, facts in cards.items()}
    names = {k: normal(name) for k, name in printed.items()}
    # spaces aside too: ``jj mcteague`` is ``J.J. McTeague``
    exact = [k for k, name in names.items() if tight and name.replace(" ", "") == tight]
    if exact:
        return CardMatch(query, sorted(exact), [])
    partial = sorted((k for k, name in names.items() if tight and tight in name.replace(" ", "")),
                     key=lambda k: names[k])
    if len({names[k] for k in partial}) == 1:
        return CardMatch(query, partial, [])
    if partial:
        return CardMatch(query, [], _distinct(printed[k] for k in partial)[:suggest], ambiguous=True)
    by_name: dict[str, str] = {}
    for k in sorted(names):
        by_name.setdefault(names[k], printed[k])
    close = difflib.get_close_matches(wanted, list(by_name), n=suggest, cutoff=0.6)
    if not close:  # a word of a longer name typed with a slip: compare with each word of each name
        words = {word: full for full in by_name for word in full.split()}
        close = [words[w] for w in difflib.get_close_matches(wanted, list(words), n=suggest, cutoff=0.75)]
    return CardMatch(query, [], _distinct(by_name[n] for n in close)[:suggest])


def _distinct(names: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(names))


def generic_card_text(key: str, facts: Any) -> str:
    """A card's facts as text, for a game that does not describe its cards itself: the name,
    then one ``fact: value`` line each."""
    if not isinstance(facts, Mapping):
        return "\n".join(wrap(f"{key}: {facts}"))
    lines = [card_name(key, facts)]
    for fact, value in facts.items():
        if fact != "name":
            lines.extend(wrap(f"{fact}: {value}", "  ", "      "))
    return "\n".join(lines)


def cards_on_screen(screen: str, cards: Mapping[str, Any]) -> list[str]:
    """The keys of the cards a screen names, in the order it first names them.

    A card is on the screen when its printed name stands there as a whole
    (not inside a longer word): in a hand, on the table, in an option's
    label or in a line of what happened. For ``pbem view --cards``.
    """
    found: dict[str, int] = {}
    for key, facts in cards.items():
        name = card_name(key, facts)
        match = re.search(r"(?<![0-9A-Za-z])" + re.escape(name) + r"(?![0-9A-Za-z])", screen)
        if match is not None:
            found[key] = match.start()
    return sorted(found, key=lambda k: (found[k], k))


def describe_card(game: Any, key: str, facts: Any) -> str:
    """A card in full as ``game`` describes it (its optional ``card_text``), else :func:`generic_card_text`."""
    describe = getattr(game, "card_text", None)
    if describe is not None and isinstance(facts, Mapping):
        return describe(facts)
    return generic_card_text(key, facts)


# --- the default screen of a game on the kit -----------------------------------------------


def generic_card_facts(card_data: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The card facts of card data that lists its cards as ``[[card]]`` tables, each with a ``key`` and a
    ``name``: by key, every fact but the key and the notes for owners (``source``, ``note``)."""
    cards = card_data.get("card", [])
    return {card["key"]: {fact: value for fact, value in card.items() if fact not in ("key", "source", "note")}
            for card in sorted(cards, key=lambda card: card["key"])}


def generic_render(public: Mapping[str, Any], private: Mapping[str, Any] | None,
                   cards: Mapping[str, Mapping[str, Any]]) -> str:
    """A view as text without a game's own drawing: each member of the public part on a line of its own
    (``deck size: 7``, ``discards: ann Guard, Priest; bob none``), then ``Yours:`` and the private part's;
    a card id or key is named by its card's name (two copies apart, as on every screen), the step's events
    left to the CLI. Fits 80 columns."""

    def build(name: CardNames) -> list[str]:
        lines = _member_lines(public, name, "")
        if private is not None:
            lines += ["Yours:", *_member_lines(private, name, "  ")]
        return lines

    return "\n".join(settle_names(cards, build))


def _member_lines(part: Mapping[str, Any], name: CardNames, indent: str) -> list[str]:
    lines: list[str] = []
    for member, value in part.items():
        if member != "events":
            lines += wrap(f"{member.replace('_', ' ')}: {_value_text(value, name)}", indent)
    return lines


def _value_text(value: Any, name: CardNames) -> str:
    """A value as words: a card by its name, a list by its items, a mapping as ``key value`` pairs."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, str):
        return name(value) if key_of(value) in name.cards else value
    if isinstance(value, Mapping):
        return "; ".join(f"{key} {_value_text(item, name)}" for key, item in value.items()) or "none"
    if isinstance(value, list | tuple):
        return ", ".join(_value_text(item, name) for item in value) or "none"
    return str(value)

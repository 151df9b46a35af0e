"""The watch of a trial application: every read of a hidden zone's content is met, a public count is not.

:mod:`pbem.engine.watch` replaces the containers of the zones a player does
not see by watched ones in a copy of the state. A read of an element (or
anything the rules could branch on) stops the trial with ``Crossing``; the
pile's count, and writes that take nothing out, do not.
"""

from __future__ import annotations

import contextlib
import copy
import json
from typing import Any

import pytest

from pbem.engine.plain import copy_plain
from pbem.engine.watch import DRAW, HIDDEN, Crossing, Watch, WatchedDict, WatchedList, WatchingRng, install, unwatch


def watched_state() -> tuple[dict[str, Any], Watch]:
    state = {"zones": {"bob": {"deck": ["a#1", "b#1", "c#1"]}}, "draft": {"chosen": {"alice": "x#1", "bob": "y#1"}}}
    watch = Watch()
    assert install(state, [("zones", "bob", "deck"), ("draft", "chosen", "bob")], watch)
    return state, watch


READS = {
    "an element": lambda s: s["zones"]["bob"]["deck"][-1],
    "a slice": lambda s: s["zones"]["bob"]["deck"][:2],
    "iterating": lambda s: [c.upper() for c in s["zones"]["bob"]["deck"]],
    "a copy by list()": lambda s: list(s["zones"]["bob"]["deck"]),
    "sorted()": lambda s: sorted(s["zones"]["bob"]["deck"]),
    "in": lambda s: "a#1" in s["zones"]["bob"]["deck"],
    "index": lambda s: s["zones"]["bob"]["deck"].index("a#1"),
    "remove": lambda s: s["zones"]["bob"]["deck"].remove("a#1"),
    "pop": lambda s: s["zones"]["bob"]["deck"].pop(),
    "a comparison": lambda s: s["zones"]["bob"]["deck"] == ["a#1"],
    "a reflected comparison": lambda s: ["a#1"] == s["zones"]["bob"]["deck"],  # noqa: SIM300
    "concatenation": lambda s: s["zones"]["bob"]["deck"] + [],
    "reflected concatenation": lambda s: [] + s["zones"]["bob"]["deck"],
    "extending another list": lambda s: [].extend(s["zones"]["bob"]["deck"]),
    "a slice assignment from it": lambda s: [0].__setitem__(slice(0, 1), s["zones"]["bob"]["deck"]),
    "str.join": lambda s: ",".join(s["zones"]["bob"]["deck"]),
    "repr": lambda s: repr(s["zones"]["bob"]["deck"]),
    "json": lambda s: json.dumps(s),
    "copy.deepcopy": lambda s: copy.deepcopy(s),
    "copy_plain": lambda s: copy_plain(s),
    "sort": lambda s: s["zones"]["bob"]["deck"].sort(),
    "max()": lambda s: max(s["zones"]["bob"]["deck"]),
    "a watched member of a dict": lambda s: s["draft"]["chosen"]["bob"],
    "its get": lambda s: s["draft"]["chosen"].get("bob"),
    "its values": lambda s: list(s["draft"]["chosen"].values()),
    "its items": lambda s: dict(s["draft"]["chosen"].items()),
    "a copy of the dict by dict()": lambda s: dict(s["draft"]["chosen"]),
    "a copy of the dict by **": lambda s: {**s["draft"]["chosen"]},
}


@pytest.mark.parametrize("read", list(READS), ids=list(READS))
def test_a_read_of_a_hidden_zone_is_met(read: str) -> None:
    state, watch = watched_state()
    with pytest.raises(Crossing):
        READS[read](state)
    assert watch.crossed == HIDDEN


PUBLIC = {
    "its count": lambda s: len(s["zones"]["bob"]["deck"]),
    "whether it is empty": lambda s: not s["zones"]["bob"]["deck"],
    "a card put on it": lambda s: s["zones"]["bob"]["deck"].append("d#1"),
    "cards put into it": lambda s: s["zones"]["bob"]["deck"].extend(["d#1"]),
    "a card inserted": lambda s: s["zones"]["bob"]["deck"].insert(0, "d#1"),
    "a card taken out unread": lambda s: s["zones"]["bob"]["deck"].__delitem__(0),
    "its order reversed": lambda s: s["zones"]["bob"]["deck"].reverse(),
    "an unwatched member of the dict": lambda s: s["draft"]["chosen"]["alice"],
    "the dict's keys": lambda s: sorted(s["draft"]["chosen"]),
    "whether a player has picked": lambda s: "bob" in s["draft"]["chosen"],
}


@pytest.mark.parametrize("use", list(PUBLIC), ids=list(PUBLIC))
def test_a_public_count_and_a_write_read_nothing(use: str) -> None:
    state, watch = watched_state()
    PUBLIC[use](state)
    assert watch.crossed is None


def test_the_first_boundary_is_kept_even_if_a_rule_swallows_the_stop() -> None:
    state, watch = watched_state()
    with contextlib.suppress(BaseException):  # a rule that catches everything
        state["zones"]["bob"]["deck"][0]
    assert watch.crossed == HIDDEN


def test_a_draw_with_more_than_one_outcome_is_met_and_one_with_a_single_outcome_is_not() -> None:
    watch = Watch()
    rng = WatchingRng(watch)
    assert rng.randbelow(1) == 0 and rng.choice(["only"]) == "only"
    rng.shuffle(["one card"])
    assert watch.crossed is None
    with pytest.raises(Crossing):
        rng.shuffle(["a", "b"])
    assert watch.crossed == DRAW


def test_a_stopped_watch_reads_freely_and_unwatch_gives_plain_containers() -> None:
    state, watch = watched_state()
    watch.stop()
    assert state["zones"]["bob"]["deck"][0] == "a#1" and watch.crossed is None
    plain = unwatch(state)
    assert plain == {"zones": {"bob": {"deck": ["a#1", "b#1", "c#1"]}},
                     "draft": {"chosen": {"alice": "x#1", "bob": "y#1"}}}
    assert type(plain["zones"]["bob"]["deck"]) is list and type(plain["draft"]["chosen"]) is dict
    assert isinstance(state["zones"]["bob"]["deck"], WatchedList) and isinstance(state["draft"]["chosen"], WatchedDict)


def test_a_place_not_in_the_state_is_skipped_and_one_that_cannot_be_watched_says_so() -> None:
    state: dict[str, Any] = {"deck": ["a"], "round": 3}
    assert install(state, [("draft", "chosen", "bob")], Watch())  # no draft now: nothing to watch
    assert not install(state, [("round",)], Watch())  # a member of the root that is no container
    assert not install(state, [()], Watch())

"""Sealed Bids, the toy game on the turn machine: its own rules, and that it needs nothing
outside its subpackage (scenarios listed from its files, registered by the test suite)."""

from __future__ import annotations

import sealedbids

from pbem.engine import Rng, apply_choice, find_game
from pbem.engine.protocol import Game

GAME = sealedbids.GAME


def test_it_is_registered_and_implements_the_protocol():
    assert find_game("sealedbids") is GAME and isinstance(GAME, Game)
    assert list(GAME.scenarios()) == ["standard", "quick"], "the worked example is not listed"
    assert GAME.decision_kinds() == frozenset({"bid"})


def choose(state, player, option):
    GAME.begin_step(state)
    return apply_choice(GAME, state, player, option, Rng.from_seed("toy"))


def test_a_tie_for_the_highest_bid_takes_nothing():
    state = GAME.new_state(GAME.load_scenario("worked-tie"), ["ann", "bob"], Rng.from_seed(1))
    assert [(d.player, d.kind, d.simultaneous) for d in GAME.awaiting(state)] == [("ann", "bid", True),
                                                                                 ("bob", "bid", True)]
    state = choose(state, "ann", "bid:3")
    assert GAME.private(state, "ann")["my_bid"] == 3 and GAME.private(state, "bob")["my_bid"] is None
    state = choose(state, "bob", "bid:3")
    result = GAME.result(state)
    assert state["over"] and state["discard"] == [6]
    assert result is not None and result.scores == {"ann": 4, "bob": 4}
    assert "bids: ann 3, bob 3" in GAME.public(state)["events"]


def test_cashing_in_a_lot_is_a_free_action_that_leaves_the_bid_to_make():
    state = GAME.new_state(GAME.load_scenario("quick"), ["ann", "bob"], Rng.from_seed(2))
    state = choose(state, "ann", "bid:5")
    state = choose(state, "bob", "bid:0")
    worth = state["won"]["ann"][0]
    assert f"cash:{worth}" in [o.id for o in GAME.awaiting(state)[0].options]
    coins = state["coins"]["ann"]
    state = choose(state, "ann", f"cash:{worth}")
    assert state["coins"]["ann"] == coins + worth // 2 and state["won"]["ann"] == []
    assert [d.player for d in GAME.awaiting(state)] == ["ann", "bob"], "ann still has her bid to make"

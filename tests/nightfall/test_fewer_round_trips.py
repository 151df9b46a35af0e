"""Fewer round trips: decisions with one option taken without asking where that
reveals nothing (docs/trust.md "Decisions with one option", ruling 30), and the kinds a
standing order can end one's own chain and an empty claim phase with (ruling 49)."""

from __future__ import annotations

from typing import Any

from pbem.engine.rng import Rng
from pbem.games.nightfall import GAME
from pbem.referee import orders

TAKEN = "(the only option, taken without asking)"


def combat(table, hand):
    return table({"phase": "combat", "active": "janet", "players": {"janet": {"in_play": ["genesis-one"], "hand": hand}}},
                 players=("janet", "brad"), take_public_singles=True)


def test_with_an_empty_hand_the_wound_window_and_a_single_strike_are_taken_and_logged(table):
    """Hand sizes are public: with no card in hand there is no wound effect to offer, so the one
    option is known to the table; the public events say that the referee took it, by its label."""
    t = combat(table, [])
    events = GAME.public(t.s)["events"]
    assert f"janet's wound-window decision: go on to the blocks {TAKEN}" in events
    assert f'janet\'s strike decision: "Genesis One" deals 1 damage {TAKEN}' in events
    assert f"janet's chain-start decision: start no chain {TAKEN}" in events
    assert f"janet's nothing-to-claim decision: end the claim phase {TAKEN}" in events
    assert "brad receives 1 wound" in events


def test_a_single_strike_is_asked_while_a_card_in_hand_could_be_a_wound(table):
    """Whether you hold a Martial Law wound stays hidden (ruling 30): with a card in hand, the
    window and the strike are asked even when they offer one option."""
    t = combat(table, ["yuri-koroviev"])
    assert t.decision().kind == "wound-window" and t.options() == ["continue"]
    t.choose("janet", "continue")
    assert t.decision().kind == "strike" and t.options() == ["strike:genesis-one#1"]
    assert not any(line.endswith(TAKEN) for line in GAME.public(t.s)["events"])


def test_the_claim_phase_with_nothing_left_to_claim_is_its_own_kind(table):
    """EN 229: influence is 2 + effects + 1 per discard; with every cost out of reach (public facts)
    the decision is ``nothing-to-claim``, which a standing order may end."""
    t = table({"phase": "claim", "active": "janet", "players": {"janet": {"hand": ["genesis-one"]}}},
              take_public_singles=True)
    assert t.decision().kind == "nothing-to-claim"
    assert t.options() == ["discard:genesis-one#1", "done"]
    standing = {"janet": {"auto_pass": {"nothing-to-claim": "always"}}}
    step: list[dict[str, str]] = []
    state = orders.carry_out(GAME, t.s, standing, Rng.from_seed("orders"), step)
    assert step == [{"player": "janet", "option": "done", "by": "standing-order"}]
    assert GAME.awaiting(state)[0].kind == "wound-effect"


def test_an_affordable_card_keeps_the_claim_kind(table):
    t = table({"phase": "claim", "active": "janet", "commons": ["hysteria"],
               "players": {"janet": {"hand": ["genesis-one"] * 3}}}, take_public_singles=True)
    assert t.decision().kind == "claim"


def test_adding_to_your_own_chain_is_a_kind_of_its_own_that_a_link_order_does_not_end(table):
    """EN 180: "When you are done adding cards to your chain, each of your opponents has a chance
    to link": the starter's own decision is ``add-to-chain``; an order to pass opponents' chains
    (``link=pass``) leaves it to the starter, and an ``add-to-chain`` order ends it."""
    t = table({"phase": "chain", "active": "janet", "players": {"janet": {"hand": ["enraged-wight", "nf-bite"]},
                                                                  "brad": {"hand": ["genesis-one"]}}},
              players=("janet", "brad"), take_public_singles=True)
    t.choose("janet", "play:enraged-wight")
    decision = t.decision()
    assert (decision.player, decision.kind, decision.pass_id) == ("janet", "add-to-chain", "pass")
    assert [o.id for o in decision.options] == ["pass"]
    step: list = []
    assert orders.carry_out(GAME, t.s, {"janet": {"orders": {"link": {"fallback": "pass"}}}}, Rng.from_seed("o"),
                            step) and step == []
    state = orders.carry_out(GAME, t.s, {"janet": {"orders": {"add-to-chain": {"fallback": "pass"}}}},
                             Rng.from_seed("o"), step)
    assert step == [{"player": "janet", "option": "pass", "by": "order", "kind": "add-to-chain"}]
    assert [(d.player, d.kind) for d in GAME.awaiting(state)] == [("brad", "link")]


def test_an_opponent_with_a_card_in_hand_is_offered_the_link_with_only_the_pass(table):
    """Whether you could link stays hidden (ruling 45): asked while you hold a card, taken
    without asking with an empty hand (public)."""
    pin: dict[str, Any] = {"phase": "chain", "active": "janet", "players": {"janet": {"hand": ["enraged-wight"]},
                                                                             "brad": {"hand": ["nf-bite"]}}}
    t = table(pin, players=("janet", "brad"), take_public_singles=True)
    t.choose("janet", "play:enraged-wight")
    assert t.awaited() == [("brad", "link")] and t.options() == ["pass"]
    pin["players"]["brad"]["hand"] = []
    t = table(pin, players=("janet", "brad"), take_public_singles=True)
    t.choose("janet", "play:enraged-wight")
    assert t.awaited() != [("brad", "link")]
    assert "brad's link decision: pass (link nothing) " + TAKEN in GAME.public(t.s)["events"]

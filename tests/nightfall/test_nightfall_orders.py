"""Orders for Nightfall's decisions, each kind against its rule: the rulebook sentence, and the order that answers it.

An order answers every decision of its kind for its player, in the step
that opens it (docs/referee.md, "Orders"): by its first rule that holds and
finds an option, else by its fallback. Each test pins a position, gives a
player an order, and lets the referee carry it out as a step does
(:func:`pbem.referee.orders.carry_out`).
"""

from __future__ import annotations

from typing import Any

from pbem.engine.rng import Rng
from pbem.games.nightfall import GAME
from pbem.referee import orders
from pbem.referee.ordertext import parse_order


def order(kind: str, spec: str) -> dict[str, Any]:
    """The order ``pbem move --order KIND=SPEC`` sends."""
    return parse_order(GAME, kind, spec)


def carried_out(t: Any, player: str, given: dict[str, str]) -> list[tuple[str, str, str]]:
    """Carry out ``player``'s orders (``{kind: spec}``) on the table's position as a step does; what they
    answered, as ``(player, kind, option)``."""
    step: list[dict[str, str]] = []
    t.state = orders.carry_out(t.game, t.state, {player: {"orders": {k: order(k, s) for k, s in given.items()}}},
                               Rng.from_seed("orders"), step)
    return [(s["player"], s["kind"], s["option"]) for s in step]


def test_a_block_order_blocks_the_attacker_its_rule_names_with_the_minion_it_names(table):
    """EN 152: "If the defender has minions in play, he can assign one or more of them to block attacking
    minions. A blocking minion can only block a single attacking minion." Brad's order: his Queen's Bishop
    blocks an attacker of strength 4 or more, his Roland LeFontaine blocks JJ McTeague, else no block."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["jj-mcteague", "lone-hound"]}, "brad": {"in_play": ["queens-bishop", "roland-lefontaine"]}}},
        players=("janet", "brad"))
    t.skip_wound_window("brad", "no-block")
    assert t.awaited() == [("brad", "block")]
    answered = carried_out(t, "brad", {"block": "blocker=queens-bishop -> strength=4.., "
                                                "blocker=roland-lefontaine -> attacker=jj-mcteague, pass"})
    assert answered == [("brad", "block", "block:lone-hound#1"), ("brad", "block", "block:jj-mcteague#1")]
    assert t.s["turn"]["combat"]["blocks"] == {"queens-bishop#1": "lone-hound#1", "roland-lefontaine#1": "jj-mcteague#1"}


def test_a_block_order_whose_rules_do_not_hold_answers_by_its_fallback(table):
    """An order is total: where no rule holds, its fallback answers (here the pass: no block), so that
    the game does not wait for brad in some positions and not in others."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["genesis-one"]}, "brad": {"in_play": ["queens-bishop"]}}}, players=("janet", "brad"))
    t.skip_wound_window("brad", "no-block")
    assert carried_out(t, "brad", {"block": "strength=4.., pass"}) == [("brad", "block", "no-block")]


def test_a_block_order_order_puts_first_the_blocker_it_names(table):
    """EN 155: "If there are multiple blocking minions, the defender chooses the order in which the
    blocking minions take damage." Brad's order puts Roland LeFontaine first, to take Lone Hound's 4."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["lone-hound"]}, "brad": {"in_play": ["queens-bishop", "roland-lefontaine"]}}},
        players=("janet", "brad"))
    t.skip_wound_window("brad", "block:lone-hound")
    answered = carried_out(t, "brad", {"block": "first", "block-order": "attacker=lone-hound -> card=roland-lefontaine, first"})
    assert answered == [("brad", "block", "block:lone-hound#1"), ("brad", "block", "block:lone-hound#1"),
                        ("brad", "block-order", "first:roland-lefontaine#1")]


def test_a_link_order_links_the_card_its_rule_names_and_then_passes(table):
    """EN 177: "You can only link a card to a chain if the color of your card matches a link color on the
    last card played in the chain"; EN 199: linked "directly from a card of the color shown next to the
    kicker text, you must also resolve the kicker". Brad's order links a card that gets its kicker when the
    chain's last card links white; once his Jerome Carceri is linked nothing of his links to it: he passes."""
    t = table({"phase": "chain", "active": "janet", "face_up": 20, "players": {
        "janet": {"hand": ["lone-hound"]}, "brad": {"hand": ["koi-jiang", "jerome-carceri", "yuri-koroviev"]}}},
        players=("janet", "brad"))
    t.play(("janet", "play:lone-hound"), ("janet", "pass"))
    assert t.awaited() == [("brad", "link")]
    answered = carried_out(t, "brad", {"link": "chain-links=white -> kicker=true, pass"})
    assert answered == [("brad", "link", "link:jerome-carceri#1"), ("brad", "link", "pass")]
    assert [e["card"] for e in t.s["chain"]["entries"]] == ["lone-hound#1", "jerome-carceri#1"]


def test_a_link_order_to_pass_never_links(table):
    """EN 180: each opponent "has a chance to link one or more cards from his hand": an order to pass
    declines every chance, whatever the hand holds."""
    t = table({"phase": "chain", "active": "janet", "face_up": 20, "players": {
        "janet": {"hand": ["lone-hound"]}, "brad": {"hand": ["koi-jiang"]}}}, players=("janet", "brad"))
    t.play(("janet", "play:lone-hound"), ("janet", "pass"))
    assert carried_out(t, "brad", {"link": "pass"}) == [("brad", "link", "pass")]


def test_a_feed_order_feeds_the_card_it_names_as_long_as_it_can_pay(table):
    """EN 202: "Feed allows you to repeat that chain or kicker text by paying the price ... You can do this
    as often as you like, so long as you can (or are willing to) keep paying the price." Janet's order
    feeds Jerome Carceri's kicker, paying with her first card, until her hand is empty."""
    t = table({"phase": "chain", "active": "janet", "face_up": 20, "players": {
        "janet": {"hand": ["lone-hound", "jerome-carceri", "genesis-one", "yuri-koroviev"], "in_play": ["bad-smoke"]},
        "brad": {"hand": []}}}, players=("janet", "brad"))
    t.play(("janet", "play:lone-hound"), ("janet", "link:jerome-carceri"), ("janet", "pass"), ("brad", "pass"))
    assert t.awaited() == [("janet", "feed")]
    answered = carried_out(t, "janet", {"feed": "feeding=jerome-carceri -> option=feed, pass",
                                        "feed-payment": "first"})
    assert answered == [("janet", "feed", "feed"), ("janet", "feed-payment", "discard:genesis-one#1"),
                        ("janet", "feed", "feed"), ("janet", "feed-payment", "discard:yuri-koroviev#1")]
    assert t.zone("janet", "hand") == []  # with nothing left to pay, the feed is not offered


def test_a_strike_order_chooses_which_attacker_strikes_next(table):
    """EN 155: "Each attacking minion now inflicts damage equal to its strength"; the attacking player
    chooses the order. Janet's order strikes with her strongest first: Lone Hound, then JJ McTeague."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["jj-mcteague", "lone-hound"]}, "brad": {"in_play": []}}}, players=("janet", "brad"))
    t.skip_wound_window("janet", "strike:lone-hound")
    assert t.awaited() == [("janet", "strike")]
    answered = carried_out(t, "janet", {"strike": "strength=4.., first"})
    assert answered == [("janet", "strike", "strike:lone-hound#1"), ("janet", "strike", "strike:jj-mcteague#1")]


def test_a_wound_window_order_uses_the_martial_law_wound_it_names(table):
    """DE 33: the Martial Law wound may be used "at any time during your combat phase, including after the
    defending player has chosen his minions to block". Janet's order uses her Martial Law wound in the
    window before blocks when she attacks brad."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["genesis-one"], "hand": ["ml-bite"]}, "brad": {"in_play": []}}}, players=("janet", "brad"))
    assert t.awaited() == [("janet", "wound-window")]
    answered = carried_out(t, "janet", {"wound-window": "defender=brad -> card=ml-bite, pass"})
    assert answered[0][:2] == ("janet", "wound-window") and answered[0][2].startswith("wound:ml-bite#")
    # the +1 strength goes to her one minion, and the wound effect's feed is offered (DE 34)
    assert t.awaited() == [("janet", "feed")]


def test_orders_for_other_kinds_leave_a_decision_to_its_player(table):
    """Without an order for its kind, a decision waits for its player, whatever the orders for others say."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["genesis-one"]}, "brad": {"in_play": ["queens-bishop"]}}}, players=("janet", "brad"))
    t.skip_wound_window("brad", "no-block")
    assert carried_out(t, "brad", {"link": "pass", "feed": "pass"}) == []
    assert t.awaited() == [("brad", "block")]

"""Orders: how the referee reads, keeps, carries out and shows a player's orders (docs/referee.md, "Orders").

The rules each game's kinds are held to are tested per game
(``tests/nightfall/test_nightfall_orders.py``, ``tests/nightlancer/test_nightlancer_orders.py``), and
the absence of a timing channel by the conformance suite
(``tests/conformance/test_no_timing_channel.py``), and orders that undo each other in
``tests/nightlancer/test_nightlancer_orders.py``; here: the order language, merging,
the generic tests, the public record, the padding, the refusals and a seat
handed over.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers_conformance import order_vocabulary, random_orders
from helpers_referee import Table, make_table, snapshot
from helpers_trust import forge_move

from pbem.engine import Rng, find_game
from pbem.engine.ordertests import cards_named, label_matches
from pbem.referee import orders, submit, take_over
from pbem.referee.errors import SchemaInvalidMove, UsageError
from pbem.referee.ordertext import order_text, parse_order


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return make_table(tmp_path)


def hand(table: Table, player: str) -> list[int]:
    return table.view(player).private["hand"]


# --- the language -------------------------------------------------------------------------------


@pytest.mark.parametrize("game_name", ["nightfall", "nightlancer"])
def test_an_order_reads_back_from_the_line_that_shows_it(game_name: str) -> None:
    """What ``pbem view`` shows of an order is the ``--order`` line that sets it again."""
    game = find_game(game_name)
    vocabulary = order_vocabulary(game, games=1)
    rng = Rng.from_seed("lines")
    seen = 0
    for _ in range(40):
        for kind, given in random_orders(game, vocabulary, rng).get("orders", {}).items():
            given = {**given, "rules": [r for r in given["rules"] if "," not in json.dumps(r)]} if given["rules"] \
                else {"fallback": given["fallback"]}
            if not given.get("rules"):
                given.pop("rules", None)
            assert parse_order(game, kind, order_text(given)) == given, order_text(given)
            seen += 1
    assert seen > 100


def test_an_order_line_says_what_does_not_fit_the_kind() -> None:
    game = find_game("nightfall")
    for kind, spec, said in [("block", "colour=red", "no option test 'colour'"),
                             ("link", "card=koi-jiang,,pass", "an empty item"),
                             ("block", "strength=lots", "takes a number or a range"),
                             ("link", "kicker=maybe", "takes true or false"),
                             ("link", "blocker=x -> first", "no decision test 'blocker'")]:
        with pytest.raises(UsageError, match=said):
            parse_order(game, kind, spec)
    # a value the line reads but the kind does not take is said when the move is made
    assert orders.order_problems(game, "link", parse_order(game, "link", "chain-colour=redd -> first")) == [
        "link rule 1: if 'chain-colour' is one of gold, white, green, red, purple, blue, not 'redd'"]
    with pytest.raises(UsageError, match="no decision kind 'blocks'"):
        parse_order(game, "blocks", "pass")


def test_the_generic_tests_read_an_options_id_and_label() -> None:
    """``card`` names every copy of a design (``koi-jiang`` is ``koi-jiang#3``), never the verb or a
    number; ``label`` patterns match the whole label, case apart."""
    assert cards_named("link:koi-jiang#3") == ["koi-jiang"]
    assert cards_named("deal:high-armoured-convoy:middleman#1") == ["high-armoured-convoy", "middleman"]
    assert cards_named("play:bartender#1:2") == ["bartender"]
    assert cards_named("pass") == [] and cards_named("sell:cyberdeck") == ["cyberdeck"]
    assert label_matches('"Bad Smoke" #1', '*bad smoke*') and not label_matches("Bad Smoke", "smoke")
    assert label_matches("block [x]", "block [x]")  # a bracket is a bracket


# --- merging and carrying out ---------------------------------------------------------------------


def test_an_order_replaces_the_kinds_order_or_auto_pass_and_off_cancels_both() -> None:
    held = {"bob": {"auto_pass": {"draw": "always"}}}
    merged = orders.merge(held, "bob", {"orders": {"draw": {"fallback": "first"}}})
    assert merged == {"bob": {"orders": {"draw": {"fallback": "first"}}}}
    assert orders.merge(merged, "bob", {"auto_pass": {"draw": "always"}}) == held
    assert orders.merge(merged, "bob", {"orders": {"draw": "off"}}) == {}
    assert orders.public_orders(merged) == {"bob": ["draw"]} and orders.public_orders(held) == {}


# --- through the referee ------------------------------------------------------------------------


def order_move(table: Table, player: str, *choices: str, **given: Any) -> bytes:
    return table.move(player, *choices, orders={"orders": given})


def test_every_turn_names_who_has_orders_for_which_kinds_and_the_decisions_they_answered(table: Table) -> None:
    """The timing of the game shows which decisions orders answer; the turn says so in words a reader
    can trust, and never which option nor why (docs/trust.md "No timing channel")."""
    submit(table.dir, order_move(table, "bob", f"card-{hand(table, 'bob')[0]}", draw={"fallback": "pass"}),
           table.referee)
    turn = table.view("alice").turn.doc
    assert turn["orders"] == {"bob": ["draw"]} and "by_order" not in turn
    submit(table.dir, table.move("alice", f"card-{hand(table, 'alice')[0]}"), table.referee)
    submit(table.dir, table.move("alice", "draw"), table.referee)  # bob's draw follows, answered by his order
    turn = table.view("alice").turn.doc
    assert turn["by_order"] == [{"player": "bob", "kind": "draw"}]
    assert "pass" not in json.dumps(turn["by_order"])


def test_a_section_holding_orders_is_padded_by_the_allowance_of_each_kind(tmp_path: Path) -> None:
    """The sizes follow the public count of kinds with orders, never what the orders say: the same game
    played with and without bob's orders, a short one and then a long one for the same kind."""
    short = {"fallback": "first"}
    long = {"rules": [{"choose": {"label": "*" + "x" * 60 + "*"}}] * 4, "fallback": "first"}
    grown: list[tuple[int, int]] = []
    for given in (short, long):
        plain, ordered = (make_table(tmp_path / f"{name}-{len(grown)}") for name in ("plain", "ordered"))
        for table, held in ((plain, None), (ordered, {"orders": {"play": given}})):
            submit(table.dir, table.move("bob", f"card-{hand(table, 'bob')[0]}", orders=held), table.referee)
            submit(table.dir, table.move("alice", f"card-{hand(table, 'alice')[0]}"), table.referee)
            submit(table.dir, table.move("alice", "pass"), table.referee)
        sizes = [{name: len(sealed) for name, sealed in t.view("alice").turn.doc["sealed"].items()}
                 for t in (plain, ordered)]
        assert sizes[0]["alice"] == sizes[1]["alice"]
        grown.append((sizes[1]["bob"] - sizes[0]["bob"], sizes[1]["referee"] - sizes[0]["referee"]))
    assert grown[0] == grown[1] and grown[0][0] >= orders.ORDER_MAX_BYTES


def test_orders_alone_answer_the_open_decision_of_their_kind_whatever_it_offers(table: Table) -> None:
    """An order is total, so an orders-only move answers the open decision of its kind at once, and one
    for another kind answers nothing now (refused: every turn a move writes answers a decision)."""
    submit(table.dir, table.move("alice", f"card-{hand(table, 'alice')[0]}"), table.referee)
    with pytest.raises(Exception, match="answer nothing now"):
        order_move(table, "bob", draw={"fallback": "pass"})
    step = submit(table.dir, order_move(table, "bob", play={"rules": [{"choose": "first"}], "fallback": "pass"}),
                  table.referee)
    assert step.choices == 0 and [c["by"] for c in step.auto_choices] == ["order"]


def test_the_referee_refuses_orders_a_kind_does_not_take_without_quoting_them(table: Table) -> None:
    before = snapshot(table.dir)
    payload = {"orders": {"play": {"rules": [{"choose": {"colour": "secret-plan"}}], "fallback": "pass"}}}
    with pytest.raises(SchemaInvalidMove) as refused:
        submit(table.dir, forge_move(table, "bob", [f"card-{hand(table, 'bob')[0]}"], orders=payload), table.referee)
    assert "does not take" in refused.value.message and "secret-plan" not in refused.value.message
    assert refused.value.rejection is not None and "secret-plan" not in Path(refused.value.rejection).read_text()
    assert snapshot(table.dir) == before
    with pytest.raises(UsageError, match="no option test 'colour'"):
        table.move("bob", f"card-{hand(table, 'bob')[0]}", orders=payload)


def test_a_seat_handed_over_keeps_its_orders_in_its_new_holders_view(table: Table) -> None:
    """docs/referee.md "Takeover": the seat's orders stay with the seat; the new holder reads them in their
    view and may change or cancel them with a move."""
    from pbem.crypto.keys import generate

    submit(table.dir, order_move(table, "bob", f"card-{hand(table, 'bob')[0]}", draw={"fallback": "pass"}),
           table.referee)
    new_key = generate("bob")
    take_over(table.dir, "bob", new_key.public, table.referee)
    table.keys["bob"] = new_key
    assert table.view("alice").turn.doc["orders"] == {"bob": ["draw"]}
    assert table.view("bob").standing_orders == {"orders": {"draw": {"fallback": "pass"}}}

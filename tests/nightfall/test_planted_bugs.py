"""The conformance suite catches what it exists for: Nightfall rules with a planted bug fail it.

A rule that took an opponent's link opportunity without asking whenever it
offers only the pass would tell the table that the opponent holds nothing to
link (whether you can link is in your hand): the single-option check of the
conformance suite (``tests/conformance/test_single_option_rule.py``) sees it. An order that
waited when none of its rules holds, and an order test that read an opponent's hand, would
tell the table what a hand holds: the order checks (``tests/conformance/test_no_timing_channel.py``)
see them (the first in ``tests/referee/test_planted_order_bugs.py``, as it is a bug of the referee's).
"""

from __future__ import annotations

from helpers_conformance import order_test_leaks, single_option_problems

from pbem.engine.ordertests import decision_test
from pbem.games.nightfall import flow
from pbem.games.nightfall.game import Nightfall
from pbem.games.nightfall.state import card, zones


def test_taking_a_single_option_that_a_hand_decides_would_be_seen(monkeypatch, game_count) -> None:
    monkeypatch.setitem(flow.PUBLIC_COUNTS, "link", lambda state, decision: True)
    checked, compared, problems = single_option_problems(Nightfall(), game_count(300))
    assert problems, f"an unsafe rule went unseen over {checked} positions ({compared} decisions compared)"
    assert any("link" in problem for problem in problems), problems[:3]


def test_an_order_test_that_reads_an_opponents_hand_would_be_seen(game_count) -> None:
    """A test of link decisions that read whether an opponent holds a red card would let an order
    choose on it, and its choice would show it to the table: the order-test check sees it."""
    game = Nightfall()
    kind = game.machine.decision_kind("link")

    def opponent_holds_red(state, pending):
        return any(card(state, c).get("colour") == "red" for p in state["players"] if p != pending["player"]
                   for c in zones(state, p)["hand"])

    planted = decision_test("opponent-red", "planted: an opponent holds a red card", opponent_holds_red,
                            type="boolean")
    game.machine._kinds["link"] = kind._replace(tests={**kind.tests, planted.name: planted})
    checked, compared, leaks = order_test_leaks(game, game_count(150))
    assert any("opponent-red" in leak for leak in leaks), f"unseen over {checked} positions ({compared} values)"

"""The timing check of the conformance suite catches what it exists for: a referee whose orders are not total.

An order that answered only when one of its rules holds, and waited
otherwise (as the old ``when-only-option`` passed only when passing was the
only option), would tell the table by a turn that waited whether its player
held what the rule names. The check of ``tests/conformance/test_no_timing_channel.py``
sees it, on the test suite's Love Letter, where every turn a player's hand
decides what they may play, and on Nightlancer's reactions and attempts.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers_conformance import timing_problems

from pbem.engine import find_game
from pbem.referee import orders


@pytest.mark.parametrize("game_name", ["loveletter", "nightlancer"])
def test_an_order_that_waits_when_no_rule_holds_would_be_seen(monkeypatch, game_count, game_name: str) -> None:
    total = orders.answer_of

    def waits_without_a_rule(game: Any, state: Any, decision: Any, player_orders: Any, chosen_from: Any) -> Any:
        order = player_orders.get("orders", {}).get(decision.kind)
        if order is not None and orders.rule_answer(game, state, decision, order, orders._candidates(decision, ())) \
                is None:
            return None
        return total(game, state, decision, player_orders, chosen_from)

    monkeypatch.setattr(orders, "answer_of", waits_without_a_rule)
    checked, compared, problems = timing_problems(find_game(game_name), game_count(100))
    assert problems, f"a non-total order went unseen over {checked} positions ({compared} moments compared)"

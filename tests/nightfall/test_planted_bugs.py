"""The conformance suite catches what it exists for: Nightfall rules with a planted bug fail it.

A rule that took an opponent's link opportunity without asking whenever it
offers only the pass would tell the table that the opponent holds nothing to
link (whether you can link is in your hand): the single-option check of the
conformance suite (``tests/conformance/test_single_option_rule.py``) sees it.
"""

from __future__ import annotations

from helpers_conformance import single_option_problems

from pbem.games.nightfall import flow
from pbem.games.nightfall.game import Nightfall


def test_taking_a_single_option_that_a_hand_decides_would_be_seen(monkeypatch, game_count) -> None:
    monkeypatch.setitem(flow.PUBLIC_COUNTS, "link", lambda state, decision: True)
    checked, compared, problems = single_option_problems(Nightfall(), game_count(300))
    assert problems, f"an unsafe rule went unseen over {checked} positions ({compared} decisions compared)"
    assert any("link" in problem for problem in problems), problems[:3]

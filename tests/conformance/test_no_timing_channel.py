"""Orders: no timing channel, and order tests that read only what their player may know.

docs/trust.md "No timing channel". An order answers every decision of its
kind for its player, whatever they hold, so that whether the game waits for
them follows from whether they have an order for that kind (public in every
turn), never from their hand. Proved as the leak property extended to time,
over random games of every registered game with random orders for every
player (``helpers_conformance.timing_problems``): a step played from a
position and from a redraw of what an observer may not know, the same
choice made, looks at the same decisions and answers the same of them by
orders, while what the observer may know is the same in both. An order that
picks another option on another hand shows that in the public events,
exactly as a hand-made answer would; the property is that nothing besides
the answer differs.

A game's order tests (:mod:`pbem.engine.ordertests`) read only what the
decision's player may know: a choice made on a hidden fact would show it to
the table. Checked by redraws of what that player may not know.

The suite's own planted bugs, which these catch: ``tests/referee/test_planted_order_bugs.py`` (orders
that wait when no rule holds) and ``tests/nightfall/test_planted_bugs.py`` (an order test that reads an
opponent's hand).
CI samples some hundred positions per game; ``--games N`` samples N.
"""

from __future__ import annotations

import pytest
from helpers_conformance import order_test_leaks, timing_problems

from pbem.engine import find_game, game_names


@pytest.mark.parametrize("game_name", game_names())
def test_whether_the_game_waits_for_a_player_follows_only_from_what_every_other_player_may_know(
        game_name: str, game_count) -> None:
    checked, compared, problems = timing_problems(find_game(game_name), game_count(100))
    assert checked and compared, f"{game_name}: nothing was compared"
    assert not problems, f"{game_name}: the timing of the game followed a hidden fact: {problems[:5]}"


@pytest.mark.parametrize("game_name", game_names())
def test_an_order_test_reads_only_what_its_player_may_know(game_name: str, game_count) -> None:
    checked, _compared, leaks = order_test_leaks(find_game(game_name), game_count(150))
    assert checked and not leaks, f"{game_name}: {leaks[:5]}"

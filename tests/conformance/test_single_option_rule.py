"""Decisions with one option: taken without asking only where that reveals nothing hidden.

docs/trust.md "Decisions with one option" (DESIGN: "A decision with one legal
option is taken automatically only where that cannot reveal hidden
information"). A decision the machine takes without asking costs no turn, so
the table sees that it was taken: the machine's choice to take it must follow
from what every other player may know. Checked at its source, over random
positions of every registered game: the same choice is made in a position and
in a redraw of what an observer may not know, and each time the machine
decides whether to take a decision, while what the observer may know is the
same in both (the public part, their private part, who is awaited for what),
it does the same in both (``helpers_conformance.single_option_problems``). A
step that reveals a card to the table (a guess named right, a hand shown) may
go on differently after it: the observer saw why. CI samples a few hundred
positions per game; ``--games N`` samples N.

The suite's own planted bugs, which this catches: ``tests/nightfall/test_planted_bugs.py``
and ``tests/loveletter/test_planted_bugs.py``.
"""

from __future__ import annotations

import pytest
from helpers_conformance import single_option_problems

from pbem.engine import find_game, game_names


@pytest.mark.parametrize("game_name", game_names())
def test_a_decision_is_taken_without_asking_only_on_what_every_other_player_may_know(game_name: str,
                                                                                     game_count) -> None:
    checked, _compared, problems = single_option_problems(find_game(game_name), game_count(300))
    assert checked and not problems, f"{game_name}: a decision was taken on a hidden fact: {problems[:5]}"

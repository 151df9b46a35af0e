"""Foresight: the referee's verdict on a choice is a function of what its player knows.

The referee applies a move's later choices, and seals into the awaited
player's section the tree of their next decisions, only as far as no
information boundary is crossed (:mod:`pbem.engine.foresight`: a draw, a
read of a hidden zone, another player awaited first). The detector watches
the places where each hidden zone lies; a place left out, or a rule that
read a hidden card past the watch, would be a leak. So over random
positions of every registered game, for every open decision and every
option of it, the verdict must be the same on redraws of what the decider
may not know (``conceal``), and where no boundary is crossed so must their
next decision, their private part and the public part after the choice; and
so must their whole foresight tree. CI samples 40 positions per game (120
for the places); ``--games N`` samples N.

The zones' places themselves are checked too: every card of a zone lies at
one of its places, so that the watch covers the zone.
"""

from __future__ import annotations

import pytest
from helpers_conformance import foresight_leaks, zone_place_problems

from pbem.engine import find_game, game_names


@pytest.mark.parametrize("game_name", game_names())
def test_what_a_choice_lets_its_player_foresee_is_unchanged_by_what_they_may_not_know(game_name: str,
                                                                                       game_count) -> None:
    checked, foreseen, leaks = foresight_leaks(find_game(game_name), game_count(40))
    assert checked and not leaks, f"{game_name}: {leaks[:5]}"
    # a detector that found a boundary everywhere would pass vacuously: every game on the turn machine foresees
    if hasattr(find_game(game_name), "machine"):
        assert foreseen, f"{game_name}: no choice of {checked} was foreseen"


@pytest.mark.parametrize("game_name", game_names())
def test_every_hidden_card_lies_at_a_place_its_zone_declares(game_name: str, game_count) -> None:
    _checked, problems = zone_place_problems(find_game(game_name), game_count(120))
    assert not problems, f"{game_name}: {problems[:5]}"

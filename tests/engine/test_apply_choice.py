"""The framework owns legality (docs/engine.md): ``apply_choice`` refuses a choice the awaited
decision does not offer, or a player it does not await, before the game sees it, whether it
lists the decision itself or is handed the one the caller just listed (``decision=``)."""

from __future__ import annotations

import json

import pytest

from pbem.engine import IllegalMoveError, NotAwaitedError, Rng, apply_choice, find_game


def _started(name: str):
    game = find_game(name)
    state = game.new_state(game.load_scenario(game.scenarios()[0]), ["ann", "bob", "cyd"], Rng.from_seed(1))
    return game, state


@pytest.mark.parametrize("name", ["nightfall", "nightlancer"])
@pytest.mark.parametrize("hand_over", [False, True])
def test_an_option_not_offered_is_refused_and_the_state_is_unchanged(name: str, hand_over: bool) -> None:
    game, state = _started(name)
    decision = game.awaiting(state)[0]
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMoveError):
        apply_choice(game, state, decision.player, "no-such-option", Rng.from_seed(2),
                     decision=decision if hand_over else None)
    assert json.dumps(state, sort_keys=True) == before


@pytest.mark.parametrize("name", ["nightfall", "nightlancer"])
def test_a_decision_handed_over_for_another_player_is_refused(name: str) -> None:
    game, state = _started(name)
    decision = game.awaiting(state)[0]
    other = next(p for p in ("ann", "bob", "cyd") if p != decision.player)
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(NotAwaitedError):
        apply_choice(game, state, other, decision.options[0].id, Rng.from_seed(2), decision=decision)
    assert json.dumps(state, sort_keys=True) == before


@pytest.mark.parametrize("name", ["nightfall", "nightlancer"])
def test_a_choice_applied_with_its_decision_handed_over_plays_as_without(name: str) -> None:
    game, state = _started(name)
    twin = json.loads(json.dumps(state))
    decision = game.awaiting(state)[0]
    option = decision.options[-1].id
    handed = apply_choice(game, state, decision.player, option, Rng.from_seed(3), decision=decision)
    looked_up = apply_choice(game, twin, decision.player, option, Rng.from_seed(3))
    assert handed == looked_up

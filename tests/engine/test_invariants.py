"""The conservation invariants the playouts check at every step catch a card lost or made,
and name it; a message that takes work to write is written only when a rule is broken."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pbem.bots.playout import play
from pbem.engine import find_game
from pbem.engine.errors import InvariantError, invariant

SEATS = ["ann", "bob", "cyd"]


def _mid_game(name: str):
    """A game and a copy of its state 60 steps into a random game."""
    game = find_game(name)
    seen: list[Any] = []

    def keep(game, state):
        if len(seen) < 60:
            seen.append(json.loads(json.dumps(state)))

    play(game, SEATS, 3, check=keep)
    return game, seen[-1]


def _hand_and_deck(name: str, state):
    if name == "nightfall":
        return state["zones"]["ann"]["hand"], state["zones"]["ann"]["deck"]
    return state["seats"]["ann"]["hand"], state["decks"]["contact"]


@pytest.mark.parametrize("name", ["nightfall", "nightlancer"])
def test_a_card_lost_from_a_hand_breaks_card_conservation_and_is_named(name: str) -> None:
    game, state = _mid_game(name)
    game.check_invariants(state)
    hand, _ = _hand_and_deck(name, state)
    lost = hand.pop()
    with pytest.raises(InvariantError, match="not conserved") as raised:
        game.check_invariants(state)
    assert lost in str(raised.value)


@pytest.mark.parametrize("name", ["nightfall", "nightlancer"])
def test_a_card_in_two_places_breaks_card_conservation(name: str) -> None:
    game, state = _mid_game(name)
    hand, deck = _hand_and_deck(name, state)
    hand.append(deck[0])
    with pytest.raises(InvariantError):
        game.check_invariants(state)


def test_a_message_given_as_a_function_is_written_only_when_the_rule_is_broken() -> None:
    written = []

    def message() -> str:
        written.append(1)
        return "broken"

    invariant(True, message)
    assert written == []
    with pytest.raises(InvariantError, match="broken"):
        invariant(False, message)
    assert written == [1]

"""The rules of the test game Love Letter, on worked examples whose deck is fixed card by card."""

from __future__ import annotations

from loveletter import GAME
from pbem.engine import Rng, apply_choice


def set_up(example: str):
    return GAME.new_state(GAME.load_scenario(example), ["ann", "bob"], Rng.from_seed(example))


def choose(state, player: str, option: str):
    GAME.begin_step(state)
    return apply_choice(GAME, state, player, option, Rng.from_seed(option))


def test_the_countess_must_be_played_beside_a_prince_and_is_asked_even_so() -> None:
    """Whether she must be played is in the hand: the decision is asked, with her as its one option."""
    state = set_up("example-countess")
    (decision,) = GAME.awaiting(state)
    assert (decision.player, decision.kind) == ("ann", "play")
    assert [o.id for o in decision.options] == ["play:countess#1"]
    state = choose(state, "ann", "play:countess#1")
    assert "ann plays the Countess" in GAME.public(state)["events"]


def test_a_guard_naming_the_card_held_puts_its_holder_out_and_ends_the_round() -> None:
    state = set_up("example-guard")
    assert GAME.private(state, "ann")["hand"] == ["guard#1", "handmaid#1"]
    state = choose(state, "ann", "play:guard#1")  # bob is the one target: taken without asking
    assert "ann's target: bob (the only choice)" in GAME.public(state)["events"]
    state = choose(state, "ann", "guess:priest")
    events = GAME.public(state)["events"]
    assert "ann names the Priest: bob holds it" in events and "bob is out of the round, discarding the Priest" in events
    result = GAME.result(state)
    assert result is not None and result.winners == ("ann",)


def test_the_handmaid_leaves_a_prince_only_its_player_to_choose() -> None:
    state = set_up("example-guard")
    state = choose(state, "ann", "play:handmaid#1")
    assert GAME.public(state)["protected"] == ["ann"]
    state = choose(state, "bob", "play:prince#1")  # ann is protected: bob chooses himself, without asking
    events = GAME.public(state)["events"]
    assert "bob's target: bob (the only choice)" in events and "bob discards the Priest" in events
    assert GAME.private(state, "bob")["hand"] == ["guard#2"]

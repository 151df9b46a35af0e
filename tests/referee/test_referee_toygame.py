"""The toy game (High Card) keeps the game protocol, so the referee tests rest on a sound game."""

from __future__ import annotations

import json

import pytest
import toygame

from pbem.bots.playout import play
from pbem.engine import Rng, apply_choice

GAME = toygame.GAME


def test_random_games_end_and_keep_the_cards(game_count) -> None:
    for seed in range(game_count(20)):
        for players in (["a", "b"], ["a", "b", "c", "d"]):
            result = play(GAME, players, seed, check=lambda g, s: g.check_invariants(s)).result
            assert result is not None and set(result.winners) <= set(players)


def test_state_survives_json(game_count) -> None:
    for seed in range(game_count(5)):
        state = play(GAME, ["a", "b", "c"], seed).state
        assert json.loads(json.dumps(state)) == state


def test_a_view_shows_nothing_a_player_may_not_know(game_count) -> None:
    """view(conceal(s, p), p) == view(s, p) at every step of random games."""
    for seed in range(game_count(10)):
        rng = Rng.from_seed(seed)
        state = GAME.new_state(GAME.load_scenario("standard"), ["a", "b", "c"], rng)
        while decisions := GAME.awaiting(state):
            for player in ("a", "b", "c"):
                hidden = GAME.conceal(state, player, rng)
                assert GAME.private(hidden, player) == GAME.private(state, player)
                assert GAME.public(hidden) == GAME.public(state)
            decision = decisions[rng.randbelow(len(decisions))]
            GAME.begin_step(state)
            state = apply_choice(GAME, state, decision.player, rng.choice(decision.options).id, rng)


def test_an_early_pick_is_hidden_until_all_have_picked() -> None:
    state = GAME.new_state(GAME.load_scenario("standard"), ["a", "b"], Rng.from_seed(1))
    card = state["hands"]["a"][0]
    state = GAME.apply(state, "a", f"card-{card}", Rng.from_seed(2))
    assert GAME.private(state, "a")["my_pick"] == card
    assert str(card) not in json.dumps(GAME.public(state)["events"])
    assert GAME.private(state, "b")["my_pick"] is None


def test_drawing_offers_only_pass_when_the_deck_is_empty() -> None:
    state = GAME.new_state(GAME.load_scenario("standard"), ["a", "b"], Rng.from_seed(1))
    state.update(phase="draw", deck=[])
    (decision,) = GAME.awaiting(state)
    assert decision.pass_id == "pass" and [o.id for o in decision.options] == ["pass"]


def test_a_card_file_replaces_the_deck(tmp_path) -> None:
    cards = tmp_path / "cards.toml"
    cards.write_text("cards = [5, 6, 7, 8, 9]\n")
    assert GAME.load_scenario("standard", cards=str(cards))["cards"] == [5, 6, 7, 8, 9]
    cards.write_text('cards = "nine"\n')
    with pytest.raises(toygame.ScenarioError):
        GAME.load_scenario("standard", cards=str(cards))

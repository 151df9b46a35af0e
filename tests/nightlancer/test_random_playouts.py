"""Random bots finish games in every mode and player count, with the
invariants (tokens never negative, cards conserved), the JSON round trip and
the per-step leak check holding at every step.

CI runs a few games per configuration; ``pytest --games 2000 tests/nightlancer``
runs thousands.
"""

from __future__ import annotations

import json

import pytest

from pbem.engine.rng import Rng
from pbem.bots.playout import play
from pbem.games.nightlancer import GAME

CONFIGS = [
    ("solitaire", 1), ("solitaire-hardened", 1),
    ("standard", 2), ("standard", 3), ("standard", 4),
    ("hardened", 3), ("hardened-ultimate", 2),
    ("cooperative", 2), ("cooperative", 3), ("cooperative-hardened", 4),
]


def dumps(data) -> str:
    return json.dumps(data, sort_keys=True)


def make_check(leaks: bool, seed: int):
    rng = Rng.from_seed(f"leak-{seed}")
    step = {"n": 0}

    def check(game, state):
        game.check_invariants(state)
        assert json.loads(json.dumps(state)) == state, "state does not survive a JSON round trip"
        step["n"] += 1
        if not leaks or step["n"] % 3:
            return
        public = dumps(game.public(state))
        for player in state["players"]:
            hidden = game.conceal(state, player, rng)
            assert dumps(game.private(hidden, player)) == dumps(game.private(state, player)), f"{player}'s view leaks"
            assert dumps(game.public(hidden)) == public, "public state leaks"
            assert awaited(game, hidden, player) == awaited(game, state, player), f"who is awaited leaks to {player}"
            assert_own_hand_shows(game, state, player)

    return check


def awaited(game, state, player) -> str:
    """What ``player`` sees of the awaited decisions: everyone's (player, kind), their own options."""
    return dumps([[d.player, d.kind] + ([[o.id for o in d.options]] if d.player == player else [])
                  for d in game.awaiting(state)])


def assert_own_hand_shows(game, state, player) -> None:
    """The converse: changing a player's own hand changes their view."""
    hand = state["seats"][player]["hand"]
    deck = state["decks"]["contact"] or state["decks"]["agenda"]
    if not hand or not deck:
        return
    before = dumps(game.private(state, player))
    hand[0], deck[0] = deck[0], hand[0]
    try:
        assert dumps(game.private(state, player)) != before, f"{player}'s view does not show their own hand"
    finally:
        hand[0], deck[0] = deck[0], hand[0]


@pytest.mark.parametrize("scenario,players", CONFIGS)
def test_random_games_finish_with_invariants_and_no_leaks(scenario, players, game_count):
    loaded = GAME.load_scenario(scenario)
    names = ["ana", "ben", "cy", "dee"][:players]
    for seed in range(game_count(3)):
        playout = play(GAME, names, seed, loaded, check=make_check(leaks=seed == 0, seed=seed))
        result = GAME.result(playout.state)
        assert result is not None and set(result.scores) == set(names)
        assert set(result.winners) <= set(names)

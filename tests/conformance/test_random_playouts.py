"""Random bots finish every registered game, in every scenario it lists, at every seat count
the scenario takes, with the game's invariants holding at every step and the state surviving
a JSON round trip.

CI plays two games per configuration; ``pytest --games N -k random`` plays N. The leak
property over random positions of every game is ``test_hidden_information.py``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pbem.bots.playout import play
from pbem.engine import Game, Rng, ScenarioError, find_game, game_names

SEATS = ["ann", "bob", "cyd", "dee", "eve", "fay"]


def seats_taken(game: Game, scenario: str) -> list[int]:
    """The seat counts a scenario sets up (a solitaire scenario takes one player, a worked
    example the seats it is written for)."""
    loaded = game.load_scenario(scenario)
    counts = []
    for count in range(game.min_players, game.max_players + 1):
        try:
            game.new_state(loaded, SEATS[:count], Rng.from_seed("seats"))
        except ScenarioError:
            continue
        counts.append(count)
    return counts


CONFIGS = [
    (name, scenario, count)
    for name in game_names()
    for scenario in find_game(name).scenarios()
    for count in seats_taken(find_game(name), scenario)
]


#: the JSON round trip (the costlier check) runs every this many steps, and at the end
ROUND_TRIP_EVERY = 10


def checker():
    """Invariants at every step; the JSON round trip every ROUND_TRIP_EVERY steps and at the end."""
    steps = {"n": 0}

    def check(game: Game, state: Any) -> None:
        game.check_invariants(state)
        steps["n"] += 1
        if steps["n"] % ROUND_TRIP_EVERY == 0 or not game.awaiting(state):
            assert json.loads(json.dumps(state)) == state, "the state does not survive a JSON round trip"

    return check


@pytest.mark.parametrize("game_name", game_names())
def test_every_listed_scenario_seats_some_players(game_name: str) -> None:
    game = find_game(game_name)
    assert all(seats_taken(game, scenario) for scenario in game.scenarios())


@pytest.mark.parametrize(("game_name", "scenario", "seats"), CONFIGS)
def test_random_games_finish_with_the_invariants_at_every_step(game_name: str, scenario: str, seats: int,
                                                               game_count) -> None:
    game = find_game(game_name)
    loaded = game.load_scenario(scenario)
    names = SEATS[:seats]
    for seed in range(game_count(2)):
        playout = play(game, names, seed, loaded, check=checker())
        result = game.result(playout.state)
        assert result is not None and game.awaiting(playout.state) == []
        assert set(result.winners) <= set(names)

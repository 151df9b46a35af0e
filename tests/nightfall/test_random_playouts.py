"""Random bots finish games at every player count and in every variant,
with the invariants and the leak property checked at every step."""

from __future__ import annotations

import json

import pytest

from pbem.engine.rng import Rng
from pbem.bots.playout import play
from pbem.games.nightfall import GAME


def dump(data) -> str:
    return json.dumps(data, sort_keys=True)


def leak_check(game, state) -> None:
    """Invariants, the JSON round trip, and the leak property for every player."""
    game.check_invariants(state)
    assert json.loads(json.dumps(state)) == state
    public = dump(game.public(state))
    for player in state["players"]:
        seen = dump(game.private(state, player))
        for salt in range(2):
            concealed = game.conceal(state, player, Rng.from_seed(f"{salt}-{player}-{len(state['events'])}"))
            assert dump(game.private(concealed, player)) == seen, f"{player}'s private part depends on hidden information"
            assert dump(game.public(concealed)) == public
        hand = state["zones"][player]["hand"]
        if hand:
            changed = json.loads(json.dumps(state))
            changed["zones"][player]["hand"] = hand[:-1]
            changed["zones"][player]["discard"] = state["zones"][player]["discard"] + hand[-1:]
            assert dump(game.private(changed, player)) != seen, "a change of the own hand must show in the private part"


def invariants_only(game, state) -> None:
    game.check_invariants(state)


CONFIGS = [(scenario, n) for scenario in GAME.scenarios() if scenario != "series" for n in range(2, 6)]


@pytest.mark.parametrize("scenario,players", CONFIGS)
def test_random_games_finish_with_invariants(scenario, players, game_count):
    for seed in range(game_count(2)):
        names = ["ann", "bob", "cyd", "dee", "eve"][:players]
        result = play(GAME, names, seed, scenario=GAME.load_scenario(scenario), check=invariants_only).result
        assert result is not None and result.winners[0] in names


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_reveal_nothing_hidden(players, game_count):
    """The leak property at every step: a view never changes when what the
    player may not know is redrawn."""
    for seed in range(game_count(1)):
        names = ["ann", "bob", "cyd", "dee", "eve"][:players]
        scenario = GAME.load_scenario(["standard", "secret-archives", "promos", "open-archives"][players - 2])
        assert play(GAME, names, 100 + seed, scenario=scenario, check=leak_check).result is not None


def test_end_of_the_world_series_finishes(game_count):
    for seed in range(game_count(1)):
        scenario = GAME.load_scenario("series")
        scenario["options"]["series_target"] = 40
        result = play(GAME, ["ann", "bob", "cyd"], seed, scenario=scenario, check=invariants_only).result
        assert max(result.scores.values()) >= 40
        assert result.scores[result.winners[0]] == min(result.scores.values())

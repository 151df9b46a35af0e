"""Views leak nothing: a property over random positions of every game.

Take a position, redraw everything player P may not know
(``Game.conceal``: decks shuffled, other hands swapped within zone sizes,
other players' pending simultaneous choices redrawn), and require P's view
and the public part to stay byte-identical. CI samples a thousand positions
per game; ``--games N`` samples N.
"""

from __future__ import annotations

import copy
import hashlib
import json

import pytest

from pbem.engine import Rng, apply_choice, find_game, step_rng
from pbem.bots import RandomBot

GAMES = ["nightfall", "nightlancer"]


def _dump(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _options(game, state, player: str) -> str:
    """The decisions offered to ``player``, as that player sees them."""
    return _dump([d.to_json() for d in game.awaiting(state) if d.player == player])


def _awaited(game, state) -> list[tuple[str, str]]:
    """Who is awaited and for which kind of decision: public knowledge."""
    return [(d.player, d.kind) for d in game.awaiting(state)]


def _positions(game, players, seed: int, every: int):
    """Yield positions of one random game, every ``every`` steps."""
    key = hashlib.sha256(f"leak-{game.name}-{seed}".encode()).digest()
    scenario = game.load_scenario(game.scenarios()[0])
    state = game.new_state(scenario, players, step_rng(key, [], 0))
    bots = {p: RandomBot(Rng.from_seed(f"leak-{seed}-{p}")) for p in players}
    step = 0
    while True:
        if step % every == 0:
            yield state
        decisions = game.awaiting(state)
        if not decisions:
            yield state
            return
        step += 1
        decision = decisions[0]
        choice = bots[decision.player].choose(None, decision)
        state = apply_choice(game, state, decision.player, choice, step_rng(key, [], step))


@pytest.mark.parametrize("game_name", GAMES)
def test_a_view_is_unchanged_by_what_its_player_may_not_know(game_name: str, game_count) -> None:
    game = find_game(game_name)
    wanted = game_count(1000)
    checked = 0
    redrawn = 0
    seed = 0
    while checked < wanted:
        count = game.min_players + seed % (game.max_players - game.min_players + 1)
        players = [f"p{i}" for i in range(count)]
        for state in _positions(game, players, seed, every=7):
            before = _dump(state)
            for player in players:
                hidden = game.conceal(copy.deepcopy(state), player, Rng.from_seed(f"conceal-{seed}-{checked}"))
                redrawn += _dump(hidden) != before
                assert _dump(game.view(hidden, player)) == _dump(game.view(state, player)), (
                    f"{game_name}: {player}'s view changed with what {player} may not know (seed {seed})"
                )
                assert _dump(game.public(hidden)) == _dump(game.public(state)), (
                    f"{game_name}: the public part changed with what {player} may not know (seed {seed})"
                )
                assert _options(game, hidden, player) == _options(game, state, player), (
                    f"{game_name}: {player}'s options changed with what {player} may not know (seed {seed})"
                )
                assert _awaited(game, hidden) == _awaited(game, state), (
                    f"{game_name}: who is awaited, and for what, changed with what {player} may not know"
                )
            assert _dump(state) == before, "conceal must not change the state it is given"
            checked += 1
            if checked >= wanted:
                break
        seed += 1
    # A conceal that changed nothing would make this test pass vacuously.
    assert redrawn * 2 >= checked, f"{game_name}: conceal redrew hidden information in only {redrawn} of {checked} positions"

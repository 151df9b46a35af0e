"""Views leak nothing: a property over random positions of every registered game.

Take a position, redraw everything player P may not know
(``Game.conceal``: decks shuffled, other hands swapped within zone sizes,
other players' pending simultaneous choices redrawn), and require P's
private part, the public part, P's options and who is awaited for what to
stay byte-identical. The positions come from random games of every scenario
the game lists, at every seat count it takes, in turn. CI samples a
thousand positions per game; ``--games N`` samples N.

Sealed sizes: age's ciphertext is as long as its plaintext, so a sealed
section whose length followed what it hides would leak it to anyone holding
the turn file (or ``views/P/latest.age``). For every player P and every
opponent Q, P's sealed section and the referee's must keep their length over
every redraw of what Q may not know.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from helpers_referee import make_keys
from helpers_trust import random_positions

from pbem.engine import Game, Rng, ScenarioError, find_game, game_names
from pbem.referee.deal import static_of
from pbem.referee.gamefile import GameFile
from pbem.referee.turns import Position, assemble_turn

SEATS = [f"p{i}" for i in range(6)]
SEALING_SEED = bytes(range(32))


def _dump(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _options(game, state, player: str) -> str:
    """The decisions offered to ``player``, as that player sees them."""
    return _dump([d.to_json() for d in game.awaiting(state) if d.player == player])


def _awaited(game, state) -> list[tuple[str, str]]:
    """Who is awaited and for which kind of decision: public knowledge."""
    return [(d.player, d.kind) for d in game.awaiting(state)]


def _set_ups(game: Game) -> list[tuple[Any, list[str]]]:
    """Every scenario the game lists with every seat count it takes."""
    set_ups = []
    for name in game.scenarios():
        scenario = game.load_scenario(name)
        for count in range(game.min_players, game.max_players + 1):
            try:
                game.new_state(scenario, SEATS[:count], Rng.from_seed("seats"))
            except ScenarioError:
                continue
            set_ups.append((scenario, SEATS[:count]))
    return set_ups


def _seats(game, seed: int) -> list[str]:
    count = game.min_players + seed % (game.max_players - game.min_players + 1)
    return [f"p{i}" for i in range(count)]


@pytest.mark.parametrize("game_name", game_names())
def test_a_view_is_unchanged_by_what_its_player_may_not_know(game_name: str, game_count) -> None:
    game = find_game(game_name)
    set_ups = _set_ups(game)
    wanted = game_count(1000)
    checked = 0
    redrawn = 0
    seed = 0
    while checked < wanted:
        scenario, players = set_ups[seed % len(set_ups)]
        for state in random_positions(game, players, seed, every=7, scenario=scenario):
            before = _dump(state)
            for player in players:
                hidden = game.conceal(copy.deepcopy(state), player, Rng.from_seed(f"conceal-{seed}-{checked}"))
                redrawn += _dump(hidden) != before
                assert _dump(game.private(hidden, player)) == _dump(game.private(state, player)), (
                    f"{game_name}: {player}'s private part changed with what {player} may not know (seed {seed})"
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


# --- sealed sizes -----------------------------------------------------------------


@pytest.fixture(scope="module")
def seat_keys(tmp_path_factory):
    keys, _ = make_keys(tmp_path_factory.mktemp("keys"), ["referee", "p0", "p1", "p2", "p3", "p4"])
    return keys


def _gamefile(game, players, keys) -> GameFile:
    return GameFile(game_id="0123456789abcdef", game=game.name, scenario=game.scenarios()[0],
                    players=tuple((p, keys[p].public) for p in players), referee=keys["referee"].public,
                    game_recipient=keys["referee"].public.recipient, commitment="sha256:" + "0" * 64)


def _sealed_lengths(game, gamefile, static, state, turn: int) -> dict[str, int]:
    """The length of every sealed section of the turn the referee would write for ``state``."""
    position = Position(turn=turn, state=state, seed=SEALING_SEED)
    since = {d.player: turn for d in game.awaiting(state)}
    doc = assemble_turn(game, gamefile, position, None, None, None, since, static)
    return {name: len(text) for name, text in doc["sealed"].items()}


@pytest.mark.parametrize("game_name", game_names())
def test_a_sealed_section_is_as_long_whatever_an_opponent_may_not_know(game_name: str, game_count, seat_keys) -> None:
    """For every player P and every opponent Q: P's section, and the referee's, keep their length
    over every redraw of what Q may not know (``conceal(state, Q)``)."""
    game = find_game(game_name)
    static = static_of(game, game.load_scenario(game.scenarios()[0]))
    wanted = game_count(60)
    checked = 0
    seed = 0
    while checked < wanted:
        players = _seats(game, seed)
        gamefile = _gamefile(game, players, seat_keys)
        for turn, state in enumerate(random_positions(game, players, seed, every=11)):
            lengths = _sealed_lengths(game, gamefile, static, state, turn)
            for opponent in players:
                for redraw in range(2):
                    hidden = game.conceal(copy.deepcopy(state), opponent,
                                          Rng.from_seed(f"sizes-{seed}-{turn}-{opponent}-{redraw}"))
                    assert _sealed_lengths(game, gamefile, static, hidden, turn) == lengths, (
                        f"{game_name}: a sealed section's length changed with what {opponent} may not know "
                        f"(seed {seed}, position {turn})"
                    )
            checked += 1
            if checked >= wanted:
                break
        seed += 1

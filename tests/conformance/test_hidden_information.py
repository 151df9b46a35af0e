"""Hidden information: what each player may know, over random positions of every registered game.

Views leak nothing. Take a position, redraw everything player P may not
know (``Game.conceal``: decks shuffled, other hands swapped within zone
sizes, other players' pending simultaneous choices redrawn), and require P's
private part, the public part, P's options and who is awaited for what to
stay byte-identical. The positions come from random games of every scenario
the game lists, at every seat count it takes, in turn. CI samples a
thousand positions per game; ``--games N`` samples N.

The redraw keeps to the declared zones: every zone P sees is kept, every
kind of zone P does not see is redrawn (``helpers_conformance.conceal_problems``).

Sealed sizes: age's ciphertext is as long as its plaintext, so a sealed
section whose length followed what it hides would leak it to anyone holding
the turn file (or ``views/P/latest.age``). For every player P and every
opponent Q, P's sealed section and the referee's must keep their length over
every redraw of what Q may not know.
"""

from __future__ import annotations

import copy

import pytest
from helpers_conformance import conceal_problems, view_leaks
from helpers_referee import make_keys
from helpers_trust import random_positions

from pbem.engine import Rng, find_game, game_names
from pbem.referee.core import Played, Position, next_turn
from pbem.referee.deal import static_of
from pbem.referee.gamefile import GameFile
from pbem.referee.sizes import measure

SEALING_SEED = bytes(range(32))


def _seats(game, seed: int) -> list[str]:
    count = game.min_players + seed % (game.max_players - game.min_players + 1)
    return [f"p{i}" for i in range(count)]


@pytest.mark.parametrize("game_name", game_names())
def test_a_view_is_unchanged_by_what_its_player_may_not_know(game_name: str, game_count) -> None:
    checked, redrawn, leaks = view_leaks(find_game(game_name), game_count(1000))
    assert not leaks, f"{game_name}: {leaks[:5]}"
    # A conceal that changed nothing would make this test pass vacuously.
    assert redrawn * 2 >= checked, f"{game_name}: conceal redrew hidden information in only {redrawn} of {checked} positions"


@pytest.mark.parametrize("game_name", game_names())
def test_a_redraw_keeps_the_zones_its_player_sees_and_redraws_every_zone_they_do_not(game_name: str,
                                                                                      game_count) -> None:
    """The leak property is only as strong as ``conceal``: one that forgot a hidden zone would let a
    public hint about that zone pass. Each zone declares who sees it (``zones``); over random positions,
    a redraw for a player keeps every zone they see, and every kind of zone they do not see is redrawn."""
    checked, problems = conceal_problems(find_game(game_name), game_count(300))
    assert checked and not problems, f"{game_name}: {problems[:5]}"


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
    doc = next_turn(game, gamefile, Played(position, since, game.awaiting(state)), None, None, None, static)
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


@pytest.mark.parametrize("game_name", game_names())
def test_random_games_never_outgrow_the_declared_sealed_sizes(game_name: str, game_count) -> None:
    """A section larger than its declared size is padded to the size doubled, and so shows that it
    is large: over random games of every scenario and seat count, the fullest section of each kind
    (what ``pbem kit sizes`` measures) fits its size. (CI: one game per configuration, every third
    position; ``--games N`` for a soak.)"""
    game = find_game(game_name)
    games = game_count(1)
    measured = measure(game, games=games, every=3 if games == 1 else 1)
    assert measured.sections > 0
    outgrown = measured.outgrown(game.sealed_sizes(game.min_players))
    assert not outgrown, f"{game_name}: sections outgrew their size ({{kind: (fullest, size)}}): {outgrown}"

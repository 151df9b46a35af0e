"""Soak run: random bots play many whole games of every registered game,
scenario and player count, in memory, with the game's invariants checked at every step.

    python benchmarks/soak.py [games-per-configuration] [game ...] [--first-seed SEED]

Prints the machine's speed first, then one line per configuration (games
finished, decisions, games per second of wall time and of CPU time) and
exits non-zero if any game raised or broke an invariant. The games are
played seed by seed, alternately (every configuration's game of a seed, in
the reverse order for the next seed), so that a change in the machine's
load touches every configuration alike. The seeds are ``SEED`` (default 0)
and the ones after it: the test suite plays the first few of every
configuration, so a soak from, say, ``--first-seed 50000`` plays only
games it never has. Set-ups a scenario refuses (a solitaire scenario with
three players) are listed as such, not played. The pytest playout tests
run the same games in smaller numbers (``--games N`` raises them).
"""

from __future__ import annotations

import argparse
import sys
import traceback
from typing import Any

from machine import Times, alternated, print_speed, timed

from pbem.bots.playout import play
from pbem.engine import ScenarioError, find_game, game_names

NAMES = ["ann", "bob", "cyd", "dee", "eve"]


def invariants(game, state) -> None:
    game.check_invariants(state)


class Configuration:
    """One game, scenario and player count: what its games have played so far."""

    def __init__(self, game_name: str, scenario_name: str, count: int) -> None:
        self.game_name, self.scenario_name, self.count = game_name, scenario_name, count
        self.game = find_game(game_name)
        self.scenario = self.game.load_scenario(scenario_name)
        self.players = NAMES[:count]
        self.played = self.steps = self.failures = 0
        self.spent = Times(0.0, 0.0)

    def label(self) -> str:
        return f"{self.game_name:12} {self.scenario_name:18} {self.count}p"

    def play(self, seed: int) -> Any:
        """Play the game of ``seed``; what :func:`play` returns (a :class:`ScenarioError` for a refused set-up)."""
        result, times = timed(lambda: play(self.game, self.players, seed, scenario=self.scenario, check=invariants))
        self.spent = Times(self.spent.wall + times.wall, self.spent.cpu + times.cpu)
        return result


def configurations(names: list[str]) -> list[Configuration]:
    return [Configuration(name, scenario_name, count)
            for name in names
            for scenario_name in find_game(name).scenarios()
            for count in range(find_game(name).min_players, find_game(name).max_players + 1)]


def soak(names: list[str], games: int, first_seed: int = 0) -> int:
    """Play ``games`` games of every configuration of the games ``names``; the count of failed games."""
    playing = configurations(names)
    refused: set[int] = set()
    for index, configuration in enumerate(alternated(playing, games)):
        seed = first_seed + index // len(playing)
        if id(configuration) in refused:
            continue
        try:
            configuration.steps += configuration.play(seed).steps
        except ScenarioError as refusal:
            if seed == first_seed:
                print(f"{configuration.label()}  not a set-up: {refusal}")
                refused.add(id(configuration))
                continue
            raise
        except Exception:  # a soak run reports every failure and goes on
            configuration.failures += 1
            print(f"{configuration.game_name} {configuration.scenario_name} {configuration.count}p seed {seed}: FAILED")
            traceback.print_exc()
            continue
        configuration.played += 1
    for configuration in playing:
        if configuration.played:
            wall, cpu = configuration.spent
            print(f"{configuration.label()}  {configuration.played:5d} games  {configuration.steps:8d} decisions  "
                  f"{configuration.played / wall:6.1f} games/s ({configuration.played / cpu:6.1f} of CPU)")
    return sum(configuration.failures for configuration in playing)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", type=int, nargs="?", default=10, help="games per configuration")
    parser.add_argument("names", nargs="*", metavar="game", help="games to play (default: every registered game)")
    parser.add_argument("--first-seed", type=int, default=0, help="the seed of each configuration's first game")
    args = parser.parse_args()
    print_speed()
    failures = soak(args.names or game_names(), args.games, args.first_seed)
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

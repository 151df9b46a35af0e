"""Soak run: random bots play many whole games of every registered game,
scenario and player count, in memory, with the game's invariants checked at every step.

    python benchmarks/soak.py [games-per-configuration] [game ...] [--first-seed SEED]

Prints one line per configuration (games finished, decisions, games per
second) and exits non-zero if any game raised or broke an invariant. The
seeds are ``SEED`` (default 0) and the ones after it: the test suite plays
the first few of every configuration, so a soak from, say, ``--first-seed
50000`` plays only games it never has. Set-ups
a scenario refuses (a solitaire scenario with three players) are listed as
such, not played. The pytest playout tests run the same games in smaller
numbers (``--games N`` raises them).
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback

from pbem.bots.playout import play
from pbem.engine import ScenarioError, find_game, game_names

NAMES = ["ann", "bob", "cyd", "dee", "eve"]


def invariants(game, state) -> None:
    game.check_invariants(state)


def soak(game_name: str, games: int, first_seed: int = 0) -> int:
    game = find_game(game_name)
    failures = 0
    for scenario_name in game.scenarios():
        scenario = game.load_scenario(scenario_name)
        for count in range(game.min_players, game.max_players + 1):
            players = NAMES[:count]
            steps = 0
            start = time.perf_counter()
            played = 0
            for seed in range(first_seed, first_seed + games):
                try:
                    steps += play(game, players, seed, scenario=scenario, check=invariants).steps
                except ScenarioError as refusal:
                    if seed == first_seed:
                        print(f"{game_name:12} {scenario_name:18} {count}p  not a set-up: {refusal}")
                        break
                    raise
                except Exception:  # a soak run reports every failure and goes on
                    failures += 1
                    print(f"{game_name} {scenario_name} {count}p seed {seed}: FAILED")
                    traceback.print_exc()
                    continue
                played += 1
            if played:
                elapsed = time.perf_counter() - start
                print(
                    f"{game_name:12} {scenario_name:18} {count}p  {played:5d} games  "
                    f"{steps:8d} decisions  {played / elapsed:6.1f} games/s"
                )
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", type=int, nargs="?", default=10, help="games per configuration")
    parser.add_argument("names", nargs="*", metavar="game", help="games to play (default: every registered game)")
    parser.add_argument("--first-seed", type=int, default=0, help="the seed of each configuration's first game")
    args = parser.parse_args()
    failures = sum(soak(name, args.games, args.first_seed) for name in args.names or game_names())
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

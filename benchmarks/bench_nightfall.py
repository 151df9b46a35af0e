"""Random Nightfall games per second at each player count.

    python benchmarks/bench_nightfall.py [games-per-count]

Random bots play whole games in memory (pbem.bots.playout.play), with
no invariant checks, so the figure is the rules engine's own speed.
"""

from __future__ import annotations

import sys
import time

from pbem.bots.playout import play
from pbem.games.nightfall import GAME


def bench(players: int, games: int, scenario: str = "standard") -> tuple[float, float]:
    names = ["ann", "bob", "cyd", "dee", "eve"][:players]
    data = GAME.load_scenario(scenario)
    steps = 0
    start = time.perf_counter()
    for seed in range(games):
        steps += play(GAME, names, seed, scenario=data).steps
    elapsed = time.perf_counter() - start
    return games / elapsed, steps / elapsed


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for players in range(2, 6):
        per_second, steps = bench(players, games)
        print(f"{players} players: {per_second:6.1f} games/s, {steps:8.0f} decisions/s ({games} games)")


if __name__ == "__main__":
    main()

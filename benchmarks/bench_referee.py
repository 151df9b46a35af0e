"""Time one referee step on the toy game and on Nightlancer, and a whole toy ``pbem demo``.

    python benchmarks/bench_referee.py [--games N] [--turns T]

Prints the median time of one ``submit`` (lock, read and check the current
turn, parse, checks, apply, seal every section, sign, write atomically),
first on the toy game (3 players, scenario ``long``), then on Nightlancer
(2 players, the first ``--turns`` turns of random play), and of a full toy
demo game (keys, new, every view/move/submit, verify).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers_referee import make_keys, make_table

from pbem.bots.random_bot import RandomBot
from pbem.engine.rng import Rng
from pbem.referee import make_move, new_game, read_view, run_demo, submit
from pbem.referee.public import status


def time_steps(games: int) -> list[float]:
    times = []
    for index in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            table = make_table(Path(tmp), players=("alice", "bob", "carol"), seed=bytes([index + 1]) * 32,
                               scenario="long")
            while True:
                awaiting = table.view("alice").turn.doc["awaiting"]
                if not awaiting:
                    break
                player = awaiting[0]["player"]
                data = table.move(player, table.view(player).decision.options[0].id)
                start = time.perf_counter()
                submit(table.dir, data, table.referee)
                times.append(time.perf_counter() - start)
    return times


def time_game_steps(game: str, games: int, turns: int, players: tuple[str, ...] = ("alice", "bob")) -> list[float]:
    """``submit`` timed alone, on random bot play of a real game (the bots' views and moves are not timed)."""
    times = []
    for index in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            keys, _ = make_keys(Path(tmp) / "keys", ["referee", *players])
            directory = Path(tmp) / "game"
            new_game(directory, game, [(p, keys[p].public) for p in players], keys["referee"],
                     seed=bytes([index + 1]) * 32)
            bots = {p: RandomBot(Rng.from_seed(f"bench-{index}-{p}")) for p in players}
            for _ in range(turns):
                now = status(directory)
                if now.over:
                    break
                player = now.awaiting[0]["player"]
                view = read_view(directory, player, keys[player])
                assert view.decision is not None
                data = make_move(view, keys[player], [bots[player].choose(view.private, view.decision)])
                start = time.perf_counter()
                submit(directory, data, keys["referee"])
                times.append(time.perf_counter() - start)
    return times


def time_demos(games: int) -> list[float]:
    times = []
    for index in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            report = run_demo(Path(tmp) / "demo", "highcard", 2, seed=bytes([index + 1]) * 32)
            times.append(time.perf_counter() - start)
            assert report.result is not None
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--turns", type=int, default=60, help="Nightlancer turns timed per game")
    args = parser.parse_args()
    steps = time_steps(args.games)
    print(f"submit, one step (3 players, toy game 'long'): median {statistics.median(steps) * 1000:.1f} ms, "
          f"max {max(steps) * 1000:.1f} ms over {len(steps)} steps")
    steps = time_game_steps("nightlancer", args.games, args.turns)
    print(f"submit, one step (2 players, nightlancer): median {statistics.median(steps) * 1000:.1f} ms, "
          f"max {max(steps) * 1000:.1f} ms over {len(steps)} steps")
    demos = time_demos(args.games)
    print(f"demo, whole toy game (2 players, keys + new + play + verify): median {statistics.median(demos):.2f} s "
          f"over {len(demos)} games")


if __name__ == "__main__":
    main()

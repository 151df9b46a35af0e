"""Time one referee step and a whole ``pbem demo`` on the toy game.

    python benchmarks/bench_referee.py [--games N]

Prints the median time of one ``submit`` (parse, checks, apply, seal every
section, sign, write atomically) and of a full demo game (keys, new, every
view/move/submit, verify).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers_referee import make_table  # noqa: E402  (registers the toy game)
from pbem.referee import run_demo, submit  # noqa: E402


def time_steps(games: int) -> list[float]:
    times = []
    for index in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            table = make_table(Path(tmp), players=("alice", "bob", "carol"), seed=bytes([index + 1]) * 16,
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


def time_demos(games: int) -> list[float]:
    times = []
    for index in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            report = run_demo(Path(tmp) / "demo", "highcard", 2, seed=bytes([index + 1]) * 16)
            times.append(time.perf_counter() - start)
            assert report.result is not None
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    steps = time_steps(args.games)
    print(f"submit, one step (3 players, toy game 'long'): median {statistics.median(steps) * 1000:.1f} ms, "
          f"max {max(steps) * 1000:.1f} ms over {len(steps)} steps")
    demos = time_demos(args.games)
    print(f"demo, whole toy game (2 players, keys + new + play + verify): median {statistics.median(demos):.2f} s "
          f"over {len(demos)} games")


if __name__ == "__main__":
    main()

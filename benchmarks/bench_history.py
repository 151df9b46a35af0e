"""A referee step late in a long game against one early in a short game, measured in the same run.

    python benchmarks/bench_history.py [--moves M] [--steps N]

The target is a step at move 2,000 within 10% of a step at move 10 (README):
what a step costs must not grow with the game's history (the files in
``turns/`` and ``moves/``). To measure that alone, both games are of
Rotation (``rotation.py``), whose state keeps one size all along, so that a
late step differs from an early one only by the history behind it.

Two games are set up: one is played to move M (default 2,000), the other to
move 10. Then N steps (default 40) of each are timed in pairs, the pairs
alternating which game steps first (early then late, late then early...):
a step right after another finds the disk still writing back the other's
files, so the game that always went first would always be timed on a
quieter disk. Prints the machine's speed first, then both medians and
their ratio, by wall time and by CPU time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from machine import Times, alternated, median, print_speed
from rotation import GAME, Table

from pbem.engine import register


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=2000, help="the long game's history before timing")
    parser.add_argument("--steps", type=int, default=40, help="steps timed in each game")
    args = parser.parse_args()
    print_speed()
    register(GAME)
    with tempfile.TemporaryDirectory() as tmp:
        tables = {"early": Table(Path(tmp) / "short"), "late": Table(Path(tmp) / "long")}
        for name, moves in (("early", 10), ("late", args.moves)):
            for _ in range(moves):
                tables[name].step()
            print(f"played to move {moves}", file=sys.stderr)
        found: dict[str, list[Times]] = {"early": [], "late": []}
        for name in alternated(["early", "late"], args.steps):
            found[name].append(tables[name].step())
    early, late = median(found["early"]), median(found["late"])
    for label, moves, times in (("early", 10, early), ("late", args.moves, late)):
        print(f"step at move {moves:<5}: median wall {times.wall * 1000:.2f} ms, CPU {times.cpu * 1000:.2f} ms "
              f"over {len(found[label])} steps")
    print(f"ratio (late / early): wall {late.wall / early.wall:.3f}, CPU {late.cpu / early.cpu:.3f} (target <= 1.10)")


if __name__ == "__main__":
    main()

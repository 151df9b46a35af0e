"""Peak memory of ``pbem verify --replay`` against the game's length, each length in a fresh process.

    python benchmarks/bench_replay_memory.py [--game GAME:PLAYERS] [--lengths L ...] [--runs N] [--baseline DIR]

The target is a replay whose memory is flat in the game's length: at most
64 MB at 5,000 moves (README, "Performance"). Random bots play one game
through the real referee (a test seed, so that a game stopped at any
length can be replayed), and the game directory is copied as it was at
each length L (default 250, 500, 1,000, 2,000 and 5,000 moves). The game is
Rotation (``rotation.py``, whose state keeps one size: what grows is the
history alone, as it does in any long game; ``PBEM_GAMES=rotation``
registers it in each ``pbem`` process), or ``--game nightfall:4`` and the
like, a real game, cut at the lengths it reaches before it ends.

Then, N rounds (default 2), alternately (each round in the reverse order of
the one before), ``pbem verify --replay DIR`` and plain ``pbem verify DIR``
run on each copy as whole processes, each one's peak resident set size
read with ``wait4`` (that process alone); with ``--baseline DIR``, also
those of that pbem source tree (e.g. an export of an older commit, first
on the path), on the same copies, in the same rounds. Prints the machine's speed first;
then per length the largest peak over the rounds and the median wall and
CPU time; and the growth of the peak per move (a least-squares line
through the peaks).
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from machine import Child, alternated, median, print_speed, run_child

from pbem.bots.random_bot import RandomBot
from pbem.crypto.keys import generate
from pbem.engine import register
from pbem.engine.rng import Rng
from pbem.referee import new_game, submit
from pbem.referee.demo import bot_move

HERE = Path(__file__).resolve().parent
NAMES = ["ann", "bob", "cyd", "dee", "eve"]
TARGET_MB = 64


def megabytes(child: Child) -> float:
    """The peak RSS of ``child`` in MB (10^6 bytes: the target's unit)."""
    return child.peak_kib * 1024 / 1e6


def play(where: Path, game: str, count: int, lengths: list[int]) -> dict[int, Path]:
    """Copies of one game's directory as it was at each of ``lengths`` moves (those the game reached)."""
    players = NAMES[:count]
    keys = {name: generate(name) for name in ["referee", *players]}
    bots = {p: RandomBot(Rng.from_seed(f"bench-replay-memory-{p}")) for p in players}
    directory = where / "playing"
    new_game(directory, game, [(p, keys[p].public) for p in players], keys["referee"], seed=bytes([7]) * 32,
             wait_for_joins=False)
    copies: dict[int, Path] = {}
    moves = 0
    for length in sorted(lengths):
        while moves < length:
            made = bot_move(directory, keys, bots)
            if made is None:
                print(f"the game ended at move {moves}: no copy at {length} moves or more", file=sys.stderr)
                return copies
            submit(directory, made.data, keys["referee"])
            moves += 1
        copies[length] = where / f"at-{length}"
        shutil.copytree(directory, copies[length], symlinks=True)
        print(f"played to move {moves}", file=sys.stderr)
    return copies


def verify(directory: Path, replay: bool, env: dict[str, str]) -> Child:
    """``pbem verify [--replay] DIR`` as a whole process, which must find the directory sound."""
    flags = ["--replay"] if replay else []
    done = run_child([sys.executable, "-m", "pbem", "verify", *flags, str(directory)], env=env, cwd="/")
    if done.returncode != 0:
        raise SystemExit(f"pbem verify {' '.join(flags)} {directory} exited {done.returncode}: {done.stderr[-800:]}")
    if replay and "replayed" not in done.stdout:
        raise SystemExit(f"pbem verify --replay {directory} did not replay: {done.stdout[-800:]}")
    return done


def slope(points: list[tuple[int, float]]) -> float:
    """The least-squares slope of ``points`` (length, peak)."""
    mean_x = statistics.mean(x for x, _ in points)
    mean_y = statistics.mean(y for _, y in points)
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="rotation:2", help="GAME:PLAYERS (default rotation:2)")
    parser.add_argument("--lengths", type=int, nargs="+", default=[250, 500, 1000, 2000, 5000])
    parser.add_argument("--runs", type=int, default=2, help="rounds; each replays every length once")
    parser.add_argument("--baseline", type=Path, default=None, help="another pbem source tree to compare with")
    args = parser.parse_args()
    print_speed()
    game, _, count = args.game.partition(":")
    trees = {"this tree": HERE.parent, **({"baseline": args.baseline.resolve()} if args.baseline else {})}
    envs = {name: {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), str(HERE)])} for name, tree in trees.items()}
    if game == "rotation":
        from rotation import GAME

        register(GAME)
        for env in envs.values():
            env["PBEM_GAMES"] = ",".join(filter(None, [os.environ.get("PBEM_GAMES"), "rotation"]))
    for tree in trees.values():
        compileall.compile_dir(str(tree / "pbem"), quiet=1)  # as installed: no process compiles it again
    with tempfile.TemporaryDirectory() as tmp:
        copies = play(Path(tmp), game, int(count or 2), args.lengths)
        found: dict[tuple[str, int, bool], list[Child]] = {}
        runs = [(name, length, replay) for length in copies for name in trees for replay in (True, False)]
        for name, length, replay in alternated(runs, args.runs):
            found.setdefault((name, length, replay), []).append(verify(copies[length], replay, envs[name]))
    print(f"{args.game}: pbem verify as a whole process, {args.runs} rounds; the largest peak RSS of the rounds, "
          "median times")
    for name in trees:
        print(f"  {name}:")
        print(f"  {'moves':>6}  {'--replay peak':>13}  {'wall s':>7}  {'CPU s':>6}  {'moves/s':>7}  "
              f"{'of CPU':>6}  {'plain peak':>10}")
        for length in copies:
            replayed, plain = found[(name, length, True)], found[(name, length, False)]
            times = median([child.times for child in replayed])
            print(f"  {length:6d}  {max(map(megabytes, replayed)):10.1f} MB  {times.wall:7.2f}  {times.cpu:6.2f}  "
                  f"{length / times.wall:7.0f}  {length / times.cpu:6.0f}  {max(map(megabytes, plain)):7.1f} MB")
        for replay, label in ((True, "verify --replay"), (False, "plain verify")):
            points = [(length, max(map(megabytes, found[(name, length, replay)]))) for length in copies]
            print(f"  {label}: the peak grows by {slope(points) * 1000:.1f} KB a move (least squares)")
        longest = max(copies, default=0)
        if longest:
            peak = max(map(megabytes, found[(name, longest, True)]))
            print(f"  --replay at {longest} moves: {peak:.1f} MB (target at 5,000 moves: at most {TARGET_MB} MB)")


if __name__ == "__main__":
    main()

"""The instructions of one referee step, counted by valgrind: a figure no load of the machine touches.

    python benchmarks/count_step.py [--game GAME] [--players P] [--steps N] [--baseline DIR]

Random bots play N moves of a test-seed game through the real referee (not
counted), and each move file is kept. Then, in processes of their own run
under valgrind's cachegrind (``PYTHONHASHSEED=0``, pbem byte-compiled
first), a fresh copy of the game is made and its first K moves submitted:
K = 0 and K = N. The step is the difference divided by N: the imports and
the copy, which both runs make, drop out. ``--baseline DIR`` counts the
same with another pbem source tree (``DIR/pbem``, e.g. an export of an
older commit) first on the path, on the very same move files: a game whose
set-up the two trees make alike. Counting the same tree twice gives the
same figures to 0.01%.

The counted processes of the two trees run alternately (this tree's K = 0,
the baseline's, then the baseline's K = N, this tree's), as every benchmark
orders what it compares, though no load touches a count. Prints the
machine's speed first, then the instructions of a step and their ratio to
the baseline's. Needs valgrind on the path; without it, says so and counts
nothing.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from machine import alternated, print_speed

HERE = Path(__file__).resolve().parents[1]
NAMES = ["alice", "bob", "carol", "dave", "erin"]
SEED = bytes(range(32))


def record(root: Path, game: str, players: int, steps: int) -> int:
    """A game in ``root/fresh`` as dealt, and the first ``steps`` moves of its bots in ``root/moves.json``."""
    from pbem.bots.random_bot import RandomBot
    from pbem.crypto.keys import generate, load_private_key, write_keypair
    from pbem.engine.rng import Rng
    from pbem.referee import new_game, submit
    from pbem.referee.demo import bot_move

    names = NAMES[:players]
    (root / "keys").mkdir(parents=True)
    for name in ["referee", *names]:
        write_keypair(generate(name), root / "keys")
    keys = {name: load_private_key(root / "keys" / f"{name}.key", name=name) for name in ["referee", *names]}
    new_game(root / "played", game, [(p, keys[p].public) for p in names], keys["referee"], seed=SEED)
    shutil.copytree(root / "played", root / "fresh")
    bots = {p: RandomBot(Rng.from_seed(f"count-step-{p}")) for p in names}
    moves: list[str] = []
    for _ in range(steps):
        made = bot_move(root / "played", keys, bots)
        if made is None:
            break
        submit(root / "played", made.data, keys["referee"])
        moves.append(made.data.decode())
    (root / "moves.json").write_text(json.dumps(moves))
    return len(moves)


def submit_moves(root: Path, count: int) -> None:
    """A fresh copy of the recorded game, and its first ``count`` moves submitted (the process counted)."""
    from pbem.crypto.keys import load_private_key
    from pbem.referee import submit

    referee = load_private_key(root / "keys" / "referee.key", name="referee")
    target = root / f"run-{count}"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(root / "fresh", target)
    for data in json.loads((root / "moves.json").read_text())[:count]:
        submit(target, data.encode(), referee)


def instructions(tree: Path, root: Path, count: int) -> int:
    """The instructions of a process that submits the first ``count`` moves, with ``tree``'s pbem first on the path."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)}
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           sys.executable, __file__, "--submit", str(root), str(count)],
                          env=env, capture_output=True, text=True)
    if done.returncode:
        last = [line for line in done.stderr.splitlines() if not line.startswith("==")][-1:]
        raise SystemExit(f"{tree}: the recorded moves do not submit there (a game set up otherwise?): {last}")
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    assert found is not None, done.stderr
    return int(found.group(1).replace(",", ""))


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--submit":  # a counted process: its tree is the one on PYTHONPATH
        submit_moves(Path(sys.argv[2]), int(sys.argv[3]))
        return 0
    sys.path.insert(0, str(HERE))  # the moves are recorded with this tree
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="nightfall")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--baseline", type=Path, default=None, help="another pbem source tree to compare with")
    args = parser.parse_args()
    print_speed()
    if shutil.which("valgrind") is None:
        print("valgrind is not on the path: nothing counted")
        return 0
    trees = [HERE, *([args.baseline.resolve()] if args.baseline is not None else [])]
    for tree in trees:
        compileall.compile_dir(tree / "pbem", quiet=1)
    with tempfile.TemporaryDirectory(prefix="pbem-count-step-") as folder:
        root = Path(folder)
        steps = record(root, args.game, args.players, args.steps)
        found: dict[tuple[Path, int], int] = {}
        for index, tree in enumerate(alternated(trees, 2)):  # K = 0 for each tree, then K = N the other way round
            count = 0 if index < len(trees) else steps
            found[(tree, count)] = instructions(tree, root, count)
        counts = {tree: (found[(tree, steps)] - found[(tree, 0)]) / steps for tree in trees}
    print(f"{args.game}, {args.players} players: instructions of a step, over {steps} steps (valgrind)")
    print(f"  this tree  {counts[HERE] / 1e6:9.3f} M")
    if args.baseline is not None:
        base = counts[trees[1]]
        print(f"  baseline   {base / 1e6:9.3f} M   this tree / baseline {counts[HERE] / base:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

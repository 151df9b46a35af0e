"""The player's and the referee's commands as processes, against the import floor, in one run.

    python benchmarks/bench_cli.py [--runs N] [--game GAME] [--players P] [--turns T] [--baseline DIR]

Sets up a game (``pbem new`` with a test seed, then T moves of random bots
through the real referee), then times, N rounds, alternately (each round in
the reverse order of the one before, so that a change in the machine's load
touches all alike and none is always first), each a whole process started
as a user starts it (``python -m pbem ...``):

* the **import floor**: ``python -c "import typer, cryptography"``;
* the libraries a command that reads a game needs beyond it (cryptography's
  compiled primitives and hashes, TOML, JSON): what pbem's own modules and
  work add is what a command costs above these; and those with
  ``jsonschema``, which ``move`` and ``submit`` imported before they checked
  a valid move without it (``pbem.schema_subset``), for comparison;
* ``pbem status``, ``pbem view`` (the awaited player), ``pbem move`` (a
  move for them, written to a temporary file) and ``pbem submit`` of that
  move (on a fresh copy of the game directory each time, not timed);
* two presses of Tab, as the bash script of ``pbem completion bash`` asks
  pbem (this tree only): after ``pbem st`` (a command's name) and after
  ``pbem view DIR --as`` (the player names of the game directory).

Prints the machine's speed first; then each command's median wall time and
its ratio to the floor's, and the same of its CPU time (user and system), which the machine's load
touches less than the wall time (a process waiting for a core or the disk
uses none).
The commands run the pbem of the tree this script is in (first on the
path), not another the interpreter may have installed.
pbem's modules are byte-compiled first (``compileall``), as an installed
package's are and as typer's and cryptography's in the floor are: with
``PYTHONDONTWRITEBYTECODE`` set, a source tree would otherwise be compiled
again by every process timed.
``--baseline DIR`` also runs each command with another pbem source tree
(``DIR/pbem``, e.g. an export of an older commit) first on the path, in the
same rounds, for a before/after comparison under the same load.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from machine import Times, alternated, median, print_speed, run_child

from pbem.bots.random_bot import RandomBot
from pbem.crypto.keys import generate, write_keypair
from pbem.engine.rng import Rng
from pbem.referee import new_game, status, submit
from pbem.referee.demo import bot_move

NAMES = ["ann", "bob", "cyd", "dee", "eve"]
FLOOR = [sys.executable, "-c", "import typer, cryptography"]
#: the libraries a command that reads a game cannot do without, beyond the floor: cryptography's
#: primitives (``import cryptography`` alone does not load its compiled bindings) and hashes, TOML, JSON; not
#: hashlib, hmac nor secrets, which no command imports (pbem.digests)
READING = ("import typer, cryptography, tomllib, json, datetime; "
           "from cryptography.hazmat.primitives import hashes, hmac; "
           "from cryptography.hazmat.primitives.asymmetric import ed25519, x25519; "
           "from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305; "
           "from cryptography.hazmat.primitives.kdf.hkdf import HKDF")
LIBRARIES = {
    "reading's libraries": [sys.executable, "-c", READING],
    "... and jsonschema": [sys.executable, "-c", READING + "; import jsonschema"],
}


def set_up(where: Path, game: str, players: int, turns: int) -> tuple[Path, dict[str, Path], str]:
    """A game directory after ``turns`` random moves; the key files; the awaited player."""
    keys = {name: generate(name) for name in ["referee", *NAMES[:players]]}
    files = {name: write_keypair(key, where / "keys")[0] for name, key in keys.items()}
    directory = where / "game"
    new_game(directory, game, [(p, keys[p].public) for p in NAMES[:players]], keys["referee"],
             seed=bytes([5]) * 32)
    bots = {p: RandomBot(Rng.from_seed(f"bench-cli-{p}")) for p in NAMES[:players]}
    for _ in range(turns):
        made = bot_move(directory, keys, bots)
        if made is None:
            raise SystemExit(f"the game ended before turn {turns}: ask for fewer --turns")
        submit(directory, made.data, keys["referee"])
    return directory, files, status(directory).awaiting[0]["player"]


def timed(command: list[str], env: dict[str, str] | None = None) -> Times:
    """Run ``command`` from the root directory, so that ``python -m pbem`` finds pbem where ``env`` says
    (``-m`` puts the working directory first on the path); its wall and CPU time."""
    done = run_child(command, env=env, cwd="/")
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr[-500:]}")
    return done.times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--game", default="nightfall")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--baseline", type=Path, default=None, help="another pbem source tree to compare with")
    args = parser.parse_args()
    print_speed()
    here = Path(__file__).resolve().parents[1]
    # this tree first on the path too: the interpreter may have another pbem installed (an editable install
    # of another checkout), which ``python -m pbem`` run from the root directory would import instead
    trees = {"": {**os.environ, "PYTHONPATH": str(here)}}
    if args.baseline is not None:
        trees["baseline "] = {**os.environ, "PYTHONPATH": str(args.baseline.resolve())}
    for tree in [here, *([args.baseline] if args.baseline is not None else [])]:
        compileall.compile_dir(str(tree / "pbem"), quiet=1)
    pbem = [sys.executable, "-m", "pbem"]
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        directory, keys, player = set_up(where, args.game, args.players, args.turns)
        move_file = where / "move.json"
        state = where / "state"
        subprocess.run([*pbem, "move", str(directory), "--as", player, "--key", str(keys[player]), "--choose", "1",
                        "--out", str(move_file)], check=True, stdout=subprocess.DEVNULL, cwd="/", env=trees[""])
        copy = where / "copy"
        commands = {
            "pbem status": [*pbem, "status", str(directory)],
            "pbem view": [*pbem, "view", str(directory), "--as", player, "--key", str(keys[player]),
                          "--state-dir", str(state)],
            "pbem move": [*pbem, "move", str(directory), "--as", player, "--key", str(keys[player]), "--choose", "1",
                          "--out", str(where / "again.json")],
            "pbem submit": [*pbem, "submit", str(copy), str(move_file), "--referee-key", str(keys["referee"])],
        }
        tabs = {"Tab after pbem st": "pbem st", "Tab after view --as": f"pbem view {directory} --as "}
        runs: dict[str, tuple[list[str], dict[str, str] | None]] = {
            "import floor": (FLOOR, None), **{name: (command, None) for name, command in LIBRARIES.items()},
            **{tree + name: (command, env) for tree, env in trees.items() for name, command in commands.items()},
            **{name: (pbem, {**trees[""], "_PBEM_COMPLETE": "bash_complete", "COMP_LINE": line})
               for name, line in tabs.items()},
        }
        found: dict[str, list[Times]] = {name: [] for name in runs}
        for name in alternated(list(runs), args.runs):
            if name.endswith("pbem submit"):  # on a fresh copy of the game each time (not timed)
                shutil.rmtree(copy, ignore_errors=True)
                shutil.copytree(directory, copy)
            found[name].append(timed(*runs[name]))
    floor = median(found["import floor"])
    print(f"{args.game}, {args.players} players, at turn {args.turns}; median of {args.runs} runs "
          "(wall time, and CPU time: user and system)")
    for name, times in found.items():
        of = median(times)
        print(f"  {name:23} {of.wall * 1000:7.1f} ms  {of.wall / floor.wall:5.2f}x the import floor   "
              f"CPU {of.cpu * 1000:6.1f} ms  {of.cpu / floor.cpu:5.2f}x")


if __name__ == "__main__":
    main()

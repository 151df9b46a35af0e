"""Random self-play in memory, games per second, against another source tree in the same run.

    python benchmarks/bench_selfplay.py [--games N] [--rounds R] [--baseline DIR] [--profile] [CONFIG ...]

A configuration is ``GAME:PLAYERS`` or ``GAME:PLAYERS:SCENARIO`` (default:
``nightfall:4 nightlancer:4``, README's target: 50 games/s each, in the
standard scenario). Random bots play whole
games with :func:`pbem.bots.playout.play` over the game layer alone: no
files, no keys, no crypto. Each round starts one process per tree and
configuration, which plays N games (default 20, seeds 0 to N-1: the same
games every round and in every tree that plays them alike) and reports the
CPU time and the wall time it took; the processes of a round run one after
another, alternately (each round in the reverse order of the one before),
so that a change in the machine's load touches all alike and none is
always first.

``--baseline DIR`` also runs another pbem source tree (``DIR/pbem``, e.g.
``git archive`` of an older commit), first on the path, in the same rounds:
the ratio of the two is what carries over from one machine to another.
The rate is of CPU time, since the machine may be shared: a process that
waits for a core is not slower; the rate by wall time is printed beside it.

Prints the machine's speed first; then, per configuration and tree, the
games per CPU second over all rounds (and per wall second), the steps
(decisions answered) per game and per CPU second, and the ratio to the
baseline. ``--profile`` instead profiles this tree's games in
this process (cProfile, own time; the profiler slows pure Python more than C).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
import time
from pathlib import Path

from machine import alternated, print_speed

HERE = Path(__file__).resolve().parents[1]
SEATS = ["ann", "bob", "cyd", "dee", "eve", "fay"]
DEFAULT_CONFIGS = ["nightfall:4", "nightlancer:4"]
TARGET = 50.0


def play_games(config: str, games: int, profiler: cProfile.Profile | None = None) -> dict[str, float]:
    """Play ``games`` random games of ``config``; their count, steps and CPU time (the imports and
    the scenario's loading not counted, nor profiled)."""
    try:
        from pbem.bots.playout import play
    except ImportError:  # a baseline tree from before the bots had their package
        from pbem.engine.simulate import play  # type: ignore[import-not-found, no-redef]
    from pbem.engine import find_game

    game_name, players_text, scenario_name = (config.split(":") + [""])[:3]
    game = find_game(game_name)
    players = SEATS[:int(players_text)]
    scenario = game.load_scenario(scenario_name or game.scenarios()[0])
    steps = 0
    if profiler is not None:
        profiler.enable()
    start, used = time.perf_counter(), time.process_time()
    for seed in range(games):
        steps += play(game, players, seed, scenario).steps
    cpu, wall = time.process_time() - used, time.perf_counter() - start
    if profiler is not None:
        profiler.disable()
    return {"games": games, "steps": steps, "cpu": cpu, "wall": wall}


def worker(config: str, games: int) -> None:
    """One process's share of a round, as one line of JSON on stdout."""
    import pbem

    found = play_games(config, games)
    print(json.dumps({**found, "pbem": str(Path(pbem.__file__).resolve().parent)}))


def run_worker(tree: Path, config: str, games: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, __file__, "--worker", config, "--games", str(games)],
                          env=env, capture_output=True, text=True, cwd="/")
    if done.returncode != 0:
        raise SystemExit(f"{config} on {tree} exited {done.returncode}: {done.stderr[-800:]}")
    found: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(str(found["pbem"])) != tree / "pbem":
        raise SystemExit(f"the process for {tree} imported pbem from {found['pbem']}")
    return found


def profile(configs: list[str], games: int) -> None:
    profiler = cProfile.Profile()
    for config in configs:
        play_games(config, games, profiler)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("configs", nargs="*", default=DEFAULT_CONFIGS, metavar="CONFIG")
    parser.add_argument("--games", type=int, default=20, help="games per process (seeds 0 to N-1)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", type=Path, default=None, help="another pbem source tree to compare with")
    parser.add_argument("--profile", action="store_true", help="profile this tree's games instead")
    parser.add_argument("--worker", metavar="CONFIG", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.games)
        return
    if args.profile:
        profile(args.configs, args.games)
        return
    print_speed()
    trees = {"this tree": HERE}
    if args.baseline is not None:
        trees["baseline"] = args.baseline.resolve()
    totals: dict[tuple[str, str], dict[str, float]] = {}
    runs = [(config, label) for config in args.configs for label in trees]
    for config, label in alternated(runs, args.rounds):
        found = run_worker(trees[label], config, args.games)
        total = totals.setdefault((config, label), {"games": 0, "steps": 0, "cpu": 0.0, "wall": 0.0})
        for key in total:
            total[key] += found[key]
    print(f"random self-play, {args.games} games x {args.rounds} rounds per tree and configuration "
          f"(CPU time, and wall time; target {TARGET:.0f} games/s)")
    width = max(len(config) for config in args.configs)
    for config in args.configs:
        rates = {}
        for label in trees:
            total = totals[(config, label)]
            rates[label] = total["games"] / total["cpu"]
            print(f"  {config:{width}} {label:9} {rates[label]:8.1f} games/s of CPU "
                  f"({total['games'] / total['wall']:.1f} of wall)  {total['steps'] / total['games']:6.0f} "
                  f"steps/game  {total['steps'] / total['cpu']:8.0f} steps/s")
        if "baseline" in rates:
            print(f"  {config:{width}} {'':9} {rates['this tree'] / rates['baseline']:8.2f}x the baseline")


if __name__ == "__main__":
    main()

"""Time one referee step on the toy game and on Nightlancer, and a whole toy ``pbem demo``.

    python benchmarks/bench_referee.py [--games N] [--turns T]

Prints the machine's speed first; then the median time of one ``submit``
(lock, read and check the current turn, parse, checks, apply, seal every
section, sign, write atomically), on the toy game (3 players, scenario
``long``) and on Nightlancer (2 players, the first ``--turns`` turns of
random play), and of a full toy demo game (keys, new, every
view/move/submit, verify), each by wall time and by CPU time. N games of
each are played, alternately (a toy game, a Nightlancer game, a demo, then
the other way round...), so that a change in the machine's load touches
all three alike.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers_referee import make_keys, make_table
from machine import Times, alternated, median, print_speed, timed

from pbem.bots.random_bot import RandomBot
from pbem.engine.rng import Rng
from pbem.referee import make_move, new_game, read_view, run_demo, submit
from pbem.referee.public import status


def toy_steps(index: int) -> list[Times]:
    """Every ``submit`` of one toy game of 3 players, timed alone."""
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        table = make_table(Path(tmp), players=("alice", "bob", "carol"), seed=bytes([index + 1]) * 32,
                           scenario="long")
        while True:
            awaiting = table.view("alice").turn.doc["awaiting"]
            if not awaiting:
                break
            player = awaiting[0]["player"]
            data = table.move(player, table.view(player).decision.options[0].id)
            times.append(timed(partial(submit, table.dir, data, table.referee))[1])
    return times


def game_steps(game: str, index: int, turns: int, players: tuple[str, ...] = ("alice", "bob")) -> list[Times]:
    """``submit`` timed alone, on random bot play of a real game (the bots' views and moves are not timed)."""
    times = []
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
            times.append(timed(partial(submit, directory, data, keys["referee"]))[1])
    return times


def demo(index: int) -> list[Times]:
    """One whole toy demo game, timed."""
    with tempfile.TemporaryDirectory() as tmp:
        report, times = timed(lambda: run_demo(Path(tmp) / "demo", "highcard", 2, seed=bytes([index + 1]) * 32))
        assert report.result is not None
    return [times]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--turns", type=int, default=60, help="Nightlancer turns timed per game")
    args = parser.parse_args()
    print_speed()
    kinds: dict[str, Callable[[int], list[Times]]] = {
        "toy": toy_steps, "nightlancer": lambda index: game_steps("nightlancer", index, args.turns), "demo": demo}
    found: dict[str, list[Times]] = {name: [] for name in kinds}
    played = dict.fromkeys(kinds, 0)
    for name in alternated(list(kinds), args.games):
        found[name] += kinds[name](played[name])
        played[name] += 1
    for name, label, unit in (("toy", "submit, one step (3 players, toy game 'long')", 1000),
                              ("nightlancer", "submit, one step (2 players, nightlancer)", 1000),
                              ("demo", "demo, whole toy game (2 players, keys + new + play + verify)", 1)):
        of, slowest = median(found[name]), max(t.wall for t in found[name])
        suffix = "ms" if unit == 1000 else "s"
        print(f"{label}: median wall {of.wall * unit:.2f} {suffix}, CPU {of.cpu * unit:.2f} {suffix}; "
              f"slowest {slowest * unit:.2f} {suffix} wall, over {len(found[name])}")


if __name__ == "__main__":
    main()

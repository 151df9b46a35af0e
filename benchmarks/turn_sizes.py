"""Turn file sizes: random bots play through the real referee, and the size of every file is measured.

    python benchmarks/turn_sizes.py [--games N] [--turns T] [CONFIG ...]

A configuration is ``GAME:PLAYERS`` (default: ``nightfall:2 nightfall:5
nightlancer:4``). For each, N games (default 2) are played from a fresh
directory with ``pbem new`` and, turn by turn, the awaited player's view is
opened with their key, a random bot picks an option, the move file is
signed and ``submit`` runs (the very calls ``pbem view``, ``pbem move`` and
``pbem submit`` make). At most T turns are played per game (default: the
whole game). The games are played alternately (every configuration's first
game, then every second game in the reverse order...). Prints the
machine's speed first; then, per configuration, the median and maximum size
in bytes of the turn file and of each of its parts: the public part, one
player's sealed section, the referee's sealed section, the commitments; and
of the move files and of the sealed choices inside them; and the wall and
CPU time its games took.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import defaultdict
from functools import partial
from pathlib import Path

from machine import Times, alternated, print_speed, timed

from pbem.bots.random_bot import RandomBot
from pbem.crypto.keys import generate
from pbem.engine.rng import Rng
from pbem.referee import make_move, new_game, read_view, submit
from pbem.referee.public import status

NAMES = ["ann", "bob", "cyd", "dee", "eve"]
DEFAULT_CONFIGS = ["nightfall:2", "nightfall:5", "nightlancer:4"]


def _size(value: object) -> int:
    """Bytes of a member as the turn file writes it (two-space indent)."""
    if isinstance(value, str):
        return len(value.encode())
    return len(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False).encode())


def measure(game: str, count: int, index: int, turns: int | None, sizes: dict[str, list[int]]) -> None:
    """Play game ``index`` of ``game`` with ``count`` players; the sizes of every turn file, its parts and every
    move file go into ``sizes``."""
    players = NAMES[:count]
    keys = {name: generate(name) for name in ["referee", *players]}
    bots = {p: RandomBot(Rng.from_seed(f"turn-sizes-{game}-{count}-{index}-{p}")) for p in players}
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp) / "game"
        new_game(directory, game, [(p, keys[p].public) for p in players], keys["referee"],
                 seed=bytes([index + 1]) * 32)
        played = 0
        while True:
            _record_turn(directory, sizes)
            now = status(directory)
            if now.over or (turns is not None and played >= turns):
                break
            player = now.awaiting[0]["player"]
            view = read_view(directory, player, keys[player])
            assert view.decision is not None
            data = make_move(view, keys[player], [bots[player].choose(view.private, view.decision)])
            sizes["move file"].append(len(data))
            sizes["  sealed choices"].append(_size(json.loads(data)["sealed_choices"]))
            submit(directory, data, keys["referee"])
            played += 1


def _record_turn(directory: Path, sizes: dict[str, list[int]]) -> None:
    latest = max((directory / "turns").glob("*.json"))
    data = latest.read_bytes()
    doc = json.loads(data)
    sizes["turn file"].append(len(data))
    sizes["  public"].append(_size(doc["public"]))
    sizes["  commitments"].append(_size(doc["commitments"]))
    sealed = doc["sealed"]
    sizes["  referee section"].append(_size(sealed["referee"]))
    for name, text in sealed.items():
        if name != "referee":
            sizes["  one player's section"].append(_size(text))
    sizes["  all player sections"].append(sum(_size(t) for n, t in sealed.items() if n != "referee"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("configs", nargs="*", default=DEFAULT_CONFIGS, help="GAME:PLAYERS")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--turns", type=int, default=None, help="turns played per game at most (default: all)")
    args = parser.parse_args()
    print_speed()
    found: dict[str, dict[str, list[int]]] = {config: defaultdict(list) for config in args.configs}
    spent = dict.fromkeys(args.configs, Times(0.0, 0.0))
    for index, config in enumerate(alternated(args.configs, args.games)):
        game, _, count = config.partition(":")
        _, times = timed(partial(measure, game, int(count), index // len(args.configs), args.turns, found[config]))
        spent[config] = Times(spent[config].wall + times.wall, spent[config].cpu + times.cpu)
    for config in args.configs:
        game, _, count = config.partition(":")
        sizes = found[config]
        print(f"{game} {count} players: {len(sizes['turn file'])} turns over {args.games} games (bytes; "
              f"{spent[config].wall:.1f} s wall, {spent[config].cpu:.1f} s CPU)")
        print(f"  {'':24} {'median':>8} {'max':>8}")
        for part, values in sizes.items():
            print(f"  {part:24} {int(statistics.median(values)):8d} {max(values):8d}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

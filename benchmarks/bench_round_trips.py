"""Mail round trips of a whole 2-player Nightfall game, before and after "fewer round trips".

    python benchmarks/bench_round_trips.py [--games N] [--before | --after]

A round trip is one move a player mails and the referee's mail that answers
it. Random bots play N seeded games in memory, one choice per move (a bot
never sends later choices ahead), with the referee's step: ``begin_step``,
the move's choice, then the standing orders carried out
(:func:`pbem.referee.orders.carry_out`), so each move is one round trip and
a decision that the machine or a standing order answers costs none.

The configurations:

* ``before``: every decision with one option that only its public count lets
  the machine take is asked (``Nightfall(take_public_singles=False)``), no
  standing orders: the referee as it was before;
* ``after``: decisions with one option taken where that reveals nothing
  (docs/trust.md "Decisions with one option"), no standing orders;
* ``after+careful``: and the standing orders that reveal nothing:
  ``wound-window=always`` (a Martial Law wound can still be used before each
  strike) and ``nothing-to-claim=always`` (end the claim phase when nothing
  is left to claim, a public fact).

``--before`` / ``--after`` run only the first / the other configurations.
Each configuration plays its own games (the moves skipped shift the bots'
and the rules' generators), so the figures are means over independent
samples, printed with their standard error. The games are played seed by
seed, alternately (every configuration's game of a seed, in the reverse
order for the next seed), and the machine's speed is printed first, with
the wall and CPU time each configuration's games took.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
from functools import partial

from machine import Times, alternated, print_speed, timed

from pbem.bots import RandomBot
from pbem.engine.protocol import Game, apply_choice
from pbem.engine.rng import Rng, step_rng
from pbem.games.nightfall.game import Nightfall
from pbem.referee import orders

PLAYERS = ("ann", "bob")
CAREFUL = {"wound-window": "always", "nothing-to-claim": "always"}
#: name: (take public singles, each player's standing orders)
CONFIGURATIONS: dict[str, tuple[bool, dict[str, str]]] = {
    "before": (False, {}),
    "after": (True, {}),
    "after+careful": (True, CAREFUL),
}


def round_trips(game: Game, seed: int, auto_pass: dict[str, str]) -> int:
    """The moves players mail in one random game of ``seed`` (each answered by the referee's mail)."""
    key = hashlib.sha256(f"round-trips-{seed}".encode()).digest()
    state = game.new_state(game.load_scenario(game.scenarios()[0]), list(PLAYERS), step_rng(key, [], 0))
    standing: orders.Orders = {p: {"auto_pass": dict(auto_pass)} for p in PLAYERS} if auto_pass else {}
    bots = {p: RandomBot(Rng.from_seed(f"round-trips-{seed}-{p}")) for p in PLAYERS}
    moves = 0
    while decisions := game.awaiting(state):
        moves += 1
        decision = decisions[0]
        rng = step_rng(key, [], moves)
        game.begin_step(state)
        state = apply_choice(game, state, decision.player, bots[decision.player].choose(None, decision), rng,
                             decision=decision)
        state = orders.carry_out(game, state, standing, rng, [])
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="seeded games per configuration (default 50)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--before", action="store_true", help="only the referee as it was before")
    which.add_argument("--after", action="store_true", help="only the configurations with the new features")
    args = parser.parse_args()
    names = ["before"] if args.before else [n for n in CONFIGURATIONS if n != "before"] if args.after else list(CONFIGURATIONS)
    print_speed()
    print(f"mail round trips per 2-player Nightfall game, random bots, {args.games} seeded games each")
    games = {name: Nightfall(take_public_singles=CONFIGURATIONS[name][0]) for name in names}
    counts: dict[str, list[int]] = {name: [] for name in names}
    spent = {name: Times(0.0, 0.0) for name in names}
    for index, name in enumerate(alternated(names, args.games)):
        seed = index // len(names)
        count, times = timed(partial(round_trips, games[name], seed, CONFIGURATIONS[name][1]))
        counts[name].append(count)
        spent[name] = Times(spent[name].wall + times.wall, spent[name].cpu + times.cpu)
    for name in names:
        found = counts[name]
        error = statistics.stdev(found) / len(found) ** 0.5 if len(found) > 1 else 0.0
        print(f"{name:16} mean {statistics.mean(found):6.1f} ± {error:4.1f}  median {statistics.median(found):6.1f}  "
              f"({spent[name].wall:.1f} s wall, {spent[name].cpu:.1f} s CPU)")


if __name__ == "__main__":
    main()

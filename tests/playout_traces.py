"""The trace of a random playout, as one digest: what pins the rules' behaviour when their code changes.

A trace is everything a seeded random game shows at every step: the
decisions awaited (players, kinds, prompts, options with their labels), the
public part and every player's private part (events included), then the
choices made, the final state and the result. Two versions of the game
layer that give the same digest for a seed played the same game the same
way, down to the text of every event.

Used by ``tests/conformance/test_golden_traces.py`` (a few seeds, against golden
digests) and, for a before/after comparison of many seeds against another
source tree, by running this file::

    PYTHONPATH=OTHER_TREE python tests/playout_traces.py --seeds 100 > other.json
    python tests/playout_traces.py --seeds 100 > this.json

(it reads only the protocol and :func:`pbem.bots.playout.play`, so it runs
on an older tree too). ``--without-final-state`` leaves the final state out:
for a change of what the state holds (the form of the card data) that must
leave every decision, view, choice and result as it was.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from typing import Any

from pbem.bots.playout import play
from pbem.engine import Game, ScenarioError, find_game
from pbem.engine.registry import GAMES

SEATS = ["ann", "bob", "cyd", "dee", "eve", "fay"]


def _feed(digest: Any, data: Any) -> None:
    digest.update(json.dumps(data, sort_keys=True, separators=(",", ":")).encode())
    digest.update(b"\n")


def trace_digest(game: Game, scenario: Any, seats: int, seed: int, final_state: bool = True) -> str:
    """The SHA-256 of the trace of the random game ``seed`` at ``seats`` seats (``final_state=False``:
    without the final state, for a change of what the state holds that must not change the play)."""
    digest = hashlib.sha256()
    players = SEATS[:seats]

    def record(game: Game, state: Any) -> None:
        _feed(digest, [decision.to_json() for decision in game.awaiting(state)])
        _feed(digest, game.public(state))
        for player in players:
            _feed(digest, game.private(state, player))

    playout = play(game, players, seed, scenario, check=record)
    _feed(digest, playout.choices)
    if final_state:
        _feed(digest, playout.state)
    result = game.result(playout.state)
    _feed(digest, None if result is None else result.to_json())
    return digest.hexdigest()


def traces(games: list[str], scenarios: str, seeds: range, final_state: bool = True) -> dict[str, str]:
    """``{"GAME/SCENARIO/SEATS/SEED": digest}`` for every seat count of the standard scenario
    (``scenarios="standard"``) or of every scenario (``"all"``)."""
    found: dict[str, str] = {}
    for name in games:
        game = find_game(name)
        listed = list(game.scenarios())
        for scenario_name in listed if scenarios == "all" else listed[:1]:
            scenario = game.load_scenario(scenario_name)
            for seats in range(game.min_players, game.max_players + 1):
                for seed in seeds:
                    key = f"{name}/{scenario_name}/{seats}/{seed}"
                    try:
                        found[key] = trace_digest(game, scenario, seats, seed, final_state)
                    except ScenarioError as error:  # a scenario that does not seat this many
                        found[key] = f"{type(error).__name__}: {error}"
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=sorted(GAMES))
    parser.add_argument("--scenarios", choices=["standard", "all"], default="standard")
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--without-final-state", action="store_true",
                        help="leave the final state out of each digest (a change of the card data the state holds)")
    args = parser.parse_args()
    found = traces(args.games, args.scenarios, range(args.first_seed, args.first_seed + args.seeds),
                   final_state=not args.without_final_state)
    print(json.dumps(found, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()

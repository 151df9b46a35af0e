"""A referee step late in a long game against one early in a short game, measured in the same run.

    python benchmarks/bench_history.py [--moves M] [--steps N]

The target is a step at move 2,000 within 10% of a step at move 10 (README):
what a step costs must not grow with the game's history (the files in
``turns/`` and ``moves/``). To measure that alone, the game here keeps a
state of one size all along (``Rotation``, defined below: two players take
turns passing a card of their hand on; hands, deck and public part keep
their sizes), so that a late step differs from an early one only by the
history behind it.

Two games are set up: one is played to move M (default 2,000), the other to
move 10. Then N steps (default 40) of each are timed, alternately, so that a
change in the machine's load touches both alike. Prints both medians and
their ratio.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pbem.crypto.keys import generate
from pbem.engine import Decision, Option, Result, Rng, SealedSizes, register
from pbem.engine.errors import InvariantError
from pbem.referee import make_move, new_game, read_view, submit

PLAYERS = ("ann", "bob")
HAND, DECK = 12, 120


class Rotation:
    """Two players take turns; each passes one card of their hand to the bottom of the deck and draws the top one.

    Nothing grows: the hands, the deck and the public part keep their sizes,
    so a step late in the game works on a state of the same size as an early one.
    """

    name = "rotation"
    min_players = 2
    max_players = 2

    def scenarios(self) -> Sequence[str]:
        return ["standard"]

    def load_scenario(self, name: str, cards: str | None = None) -> dict[str, Any]:
        return {"name": name, "cards": list(range(1000, 1000 + 2 * HAND + DECK)), "moves": 1_000_000}

    def new_state(self, scenario: Any, players: Sequence[str], rng: Rng) -> dict[str, Any]:
        deck = rng.shuffled(scenario["cards"], label="deal")
        return {"cards": list(scenario["cards"]), "players": list(players), "move": 0,
                "hands": {p: sorted(deck[i * HAND:(i + 1) * HAND]) for i, p in enumerate(players)},
                "deck": deck[2 * HAND:], "passed": dict.fromkeys(players, 0)}

    def awaiting(self, state: dict[str, Any]) -> list[Decision]:
        player = state["players"][state["move"] % 2]
        return [Decision(player=player, kind="pass", prompt="pass a card on",
                         options=tuple(Option(f"card-{c}", f"pass {c}") for c in state["hands"][player]))]

    def decision_kinds(self) -> frozenset[str]:
        return frozenset({"pass"})

    def begin_step(self, state: dict[str, Any]) -> None:
        """Nothing to forget: the state tells no events."""

    def apply(self, state: dict[str, Any], player: str, option_id: str, rng: Rng) -> dict[str, Any]:
        card = int(option_id.removeprefix("card-"))
        hand = state["hands"][player]
        hand.remove(card)
        state["deck"].append(card)
        hand.append(state["deck"].pop(0))
        hand.sort()
        state["passed"][player] += 1
        state["move"] += 1
        return state

    def static_state(self, scenario: Any) -> dict[str, Any]:
        return {"cards": list(scenario["cards"])}

    def cards(self, scenario: Any) -> dict[str, str]:
        return {str(c): f"card {c}" for c in scenario["cards"]}

    def public(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"passed": dict(state["passed"]), "deck_size": len(state["deck"])}

    def private(self, state: dict[str, Any], player: str) -> dict[str, Any]:
        return {"hand": list(state["hands"][player])}

    def sealed_sizes(self, seats: int) -> SealedSizes:
        return SealedSizes(player=256, decision=1024, referee=2048)

    def result(self, state: dict[str, Any]) -> Result | None:
        return None

    def render(self, public: Any, private: Any, cards: Any) -> str:
        return f"passed: {public['passed']}"

    def hidden_zones(self, state: dict[str, Any]) -> dict[str, list[Any]]:
        """None: the game commits per sealed section only, as a game may (the figures stay those of earlier runs)."""
        return {}

    def conceal(self, state: dict[str, Any], player: str, rng: Rng) -> dict[str, Any]:
        """A copy with what ``player`` cannot see redrawn: the deck's order and the other player's hand."""
        concealed = copy.deepcopy(state)
        other = next(p for p in concealed["players"] if p != player)
        pool = rng.shuffled(concealed["hands"][other] + concealed["deck"], label="conceal")
        concealed["hands"][other], concealed["deck"] = sorted(pool[:HAND]), pool[HAND:]
        return concealed

    def check_invariants(self, state: dict[str, Any]) -> None:
        held = [*state["deck"], *(c for hand in state["hands"].values() for c in hand)]
        if sorted(held) != sorted(state["cards"]):
            raise InvariantError("rotation: a card was lost or made")


GAME = Rotation()


class Table:
    """A game of Rotation in a directory, and a move to make for whoever is awaited."""

    def __init__(self, where: Path) -> None:
        self.keys = {name: generate(name) for name in ("referee", *PLAYERS)}
        self.dir = where / "game"
        new_game(self.dir, GAME.name, [(p, self.keys[p].public) for p in PLAYERS], self.keys["referee"],
                 seed=bytes([3]) * 32)
        self.moves = 0

    def next_move(self) -> bytes:
        player = PLAYERS[self.moves % 2]
        view = read_view(self.dir, player, self.keys[player])
        assert view.decision is not None
        return make_move(view, self.keys[player], [view.decision.options[self.moves % HAND].id])

    def step(self) -> float:
        data = self.next_move()
        start = time.perf_counter()
        submit(self.dir, data, self.keys["referee"])
        elapsed = time.perf_counter() - start
        self.moves += 1
        return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=2000, help="the long game's history before timing")
    parser.add_argument("--steps", type=int, default=40, help="steps timed in each game")
    args = parser.parse_args()
    register(GAME)
    with tempfile.TemporaryDirectory() as tmp:
        short, long = Table(Path(tmp) / "short"), Table(Path(tmp) / "long")
        for table, moves in ((short, 10), (long, args.moves)):
            for _ in range(moves):
                table.step()
            print(f"played to move {moves}", file=sys.stderr)
        early, late = [], []
        for _ in range(args.steps):
            early.append(short.step())
            late.append(long.step())
    early_ms, late_ms = statistics.median(early) * 1000, statistics.median(late) * 1000
    print(f"step at move 10:   median {early_ms:.2f} ms over {len(early)} steps")
    print(f"step at move {args.moves}: median {late_ms:.2f} ms over {len(late)} steps")
    print(f"ratio: {late_ms / early_ms:.3f}")


if __name__ == "__main__":
    main()

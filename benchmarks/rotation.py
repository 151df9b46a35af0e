"""Rotation: a game whose state keeps one size however long it is played, for the benchmarks of long games.

``bench_history.py`` times a step late in a long game of it against one early
in a short game, and ``bench_replay_memory.py`` replays games of it of
several lengths: what grows with such a game's length is its history alone
(the files in ``turns/`` and ``moves/``), never its state. ``GAME`` is what
``PBEM_GAMES=rotation`` registers in a ``pbem`` process (with this folder
on ``PYTHONPATH``), so that a whole ``pbem verify --replay`` can replay it.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from machine import Times, timed

from pbem.crypto.keys import generate
from pbem.engine import Decision, Option, Result, Rng, SealedSizes
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

    def step(self) -> Times:
        """Make the awaited player's move (not timed) and submit it; the submit's wall and CPU time."""
        data = self.next_move()
        _, times = timed(lambda: submit(self.dir, data, self.keys["referee"]))
        self.moves += 1
        return times

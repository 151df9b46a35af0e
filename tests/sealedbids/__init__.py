"""Sealed Bids: a toy game that is one subpackage plus scenario data.

It proves that a third game needs nothing outside its own package: the rules
on the engine's turn machine (:mod:`.rules`), the protocol object below, and
its scenarios in ``scenarios/*.toml`` (listed from the files, in their
order). The test suite registers it (``tests/conftest.py``), and the generic
tests (random playouts, the leak property, the real referee files) run it
like the shipped games.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pbem.engine import Result, Rng, ScenarioError, SealedSizes
from pbem.engine.errors import invariant
from pbem.engine.machine import MachineGame
from pbem.engine.scenario_files import read_toml, scenario_names
from sealedbids import rules
from sealedbids.rules import State

SCENARIO_FORMAT = "sealedbids-scenario/1"
SCENARIO_DIR = Path(__file__).resolve().parent / "scenarios"


class SealedBids(MachineGame[State]):
    """See :mod:`.rules` for the rules."""

    name = "sealedbids"
    min_players = 2
    max_players = 4

    def __init__(self) -> None:
        self.machine = rules.turn_machine()

    def scenarios(self) -> Sequence[str]:
        return scenario_names(SCENARIO_DIR, SCENARIO_FORMAT)

    def load_scenario(self, name: str, cards: str | None = None) -> dict[str, Any]:
        path = SCENARIO_DIR / f"{name}.toml"
        if not path.is_file():
            raise ScenarioError(f"sealedbids has no scenario {name!r}")
        scenario = read_toml(path, "Sealed Bids scenario")
        if cards is not None:
            lots = read_toml(cards, "Sealed Bids card file").get("lots")
            if not isinstance(lots, list) or not lots or not all(isinstance(v, int) and v > 0 for v in lots):
                raise ScenarioError(f"{cards}: a Sealed Bids card file needs `lots = [positive integers]`")
            scenario["lots"] = lots
        return scenario

    def new_state(self, scenario: Any, players: Sequence[str], rng: Rng) -> State:
        if not self.min_players <= len(players) <= self.max_players:
            raise ScenarioError(f"sealedbids seats 2-4 players, not {len(players)}")
        state = rules.new_state(scenario, list(players), rng)
        self.machine.run(state, rng)
        return state



    def begin_step(self, state: State) -> None:
        state["events"] = []


    def static_state(self, scenario: Any) -> dict[str, Any]:
        """The lots of the set-up, for the conservation check: a pure function of the scenario."""
        return {"census": sorted(int(v) for v in scenario["lots"])}

    def cards(self, scenario: Any) -> dict[str, Any]:
        return {str(worth): {"name": f"a lot worth {worth}", "worth": worth} for worth in sorted(set(scenario["lots"]))}

    def sealed_sizes(self, seats: int) -> SealedSizes:
        # a bid decision offers up to one option per coin held (coins grow by cashing lots in)
        return SealedSizes(player=256, decision=1024, referee=1024)

    def public(self, state: State) -> dict[str, Any]:
        return {
            "coins": dict(state["coins"]), "won": {p: sorted(w) for p, w in state["won"].items()},
            "lot": state["lot"], "lots_left": len(state["deck"]), "discard": sorted(state["discard"]),
            "bidding": [d["player"] for d in state["pending"]], "events": list(state["events"]),
            "scores": state["scores"],
        }

    def private(self, state: State, player: str) -> dict[str, Any]:
        """A player's own sealed bid, until all are shown."""
        rounds = [t for t in state["stack"] if t["type"] == "round"]
        return {"my_bid": rounds[-1]["bids"].get(player) if rounds else None}

    def result(self, state: State) -> Result | None:
        scores = state["scores"]
        if not state["over"] or scores is None:
            return None
        best = max(scores.values())
        winners = tuple(p for p in state["players"] if scores[p] == best)
        return Result(winners=winners, scores=dict(scores),
                      summary=f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''} with {best}")

    def render(self, public: Any, private: Any, cards: Any) -> str:
        lot = cards[str(public["lot"])]["name"] if public["lot"] is not None else "none"
        lines = [f"Sealed Bids: lot up {lot}, {public['lots_left']} lots left",
                 "coins: " + ", ".join(f"{p} {c}" for p, c in public["coins"].items())]
        if private is not None and private["my_bid"] is not None:
            lines.append(f"your sealed bid: {private['my_bid']}")
        return "\n".join(lines + public["events"])

    def hidden_zones(self, state: State) -> Mapping[str, list[Any]]:
        """The face-down lots in order, and the sealed bids not yet shown."""
        rounds = [t for t in state["stack"] if t["type"] == "round"]
        bids = rounds[-1]["bids"] if rounds else {}
        return {"lots": list(state["deck"]), "bids": [[p, bids[p]] for p in sorted(bids)]}

    def conceal(self, state: State, player: str, rng: Rng) -> State:
        hidden = copy.deepcopy(state)
        rng.shuffle(hidden["deck"], label="conceal")
        for task in hidden["stack"]:
            if task["type"] == "round":
                for other in task["bids"]:
                    if other != player:
                        task["bids"][other] = rng.randbelow(hidden["coins"][other] + 1, label="conceal")
        return hidden

    def check_invariants(self, state: State) -> None:
        lots = list(state["deck"]) + list(state["discard"]) + [v for w in state["won"].values() for v in w]
        if state["lot"] is not None:
            lots.append(state["lot"])
        invariant(sorted(lots) == state["census"], f"lots not conserved: {sorted(lots)}")
        invariant(all(c >= 0 for c in state["coins"].values()), f"negative coins: {state['coins']}")
        invariant(state["over"] or bool(state["pending"]), "the game waits for nobody")


GAME = SealedBids()

__all__ = ["GAME", "SealedBids"]

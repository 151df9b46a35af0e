"""The Nightlancer game object: the engine protocol over this package's modules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.engine.machine import MachineGame, TurnMachine
from pbem.engine.protocol import Game, Result, SealedSizes
from pbem.engine.rng import Rng
from pbem.games.nightlancer import (
    actions,
    challenges,
    events,
    invariants,
    missions,
    prep,
    scoring,
    screen,
    setup,
    streets,
    view,
    zones,
)
from pbem.games.nightlancer.cards import catalogue
from pbem.games.nightlancer.zones import State


def turn_machine() -> TurnMachine[State]:
    """Every step, decision kind and free action of the rules, on one turn machine."""
    machine: TurnMachine[State] = TurnMachine("nightlancer")
    for module in (setup, prep, streets, missions, challenges, scoring, actions):
        module.register(machine)
    return machine


class Nightlancer(screen.NightlancerScreen, MachineGame[State]):
    """Nightlancer, 1 to 4 players: competitive, cooperative, solitaire, Hardened; its screen (scenarios,
    options, card data, drawing) is :class:`.screen.NightlancerScreen`'s."""

    name = "nightlancer"
    min_players = 1
    max_players = 4

    def __init__(self) -> None:
        self.machine = turn_machine()

    def new_state(self, scenario: Any, players: Sequence[str], rng: Rng) -> State:
        state = setup.new_state(scenario, players, rng)
        self.machine.run(state, rng)
        return state

    def begin_step(self, state: State) -> None:
        events.begin_step(state)

    def static_state(self, scenario: Any) -> dict[str, Any]:
        """The card catalogue: built from the scenario's card data alone, and never changed."""
        return {"catalogue": catalogue(scenario["card_data"])}

    def public(self, state: State) -> Any:
        return view.public(state)

    def private(self, state: State, player: str) -> Any:
        return view.private(state, player)

    def sealed_sizes(self, seats: int) -> SealedSizes:
        return view.SEALED_SIZES

    def result(self, state: State) -> Result | None:
        return scoring.result(state)

    def conceal(self, state: State, player: str, rng: Rng) -> State:
        return view.conceal(state, player, rng)

    def hidden_zones(self, state: State) -> dict[str, list[Any]]:
        """Every hidden zone by name (optional protocol method: one commitment per zone in each turn file)."""
        return zones.hidden_zones(state)

    def check_invariants(self, state: State) -> None:
        invariants.check_invariants(state)


#: the rules of Nightlancer, for the registry (:data:`pbem.games.nightlancer.GAME`)
GAME: Game[State] = Nightlancer()  # annotated: a type checker holds the rules to the protocol

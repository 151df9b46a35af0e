"""The Nightlancer game object: its rules, view and data on the game kit (:mod:`pbem.engine.kit`)."""

from __future__ import annotations

from typing import Any

from pbem.engine.kit import KitGame, View
from pbem.engine.machine import TurnMachine
from pbem.engine.protocol import Game, Result
from pbem.engine.rng import Rng
from pbem.games.nightlancer import (
    actions,
    challenges,
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
from pbem.games.nightlancer.events import EVENTS
from pbem.games.nightlancer.zones import State


def turn_machine() -> TurnMachine[State]:
    """Every step, decision kind and free action of the rules, on one turn machine."""
    machine: TurnMachine[State] = TurnMachine("nightlancer")
    for module in (setup, prep, streets, missions, challenges, scoring, actions):
        module.register(machine)
    return machine


class Nightlancer(screen.NightlancerScreen, KitGame[State]):
    """Nightlancer, 1 to 4 players: competitive, cooperative, solitaire, Hardened; its screen (scenarios,
    options, card data, drawing) is :class:`.screen.NightlancerScreen`'s."""

    min_players = 1
    max_players = 4
    view = View(public=view.public, private=view.private, zones=zones.zones, conceal=view.conceal)
    events = EVENTS

    def __init__(self) -> None:
        self.machine = turn_machine()

    def set_up(self, scenario: Any, players: list[str], rng: Rng) -> State:
        return setup.new_state(scenario, players, rng)

    def static_state(self, scenario: Any) -> dict[str, Any]:
        """The card catalogue: built from the scenario's card data alone, and never changed."""
        return {"catalogue": catalogue(scenario["card_data"])}

    def result(self, state: State) -> Result | None:
        return scoring.result(state)

    def check_invariants(self, state: State) -> None:
        invariants.check_invariants(state)


#: the rules of Nightlancer, for the registry (:data:`pbem.games.nightlancer.GAME`)
GAME: Game[State] = Nightlancer()  # annotated: a type checker holds the rules to the protocol

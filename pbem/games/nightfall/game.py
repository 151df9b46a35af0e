"""Nightfall: Martial Law as a :class:`pbem.engine.protocol.Game`: its rules, view and data on the game kit
(:mod:`pbem.engine.kit`)."""

from __future__ import annotations

from typing import Any

from pbem.engine.kit import KitGame, View
from pbem.engine.machine import TurnMachine
from pbem.engine.protocol import Game, Result
from pbem.engine.rng import Rng
from pbem.games.nightfall import chain, combat, damage, drafts, effects, flow, scoring, screen, turn, view
from pbem.games.nightfall.cards import check_effect_names
from pbem.games.nightfall.invariants import check_invariants
from pbem.games.nightfall.setup import empty_state, pinned_setup, start_game, static_members
from pbem.games.nightfall.state import EVENTS, State


def turn_machine(take_public_singles: bool = True) -> TurnMachine[State]:
    """Every task, decision kind and answer of the rules, on one turn machine
    (``take_public_singles``: see :class:`~pbem.engine.machine.TurnMachine`)."""
    machine: TurnMachine[State] = TurnMachine("nightfall", take_public_singles=take_public_singles)
    for module in (flow, drafts, turn, combat, damage, chain, effects, scoring):
        module.register(machine)
    return machine


class Nightfall(screen.NightfallScreen, KitGame[State]):
    """The rules of Nightfall: Martial Law, for 2 to 5 players; its screen (scenarios, options, card data,
    drawing) is :class:`.screen.NightfallScreen`'s."""

    min_players = 2
    max_players = 5
    view = View(public=view.public, private=view.private, zones=view.zones, conceal=view.conceal)
    events = EVENTS

    def __init__(self, take_public_singles: bool = True) -> None:
        """``take_public_singles=False``: every decision whose one option only its public count
        would let the machine take is asked (the rules before they took them, for comparisons)."""
        self.machine = turn_machine(take_public_singles)

    def check_card_data(self, data: dict[str, Any], where: str) -> None:
        """Every effect a card names is one the rules know (:data:`.effects.EFFECTS`), with a target it takes."""
        check_effect_names(data, where, effects.EFFECTS, effects.TARGETS)

    def set_up(self, scenario: Any, players: list[str], rng: Rng) -> State:
        state = empty_state(scenario, players)
        if "series" in state["options"]["variants"]:
            state["series"] = {"target": state["options"]["series_target"], "totals": dict.fromkeys(players, 0),
                               "games": []}
        if "pin" in scenario:
            pinned_setup(state, scenario["pin"], rng)
        else:
            start_game(state, rng)
        return state

    def static_state(self, scenario: Any) -> dict[str, Any]:
        """The card catalogue and the Quick Start sets: from the scenario's card data alone, never changed."""
        return static_members(scenario)

    def result(self, state: State) -> Result | None:
        return scoring.result(state)

    def check_invariants(self, state: State) -> None:
        check_invariants(state)


#: the rules of Nightfall, for the registry (:data:`pbem.games.nightfall.GAME`)
GAME: Game[State] = Nightfall()  # annotated: a type checker holds the rules to the protocol

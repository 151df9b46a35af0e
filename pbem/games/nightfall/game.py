"""Nightfall: Martial Law as a :class:`pbem.engine.protocol.Game`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pbem.engine.errors import ScenarioError
from pbem.engine.machine import MachineGame, TurnMachine
from pbem.engine.protocol import Game, Result, SealedSizes
from pbem.engine.rng import Rng
from pbem.games.nightfall import chain, combat, damage, drafts, effects, flow, scenarios, scoring, screen, turn, view
from pbem.games.nightfall.cards import check_effect_names, read_cards
from pbem.games.nightfall.invariants import check_invariants
from pbem.games.nightfall.setup import empty_state, pinned_setup, start_game, static_members
from pbem.games.nightfall.state import State, begin_step


def turn_machine(take_public_singles: bool = True) -> TurnMachine[State]:
    """Every task, decision kind and answer of the rules, on one turn machine
    (``take_public_singles``: see :class:`~pbem.engine.machine.TurnMachine`)."""
    machine: TurnMachine[State] = TurnMachine("nightfall", take_public_singles=take_public_singles)
    for module in (flow, drafts, turn, combat, damage, chain, effects, scoring):
        module.register(machine)
    return machine


def read_playable_cards(path: Path) -> dict[str, Any]:
    """A card file (:func:`.cards.read_cards`) whose every effect is one the rules know (:data:`.effects.EFFECTS`)."""
    data = read_cards(path)
    check_effect_names(data, str(path), effects.EFFECTS)
    return data


class Nightfall(screen.NightfallScreen, MachineGame[State]):
    """The rules of Nightfall: Martial Law, for 2 to 5 players; its screen (scenarios, options, card data,
    drawing) is :class:`.screen.NightfallScreen`'s."""

    name = "nightfall"
    min_players = 2
    max_players = 5

    def __init__(self, take_public_singles: bool = True) -> None:
        """``take_public_singles=False``: every decision whose one option only its public count
        would let the machine take is asked (the rules before such decisions were taken without asking,
        for comparisons)."""
        self.machine = turn_machine(take_public_singles)

    def load_scenario(self, name: str, cards: str | None = None) -> dict[str, Any]:
        """The screen's, with the one check only the rules make: every effect a card names is theirs."""
        return scenarios.load_scenario(name, cards, read_playable_cards)

    def new_state(self, scenario: Any, players: Sequence[str], rng: Rng) -> State:
        if not self.min_players <= len(players) <= self.max_players:
            raise ScenarioError(f"nightfall is for 2 to 5 players, not {len(players)}")
        if len(set(players)) != len(players):
            raise ScenarioError("player names must be distinct")
        state = empty_state(scenario, players)
        if "series" in state["options"]["variants"]:
            state["series"] = {"target": state["options"]["series_target"], "totals": dict.fromkeys(players, 0),
                               "games": []}
        if "pin" in scenario:
            pinned_setup(state, scenario["pin"], rng)
        else:
            start_game(state, rng)
        self.machine.run(state, rng)
        return state

    def begin_step(self, state: State) -> None:
        begin_step(state)

    def static_state(self, scenario: Any) -> dict[str, Any]:
        """The card catalogue and the Quick Start sets: from the scenario's card data alone, never changed."""
        return static_members(scenario)

    def public(self, state: State) -> Any:
        return view.public(state)

    def private(self, state: State, player: str) -> Any:
        return view.private(state, player)

    def sealed_sizes(self, seats: int) -> SealedSizes:
        return view.SEALED_SIZES

    def result(self, state: State) -> Result | None:
        return scoring.result(state)

    def hidden_zones(self, state: State) -> dict[str, list[str]]:
        """Every hidden zone by name (the optional protocol method behind per-zone commitments)."""
        return view.hidden_zones(state)

    def conceal(self, state: State, player: str, rng: Rng) -> State:
        return view.conceal(state, player, rng)

    def check_invariants(self, state: State) -> None:
        check_invariants(state)


#: the rules of Nightfall, for the registry (:data:`pbem.games.nightfall.GAME`)
GAME: Game[State] = Nightfall()  # annotated: a type checker holds the rules to the protocol

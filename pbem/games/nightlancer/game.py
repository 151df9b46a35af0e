"""The Nightlancer game object: the engine protocol over this package's modules."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pbem.engine.errors import ScenarioError
from pbem.engine.machine import MachineGame, TurnMachine
from pbem.engine.options import OptionTable
from pbem.engine.protocol import Result, SealedSizes
from pbem.engine.rng import Rng
from pbem.engine.scenario_files import check_schema, read_toml, scenario_names
from pbem.games.nightlancer import (
    actions,
    challenges,
    events,
    invariants,
    missions,
    prep,
    scoring,
    setup,
    streets,
    view,
    zones,
)
from pbem.games.nightlancer.cards import catalogue, read_card_file
from pbem.games.nightlancer.zones import State
from pbem.resources import scenario_dir

#: the format of a Nightlancer scenario file
SCENARIO_FORMAT = "pbem-nightlancer-scenario-v1"


def turn_machine() -> TurnMachine[State]:
    """Every step, decision kind and free action of the rules, on one turn machine."""
    machine: TurnMachine[State] = TurnMachine("nightlancer")
    for module in (setup, prep, streets, missions, challenges, scoring, actions):
        module.register(machine)
    return machine


class Nightlancer(MachineGame[State]):
    """Nightlancer, 1 to 4 players: competitive, cooperative, solitaire, Hardened."""

    name = "nightlancer"
    min_players = 1
    max_players = 4

    def __init__(self) -> None:
        self.machine = turn_machine()

    def scenarios(self) -> Sequence[str]:
        return scenario_names(scenario_dir("nightlancer"), SCENARIO_FORMAT)

    def load_scenario(self, name: str, cards: str | None = None) -> dict[str, Any]:
        path = scenario_dir("nightlancer") / f"{name}.toml"
        if not path.is_file():
            path = Path(name)
            if not path.is_file():
                raise ScenarioError(f"unknown Nightlancer scenario {name!r}; shipped: {', '.join(self.scenarios())}")
        scenario = read_toml(path, "Nightlancer scenario")
        check_schema(scenario, "scenario-nightlancer", str(path))
        scenario["options"] = setup.option_table().settle(scenario.get("options", {}), where=str(path))
        card_path = Path(cards) if cards else path.parent / scenario.get("cards", "cards.toml")
        return {**scenario, "card_data": read_card_file(card_path)}

    def declared_options(self) -> OptionTable:
        """The options a scenario or ``pbem new --option`` may set (``scenarios/nightlancer/options.toml``)."""
        return setup.option_table()

    def new_state(self, scenario: Any, players: Sequence[str], rng: Rng) -> State:
        state = setup.new_state(scenario, players, rng)
        self.machine.run(state, rng)
        return state

    def begin_step(self, state: State) -> None:
        events.begin_step(state)

    def static_state(self, scenario: Any) -> dict[str, Any]:
        """The card catalogue: built from the scenario's card data alone, and never changed."""
        return {"catalogue": catalogue(scenario["card_data"])}

    def cards(self, scenario: Any) -> dict[str, Any]:
        return view.card_facts(scenario)

    def public(self, state: State) -> Any:
        return view.public(state)

    def private(self, state: State, player: str) -> Any:
        return view.private(state, player)

    def sealed_sizes(self, seats: int) -> SealedSizes:
        return view.SEALED_SIZES

    def result(self, state: State) -> Result | None:
        return scoring.result(state)

    def render(self, public: Any, private: Any, cards: Any) -> str:
        return view.render(public, private, cards)

    def card_text(self, facts: Any) -> str:
        """One card of :meth:`cards` in full (optional protocol method: ``pbem card``, ``pbem view --cards``)."""
        return view.card_text(facts)

    def conceal(self, state: State, player: str, rng: Rng) -> State:
        return view.conceal(state, player, rng)

    def hidden_zones(self, state: State) -> dict[str, list[Any]]:
        """Every hidden zone by name (optional protocol method: one commitment per zone in each turn file)."""
        return zones.hidden_zones(state)

    def check_invariants(self, state: State) -> None:
        invariants.check_invariants(state)

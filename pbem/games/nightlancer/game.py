"""The Nightlancer game object: the engine protocol over this package's modules."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from pbem.engine.errors import ScenarioError
from pbem.engine.scenario_files import check_schema, read_toml
from pbem.engine.protocol import Decision, Result, SealedSizes
from pbem.engine.rng import Rng
from pbem.games.nightlancer import flow, invariants, scoring, set_up, view, zones
from pbem.games.nightlancer.cards import catalogue, read_card_file
from pbem.resources import scenario_dir

State = dict[str, Any]
#: public lines kept in the rolling ``recent`` log
RECENT = 24
SCENARIOS = ("standard", "cooperative", "solitaire", "hardened", "hardened-ultimate",
             "cooperative-hardened", "solitaire-hardened")


class Nightlancer:
    """Nightlancer, 1 to 4 players: competitive, cooperative, solitaire, Hardened."""

    name = "nightlancer"
    min_players = 1
    max_players = 4

    def scenarios(self) -> Sequence[str]:
        return SCENARIOS

    def load_scenario(self, name: str, cards: str | None = None) -> dict[str, Any]:
        path = scenario_dir("nightlancer") / f"{name}.toml"
        if not path.is_file():
            path = Path(name)
            if not path.is_file():
                raise ScenarioError(f"unknown Nightlancer scenario {name!r}; shipped: {', '.join(SCENARIOS)}")
        setup = read_toml(path, "Nightlancer scenario")
        check_schema(setup, "scenario-nightlancer", str(path))
        card_path = Path(cards) if cards else path.parent / setup.get("cards", "cards.toml")
        # top-level settings (mode, hardened, ...) stay top-level so `pbem new --option KEY=VALUE` can change them
        return {**setup, "card_data": read_card_file(card_path)}

    def new_state(self, scenario: Any, players: Sequence[str], rng: Rng) -> State:
        return set_up.new_state(scenario, players, rng)

    def awaiting(self, state: State) -> list[Decision]:
        return [] if state["over"] else flow.decisions(state)

    def decision_kinds(self) -> frozenset[str]:
        """The kinds registered with the flow (``flow.KINDS``): every pending entry names one."""
        return frozenset(flow.KINDS)

    def apply(self, state: State, player: str, option_id: str, rng: Rng) -> State:
        state["events"] = []
        state["private"] = {}
        flow.apply(state, player, option_id, rng)
        # a bounded log of the last public lines, so a mailed view shows what happened since the
        # player's last move (``events`` hold only the last step); bounded, so turn files do not grow
        state["recent"] = (state.get("recent", []) + state["events"])[-RECENT:]
        return state

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

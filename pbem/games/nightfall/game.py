"""Nightfall: Martial Law as a :class:`pbem.engine.protocol.Game`."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from pbem.engine.errors import ScenarioError
from pbem.engine.scenario_files import check_schema, read_toml
from pbem.engine.protocol import Decision, Option, Result, SealedSizes
from pbem.engine.rng import Rng
from pbem.games.nightfall import chain, combat, drafts, effects, flow, scoring, turn, view  # noqa: F401 (registers ops)
from pbem.games.nightfall.cards import build_catalog, read_cards
from pbem.games.nightfall.game_setup import empty_state, pinned_setup, start_game
from pbem.games.nightfall.invariants import check_invariants
from pbem.resources import scenario_dir

SCENARIOS = ("standard", "quick-start", "five-card", "upstream", "secret-archives", "open-archives",
             "common-ground", "series", "promos")
#: every decision kind the rules ask (the ``kind`` of each ``ask``/``choose`` call)
DECISION_KINDS = frozenset({
    "attack", "block", "block-order", "chain-start", "claim", "combat-order", "discard", "draft-pick", "feed",
    "feed-payment", "link", "order", "strike", "target", "trigger-order", "wound-effect", "wound-window",
})


class Nightfall:
    """The rules of Nightfall: Martial Law, for 2 to 5 players."""

    name = "nightfall"
    min_players = 2
    max_players = 5

    def scenarios(self) -> Sequence[str]:
        return SCENARIOS

    def load_scenario(self, name: str, cards: str | None = None) -> dict[str, Any]:
        path = Path(name) if name.endswith(".toml") else scenario_dir("nightfall") / f"{name}.toml"
        scenario = read_toml(path, "Nightfall scenario")
        check_schema(scenario, "scenario-nightfall", str(path))
        card_file = cards if cards is not None else scenario_dir("nightfall") / scenario.get("cards", "cards.toml")
        scenario["card_data"] = read_cards(card_file)
        return scenario

    def new_state(self, scenario: Any, players: Sequence[str], rng: Rng) -> dict[str, Any]:
        if not self.min_players <= len(players) <= self.max_players:
            raise ScenarioError(f"nightfall is for 2 to 5 players, not {len(players)}")
        if len(set(players)) != len(players):
            raise ScenarioError("player names must be distinct")
        state = empty_state(scenario, players)
        if "series" in state["options"]["variants"]:
            state["series"] = {"target": state["options"]["series_target"], "totals": {p: 0 for p in players},
                               "games": []}
        if "pin" in scenario:
            pinned_setup(state, scenario["pin"], rng)
        else:
            start_game(state, rng)
        flow.run(state, rng)
        return state

    def awaiting(self, state: dict[str, Any]) -> list[Decision]:
        return [
            Decision(
                player=d["player"], kind=d["kind"], prompt=d["prompt"],
                options=tuple(Option(o["id"], o["label"]) for o in d["options"]),
                pass_id=d["pass_id"], simultaneous=d["simultaneous"],
            )
            for d in state["pending"]
        ]

    def decision_kinds(self) -> frozenset[str]:
        return DECISION_KINDS

    def apply(self, state: dict[str, Any], player: str, option_id: str, rng: Rng) -> dict[str, Any]:
        state["events"] = []
        state["private_events"] = {}
        flow.answer(state, player, option_id, rng)
        return state

    def static_state(self, scenario: Any) -> dict[str, Any]:
        """The card catalogue: built from the scenario's card data alone, and never changed."""
        return {"catalog": build_catalog(scenario["card_data"])}

    def cards(self, scenario: Any) -> dict[str, dict[str, Any]]:
        return view.card_facts(scenario)

    def public(self, state: dict[str, Any]) -> Any:
        return view.public(state)

    def private(self, state: dict[str, Any], player: str) -> Any:
        return view.private(state, player)

    def sealed_sizes(self, seats: int) -> SealedSizes:
        return view.SEALED_SIZES

    def result(self, state: dict[str, Any]) -> Result | None:
        return scoring.result(state)

    def render(self, public: Any, private: Any, cards: Any) -> str:
        return view.render(public, private, cards)

    def card_text(self, facts: Any) -> str:
        """One card of :meth:`cards` in full (optional protocol method: ``pbem card``, ``pbem view --cards``)."""
        return view.card_text(facts)

    def hidden_zones(self, state: dict[str, Any]) -> dict[str, list[str]]:
        """Every hidden zone by name (the optional protocol method behind per-zone commitments)."""
        return view.hidden_zones(state)

    def conceal(self, state: dict[str, Any], player: str, rng: Rng) -> dict[str, Any]:
        return view.conceal(state, player, rng)

    def check_invariants(self, state: dict[str, Any]) -> None:
        check_invariants(state)


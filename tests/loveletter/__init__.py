"""Love Letter, 16 cards: the test-only game that shows what a game on the kit is made of.

It is not shipped with pbem: the test suite registers it by the ``PBEM_GAMES``
mechanism (:func:`pbem.engine.registry.register_modules`, from
``tests/conftest.py``), and the conformance suite (``tests/conformance/``)
runs it like any registered game, naming it nowhere. Everything it needs is
in this folder: its rules on the turn machine (:mod:`.rules`), the view and
the game below, and its data (``data/``: scenarios, options, card file,
their schemas and parsed copies, sealed sizes, golden traces). Its screen is
the kit's default.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from loveletter import rules
from loveletter.rules import CARDS, State
from pbem.engine.errors import ScenarioError, invariant
from pbem.engine.gamedata import CardFile, GameData
from pbem.engine.kit import KitGame, View, Zone
from pbem.engine.protocol import Game, Result
from pbem.engine.rng import Rng

HERE = Path(__file__).resolve().parent


def _unique_keys(data: dict[str, Any], where: str) -> None:
    keys = [card["key"] for card in data["card"]]
    if len(set(keys)) != len(keys):
        raise ScenarioError(f"{where}: a card key is used twice")


DATA = GameData("loveletter", HERE / "data", title="Love Letter", scenario_format="loveletter-scenario/1",
                scenario_schema="scenario-loveletter", schemas=HERE / "data" / "schemas",
                card_file=CardFile(what="Love Letter card file", format="loveletter-cards/1",
                                   since="the first version", schema="cards-loveletter", validate=_unique_keys))


# --- the view: what each player may know


def public(state: State) -> dict[str, Any]:
    """The table: tokens, the cards played (face up, in order), who is out or protected, how many cards
    each holds and the deck holds, the cards removed face up, whose turn it is."""
    return {"round": state["round"], "tokens": dict(state["tokens"]), "tokens_to_win": state["target"],
            "active": state["active"], "deck": len(state["deck"]), "removed_face_up": list(state["face_up"]),
            "played": {p: list(cards) for p, cards in state["discards"].items()},
            "hand_sizes": {p: len(cards) for p, cards in state["hands"].items()},
            "out": list(state["out"]), "protected": list(state["protected"])}


def private(state: State, player: str) -> dict[str, Any]:
    """The player's hand."""
    return {"hand": sorted(state["hands"][player])}


def zones(state: State) -> list[Zone]:
    """The deck (top last) and the card removed face down, seen by nobody; each hand, seen by its holder;
    each where it lies in the state."""
    return [Zone("deck", list(state["deck"]), (), (("deck",),)),
            Zone("removed", list(state["removed"]), (), (("removed",),)),
            *(Zone(f"hand:{p}", list(state["hands"][p]), (p,), (("hands", p),)) for p in state["players"])]


def conceal(state: State, player: str, rng: Rng) -> State:
    """Redraw what ``player`` may not know: the deck, the removed card and the other hands, among themselves."""
    hidden = copy.deepcopy(state)
    others = [p for p in hidden["players"] if p != player]
    pool = rng.shuffled(hidden["deck"] + hidden["removed"] + [c for p in others for c in hidden["hands"][p]],
                        label="conceal")
    for p in others:
        size = len(hidden["hands"][p])
        hidden["hands"][p], pool = pool[:size], pool[size:]
    hidden["removed"], hidden["deck"] = pool[:len(hidden["removed"])], pool[len(hidden["removed"]):]
    hidden["private"] = {p: lines for p, lines in hidden["private"].items() if p == player}
    return hidden


VIEW: View[State] = View(public=public, private=private, zones=zones, conceal=conceal)


class LoveLetter(KitGame[State]):
    """Love Letter for 2 to 4 players (see :mod:`.rules`)."""

    data = DATA
    min_players = 2
    max_players = 4
    view = VIEW
    events = rules.EVENTS

    def __init__(self) -> None:
        self.machine = rules.turn_machine()

    def check_card_data(self, data: dict[str, Any], where: str) -> None:
        """The cards are the rules' eight."""
        unknown = sorted({card["key"] for card in data["card"]} - set(CARDS))
        if unknown:
            raise ScenarioError(f"{where}: cards the rules do not know: {', '.join(unknown)}")

    def set_up(self, scenario: Any, players: list[str], rng: Rng) -> State:
        static = self.static_state(scenario)
        target = self.data.options(scenario.get("options", {}), players)["tokens_to_win"]
        pinned = [f"{k}#{n}" for n, k in rules.numbered(scenario.get("deck", []))]
        if not set(pinned) <= set(static["census"]):
            raise ScenarioError(f"the scenario's deck names cards the card data has not: {sorted(set(pinned) - set(static['census']))}")
        return rules.new_state(scenario, players, static["census"], static["cards"], target)

    def static_state(self, scenario: Any) -> dict[str, Any]:
        """The cards by key and every card id: from the card data alone."""
        cards = scenario["card_data"]["card"]
        return {"cards": {c["key"]: {"name": c["name"], "value": c["value"]} for c in cards},
                "census": sorted(f"{c['key']}#{n}" for c in cards for n in range(1, c["copies"] + 1))}

    def result(self, state: State) -> Result | None:
        if not state["over"]:
            return None
        winners = tuple(state["winners"])
        return Result(winners=winners, scores=dict(state["tokens"]),
                      summary=f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''} "
                              f"with {state['tokens'][winners[0]]} tokens of affection")

    def check_invariants(self, state: State) -> None:
        cards = state["deck"] + state["removed"] + state["face_up"]
        for player in state["players"]:
            cards += state["hands"][player] + state["discards"][player]
        invariant(sorted(cards) == state["census"], lambda: f"cards not conserved: {sorted(cards)}")
        for player in state["players"]:
            held = len(state["hands"][player])
            if state["over"] or player in state["out"]:
                invariant(held == 0, f"{player} holds {held} cards out of the round")
            else:
                invariant(held in (1, 2) and (held == 1 or player == state["active"]),
                          f"{player} holds {held} cards")
        invariant(state["over"] or bool(state["pending"]), "the game waits for nobody")


GAME: Game[State] = LoveLetter()

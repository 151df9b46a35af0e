"""High Card: a tiny hidden-hand game that exercises the whole game protocol.

It exists so that the referee's tests run fast without a real game. Rules:

* The deck holds the cards 1..N (``deck`` in the scenario, or the ``cards``
  list of a card file). Each player is dealt ``hand`` cards, hidden from the
  others.
* **Play** (simultaneous): every player with cards picks one face down. When
  the last pick is in, all are revealed together; the single highest card
  scores a point for its player (a tie for highest scores nobody). Played
  cards go to the discard pile.
* **Draw** (one player at a time, in seat order): each player may draw the top
  card of the deck or pass. When the deck is empty, passing is the only
  option.
* The game ends after ``rounds`` rounds, or at the start of a round in which
  some player has no card. Most points wins; tied leaders share the win.

A pick made early is held in the state and hidden from the other players'
views until everybody has picked. The deck list of the scenario is a static
member of the state (``static_state``), which the referee keeps out of its
sealed section.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from pbem.engine import Decision, Option, Result, Rng, ScenarioError, SealedSizes
from pbem.engine.errors import invariant
from pbem.engine.options import OptionSpec, OptionTable
from pbem.engine.scenario_files import read_toml
from pbem.engine.screen import wrap

#: the two decisions of the game
DECISION_KINDS = frozenset({"play", "draw"})

SCENARIOS: dict[str, dict[str, Any]] = {
    "standard": {"deck": 12, "hand": 2, "options": {}},
    "long": {"deck": 30, "hand": 3, "options": {"rounds": 8}},
}

#: the game's one option, declared as typed Python (a shipped game declares its options in
#: ``scenarios/GAME/options.toml``, which the tests check against the schema; a declaration in code
#: needs no schema, so ``pbem status`` and ``view`` of this game import no JSON Schema library)
OPTIONS = OptionTable(game="highcard", options=(
    OptionSpec(name="rounds", type="integer", minimum=1, default=3, help="The game ends after this many rounds."),
))


class HighCard:
    """The toy game; see the module docstring for its rules."""

    name = "highcard"
    min_players = 2
    max_players = 4

    def scenarios(self) -> Sequence[str]:
        return list(SCENARIOS)

    def load_scenario(self, name: str, cards: str | None = None) -> dict[str, Any]:
        if name not in SCENARIOS:
            raise ScenarioError(f"highcard has no scenario {name!r}")
        scenario: dict[str, Any] = copy.deepcopy(SCENARIOS[name])
        scenario["options"] = OPTIONS.settle(scenario["options"])
        scenario["cards"] = list(range(1, scenario.pop("deck") + 1))
        if cards is not None:
            values = read_toml(cards, "High Card card file").get("cards")
            if not isinstance(values, list) or not all(isinstance(v, int) for v in values):
                raise ScenarioError(f"{cards}: a highcard card file needs `cards = [integers]`")
            scenario["cards"] = values
        scenario["name"] = name
        return scenario

    def declared_options(self) -> OptionTable:
        return OPTIONS

    def new_state(self, scenario: Any, players: Sequence[str], rng: Rng) -> dict[str, Any]:
        if not self.min_players <= len(players) <= self.max_players:
            raise ScenarioError(f"highcard seats 2-4 players, not {len(players)}")
        deck = rng.shuffled(scenario["cards"], label="deal")
        hands: dict[str, list[int]] = {}
        for player in players:
            hands[player] = sorted(deck[: scenario["hand"]])
            deck = deck[scenario["hand"] :]
        return {
            "cards": list(scenario["cards"]),
            "players": list(players),
            "deck": deck,
            "hands": hands,
            "discard": [],
            "scores": dict.fromkeys(players, 0),
            "round": 1,
            "rounds": OPTIONS.settle(scenario["options"], players)["rounds"],
            "phase": "play",
            "picks": {},
            "drawer": 0,
            "over": any(not h for h in hands.values()),
            "events": [],
        }

    # --- decisions ---------------------------------------------------------

    def awaiting(self, state: dict[str, Any]) -> list[Decision]:
        if state["over"]:
            return []
        if state["phase"] == "play":
            return [
                Decision(
                    player=p,
                    kind="play",
                    options=tuple(Option(f"card-{c}", f"play {c}") for c in state["hands"][p]),
                    prompt="pick a card to play face down",
                    simultaneous=True,
                )
                for p in state["players"]
                if p not in state["picks"]
            ]
        player = state["players"][state["drawer"]]
        options = [Option("pass", "pass")]
        if state["deck"]:
            options.insert(0, Option("draw", "draw the top card"))
        return [
            Decision(player=player, kind="draw", options=tuple(options), prompt="draw or pass", pass_id="pass")
        ]

    def decision_kinds(self) -> frozenset[str]:
        return DECISION_KINDS

    def begin_step(self, state: dict[str, Any]) -> None:
        state["events"] = []

    def apply(self, state: dict[str, Any], player: str, option_id: str, rng: Rng) -> dict[str, Any]:
        if state["phase"] == "play":
            state["picks"][player] = int(option_id.removeprefix("card-"))
            state["events"].append(f"{player} has picked")
            if len(state["picks"]) == len(state["players"]):
                self._reveal(state)
            return state
        if option_id == "draw":
            card = state["deck"].pop(0)
            state["hands"][player] = sorted(state["hands"][player] + [card])
            state["events"].append(f"{player} draws")
        else:
            state["events"].append(f"{player} passes")
        state["drawer"] += 1
        if state["drawer"] == len(state["players"]):
            self._next_round(state)
        return state

    def _reveal(self, state: dict[str, Any]) -> None:
        picks = state["picks"]
        for player, card in picks.items():
            state["hands"][player].remove(card)
            state["discard"].append(card)
        shown = ", ".join(f"{p} {picks[p]}" for p in state["players"])
        best = max(picks.values())
        leaders = [p for p in state["players"] if picks[p] == best]
        if len(leaders) == 1:
            state["scores"][leaders[0]] += 1
            state["events"].append(f"round {state['round']}: {shown}; {leaders[0]} scores")
        else:
            state["events"].append(f"round {state['round']}: {shown}; a tie, nobody scores")
        state["picks"] = {}
        state["phase"] = "draw"
        state["drawer"] = 0

    def _next_round(self, state: dict[str, Any]) -> None:
        state["phase"] = "play"
        state["drawer"] = 0
        if state["round"] == state["rounds"] or any(not h for h in state["hands"].values()):
            state["over"] = True
        else:
            state["round"] += 1

    # --- information -------------------------------------------------------

    def public(self, state: dict[str, Any]) -> dict[str, Any]:
        return {
            "round": state["round"],
            "rounds": state["rounds"],
            "phase": state["phase"],
            "scores": dict(state["scores"]),
            "hand_sizes": {p: len(h) for p, h in state["hands"].items()},
            "deck_size": len(state["deck"]),
            "discard": sorted(state["discard"]),
            "picked": sorted(state["picks"]),
            "events": list(state["events"]),
        }

    def private(self, state: dict[str, Any], player: str) -> dict[str, Any]:
        return {"hand": list(state["hands"][player]), "my_pick": state["picks"].get(player)}

    def static_state(self, scenario: Any) -> dict[str, Any]:
        return {"cards": list(scenario["cards"])}

    def cards(self, scenario: Any) -> dict[str, dict[str, str]]:
        return {str(c): {"name": f"the {c}"} for c in scenario["cards"]}

    def sealed_sizes(self, seats: int) -> SealedSizes:
        # a hand of up to 30 cards and its options, the state of a 30-card deck
        return SealedSizes(player=256, decision=256, referee=1024)

    def result(self, state: dict[str, Any]) -> Result | None:
        if not state["over"]:
            return None
        best = max(state["scores"].values())
        winners = tuple(p for p in state["players"] if state["scores"][p] == best)
        return Result(
            winners=winners,
            scores=dict(state["scores"]),
            summary=f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''} with {best}",
        )

    def render(self, public: Any, private: Any, cards: Any) -> str:
        lines = [
            f"High Card, round {public['round']} of {public['rounds']} ({public['phase']})",
            "scores: " + ", ".join(f"{p} {s}" for p, s in public["scores"].items()),
            f"deck: {public['deck_size']} cards; discard: {public['discard']}",
        ]
        if private is not None:
            lines.append(f"your hand: {', '.join(cards[str(c)]['name'] for c in private['hand'])}")
            if private["my_pick"] is not None:
                lines.append(f"your pick: {private['my_pick']}")
        lines.extend(public["events"])
        return "\n".join(wrapped for line in lines for wrapped in wrap(line))

    def hidden_zones(self, state: dict[str, Any]) -> dict[str, list[int]]:
        """High Card names no zones: the referee commits per sealed section only."""
        return {}

    # --- for tests ---------------------------------------------------------

    def conceal(self, state: dict[str, Any], player: str, rng: Rng) -> dict[str, Any]:
        state = copy.deepcopy(state)
        others = [p for p in state["players"] if p != player]
        pool = list(state["deck"]) + [c for p in others for c in state["hands"][p]]
        rng.shuffle(pool, label="conceal")
        state["deck"] = pool[: len(state["deck"])]
        pool = pool[len(state["deck"]) :]
        for p in others:
            size = len(state["hands"][p])
            state["hands"][p] = sorted(pool[:size])
            pool = pool[size:]
            if p in state["picks"]:
                state["picks"][p] = rng.choice(state["hands"][p], label="conceal-pick")
        return state

    def check_invariants(self, state: dict[str, Any]) -> None:
        cards = list(state["deck"]) + list(state["discard"])
        for hand in state["hands"].values():
            cards += hand
        invariant(len(cards) == len(set(cards)), "a card is in two places")
        for player, card in state["picks"].items():
            invariant(card in state["hands"][player], f"{player} picked a card not in hand")
        invariant(all(s >= 0 for s in state["scores"].values()), "a negative score")


GAME = HighCard()

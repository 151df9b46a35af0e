"""Helpers for the Nightfall tests: pinned set-ups and choices by card name."""

from __future__ import annotations

import copy
from typing import cast

import pytest

from pbem.engine.protocol import apply_choice
from pbem.engine.rng import Rng
from pbem.games.nightfall import GAME
from pbem.games.nightfall.data import read_cards
from pbem.games.nightfall.game import Nightfall

#: the rules with every decision asked, for tests that script each choice the rules ask (the
#: decisions with one option that the machine takes without asking are tested in
#: tests/conformance/test_single_option_rule.py and by ``Table(..., take_public_singles=True)``)
ASK_EVERY_DECISION = Nightfall(take_public_singles=False)

_CARDS = read_cards()

#: cards the books name that are not in this set, for the worked examples
TEST_CARDS = [
    {"key": "death-grip", "name": "Death Grip", "type": "action", "group": "test", "copies": 1, "colour": "white",
     "links": ["white"], "cost": 0, "text": "Chain: inflict 3 damage on a player (EN 238).",
     "chain": [{"effect": "damage", "target": "player", "amount": 3}]},
    {"key": "bombardment", "name": "Bombardment", "type": "action", "group": "test", "copies": 1, "colour": "white",
     "links": ["white"], "cost": 0, "text": "Chain: deal 1 damage to every player (EN 132).",
     "chain": [{"effect": "damage", "target": "each-player", "amount": 1}]},
    # no printed card holds a condition on a trigger but "at the start of your turn"; card data may
    {"key": "lone-scout", "name": "Lone Scout", "type": "minion", "group": "test", "copies": 1, "colour": "blue",
     "links": ["blue"], "cost": 0, "strength": 1, "health": 3,
     "text": "In Play: When Lone Scout attacks, if you control no other minion, draw 2 cards.",
     "in_play": [{"ability": "on_attack", "condition": "alone", "effect": "draw", "amount": 2}]},
]


class Table:
    """A pinned game and short ways to act in it."""

    def __init__(self, pin, players=("janet", "scott", "brad"), options=None, take_public_singles=False):
        self.game = GAME if take_public_singles else ASK_EVERY_DECISION
        data = copy.deepcopy(_CARDS)
        data["card"] += copy.deepcopy(TEST_CARDS)
        scenario = {"format": "nightfall-scenario/1", "name": "test", "card_data": data,
                    "options": options or {}, "pin": pin}
        self.scenario = scenario
        self.state = self.game.new_state(copy.deepcopy(scenario), list(players), Rng.from_seed("table"))
        self.step = 0

    # --- looking
    @property
    def s(self):
        return self.state

    def screen(self, player):
        """What ``pbem view`` shows ``player``: the public and private parts joined to the card data."""
        return GAME.render(GAME.public(self.state), GAME.private(self.state, player), GAME.cards(self.scenario))

    def zone(self, player: str, zone: str) -> list[str]:
        zones: dict[str, list[str]] = cast(dict[str, list[str]], self.state["zones"][player])
        return zones[zone]

    def keys(self, player, zone):
        return [c.split("#")[0] for c in self.zone(player, zone)]

    def minion(self, key):
        for record in self.state["in_play"]:
            if record["card"].split("#")[0] == key:
                return record
        return None

    def in_play(self, controller=None):
        return [m["card"].split("#")[0] for m in self.state["in_play"] if controller in (None, m["controller"])]

    def health(self, key):
        from pbem.games.nightfall.state import health
        return health(self.state, self.minion(key))

    def strength(self, key):
        from pbem.games.nightfall.state import strength
        return strength(self.state, self.minion(key))

    def wounds(self, player):
        from pbem.games.nightfall.state import wound_count
        return wound_count(self.state, player)

    def decision(self, player=None):
        decisions = self.game.awaiting(self.state)
        if player is None:
            assert len(decisions) == 1, decisions
            return decisions[0]
        for d in decisions:
            if d.player == player:
                return d
        raise AssertionError(f"no decision of {player}: {[(d.player, d.kind) for d in decisions]}")

    def options(self, player=None):
        return [o.id for o in self.decision(player).options]

    def awaited(self):
        return [(d.player, d.kind) for d in self.game.awaiting(self.state)]

    # --- acting
    def choose(self, player, option):
        """Choose ``option``: an exact id, or ``prefix:key`` matched to the first
        option whose id is ``prefix:key#n``."""
        self.skip_wound_window(player, option)
        ids = self.options(player)
        if option not in ids:
            matches = [i for i in ids if i.split("#")[0] == option]
            assert matches, f"{option!r} is not among {player}'s options {ids}"
            option = matches[0]
        self.step += 1
        self.game.begin_step(self.state)
        apply_choice(self.game, self.state, player, option, Rng.from_seed(f"step-{self.step}"))
        self.game.check_invariants(self.state)
        return self

    def skip_wound_window(self, player, option):
        """The attacker's window for the Martial Law wound before blocks (DE 33) is answered
        "continue" when a test goes straight on to another choice."""
        for d in self.game.awaiting(self.state):
            if d.kind == "wound-window" and (d.player != player or option not in [o.id for o in d.options]) \
                    and not any(o.id.split("#")[0] == option for o in d.options):
                self.step += 1
                self.game.begin_step(self.state)
                apply_choice(self.game, self.state, d.player, "continue", Rng.from_seed(f"step-{self.step}"))
                self.game.check_invariants(self.state)
                return self.skip_wound_window(player, option)

    def play(self, *moves):
        for player, option in moves:
            self.choose(player, option)
        return self


@pytest.fixture
def table():
    return Table

"""What the referee does for an absent Nightfall player whose decision passed its deadline (pbem tick).

Each decision kind with an obvious pass declares it with its registration,
so that a timeout (and a standing order) passes there instead of drawing an
option at random: the claim phase ends, no chain is started, no link made,
no block declared, no feed paid, no wound effect used.
"""

from __future__ import annotations

import pytest

from pbem.engine.machine import MachineGame
from pbem.engine.rng import Rng
from pbem.games.nightfall import GAME
from pbem.referee.core import default_choice

RNG = Rng.from_seed("timeout")


def time_out(t, player=None):
    """Answer the open decision as ``pbem tick`` does; the option and whether it was a pass or a bot's."""
    decision = t.decision(player)
    option, action = default_choice(GAME, decision, RNG)
    t.choose(decision.player, option)
    return option, action


def test_a_timed_out_claim_phase_ends_it_and_the_influence_is_lost(table):
    """EN 226: the claim phase ends when the player says so; a timeout says so for them."""
    t = table({"phase": "claim", "active": "janet", "players": {"janet": {"hand": ["genesis-one"] * 5}}})
    assert t.decision().kind == "nothing-to-claim" and len(t.options()) > 1
    assert time_out(t) == ("done", "pass")
    assert t.decision().kind == "wound-effect" and len(t.zone("janet", "discard")) == 0


def test_a_timed_out_chain_start_passes_and_no_chain_is_started(table):
    """EN 184: with an order in hand, the absent player starts no chain."""
    t = table({"phase": "chain", "active": "janet", "players": {"janet": {"hand": ["genesis-one", "silver-stake"]}}})
    assert t.decision().kind == "chain-start" and len(t.options()) == 3
    assert time_out(t) == ("pass", "pass")
    assert t.s["chain"] is None and t.decision().kind == "nothing-to-claim"


def test_a_timed_out_link_opportunity_passes(table):
    t = table({"phase": "chain", "active": "janet", "players": {"janet": {"hand": ["genesis-one"]},
                                                                  "scott": {"hand": ["genesis-one"]}}})
    t.play(("janet", "play:genesis-one"), ("janet", "pass"))
    assert t.decision().player == "scott" and len(t.options()) == 2
    assert time_out(t) == ("pass", "pass")
    assert t.decision().player == "brad"


@pytest.mark.parametrize("kind, pass_id", [
    ("claim", "done"), ("chain-start", "pass"), ("link", "pass"), ("block", "no-block"), ("feed", "stop"),
    ("wound-effect", "pass"),
])
def test_the_kinds_with_an_obvious_pass_declare_it(kind, pass_id):
    rules = GAME
    assert isinstance(rules, MachineGame)  # the rules' turn machine, beside the protocol
    registered = rules.machine.decision_kind(kind)
    assert (registered.pass_id, rules.default_action(kind)) == (pass_id, "pass")

"""Every turn file commits to each hidden zone of Nightlancer, one salted commitment per zone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

from helpers_referee import make_keys

from pbem.bots import RandomBot
from pbem.engine import Rng
from pbem.games.nightlancer import GAME
from pbem.games.nightlancer.state import State
from pbem.referee import commitments, make_move, new_game, read_view, sealing, status, submit

PLAYERS = ("alice", "bob")


def test_hidden_zones_name_every_hand_every_deck_in_order_and_every_sealed_choice() -> None:
    scenario = GAME.load_scenario("standard")
    state = GAME.new_state(scenario, list(PLAYERS), Rng.from_seed("zones"))
    zones = GAME.hidden_zones(state)
    assert {f"hand:{p}" for p in PLAYERS} | {f"skill-draw:{p}" for p in PLAYERS} <= set(zones)
    for deck, cards in state["decks"].items():
        assert zones[f"deck:{deck}"] == cards  # in order, top first
    assert {"box:event", "dice", "sealed:picks", "sealed:assist"} <= set(zones)
    json.dumps(zones)  # plain data, committed as canonical JSON


def test_each_turn_file_carries_a_commitment_to_each_hidden_zone(tmp_path: Path) -> None:
    keys, _ = make_keys(tmp_path / "keys", ["referee", *PLAYERS])
    game = tmp_path / "game"
    new_game(game, "nightlancer", [(p, keys[p].public) for p in PLAYERS], keys["referee"], seed=b"\x05" * 32)
    bots = {p: RandomBot(Rng.from_seed(f"zones-{p}")) for p in PLAYERS}
    for _ in range(12):
        now = status(game)
        player = now.awaiting[0]["player"]
        view = read_view(game, player, keys[player])
        assert view.decision is not None
        submit(game, make_move(view, keys[player], [bots[player].choose(view.private, view.decision)]), keys["referee"])
    seed = b"\x05" * 32
    turns = [json.loads(p.read_text()) for p in sorted((game / "turns").glob("*.json"))]
    assert len(turns) >= 10
    static = GAME.static_state(GAME.load_scenario("standard"))  # kept out of the section, restored from the set-up
    for turn in turns:
        state = cast(State, {**sealing.open_with_seed(turn["sealed"]["referee"], seed, compressed=True)["state"], **static})
        zones = GAME.hidden_zones(state)
        assert set(turn["commitments"]["zones"]) == set(zones)
        for name in ("deck:contact", "hand:alice", "hand:bob"):
            salt = commitments.salt(seed, turn["turn"], turn["move"], commitments.zone_key(name))
            assert commitments.commit(salt, zones[name]) == turn["commitments"]["zones"][name]

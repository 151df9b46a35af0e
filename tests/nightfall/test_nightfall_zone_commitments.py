"""Every turn file of a nightfall game commits to each hidden zone.

``hidden_zones(state)`` names each hand, deck (in order), discard pile,
the face-down and face-up wound stack, every face-down archive and the
draft's sealed cards; the referee puts one salted commitment per zone in
the public part of every turn. With the seed, each opens to the zone.
"""

from __future__ import annotations

import json
from pathlib import Path

from pbem.bots import RandomBot
from pbem.crypto.keys import generate, load_private_key, write_keypair
from pbem.engine import Rng
from pbem.games.nightfall import GAME
from pbem.referee import commitments, make_move, new_game, read_view, sealing, status, submit

SEED = b"\x2a" * 32
PLAYERS = ["alice", "bob", "carol"]


def _keys(where: Path) -> dict:
    where.mkdir(parents=True, exist_ok=True)
    keys = {}
    for who in ["referee", *PLAYERS]:
        path, _ = write_keypair(generate(who), where)
        keys[who] = load_private_key(path, name=who)
    return keys


def _played_game(tmp_path: Path, steps: int) -> Path:
    keys = _keys(tmp_path / "keys")
    game = tmp_path / "game"
    new_game(game, "nightfall", [(p, keys[p].public) for p in PLAYERS], keys["referee"], seed=SEED)
    bots = {p: RandomBot(Rng.from_seed(f"zones-{p}")) for p in PLAYERS}
    for _ in range(steps):
        now = status(game)
        if now.over:
            break
        player = now.awaiting[0]["player"]
        seen = read_view(game, player, keys[player])
        assert seen.decision is not None
        submit(game, make_move(seen, keys[player], [bots[player].choose(seen.private, seen.decision)]), keys["referee"])
    return game


def test_hidden_zones_name_every_hand_deck_discard_pile_and_the_wound_stack(table) -> None:
    t = table({"phase": "chain", "players": {"janet": {"hand": ["hysteria"], "deck": ["koi-jiang", "jerome-carceri"],
                                                      "discard": ["all-out-lunge"]}}})
    zones = GAME.hidden_zones(t.state)
    for p in ("janet", "scott", "brad"):
        assert zones[f"hand:{p}"] == t.zone(p, "hand")
        assert zones[f"deck:{p}"] == t.zone(p, "deck")  # in order, top last
        assert zones[f"discard:{p}"] == t.zone(p, "discard")
    stack = t.state["wound_stack"]
    assert zones["wounds:face-down"] + zones["wounds:face-up"] == stack
    assert len(zones["wounds:face-up"]) == t.state["face_up"]


def test_every_turn_file_commits_to_each_hidden_zone(tmp_path: Path) -> None:
    game = _played_game(tmp_path, steps=12)
    docs = [json.loads(p.read_text()) for p in sorted((game / "turns").glob("*.json"))]
    assert len(docs) >= 10
    draft_seen = False
    for turn in docs:
        state = sealing.open_with_seed(turn["sealed"]["referee"], SEED, compressed=True)["state"]
        zones = GAME.hidden_zones(state)
        committed = turn["commitments"]["zones"]
        assert set(committed) == set(zones)
        assert {f"hand:{p}" for p in PLAYERS} | {f"deck:{p}" for p in PLAYERS} <= set(committed)
        draft_seen = draft_seen or "draft-hand:alice" in committed
        for name, cards in zones.items():
            salt = commitments.salt(SEED, turn["turn"], turn["move"], commitments.zone_key(name))
            assert commitments.commit(salt, cards) == committed[name], name
    assert draft_seen


def test_a_zone_commitment_binds_the_deck_order(tmp_path: Path) -> None:
    game = _played_game(tmp_path, steps=2)
    turn = json.loads(max((game / "turns").glob("*.json")).read_text())
    state = sealing.open_with_seed(turn["sealed"]["referee"], SEED, compressed=True)["state"]
    deck = GAME.hidden_zones(state)["deck:alice"]
    salt = commitments.salt(SEED, turn["turn"], turn["move"], commitments.zone_key("deck:alice"))
    assert commitments.commit(salt, deck) == turn["commitments"]["zones"]["deck:alice"]
    swapped = deck[:-2] + [deck[-1], deck[-2]]
    assert swapped != deck and commitments.commit(salt, swapped) != turn["commitments"]["zones"]["deck:alice"]

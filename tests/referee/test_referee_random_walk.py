"""Random referee sessions: legal moves mixed with replays, late moves, forgeries and garbage.

Whatever arrives, the directory stays verifiable, a refusal changes nothing
but ``rejected/``, and every applied move is recorded once. ``--games N``
plays N sessions.
"""

from __future__ import annotations

import json
from pathlib import Path

from helpers_referee import TEST_SEED, make_table, snapshot, validate_directory

from pbem.crypto.signing import sign_document
from pbem.engine import Rng
from pbem.referee import formats, sealing, submit, verify
from pbem.referee.errors import AlreadyApplied, Refusal
from pbem.referee.player import CHOICES_SIZE, choices_payload
from pbem.referee.storage import dump_json

MAX_STEPS = 300


def forged(table, rng: Rng) -> bytes:
    """A well-signed move with a choice id that no decision offers, or a garbled file."""
    kind = rng.randbelow(3, "forge")
    if kind == 0:
        return bytes(rng.token(40, "garbage"))
    player = rng.choice(["alice", "bob", "carol"], "who")
    view = table.view(player)
    doc = {
        "format": formats.MOVE, "game_id": view.gamefile.game_id, "player": player, "turn": view.number,
        "base": view.turn.hash,
        "sealed_choices": sealing.seal_json(
            choices_payload(view.gamefile.game_id, player, view.number, view.turn.hash, ["no-such-option"]),
            [sealing.game_recipient(TEST_SEED)], None, CHOICES_SIZE),
    }
    if kind == 1:
        return dump_json(sign_document(doc, table.keys[player]))
    return dump_json(sign_document(doc, table.keys[rng.choice(["alice", "bob", "carol"], "signer")]))[:-30]


def test_random_sessions_keep_the_record_sound(tmp_path: Path, game_count) -> None:
    for session in range(game_count(2)):
        rng = Rng.from_seed(f"walk-{session}")
        table = make_table(tmp_path / str(session), players=("alice", "bob", "carol"))
        pool: list[bytes] = []
        applied: set[bytes] = set()
        for _ in range(MAX_STEPS):
            awaiting = table.view("alice").turn.doc["awaiting"]
            if not awaiting:
                break
            action = rng.randbelow(4, "action")
            if action == 0 and pool:
                data = rng.choice(pool, "replay")
            elif action == 1:
                data = forged(table, rng)
            else:
                # every awaited player writes a move now; one is sent, the rest kept for later
                for entry in awaiting:
                    decision = table.view(entry["player"]).decision
                    pool.append(table.move(entry["player"], rng.choice(decision.options, "pick").id))
                data = pool.pop(rng.randbelow(len(pool), "send"))
            before = snapshot(table.dir)
            try:
                submit(table.dir, data, table.referee)
            except AlreadyApplied:
                assert data in applied
                assert snapshot(table.dir) == before
            except Refusal:
                assert snapshot(table.dir) == before
            else:
                assert data not in applied
                applied.add(data)
        report = verify(table.dir)
        assert report.moves == len(applied)
        moves = {p.read_bytes() for p in (table.dir / "moves").glob("*.json")}
        assert moves == applied
        validate_directory(table.dir, table.keys)
        for notice in (table.dir / "rejected").glob("*.json"):
            assert json.loads(notice.read_text())["reason"] != "already-applied"

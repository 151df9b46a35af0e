"""Golden values: the same seed, keys and moves give these exact files, on every machine.

If one of these changes, a file format, the sealing stream or the toy game
changed: old game directories would no longer verify the same way. Change
the pinned values only on purpose, with a new format version where needed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from helpers_referee import TEST_SEED, Table, snapshot

from pbem.crypto import age
from pbem.crypto.keys import PrivateKey
from pbem.engine import Rng
from pbem.referee import keying, make_move, new_game, read_view, sealing, submit


def fixed_key(name: str, number: int) -> PrivateKey:
    return PrivateKey(name, Ed25519PrivateKey.from_private_bytes(bytes([number]) * 32),
                      age.X25519Identity(bytes([number + 100]) * 32))


def directory_digest(directory: Path) -> str:
    digest = hashlib.sha256()
    for name, data in snapshot(directory, skip=()).items():
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


def test_the_seed_derivations_are_pinned() -> None:
    assert keying.game_id(TEST_SEED) == GOLDEN["game_id"]
    assert keying.commitment(TEST_SEED) == GOLDEN["commitment"]
    assert sealing.game_recipient(TEST_SEED) == GOLDEN["game_recipient"]


def test_a_fixed_game_gives_the_same_bytes(tmp_path: Path) -> None:
    keys = {name: fixed_key(name, i + 1) for i, name in enumerate(["referee", "alice", "bob"])}
    game = tmp_path / "game"
    new_game(game, "highcard", [(p, keys[p].public) for p in ("alice", "bob")], keys["referee"], seed=TEST_SEED)
    table = Table(dir=game, keys=keys, key_files={})
    assert directory_digest(game) == GOLDEN["turn0"]
    for number, player in enumerate(["alice", "bob", "alice"], start=1):
        view = read_view(game, player, keys[player])
        assert view.decision is not None
        stream = Rng.from_seed(f"golden-{number}")

        def seal_bytes(n: int, stream: Rng = stream) -> bytes:
            return stream.token(n, "seal")

        data = make_move(view, keys[player], [view.decision.options[0].id], rng=seal_bytes)
        submit(game, data, keys["referee"])
    assert table.view("alice").number == 3
    assert directory_digest(game) == GOLDEN["turn3"]


GOLDEN = {
    "game_id": "b5b0a86d80f86f10",
    "commitment": "sha256:7564638ba24ed66ae11799f60a6e37d22a1cf4d37b92a158a77c7c5427582ee5",
    "game_recipient": "age1dzy89gczfstkt27zc2lps0m63xdpph9hjahz8u463k6zerc6wfsq59xral",
    # SHA-256 over (path, SHA-256 of bytes) of every file of the directory
    "turn0": "19cb3708b691bcdb2485237a88668a7cf7697e6ec7fb296aa410a33edb23b989",
    "turn3": "788377fbf2d8f4818e6757096dc4c97c1c8bf863ffdd790d7dce14b40824d2c8",
}

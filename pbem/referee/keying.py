"""Everything the referee derives from the game's secret seed.

The seed is drawn once by ``pbem new`` (or given with ``--seed`` for a test
game) and kept in the referee's sealed section of every turn. From it:

* the **commitment** in ``game.toml``: ``sha256("pbem-commitment" 0 seed)``,
  published before any card is dealt, so the referee cannot change the seed
  later unnoticed;
* the **game id**: ``HMAC-SHA256(seed, "pbem-game-id")``, first 16 hex digits;
* the **game identity**: an X25519 age key, ``HKDF-SHA256(seed, info =
  "pbem-game-key")``. Moves and the referee's sections are sealed to it, so
  during the game only the referee reads them, and once the seed is revealed
  anyone can open them all and replay the game;
* the **sealing streams**: the random bytes age needs (file keys, ephemeral
  keys, nonces) come from ``Rng(HMAC(seed, "seal" 0 turn 0 move-hash 0
  section))``, so the same game gives byte-identical files;
* the **engine's generator** for turn N: :func:`pbem.engine.rng.step_rng`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.digests import hmac_sha256, sha256_hex
from pbem.engine.rng import Rng, step_rng

SEED_BYTES = 32


def commitment(seed: bytes) -> str:
    return "sha256:" + sha256_hex(b"pbem-commitment\x00" + seed)


def game_id(seed: bytes) -> str:
    return hmac_sha256(seed, b"pbem-game-id").hex()[:16]


def game_key_bytes(seed: bytes) -> bytes:
    """The 32-byte X25519 secret of the game identity."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"pbem-game-key").derive(seed)


def seal_stream(seed: bytes, turn: int, move_hash: str | None, section: str) -> Callable[[int], bytes]:
    """The byte source that makes sealing section ``section`` of turn ``turn`` reproducible.

    The hash of the move that produced the turn is part of the key: should a
    step die after writing a temporary turn file and a different move then
    make that turn, the two sealings must not share file keys and nonces
    (that would expose the XOR of two plaintexts to whoever kept the first).
    """
    message = b"\x00".join([b"seal", str(turn).encode(), (move_hash or "").encode(), section.encode()])
    key = hmac_sha256(seed, message)
    rng = Rng(key)
    return lambda nbytes: rng.token(nbytes, label="seal")


def engine_rng(seed: bytes, entropy: Sequence[bytes], turn: int) -> Rng:
    """The generator the game draws from while producing turn ``turn``."""
    return step_rng(seed, entropy, turn)

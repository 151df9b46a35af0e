"""Salted hash commitments to what a turn hides.

The public part of every turn file carries, under ``commitments``:

* ``sections`` — one commitment per sealed section, to its document without
  its padding: each player's ``pbem-player-view/3`` document and the
  referee's ``pbem-referee/3`` document (the game state, deck orders
  included, without its static members, which ``game.toml``'s ``setup``
  hash pins);
* ``zones`` — one per hidden zone, when the game offers
  ``hidden_zones(state) -> {zone name: [cards]}`` (an optional method of the
  game protocol; a game without it commits per section only).

A commitment is ``sha256:`` + hex SHA-256 of ``"pbem-commit-v1" 0x00 || salt
|| canonical JSON of the value``. The 32-byte salt is
``HMAC-SHA256(seed, "commit" 0 turn 0 move-hash 0 name)``: nobody can test a
guess against a commitment during the game (the salt is secret), and once
the seed is revealed anyone can recompute every salt and open every
commitment, so a player can prove what a deck or a hand held at any step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.crypto.canonical import canonical_json, is_plain
from pbem.digests import hmac_sha256_context, sha256_hex

ALGORITHM = "pbem-commit-v1"
SALT_BYTES = 32
_PREFIX = ALGORITHM.encode() + b"\x00"


def salt(seed: bytes, turn: int, move_hash: str | None, name: str) -> bytes:
    """The salt of the commitment called ``name`` in turn ``turn``."""
    return salter(seed, turn, move_hash)(name)


def salter(seed: bytes, turn: int, move_hash: str | None) -> Callable[[str], bytes]:
    """:func:`salt` of each name in turn ``turn``, the HMAC keyed with the seed once for them all (keying
    costs more than authenticating a short message: :mod:`pbem.digests`)."""
    keyed = hmac_sha256_context(seed)
    head = b"\x00".join([b"commit", str(turn).encode(), (move_hash or "").encode(), b""])

    def salt_of(name: str) -> bytes:
        context = keyed.copy()
        context.update(head + name.encode())
        return context.finalize()[:SALT_BYTES]

    return salt_of


def commit(salt_bytes: bytes, value: Any) -> str:
    """The commitment to ``value`` under ``salt_bytes``."""
    return commit_canonical(salt_bytes, canonical_json(value))


def commit_canonical(salt_bytes: bytes, data: bytes) -> str:
    """:func:`commit` for a value already in canonical form (``canonical_json(value)``)."""
    return "sha256:" + sha256_hex(_PREFIX + salt_bytes + data)


def hidden_zones(game: Any, state: dict[str, Any]) -> dict[str, Any] | None:
    """The game's hidden zones, if the game names them (``hidden_zones(state)``)."""
    method = getattr(game, "hidden_zones", None)
    if method is None:
        return None
    return dict(method(state))


def zone_key(name: str) -> str:
    """Zone salts are named ``zone:NAME`` so that no zone shares a salt with a section."""
    return f"zone:{name}"


def turn_commitments(
    game: Any, seed: bytes, turn: int, move_hash: str | None, sections: dict[str, Any], state: dict[str, Any],
    canonical: dict[str, bytes] | None = None,
) -> dict[str, dict[str, str]]:
    """The ``commitments`` member of a turn file.

    ``canonical`` may give the canonical form of some ``sections`` (the
    sealing has just computed it) so that it is not computed twice.
    """
    canonical = canonical or {}
    salt_of = salter(seed, turn, move_hash)

    def section(name: str, doc: Any) -> str:
        data = canonical[name] if name in canonical else canonical_json(doc)
        return commit_canonical(salt_of(name), data)

    result: dict[str, dict[str, str]] = {
        "sections": {name: section(name, doc) for name, doc in sections.items()},
        "zones": {},
    }
    zones = hidden_zones(game, state)
    if zones:
        plain = is_plain(zones) or None  # all zones found plain at once; else each is looked at
        result["zones"] = {
            name: commit_canonical(salt_of(zone_key(name)), canonical_json(cards, plain))
            for name, cards in sorted(zones.items())
        }
    return result


def openings(
    game: Any, seed: bytes, turn: int, move_hash: str | None, sections: dict[str, Any], state: dict[str, Any]
) -> dict[str, dict[str, dict[str, Any]]]:
    """Everything needed to open each commitment of a turn: ``{kind: {name: {salt, value, commitment}}}``."""
    def opened(name: str, key: str, value: Any) -> dict[str, Any]:
        salt_bytes = salt(seed, turn, move_hash, key)
        return {"salt": salt_bytes.hex(), "value": value, "commitment": commit(salt_bytes, value)}

    zones = hidden_zones(game, state) or {}
    return {
        "sections": {name: opened(name, name, doc) for name, doc in sections.items()},
        "zones": {name: opened(name, zone_key(name), cards) for name, cards in sorted(zones.items())},
    }

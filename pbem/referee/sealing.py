"""Sealed sections: JSON documents encrypted with age to chosen recipients.

A sealed section is the ASCII-armoured age v1 encryption of the canonical
JSON (RFC 8785) of a document. A player opens theirs with ``pbem view`` or
with the stock tool: ``age -d -i KEY views/NAME/latest.age``.

The **game identity** is an age X25519 identity derived from the game's
secret seed (see :mod:`pbem.referee.keying`); moves and the referee's
sections are sealed to it as well.
"""

from __future__ import annotations

from typing import Any, Callable

from pbem.crypto import age
from pbem.crypto.canonical import canonical_json
from pbem.crypto.errors import CryptoError
from pbem.crypto.keys import PrivateKey
from pbem.crypto.seal import check_plaintext, open_plaintext, open_sealed, parse_plaintext
from pbem.referee import keying
from pbem.referee.errors import GameDirError

Stream = Callable[[int], bytes]


def seal_json(doc: Any, recipients: list[str], stream: Stream | None) -> str:
    """Encrypt ``doc`` to the age ``recipients``; ``stream`` makes it reproducible."""
    return seal_canonical(canonical_json(doc), recipients, stream)


def seal_canonical(data: bytes, recipients: list[str], stream: Stream | None) -> str:
    """:func:`seal_json` for a document already in canonical form (``canonical_json(doc)``).

    A plaintext larger than a reader opens is refused (:class:`~pbem.crypto.errors.SealTooLarge`).
    """
    check_plaintext(data)
    return age.encrypt(data, recipients, armor=True, rng=stream).decode("ascii")


def open_with_key(text: str, key: PrivateKey, where: str) -> Any:
    """Open a section sealed to ``key``; a failure means the directory is damaged."""
    try:
        return open_sealed(text, key)
    except CryptoError as error:
        raise GameDirError(f"{where}: cannot open the sealed section: {error}") from error


def game_identity(seed: bytes) -> str:
    """The game's age identity (``AGE-SECRET-KEY-1...``), derived from the seed."""
    return str(age.X25519Identity(keying.game_key_bytes(seed)))


def game_recipient(seed: bytes) -> str:
    """The game's public age recipient (``age1...``), derived from the seed."""
    return str(age.X25519Identity(keying.game_key_bytes(seed)).recipient)


def open_with_seed(text: str, seed: bytes) -> Any:
    """Open a section sealed to the game identity (raises :class:`CryptoError`)."""
    return parse_plaintext(open_with_seed_raw(text, seed))


def open_with_seed_raw(text: str, seed: bytes) -> bytes:
    """The plaintext bytes of a section sealed to the game identity (raises :class:`CryptoError`)."""
    return open_plaintext(text, [game_identity(seed)])

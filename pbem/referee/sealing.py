"""Sealed sections: JSON documents encrypted with age to chosen recipients, padded.

A sealed section is the ASCII-armoured age v1 encryption of the canonical
JSON (RFC 8785) of a document, **padded**: age's ciphertext is exactly as
long as its plaintext (plus a constant), so a plaintext whose length
followed what it hides would leak it. Every plaintext is therefore padded to
a size fixed by public facts (:func:`padded_size`):

* a JSON document (a player's section, a move's choices, the pending seed) is
  followed by ASCII spaces: JSON allows whitespace after a value, so the
  padded plaintext is still the same JSON document, and ``age -d`` shows it
  followed by blanks. A player opens theirs with ``pbem view`` or with the
  stock tool: ``age -d -i KEY views/NAME/latest.age``;
* the referee's section (the game state) is compressed first: its plaintext
  is the zlib stream (RFC 1950, level 9) of the canonical JSON, followed by
  zero bytes (:func:`seal_compressed`).

Commitments cover the canonical JSON, never the padding. The one bound on a
sealed plaintext (:data:`pbem.crypto.MAX_SEALED_PLAINTEXT`) holds for the
document and for the padded plaintext alike: padding never goes beyond it.

The **game identity** is an age X25519 identity derived from the game's
secret seed (see :mod:`pbem.referee.keying`); moves and the referee's
sections are sealed to it as well.
"""

from __future__ import annotations

import functools
import json
import zlib
from collections.abc import Callable
from typing import Any

from pbem.crypto import age
from pbem.crypto.canonical import canonical_json
from pbem.crypto.errors import CryptoError, SealError
from pbem.crypto.keys import PrivateKey
from pbem.crypto.seal import MAX_SEALED_PLAINTEXT, check_plaintext, open_plaintext, open_sealed, parse_plaintext
from pbem.referee import keying
from pbem.referee.errors import GameDirError

Stream = Callable[[int], bytes]

#: what follows a JSON document up to its padded size (JSON allows trailing whitespace)
JSON_FILL = b" "
#: what follows the zlib stream of a compressed section
COMPRESSED_FILL = b"\x00"
#: the zlib level of a compressed section (part of the format: replay recompresses)
ZLIB_LEVEL = 9


def padded_size(length: int, size: int) -> int:
    """The size a plaintext of ``length`` bytes is padded to: ``size``, doubled until it fits.

    ``size`` depends on public facts only, so every plaintext that fits it
    seals to one length. One that does not (a position larger than the
    game's declared sizes) reveals only how many doublings it needed; no
    padding goes beyond the bound every reader opens.
    """
    if size <= 0:
        raise ValueError(f"a padded size must be positive, not {size}")
    padded = size
    while padded < length:
        padded *= 2
    return max(length, min(padded, MAX_SEALED_PLAINTEXT))


def pad(data: bytes, size: int, fill: bytes = JSON_FILL) -> bytes:
    """``data`` followed by ``fill`` up to :func:`padded_size`."""
    return data + fill * (padded_size(len(data), size) - len(data))


def seal_json(doc: Any, recipients: list[str], stream: Stream | None, size: int) -> str:
    """Encrypt ``doc``, padded to ``size``, to the age ``recipients``; ``stream`` makes it reproducible."""
    return seal_canonical(canonical_json(doc), recipients, stream, size)


def seal_canonical(data: bytes, recipients: list[str], stream: Stream | None, size: int) -> str:
    """:func:`seal_json` for a document already in canonical form (``canonical_json(doc)``).

    A document larger than a reader opens is refused (:class:`~pbem.crypto.errors.SealTooLarge`).
    """
    check_plaintext(data)
    return age.encrypt(pad(data, size), recipients, armor=True, rng=stream).decode("ascii")


def compress(data: bytes) -> bytes:
    """The zlib stream a compressed section holds before its padding."""
    return zlib.compress(data, ZLIB_LEVEL)


def seal_compressed(data: bytes, recipients: list[str], stream: Stream | None, size: int) -> str:
    """Seal canonical JSON ``data`` compressed with zlib, the compressed stream padded with zeros to ``size``.

    The document is held to the same bound as any sealed plaintext, so that
    a reader opens what was sealed.
    """
    check_plaintext(data)
    packed = pad(compress(data), size, COMPRESSED_FILL)
    return age.encrypt(packed, recipients, armor=True, rng=stream).decode("ascii")


def seals(text: Any, data: bytes, recipients: list[str], stream: Stream, size: int, compressed: bool = False) -> bool:
    """Whether ``text`` is the section :func:`seal_canonical` (or :func:`seal_compressed`) writes for ``data``.

    For the replay, which knows the seed's ``stream``: the section is opened
    as its sealer (:func:`pbem.crypto.age.open_as_sealer`: the header, every
    recipient's stanza and the nonce rebuilt from ``stream`` and compared
    byte for byte, the payload authenticated with that file key) and its
    plaintext compared with the padded ``data``, which is the same as
    sealing ``data`` again and comparing, without encrypting the payload or
    compressing anew. A compressed section may hold the stream another zlib
    build (zlib-ng, another version) wrote for the same input: it is
    accepted if it inflates to exactly ``data`` and is padded exactly as the
    rule says. A document larger than a reader opens is refused as when
    sealing (:class:`~pbem.crypto.errors.SealTooLarge`).
    """
    check_plaintext(data)
    if not isinstance(text, str) or not text.isascii():
        return False
    try:
        plaintext = age.open_as_sealer(text.encode("ascii"), recipients, stream)
    except CryptoError:
        return False
    if not compressed:
        return plaintext == pad(data, size)
    inflater = zlib.decompressobj()
    try:
        inflated = inflater.decompress(plaintext, len(data) + 1)
    except zlib.error:
        return False
    if inflated != data or not inflater.eof:
        return False
    packed = plaintext[: len(plaintext) - len(inflater.unused_data)]
    return plaintext == pad(packed, size, COMPRESSED_FILL)


def decompress(plaintext: bytes, signed: bool = False) -> Any:
    """The JSON document of a compressed section's plaintext; :class:`SealError` if it is not one.

    ``signed``: the section's text is covered by a signature the caller has
    verified, the referee's on the canonical JSON it wrote itself, which the
    strict reader (:func:`~pbem.crypto.seal.parse_plaintext`) would accept by
    construction; it is then read by the standard library's parser alone,
    which takes a third of the strict reader's time (some 50 µs of a 5-player
    Nightfall step).
    """
    inflater = zlib.decompressobj()
    try:
        data = inflater.decompress(plaintext, MAX_SEALED_PLAINTEXT)
    except zlib.error as error:
        raise SealError(f"the compressed section is not a zlib stream: {error}") from error
    if not inflater.eof or inflater.unconsumed_tail:
        raise SealError("the compressed section is truncated or opens to more than "
                        f"{MAX_SEALED_PLAINTEXT} bytes")
    if inflater.unused_data.strip(COMPRESSED_FILL):
        raise SealError("the compressed section is followed by something else than its zero padding")
    if signed:
        try:
            return json.loads(data)
        except ValueError as error:
            raise SealError(f"the compressed section does not hold a JSON document: {error}") from error
    return parse_plaintext(data)


def open_with_key(text: str, key: PrivateKey, where: str, compressed: bool = False, signed: bool = False) -> Any:
    """Open a section sealed to ``key``; a failure means the directory is damaged (``signed``: see :func:`decompress`)."""
    try:
        if compressed:
            return decompress(open_plaintext(text, [key]), signed)
        return open_sealed(text, key)
    except CryptoError as error:
        raise GameDirError(f"{where}: cannot open the sealed section: {error}") from error


def game_identity(seed: bytes) -> str:
    """The game's age identity (``AGE-SECRET-KEY-1...``), derived from the seed."""
    return str(_game_identity(seed))


@functools.lru_cache(maxsize=64)
def _game_identity(seed: bytes) -> age.X25519Identity:
    return age.X25519Identity(keying.game_key_bytes(seed))


def game_recipient(seed: bytes) -> str:
    """The game's public age recipient (``age1...``), derived from the seed."""
    return str(age.X25519Identity(keying.game_key_bytes(seed)).recipient)


def open_with_seed(text: str, seed: bytes, compressed: bool = False) -> Any:
    """Open a section sealed to the game identity (raises :class:`CryptoError`)."""
    plaintext = open_with_seed_raw(text, seed)
    return decompress(plaintext) if compressed else parse_plaintext(plaintext)


def open_with_seed_raw(text: str, seed: bytes) -> bytes:
    """The plaintext bytes of a section sealed to the game identity (raises :class:`CryptoError`)."""
    return open_plaintext(text, [_game_identity(seed)])

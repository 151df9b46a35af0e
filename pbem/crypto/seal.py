"""Sealed sections: a JSON value encrypted so that only its recipients can read it.

A sealed section is the ASCII-armored age file of the canonical JSON of the
value, as a string to embed in a JSON turn file. A player can open their own
section with the stock tool::

    age -d -i alice.identity section.age      # or -i ~/.ssh/id_ed25519

Determinism: with ``rng`` (a callable ``n -> n bytes``) the output is a
function of the value, the recipients and the bytes ``rng`` returns. The
referee passes a generator keyed by the game's secret seed and the (step,
recipient) pair; that is safe only because that seed stays secret until the
game ends and no two seals share a stream (docs/crypto.md).

Size: :data:`MAX_SEALED_PLAINTEXT` and :data:`MAX_SEALED_DEPTH` are the
one bound on a sealed plaintext. Every writer refuses a plaintext beyond
them before anything is written (:func:`check_plaintext`), and every reader
opens anything within them (:func:`parse_plaintext`) and stops decrypting as
soon as a section holds more (:func:`open_plaintext`), so what pbem writes
it can always read back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pbem.crypto import age
from pbem.crypto.canonical import canonical_json, nesting_depth, parse_json_strict, within_depth
from pbem.crypto.errors import AgeError, MalformedError, SealError, SealTooLarge
from pbem.crypto.keys import PrivateKey, PublicKey

#: the largest plaintext pbem seals and opens (a turn's sections hold some
#: tens of KiB; a move's sealed choices a few KiB)
MAX_SEALED_PLAINTEXT = 1 << 20
#: the deepest nesting of a sealed JSON document (game states nest about 10 deep)
MAX_SEALED_DEPTH = 64


def check_plaintext(data: bytes, depth: int | None = None) -> None:
    """Refuse to seal a canonical JSON plaintext that no reader would open (too large or too deep).

    ``depth`` is the document's nesting depth (:func:`~pbem.crypto.canonical.json_depth`),
    if the caller knows it; else it is measured on ``data``.
    """
    if len(data) > MAX_SEALED_PLAINTEXT:
        raise SealTooLarge(
            f"a sealed section of {len(data)} bytes is larger than the {MAX_SEALED_PLAINTEXT} bytes pbem seals"
        )
    if depth is None:
        depth = 0 if within_depth(data, MAX_SEALED_DEPTH) else nesting_depth(data)
    if depth > MAX_SEALED_DEPTH:
        raise SealTooLarge(f"a sealed section nested {depth} deep is deeper than the {MAX_SEALED_DEPTH} pbem seals")


def parse_plaintext(data: bytes) -> Any:
    """The JSON document of a sealed plaintext, read within the bounds every writer keeps."""
    return parse_json_strict(data, max_bytes=MAX_SEALED_PLAINTEXT, max_depth=MAX_SEALED_DEPTH)


def open_plaintext(text: str, identities: Iterable[object]) -> bytes:
    """The plaintext of the armored age ``text``, at most :data:`MAX_SEALED_PLAINTEXT` bytes.

    Decrypts chunk by chunk and stops with :class:`SealTooLarge` as soon as
    the section holds more, so an oversized section costs no more than the
    bound to refuse. Other failures raise :class:`~pbem.crypto.errors.AgeError`.
    """
    if not isinstance(text, str):
        raise SealError(f"a sealed section is a string, not {type(text).__name__}")
    chunks: list[bytes] = []
    size = 0
    for chunk in age.iter_decrypt(text.encode("utf-8", "surrogatepass"), identities, armored=True):
        size += len(chunk)
        if size > MAX_SEALED_PLAINTEXT:
            raise SealTooLarge(f"the sealed section holds more than the {MAX_SEALED_PLAINTEXT} bytes pbem seals")
        chunks.append(chunk)
    return b"".join(chunks)


def seal(obj: Any, recipients: Sequence[PublicKey], rng: age.RandomSource | None = None) -> str:
    """The armored age text of ``canonical_json(obj)``, readable by each of ``recipients``."""
    if not recipients:
        raise SealError("a sealed section needs at least one recipient")
    try:
        plaintext = canonical_json(obj)
        check_plaintext(plaintext)
        return age.encrypt(plaintext, [r.recipient for r in recipients], armor=True, rng=rng).decode("ascii")
    except (AgeError, MalformedError) as exc:
        raise SealError(f"cannot seal: {exc}") from exc


def open_sealed(text: str, key: PrivateKey) -> Any:
    """The JSON value sealed in ``text``, opened with ``key``; :class:`SealError` if that fails."""
    try:
        plaintext = open_plaintext(text, [key])
    except AgeError as exc:
        raise SealError(f"cannot open the section sealed to {key.name!r}: {exc}") from exc
    try:
        return parse_plaintext(plaintext)
    except MalformedError as exc:
        raise SealError(f"the section sealed to {key.name!r} does not hold valid JSON: {exc}") from exc

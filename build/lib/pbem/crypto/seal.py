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
"""

from __future__ import annotations

from typing import Any, Sequence

from pbem.crypto import age
from pbem.crypto.canonical import canonical_json, parse_json_strict
from pbem.crypto.errors import AgeError, MalformedError, SealError
from pbem.crypto.keys import PrivateKey, PublicKey

MAX_SEALED_JSON = 1 << 20


def seal(obj: Any, recipients: Sequence[PublicKey], rng: age.RandomSource | None = None) -> str:
    """The armored age text of ``canonical_json(obj)``, readable by each of ``recipients``."""
    if not recipients:
        raise SealError("a sealed section needs at least one recipient")
    try:
        plaintext = canonical_json(obj)
        return age.encrypt(plaintext, [r.recipient for r in recipients], armor=True, rng=rng).decode("ascii")
    except (AgeError, MalformedError) as exc:
        raise SealError(f"cannot seal: {exc}") from exc


def open_sealed(text: str, key: PrivateKey) -> Any:
    """The JSON value sealed in ``text``, opened with ``key``; :class:`SealError` if that fails."""
    if not isinstance(text, str):
        raise SealError(f"a sealed section is a string, not {type(text).__name__}")
    try:
        plaintext = age.decrypt(text.encode("utf-8"), [key], armored=True)
    except AgeError as exc:
        raise SealError(f"cannot open the section sealed to {key.name!r}: {exc}") from exc
    try:
        return parse_json_strict(plaintext, max_bytes=MAX_SEALED_JSON)
    except MalformedError as exc:
        raise SealError(f"the section sealed to {key.name!r} does not hold valid JSON: {exc}") from exc

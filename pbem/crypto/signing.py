"""Signed documents: an Ed25519 signature over the canonical form of the rest.

A signed document carries one extra top-level member::

    "signature": {"alg": "ed25519", "signer": "pbem:…", "value": "<base64, 64 bytes>"}

``value`` signs :func:`~pbem.crypto.canonical.canonical_json` of the
document without its ``signature`` member, so any change to any other member
(or any reordering that changes meaning) breaks it, while re-indenting the
file does not. ``signer`` is the fingerprint of the signing key, so a reader
can tell which key to check with; it is checked, not trusted.
"""

from __future__ import annotations

import base64
import binascii

from pbem.crypto.canonical import canonical_json
from pbem.crypto.errors import MalformedError, SignatureError
from pbem.crypto.keys import PrivateKey, PublicKey

ALGORITHM = "ed25519"
SIGNATURE_FIELD = "signature"


def signed_bytes(doc: dict, plain: bool = False) -> bytes:
    """The bytes a document's signature covers: its canonical form without ``signature``.

    ``plain``: the caller has found the whole document plain (:func:`~pbem.crypto.canonical.is_plain`),
    so its part without ``signature`` is plain too.
    """
    return canonical_json({name: value for name, value in doc.items() if name != SIGNATURE_FIELD}, plain or None)


def sign_document(doc: dict, key: PrivateKey) -> dict:
    """A copy of ``doc`` with its ``signature`` by ``key`` (any old signature is replaced)."""
    if not isinstance(doc, dict):
        raise TypeError("only a JSON object can be signed")
    value = key.sign(signed_bytes(doc))
    signed = {name: member for name, member in doc.items() if name != SIGNATURE_FIELD}
    signed[SIGNATURE_FIELD] = {
        "alg": ALGORITHM,
        "signer": key.fingerprint,
        "value": base64.b64encode(value).decode(),
    }
    return signed


def signer_of(doc: object) -> str:
    """The fingerprint a document claims as its signer (not yet verified)."""
    signature = doc.get(SIGNATURE_FIELD) if isinstance(doc, dict) else None
    if not isinstance(signature, dict) or not isinstance(signature.get("signer"), str):
        raise SignatureError("the document has no signature naming its signer")
    return signature["signer"]


def verify_document(doc: dict, public: PublicKey, body: bytes | None = None) -> None:
    """Check that ``doc`` is signed by ``public``; raise :class:`SignatureError` saying why not.

    ``body`` is ``signed_bytes(doc)`` when the caller has it already (it also
    hashes the document), so that the document is serialised once.
    """
    if not isinstance(doc, dict):
        raise SignatureError("only a JSON object can carry a signature")
    signature = doc.get(SIGNATURE_FIELD)
    if signature is None:
        raise SignatureError("the document is not signed")
    if not isinstance(signature, dict) or set(signature) != {"alg", "signer", "value"}:
        raise SignatureError("the signature must be an object of exactly alg, signer and value")
    if signature["alg"] != ALGORITHM:
        raise SignatureError(f"unsupported signature algorithm {signature['alg']!r} (expected {ALGORITHM!r})")
    if signature["signer"] != public.fingerprint:
        raise SignatureError(
            f"signed by {signature['signer']!r}, not by {public.name!r} ({public.fingerprint})"
        )
    value = signature["value"]
    try:
        raw = base64.b64decode(value, validate=True) if isinstance(value, str) else b""
    except binascii.Error:
        raw = b""
    if len(raw) != 64 or base64.b64encode(raw).decode() != value:
        raise SignatureError("the signature value is not base64 of 64 bytes")
    try:
        body = signed_bytes(doc) if body is None else body
    except MalformedError as exc:
        raise SignatureError(f"the document has no canonical form: {exc}") from None
    if not public.verify(raw, body):
        raise SignatureError(f"the signature of {public.name!r} does not match the document: it was altered")

"""SHA-256, SHA-512 and HMAC-SHA256 on cryptography's primitives, without :mod:`hashlib`.

Every pbem command loads cryptography's compiled bindings (for Ed25519,
X25519 and ChaCha20-Poly1305), which carry their own OpenSSL. Python's
:mod:`hashlib` (and :mod:`hmac`, which imports it) loads ``_hashlib``, a
second copy of OpenSSL's libcrypto: some 3 ms of every command's start-up
(docs/performance.md, "Digests without hashlib"). These helpers give the same digests from the bindings already
loaded; the tests check them against :mod:`hashlib` and :mod:`hmac` over
random inputs.

Speed: building a hash or HMAC context looks its algorithm up in OpenSSL
(by name, through its providers), which costs more than hashing a short
message. So a SHA-256 digest copies one empty context, made at the first
digest (not on import: a process's first context also initializes OpenSSL,
which a command that hashes nothing need not pay); and
:func:`hmac_sha256_context` keys a context once for a caller that
authenticates many messages under one key (the random generator, one HMAC
per 32-byte block), which then copies it for each message. A copy is
independent of the context it was copied from; the empty context is never
updated itself, so sharing it is safe.
"""

from __future__ import annotations

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.hmac import HMAC

#: the algorithms, stateless: one instance each serves every context
SHA256 = hashes.SHA256()
SHA512 = hashes.SHA512()

#: the empty SHA-256 context that every digest copies (never updated itself), once made
_empty_sha256: hashes.Hash | None = None


def _first_sha256() -> hashes.Hash:
    global _empty_sha256
    _empty_sha256 = hashes.Hash(SHA256)
    return _empty_sha256


def sha256(data: bytes) -> bytes:
    """The SHA-256 digest of ``data`` (32 bytes)."""
    context = (_empty_sha256 or _first_sha256()).copy()
    context.update(data)
    return context.finalize()


def sha256_hex(data: bytes) -> str:
    """The SHA-256 digest of ``data`` in lower-case hex (64 characters), as ``hashlib``'s ``hexdigest``."""
    return sha256(data).hex()


def sha512(data: bytes) -> bytes:
    """The SHA-512 digest of ``data`` (64 bytes)."""
    context = hashes.Hash(SHA512)
    context.update(data)
    return context.finalize()


def hmac_sha256(key: bytes, data: bytes) -> bytes:
    """HMAC-SHA256 of ``data`` under ``key`` (RFC 2104; 32 bytes)."""
    context = hmac_sha256_context(key)
    context.update(data)
    return context.finalize()


def hmac_sha256_context(key: bytes) -> HMAC:
    """An HMAC-SHA256 context keyed with ``key``, to be fed and finalized, or copied (``copy()``) once per
    message to authenticate many under one key."""
    return HMAC(key, SHA256)


def hmac_sha256_matches(key: bytes, data: bytes, mac: bytes) -> bool:
    """Whether ``mac`` is the HMAC-SHA256 of ``data`` under ``key``, compared in constant time (cryptography's
    ``verify``: how long it takes tells nothing of how much of ``mac`` was right)."""
    context = hmac_sha256_context(key)
    context.update(data)
    try:
        context.verify(mac)
    except InvalidSignature:
        return False
    return True

"""X25519 keys from bytes, without importing cryptography's OpenSSL backend module.

``X25519PrivateKey.from_private_bytes`` and ``X25519PublicKey.from_public_bytes``
import ``cryptography.hazmat.backends.openssl.backend`` (with its ciphers, EC
and DH modules) only to ask whether X25519 is allowed, which it is unless
OpenSSL runs in FIPS mode; then they call the bindings. That import was the
largest single piece of ``pbem view``'s, ``move``'s and ``submit``'s own
start-up. Here the same question is asked of the bindings the backend asks
(``is_fips_enabled``), and the keys are built by the same binding functions,
so they are the same objects the classmethods return. Should a release of
cryptography not have those bindings, or OpenSSL be in FIPS mode, the public
classmethods are used (and decide, or refuse, as they always did).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from cryptography.hazmat.primitives.asymmetric import x25519 as _public

X25519PrivateKey = _public.X25519PrivateKey
X25519PublicKey = _public.X25519PublicKey


@cache
def _builders() -> tuple[Callable[[bytes], X25519PrivateKey], Callable[[bytes], X25519PublicKey]]:
    """The functions that build a private and a public key: the bindings', unless they are missing or FIPS
    mode is on."""
    bindings = getattr(_public, "rust_openssl", None)
    try:
        if bindings is not None and not bindings.is_fips_enabled():
            return bindings.x25519.from_private_bytes, bindings.x25519.from_public_bytes
    except AttributeError:
        pass
    return X25519PrivateKey.from_private_bytes, X25519PublicKey.from_public_bytes


def private_key(secret: bytes) -> X25519PrivateKey:
    """The X25519 private key of a 32-byte secret (clamped by X25519 itself)."""
    return _builders()[0](secret)


def public_key(point: bytes) -> X25519PublicKey:
    """The X25519 public key of a 32-byte u-coordinate."""
    return _builders()[1](point)

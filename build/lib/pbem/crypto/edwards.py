"""Ed25519 public keys as X25519 (Curve25519) public keys.

age's ``ssh-ed25519`` recipient encrypts to the Montgomery form of an
OpenSSH Ed25519 key: the birational map u = (1 + y) / (1 - y) mod p of RFC
7748 section 4.1. The Edwards point is decoded and checked to be on the
curve first, as the reference implementation (filippo.io/edwards25519
``Point.SetBytes``) does.
"""

from __future__ import annotations

P = 2**255 - 19
D = (-121665 * pow(121666, -1, P)) % P


def ed25519_public_to_x25519(public: bytes) -> bytes:
    """The X25519 public key (little-endian u) of an Ed25519 public key; ValueError if it is not a curve point."""
    if len(public) != 32:
        raise ValueError("an Ed25519 public key is 32 bytes")
    encoded = int.from_bytes(public, "little")
    sign = encoded >> 255
    y = encoded & ((1 << 255) - 1)
    if y >= P:
        raise ValueError("Ed25519 public key has a non-canonical y coordinate")
    y2 = y * y % P
    # x^2 = (y^2 - 1) / (d y^2 + 1); a point exists only if that is a square.
    x2 = (y2 - 1) * pow(D * y2 + 1, -1, P) % P
    if x2 and pow(x2, (P - 1) // 2, P) != 1:
        raise ValueError("Ed25519 public key is not a point on the curve")
    if x2 == 0 and sign:
        raise ValueError("Ed25519 public key has an invalid sign bit")
    if y == 1:
        raise ValueError("Ed25519 public key is the identity point")
    u = (1 + y) * pow((1 - y) % P, -1, P) % P
    return u.to_bytes(32, "little")

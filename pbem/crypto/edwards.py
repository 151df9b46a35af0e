"""Ed25519 public keys as X25519 (Curve25519) public keys.

age's ``ssh-ed25519`` recipient encrypts to the Montgomery form of an
OpenSSH Ed25519 key: the birational map u = (1 + y) / (1 - y) mod p of RFC
7748 section 4.1. The Edwards point is decoded and checked to be on the
curve first, as the reference implementation (filippo.io/edwards25519
``Point.SetBytes``) does.
"""

from __future__ import annotations

import functools

P = 2**255 - 19
D = (-121665 * pow(121666, -1, P)) % P


def jacobi(a: int, n: int) -> int:
    """The Jacobi symbol (a/n) of an odd ``n`` > 0; for a prime ``n``, the Legendre symbol: 1 when ``a`` is
    a non-zero square mod ``n``, -1 when it is not a square, 0 when ``n`` divides it.

    By quadratic reciprocity (the binary algorithm): a few hundred steps on
    shrinking numbers, where Euler's criterion ``pow(a, (n - 1) // 2, n)``
    makes some 250 squarings mod a 255-bit ``n``, three times the
    instructions. Every key a command reads is checked with it.
    """
    a %= n
    symbol = 1
    while a:
        zeros = (a & -a).bit_length() - 1  # (2/n) is -1 exactly when n is 3 or 5 mod 8
        a >>= zeros
        if zeros & 1 and n & 7 in (3, 5):
            symbol = -symbol
        if a & n & 3 == 3:  # reciprocity: (a/n) = -(n/a) when both are 3 mod 4
            symbol = -symbol
        a, n = n % a, a
    return symbol if n == 1 else 0


@functools.lru_cache(maxsize=256)
def ed25519_public_to_x25519(public: bytes) -> bytes:
    """The X25519 public key (little-endian u) of an Ed25519 public key; ValueError if it is not a curve point.

    Computed once per process for each key (a command meets the referee's
    key in its key file and in ``game.toml``).
    """
    if len(public) != 32:
        raise ValueError("an Ed25519 public key is 32 bytes")
    encoded = int.from_bytes(public, "little")
    sign = encoded >> 255
    y = encoded & ((1 << 255) - 1)
    if y >= P:
        raise ValueError("Ed25519 public key has a non-canonical y coordinate")
    y2 = y * y % P
    # x^2 = (y^2 - 1) / (d y^2 + 1); a point exists only if that is a square. The quotient is a square
    # exactly when the product is (they differ by the square (d y^2 + 1)^2), which needs no inverse; and
    # d y^2 + 1 is never 0 (-1 is a square mod p and d is not, so -1/d is no square y^2): x^2 is 0 exactly
    # when y^2 - 1 is.
    numerator = (y2 - 1) % P
    if numerator and jacobi(numerator * (D * y2 + 1) % P, P) != 1:
        raise ValueError("Ed25519 public key is not a point on the curve")
    if not numerator and sign:
        raise ValueError("Ed25519 public key has an invalid sign bit")
    if y == 1:
        raise ValueError("Ed25519 public key is the identity point")
    u = (1 + y) * pow((1 - y) % P, -1, P) % P
    return u.to_bytes(32, "little")

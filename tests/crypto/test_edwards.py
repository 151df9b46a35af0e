"""The Edwards-to-Montgomery map checks a key the way Euler's criterion does, with the Jacobi symbol.

:func:`pbem.crypto.edwards.ed25519_public_to_x25519` decides whether x^2 is
a square by the Jacobi symbol of a product instead of ``pow(x2, (p-1)/2, p)``
of a quotient. Here each decision and each u-coordinate is checked
against the textbook computation of RFC 8032 section 5.1.3 and RFC 7748.
"""

from __future__ import annotations

import random

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.crypto.edwards import D, P, ed25519_public_to_x25519, jacobi


def textbook(public: bytes) -> bytes | str:
    """The u-coordinate of an Ed25519 key by Euler's criterion and inverses, or why it is no point."""
    if len(public) != 32:
        return "32 bytes"
    encoded = int.from_bytes(public, "little")
    sign, y = encoded >> 255, encoded & ((1 << 255) - 1)
    if y >= P:
        return "non-canonical"
    x2 = (y * y - 1) * pow(D * y * y + 1, -1, P) % P
    if x2 and pow(x2, (P - 1) // 2, P) != 1:
        return "not a point"
    if x2 == 0 and sign:
        return "invalid sign bit"
    if y == 1:
        return "identity"
    return ((1 + y) * pow((1 - y) % P, -1, P) % P).to_bytes(32, "little")


def mapped(public: bytes) -> bytes | str:
    try:
        return ed25519_public_to_x25519(public)
    except ValueError as error:
        return next(reason for reason in ("32 bytes", "non-canonical", "not a point", "invalid sign bit", "identity")
                    if reason in str(error))


@given(st.binary(min_size=32, max_size=32))
@settings(max_examples=400)
def test_any_32_bytes_map_or_are_refused_as_the_textbook_says(public: bytes) -> None:
    assert mapped(public) == textbook(public)


@pytest.mark.parametrize("y", [0, 1, 2, P - 1, P - 2, P, P + 1, 2**255 - 1])
@pytest.mark.parametrize("sign", [0, 1])
def test_edge_coordinates_map_or_are_refused_as_the_textbook_says(y: int, sign: int) -> None:
    public = ((y & ((1 << 255) - 1)) | sign << 255).to_bytes(32, "little")
    assert mapped(public) == textbook(public)


def test_real_keys_map_to_their_x25519_form() -> None:
    """A key's Montgomery form is what X25519 makes of the same clamped scalar (the age ssh-ed25519 case)."""
    for _ in range(20):
        private = Ed25519PrivateKey.generate()
        public = private.public_key().public_bytes_raw()
        assert mapped(public) == textbook(public)
        assert isinstance(ed25519_public_to_x25519(public), bytes) and len(ed25519_public_to_x25519(public)) == 32
    # u of the base point (y = 4/5) is 9
    base_y = 4 * pow(5, -1, P) % P
    assert ed25519_public_to_x25519(base_y.to_bytes(32, "little")) == (9).to_bytes(32, "little")


def test_the_jacobi_symbol_is_the_legendre_symbol_mod_p_and_multiplicative() -> None:
    draw = random.Random(9)
    for _ in range(500):
        a = draw.randrange(P)
        euler = pow(a, (P - 1) // 2, P)
        assert jacobi(a, P) == {1: 1, P - 1: -1, 0: 0}[euler]
    assert jacobi(0, P) == 0 and jacobi(P, P) == 0 and jacobi(-1, P) == 1  # p = 1 mod 4: -1 is a square
    assert jacobi(D, P) == -1  # d is not a square: why d y^2 + 1 is never 0


@pytest.mark.parametrize("n", [3, 5, 7, 9, 15, 21, 45, 105, 1001])
def test_the_jacobi_symbol_of_small_odd_numbers_is_the_product_of_legendre_symbols(n: int) -> None:
    primes, rest, factor = [], n, 3
    while rest > 1:
        while rest % factor:
            factor += 2
        primes.append(factor)
        rest //= factor
    for a in range(-40, 3 * n):
        expected = 1
        for p in primes:
            euler = pow(a % p, (p - 1) // 2, p)
            expected *= -1 if euler == p - 1 else euler
        assert jacobi(a, n) == expected, (a, n)

"""X25519 keys built without cryptography's OpenSSL backend module are the keys its classmethods build."""

from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import x25519 as public

from pbem.crypto import x25519


def test_keys_from_the_bindings_are_the_keys_of_the_public_classmethods() -> None:
    for _ in range(64):
        secret, other = os.urandom(32), os.urandom(32)
        mine = x25519.private_key(secret)
        theirs = public.X25519PrivateKey.from_private_bytes(secret)
        assert isinstance(mine, public.X25519PrivateKey)
        assert mine.public_key().public_bytes_raw() == theirs.public_key().public_bytes_raw()
        point = public.X25519PrivateKey.from_private_bytes(other).public_key().public_bytes_raw()
        assert isinstance(x25519.public_key(point), public.X25519PublicKey)
        assert mine.exchange(x25519.public_key(point)) == theirs.exchange(public.X25519PublicKey.from_public_bytes(point))


def test_a_malformed_key_is_refused_as_by_the_classmethods() -> None:
    with pytest.raises(ValueError):
        x25519.private_key(bytes(31))
    with pytest.raises(ValueError):
        x25519.public_key(bytes(33))


def _calls(name: str) -> Any:
    def build(data: bytes) -> str:
        return name
    return build


@pytest.mark.parametrize("fips", [True, False])
def test_in_fips_mode_the_classmethods_decide(monkeypatch: pytest.MonkeyPatch, fips: bool) -> None:
    """OpenSSL in FIPS mode forbids X25519: then the public classmethods are called, which refuse it as
    they always did; otherwise the bindings build the key."""
    bindings = SimpleNamespace(is_fips_enabled=lambda: fips,
                               x25519=SimpleNamespace(from_private_bytes=_calls("bindings"),
                                                      from_public_bytes=_calls("bindings")))
    monkeypatch.setattr(public, "rust_openssl", bindings)
    monkeypatch.setattr(public.X25519PrivateKey, "from_private_bytes", _calls("classmethod"))
    monkeypatch.setattr(public.X25519PublicKey, "from_public_bytes", _calls("classmethod"))
    x25519._builders.cache_clear()
    try:
        expected = "classmethod" if fips else "bindings"
        assert x25519.private_key(bytes(32)) == expected and x25519.public_key(bytes(32)) == expected
    finally:
        monkeypatch.undo()
        x25519._builders.cache_clear()


def test_without_the_bindings_the_classmethods_build_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(x25519, "_public", SimpleNamespace())  # a cryptography whose module has no bindings
    x25519._builders.cache_clear()
    try:
        secret = os.urandom(32)
        assert (x25519.private_key(secret).public_key().public_bytes_raw()
                == public.X25519PrivateKey.from_private_bytes(secret).public_key().public_bytes_raw())
    finally:
        monkeypatch.undo()
        x25519._builders.cache_clear()


def test_the_aead_class_is_cryptographys_own() -> None:
    """age's ChaCha20-Poly1305 is taken from cryptography's bindings without importing its ciphers package:
    the very class its public module names."""
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    from pbem.crypto import age

    assert age._chacha20poly1305() is ChaCha20Poly1305

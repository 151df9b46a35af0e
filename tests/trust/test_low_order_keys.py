"""A public key whose age recipient is a low-order point is refused when loaded.

Sealing to a low-order X25519 point (or to an ssh-ed25519 key of small
order, whose Montgomery form is one) gives an all-zero shared secret: the
seal fails. Accepted at ``pbem new``, such a key wedged the game at the deal
with a traceback. It is now refused where the key is read: a clear
:class:`KeyFileError`, exit 7.

The points: the X25519 low-order points and their non-canonical encodings
below 2^255 (u = 0, 1, the two points of order 8, p - 1, p, p + 1, as in
the C2SP and libsodium lists; the encodings with the top bit set that
libsodium also lists are other points once that bit is masked, as RFC 7748
and age do), and the eight small-order Ed25519 points, canonical and with
the sign bit flipped.
"""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from helpers_referee import make_keys
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.crypto import age, bech32, openssh
from pbem.crypto.errors import KeyFileError
from pbem.crypto.keys import PUBLIC_FORMAT, fingerprint_of, generate, load_public_key

X25519_LOW_ORDER = [
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0100000000000000000000000000000000000000000000000000000000000000",
    "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
    "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
]

ED25519_SMALL_ORDER = [
    "0100000000000000000000000000000000000000000000000000000000000000",  # the identity
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # order 2
    "0000000000000000000000000000000000000000000000000000000000000000",  # order 4
    "0000000000000000000000000000000000000000000000000000000000000080",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",  # order 8
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
]


def pub_file(tmp: Path, name: str, ed25519: bytes, recipient: str) -> Path:
    path = tmp / f"{name}.pub"
    path.write_text(json.dumps({"format": PUBLIC_FORMAT, "name": name,
                                "ed25519": base64.b64encode(ed25519).decode(), "recipient": recipient,
                                "fingerprint": fingerprint_of(ed25519)}))
    return path


@pytest.mark.parametrize("point", X25519_LOW_ORDER)
def test_a_pub_file_with_a_low_order_x25519_recipient_is_refused(tmp_path: Path, point: str) -> None:
    honest = generate("bob").public
    path = pub_file(tmp_path, "bob", honest.ed25519, bech32.encode("age", bytes.fromhex(point)))
    with pytest.raises(KeyFileError, match="low-order"):
        load_public_key(path, name="bob")


@pytest.mark.parametrize("point", ED25519_SMALL_ORDER)
def test_an_openssh_key_of_small_order_is_refused(tmp_path: Path, point: str) -> None:
    path = tmp_path / "bob.pub"
    path.write_text(openssh.format_public_key(bytes.fromhex(point), "bob@laptop") + "\n")
    with pytest.raises(KeyFileError, match=r"small-order|identity"):
        load_public_key(path)


@pytest.mark.parametrize("point", ED25519_SMALL_ORDER)
def test_a_pub_file_with_a_small_order_signing_key_is_refused(tmp_path: Path, point: str) -> None:
    """Anyone can sign as the holder of a small-order key (the identity verifies every message with S = 0)."""
    path = pub_file(tmp_path, "bob", bytes.fromhex(point), str(generate("bob").public.recipient))
    with pytest.raises(KeyFileError, match=r"small-order|identity"):
        load_public_key(path, name="bob")


def test_pbem_new_refuses_a_low_order_recipient_with_exit_7_and_writes_nothing(tmp_path: Path) -> None:
    _keys, files = make_keys(tmp_path / "keys", ["referee", "alice"])
    bad = pub_file(tmp_path, "bob", generate("bob").public.ed25519, bech32.encode("age", bytes(32)))
    game = tmp_path / "game"
    result = CliRunner().invoke(app, ["new", str(game), "--game", "nightfall", "--player",
                                      f"alice={files['alice'].with_suffix('.pub')}", "--player", f"bob={bad}",
                                      "--referee-key", str(files["referee"])])
    assert result.exit_code == 7, result.output
    assert "low-order" in result.output and "Traceback" not in result.output
    assert not game.exists()


#: any clamped X25519 scalar (a multiple of the cofactor 8): it maps a point of small order to zero
CLAMPED_PROBE = bytes([8]) + bytes(30) + bytes([64])


def _x25519_gives_zero(u: bytes) -> bool:
    """The oracle: whether X25519 (OpenSSL, through cryptography) refuses ``u`` with a clamped scalar."""
    try:
        X25519PrivateKey.from_private_bytes(CLAMPED_PROBE).exchange(X25519PublicKey.from_public_bytes(u))
    except ValueError:
        return True
    return False


def _encodings_near_the_low_order_points() -> list[bytes]:
    """Every listed point, with its top bit set too, and each value a few steps either side of it, of
    ``p`` and ``2^255``; then random points."""
    p = 2**255 - 19
    centres = [int.from_bytes(bytes.fromhex(point), "little") for point in X25519_LOW_ORDER] + [p, 2**255 - 1]
    values = {(c + step) % 2**256 for c in centres for step in range(-3, 4)}
    values |= {v ^ (1 << 255) for v in values}
    rng = random.Random(9)
    values |= {rng.getrandbits(256) for _ in range(300)}
    return [v.to_bytes(32, "little") for v in sorted(values)]


def test_the_low_order_check_is_x25519s_own_answer_without_an_exchange() -> None:
    """age.is_low_order looks u up among the low-order points (no OpenSSL for reading a key): on every
    encoding of those points, their neighbours and random points, it answers as X25519 does."""
    for u in _encodings_near_the_low_order_points():
        assert age.is_low_order(u) is _x25519_gives_zero(u), u.hex()

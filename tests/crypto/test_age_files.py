"""Our age implementation on its own: round trips, recipients, identities, refusals."""

from __future__ import annotations

import os
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.crypto import age, armor, bech32
from pbem.crypto.edwards import ed25519_public_to_x25519
from pbem.crypto.errors import AgeArmorError, AgeError, AgeHeaderError, AgeNoMatchError, AgePayloadError
from pbem.crypto.keys import generate, load_private_key

TESTKIT_IDENTITY = "AGE-SECRET-KEY-1EGTZVFFV20835NWYV6270LXYVK2VKNX2MMDKWYKLMGR48UAWX40Q2P2LM0"


@pytest.mark.parametrize("size", [0, 1, 65535, 65536, 65537, 2 * 65536, 2 * 65536 + 1])
def test_round_trip_across_chunk_boundaries(size):
    key = age.X25519Identity.generate()
    plaintext = os.urandom(size)
    for armored in (True, False):
        ciphertext = age.encrypt(plaintext, [str(key.recipient)], armor=armored)
        assert armor.is_armored(ciphertext) is armored
        assert age.decrypt(ciphertext, [key]) == plaintext


def test_a_full_final_chunk_is_not_followed_by_an_empty_one():
    key = age.X25519Identity.generate()
    binary = age.encrypt(bytes(65536), [str(key.recipient)], armor=False)
    _header, offset = age.parse_header(binary)
    assert len(binary) - offset == age.NONCE_SIZE + age.ENCRYPTED_CHUNK_SIZE


def test_every_recipient_can_open_a_file_with_several(tmp_path):
    keys = [age.X25519Identity.generate() for _ in range(3)]
    ciphertext = age.encrypt(b"to all", [str(k.recipient) for k in keys])
    assert all(age.decrypt(ciphertext, [k]) == b"to all" for k in keys)
    with pytest.raises(AgeNoMatchError):
        age.decrypt(ciphertext, [age.X25519Identity.generate()])


def test_any_of_several_identities_may_match():
    key, other = age.X25519Identity.generate(), age.X25519Identity.generate()
    ciphertext = age.encrypt(b"x", [str(key.recipient)])
    assert age.decrypt(ciphertext, [other, str(key)]) == b"x"


def test_identities_may_be_strings_objects_or_pbem_keys():
    player = generate("alice")
    ciphertext = age.encrypt(b"x", [player.public.recipient])
    assert age.decrypt(ciphertext, [player]) == b"x"
    assert age.decrypt(ciphertext, [player.identity]) == b"x"
    assert age.decrypt(ciphertext, [player.age_identity]) == b"x"
    with pytest.raises(AgeError, match="unsupported age identity"):
        age.decrypt(ciphertext, [42])
    with pytest.raises(AgeError, match="no identities"):
        age.decrypt(ciphertext, [])


@pytest.mark.parametrize(
    "recipient", ["", "age1", "age1qqqq", "AGE1" + "Q" * 58, "ssh-rsa AAAAB3NzaC1yc2E", "ssh-ed25519 !!!", "scrypt"]
)
def test_unusable_recipients_are_refused(recipient):
    with pytest.raises(AgeError):
        age.encrypt(b"x", [recipient])


def test_a_file_needs_a_recipient():
    with pytest.raises(AgeError, match="at least one recipient"):
        age.encrypt(b"x", [])


def test_the_random_source_must_give_the_bytes_asked_for():
    key = age.X25519Identity.generate()
    with pytest.raises(AgeError, match="random source"):
        age.encrypt(b"x", [str(key.recipient)], rng=lambda n: b"short")


def test_the_random_source_is_drawn_in_a_documented_order():
    """File key (16), then one ephemeral secret (32) per recipient, then the nonce (16)."""
    asked: list[int] = []

    def rng(n: int) -> bytes:
        asked.append(n)
        return os.urandom(n)

    keys = [age.X25519Identity.generate() for _ in range(2)]
    age.encrypt(b"x", [str(k.recipient) for k in keys], rng=rng)
    assert asked == [16, 32, 32, 16]


def _stream(label: bytes):
    """A reproducible random source: the same label gives the same bytes in the same order."""
    import hashlib

    counter = iter(range(1 << 30))
    return lambda n: b"".join(hashlib.sha256(label + bytes([next(counter) % 256])).digest() for _ in range(2))[:n]


@pytest.mark.parametrize("size", [0, 1, 65536, 65537])
def test_the_sealer_opens_exactly_what_it_sealed_with_the_same_random_source(size):
    """``open_as_sealer`` is ``encrypt`` checked without encrypting: it gives the plaintext of a file that
    ``encrypt`` wrote with these recipients and this random source, and of no other."""
    plaintext = os.urandom(size)
    recipients = [str(age.X25519Identity.generate().recipient) for _ in range(2)]
    sealed = age.encrypt(plaintext, recipients, rng=_stream(b"a"))
    assert age.open_as_sealer(sealed, recipients, _stream(b"a")) == plaintext
    with pytest.raises(AgeHeaderError):  # another random source: another file key, stanzas and nonce
        age.open_as_sealer(sealed, recipients, _stream(b"b"))
    with pytest.raises(AgeHeaderError):  # the recipients in another order
        age.open_as_sealer(sealed, recipients[::-1], _stream(b"a"))
    with pytest.raises(AgeArmorError):  # the same file in armor another reader accepts
        age.open_as_sealer(sealed.replace(b"\n", b"\r\n"), recipients, _stream(b"a"))
    binary = armor.dearmor(sealed)
    with pytest.raises(AgePayloadError):  # one payload byte changed
        age.open_as_sealer(armor.armor(binary[:-1] + bytes([binary[-1] ^ 1])), recipients, _stream(b"a"))
    with pytest.raises(AgePayloadError):  # something after the payload
        age.open_as_sealer(armor.armor(binary + b"\x00"), recipients, _stream(b"a"))


def test_a_known_identity_has_its_known_recipient_and_opens_the_testkit_file():
    identity = age.X25519Identity.parse(TESTKIT_IDENTITY)
    assert str(identity) == TESTKIT_IDENTITY
    assert str(age.X25519Identity.parse(str(identity))) == TESTKIT_IDENTITY
    assert str(identity.recipient).startswith("age1")


@pytest.mark.parametrize(
    "text",
    [
        TESTKIT_IDENTITY.lower(),  # identities are upper case
        TESTKIT_IDENTITY[:-1] + "1",  # checksum
        TESTKIT_IDENTITY[:20] + TESTKIT_IDENTITY[20:].lower(),  # mixed case
        "AGE-SECRET-KEY-PQ-1" + TESTKIT_IDENTITY[16:],
    ],
)
def test_malformed_identities_are_refused(text):
    with pytest.raises(AgeError):
        age.X25519Identity.parse(text)


def test_bech32_round_trips_and_refuses_bad_checksums():
    data = bytes(range(32))
    text = bech32.encode("age", data)
    assert bech32.decode(text) == ("age", data)
    assert bech32.decode(text.upper()) == ("AGE", data)
    with pytest.raises(ValueError):
        bech32.decode(text[:-1] + ("q" if text[-1] != "q" else "p"))


def test_a_bit_flip_in_the_payload_is_a_payload_failure():
    key = age.X25519Identity.generate()
    binary = bytearray(age.encrypt(b"secret hand", [str(key.recipient)], armor=False))
    binary[-1] ^= 1
    with pytest.raises(AgePayloadError):
        age.decrypt(bytes(binary), [key])


def test_a_truncated_file_fails():
    key = age.X25519Identity.generate()
    binary = age.encrypt(b"x" * 100_000, [str(key.recipient)], armor=False)
    with pytest.raises(AgePayloadError):
        age.decrypt(binary[:-10], [key])
    _header, offset = age.parse_header(binary)
    with pytest.raises(AgeHeaderError):
        age.decrypt(binary[: offset + 3], [key])


def test_armor_detection_can_be_insisted_on():
    key = age.X25519Identity.generate()
    binary = age.encrypt(b"x", [str(key.recipient)], armor=False)
    with pytest.raises(AgeArmorError):
        age.decrypt(binary, [key], armored=True)
    with pytest.raises(AgeHeaderError):
        age.decrypt(armor.armor(binary), [key], armored=False)


@given(st.binary(max_size=300))
@settings(max_examples=60)
def test_armor_round_trips(data):
    text = armor.armor(data)
    assert armor.dearmor(text) == data
    assert all(len(line) <= 64 for line in text.splitlines())
    assert armor.dearmor(b"\n  \r\n" + text.replace(b"\n", b"\r\n") + b"  \n") == data


def test_an_invalid_ed25519_key_is_not_a_recipient():
    with pytest.raises(ValueError):
        ed25519_public_to_x25519(bytes(31))
    # y = 2 is not the y coordinate of any curve point.
    with pytest.raises(ValueError, match="not a point"):
        ed25519_public_to_x25519((2).to_bytes(32, "little"))
    with pytest.raises(ValueError, match="identity"):
        ed25519_public_to_x25519((1).to_bytes(32, "little"))


def test_an_ssh_stanza_for_another_key_is_skipped(tmp_path):
    paths = []
    for name in ("a", "b"):
        path = tmp_path / f"id_{name}"
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(path)], check=True)
        paths.append(path)
    key_a, key_b = (load_private_key(p) for p in paths)
    ciphertext = age.encrypt(b"for b", [key_a.public.recipient, key_b.public.recipient])
    header, _ = age.parse_header(armor.dearmor(ciphertext))
    assert [s.type for s in header.stanzas] == ["ssh-ed25519", "ssh-ed25519"]
    assert age.decrypt(ciphertext, [key_b]) == b"for b"
    only_a = age.encrypt(b"for a", [key_a.public.recipient])
    with pytest.raises(AgeNoMatchError):
        age.decrypt(only_a, [key_b])


def test_a_low_order_share_is_a_header_failure():
    key = age.X25519Identity.generate()
    stanza = age.Stanza("X25519", (age.b64encode_raw(bytes(32)),), bytes(32))
    with pytest.raises(AgeHeaderError, match="low-order"):
        key.unwrap(stanza)

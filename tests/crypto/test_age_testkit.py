"""The C2SP age test vectors (tests/crypto/age-testkit/, from c2sp.org/CCTV/age).

Each vector is decrypted with its identities and must end exactly as its
``expect:`` line says, releasing exactly the plaintext its ``payload:`` hash
names (for a payload failure, the chunks that authenticated before it).
Vectors that need identities of types pbem does not implement (scrypt
passphrases, ML-KEM hybrid keys) must fail cleanly with an AgeError.
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pbem.crypto import age
from pbem.crypto.errors import (
    AgeArmorError,
    AgeError,
    AgeHeaderError,
    AgeHMACError,
    AgeNoMatchError,
    AgePayloadError,
)

TESTKIT = Path(__file__).parent / "age-testkit"

FAILURE_KINDS = {
    "armor failure": AgeArmorError,
    "header failure": AgeHeaderError,
    "no match": AgeNoMatchError,
    "HMAC failure": AgeHMACError,
    "payload failure": AgePayloadError,
}


@dataclass
class Vector:
    name: str
    expect: str = ""
    payload: str | None = None
    identities: list[str] = field(default_factory=list)
    passphrases: list[str] = field(default_factory=list)
    armored: bool = False
    file_key: bytes = b""
    file: bytes = b""

    @property
    def supported(self) -> bool:
        """Every identity is X25519 and there is no passphrase."""
        return not self.passphrases and all(i.startswith("AGE-SECRET-KEY-1") for i in self.identities)


def read_vector(path: Path) -> Vector:
    raw = path.read_bytes()
    head, _, body = raw.partition(b"\n\n")
    vector = Vector(path.name)
    compressed = False
    for line in head.decode().splitlines():
        key, _, value = line.partition(": ")
        if key == "expect":
            vector.expect = value
        elif key == "payload":
            vector.payload = value
        elif key == "identity":
            vector.identities.append(value)
        elif key == "passphrase":
            vector.passphrases.append(value)
        elif key == "armored":
            vector.armored = value == "yes"
        elif key == "file key":
            vector.file_key = bytes.fromhex(value)
        elif key == "compressed":
            compressed = value == "zlib"
    vector.file = zlib.decompress(body) if compressed else body
    return vector


VECTORS = sorted(p for p in TESTKIT.iterdir() if p.is_file() and p.name != "README.md")
SUPPORTED = [p for p in VECTORS if read_vector(p).supported]
UNSUPPORTED = [p for p in VECTORS if not read_vector(p).supported]


def test_the_testkit_is_present_and_mostly_supported():
    assert len(VECTORS) >= 140
    assert len(SUPPORTED) >= 90


def run(vector: Vector, identities: list) -> tuple[bytes, BaseException | None]:
    released: list[bytes] = []
    identities = identities or [age.X25519Identity.generate()]  # some failure vectors name none
    try:
        for chunk in age.iter_decrypt(vector.file, identities, armored=vector.armored):
            released.append(chunk)
    except AgeError as exc:
        return b"".join(released), exc
    return b"".join(released), None


@pytest.mark.parametrize("path", SUPPORTED, ids=lambda p: p.name)
def test_vector_ends_as_expected(path: Path):
    vector = read_vector(path)
    plaintext, error = run(vector, vector.identities)
    if vector.expect == "success":
        assert error is None, f"{vector.name}: {error!r}"
    else:
        assert isinstance(error, FAILURE_KINDS[vector.expect]), f"{vector.name}: expected {vector.expect}, got {error!r}"
    if vector.expect in ("success", "payload failure"):
        assert hashlib.sha256(plaintext).hexdigest() == vector.payload
    else:
        assert plaintext == b""


@pytest.mark.parametrize("path", SUPPORTED, ids=lambda p: p.name)
def test_decrypt_releases_nothing_unless_the_whole_file_authenticates(path: Path):
    vector = read_vector(path)
    identities: list[object] = [*vector.identities] or [age.X25519Identity.generate()]
    if vector.expect == "success":
        plaintext = age.decrypt(vector.file, identities)  # armor detected by itself
        assert hashlib.sha256(plaintext).hexdigest() == vector.payload
    else:
        with pytest.raises(FAILURE_KINDS[vector.expect]):
            age.decrypt(vector.file, identities, armored=vector.armored)


@pytest.mark.parametrize("path", UNSUPPORTED, ids=lambda p: p.name)
def test_vector_of_an_unsupported_type_fails_cleanly(path: Path):
    vector = read_vector(path)
    usable = [i for i in vector.identities if i.startswith("AGE-SECRET-KEY-1")]
    identities: list[object] = [*usable] or [age.X25519Identity.generate()]
    plaintext, error = run(vector, identities)
    assert isinstance(error, AgeError), f"{vector.name} opened without a supported identity"
    assert plaintext == b""
    if vector.expect in ("success", "no match"):
        assert isinstance(error, (AgeNoMatchError, AgeHeaderError))


SUCCESSES = [p for p in SUPPORTED if read_vector(p).expect == "success"]


@pytest.mark.parametrize("path", SUCCESSES, ids=lambda p: p.name)
def test_header_and_stream_encode_back_to_the_vector_bytes(path: Path):
    """The encryption direction: with the vector's file key and nonce, our header
    MAC and STREAM encoder reproduce the file byte for byte."""
    vector = read_vector(path)
    data = age.armor_module.dearmor(vector.file) if vector.armored else vector.file
    header, offset = age.parse_header(data)
    assert header.without_mac() + b" " + age.b64encode_raw(header.mac).encode() + b"\n" == data[:offset]
    assert age.header_mac(vector.file_key, header.without_mac()) == header.mac
    nonce, payload = data[offset : offset + age.NONCE_SIZE], data[offset + age.NONCE_SIZE :]
    plaintext = age.decrypt(vector.file, vector.identities)
    assert age.stream_seal(age.payload_key(vector.file_key, nonce), plaintext) == payload


@pytest.mark.parametrize("path", [p for p in SUCCESSES if read_vector(p).armored], ids=lambda p: p.name)
def test_armor_encodes_back_to_the_vector(path: Path):
    """Armor round trip, up to the tolerated CRLF line ends and surrounding whitespace."""
    vector = read_vector(path)
    ours = age.armor_module.armor(age.armor_module.dearmor(vector.file))
    assert ours == vector.file.strip().replace(b"\r\n", b"\n") + b"\n"

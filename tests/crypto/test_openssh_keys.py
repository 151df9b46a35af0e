"""OpenSSH Ed25519 key files: pbem reads them as ``cryptography`` does, and refuses what is inconsistent.

``cryptography``'s own loader is the oracle here: on every key ``ssh-keygen`` writes, pbem's parser
(kept for the comment, which ``load_ssh_private_key`` drops; see :mod:`pbem.crypto.openssh`) finds the
same key. The refusals are of files ``ssh-keygen`` never writes, built field by field (PROTOCOL.key).
"""

from __future__ import annotations

import base64
import struct
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from pbem.crypto import openssh
from pbem.crypto.errors import KeyFileError


def _string(value: bytes) -> bytes:
    return struct.pack(">I", len(value)) + value


def raw_public(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_file(seed: bytes, public: bytes, comment: bytes = b"carol@laptop", checks: tuple[int, int] = (7, 7),
             padding: bytes | None = None, stored_secret_public: bytes | None = None) -> str:
    """An unencrypted ``openssh-key-v1`` file of one Ed25519 key, each field as given."""
    blob = _string(b"ssh-ed25519") + _string(public)
    private = (struct.pack(">II", *checks) + _string(b"ssh-ed25519") + _string(public)
               + _string(seed + (stored_secret_public if stored_secret_public is not None else public))
               + _string(comment))
    private += bytes(range(1, 1 + (-len(private)) % 8)) if padding is None else padding
    data = b"openssh-key-v1\x00" + _string(b"none") + _string(b"none") + _string(b"") + struct.pack(">I", 1)
    data += _string(blob) + _string(private)
    encoded = base64.b64encode(data).decode()
    lines = [encoded[i : i + 70] for i in range(0, len(encoded), 70)]
    return "\n".join([openssh.PRIVATE_BEGIN, *lines, openssh.PRIVATE_END, ""])


@pytest.mark.parametrize("comment", ["carol@laptop", "", "Carol Ünal's key", "c4"])
def test_pbem_reads_the_key_ssh_keygen_writes_as_cryptography_does(tmp_path: Path, comment: str) -> None:
    path = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", str(path)],
                   check=True, capture_output=True)
    seed, public, found_comment = openssh.parse_private_key(path.read_text())
    loaded = serialization.load_ssh_private_key(path.read_bytes(), password=None)
    assert isinstance(loaded, Ed25519PrivateKey)
    assert loaded.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                serialization.NoEncryption()) == seed
    assert raw_public(loaded) == public
    assert found_comment == comment
    line = path.with_suffix(".pub").read_text()
    line_public, line_comment = openssh.parse_public_key(line)
    identity = serialization.load_ssh_public_identity(line.encode())
    assert isinstance(identity, Ed25519PublicKey)
    assert identity.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw) == line_public == public
    assert line_comment == comment
    assert openssh.format_public_key(public, comment) == line.strip()


def test_a_key_file_built_field_by_field_is_read_by_both() -> None:
    """The builder of the refusals below writes what both parsers read, so each refusal is of its one change."""
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    text = key_file(bytes(range(32)), raw_public(key))
    assert openssh.parse_private_key(text) == (bytes(range(32)), raw_public(key), "carol@laptop")
    assert isinstance(serialization.load_ssh_private_key(text.encode(), password=None), Ed25519PrivateKey)


def test_a_key_whose_public_key_is_not_its_secrets_is_refused() -> None:
    """Both copies of the public key name another key than the secret: `age -i` would take the stored one
    for the recipient (Go's ed25519 keeps it beside the seed), pbem the secret's. ``cryptography`` only
    compares the two stored copies; pbem also derives the public key from the secret."""
    seed = bytes(range(32))
    other = raw_public(Ed25519PrivateKey.from_private_bytes(bytes(32)))
    with pytest.raises(KeyFileError, match="does not match the public key"):
        openssh.parse_private_key(key_file(seed, other))


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"checks": (7, 8)}, "check integers differ"),
        ({"padding": b"\x00" * 7}, "corrupt"),
        ({"stored_secret_public": bytes(32)}, "corrupt"),
    ],
)
def test_a_corrupt_key_file_is_refused(change: dict[str, object], why: str) -> None:
    seed = bytes(range(32))
    public = raw_public(Ed25519PrivateKey.from_private_bytes(seed))
    with pytest.raises(KeyFileError, match=why):
        openssh.parse_private_key(key_file(seed, public, **change))  # type: ignore[arg-type]


def test_a_truncated_key_file_is_refused() -> None:
    seed = bytes(range(32))
    text = key_file(seed, raw_public(Ed25519PrivateKey.from_private_bytes(seed)))
    data = base64.b64decode("".join(text.splitlines()[1:-1]))
    cut = "\n".join([openssh.PRIVATE_BEGIN, base64.b64encode(data[:-20]).decode(), openssh.PRIVATE_END])
    with pytest.raises(KeyFileError, match="truncated"):
        openssh.parse_private_key(cut)

"""OpenSSH Ed25519 key formats, so that players may use the key they already have.

Two formats: the public key line (``ssh-ed25519 AAAA… comment``) and the
unencrypted ``openssh-key-v1`` private key file that ``ssh-keygen -t ed25519
-N ""`` writes (PROTOCOL.key in the OpenSSH sources). Only Ed25519 keys are
accepted; a passphrase-protected key is refused with a clear message.

Why this module parses them itself rather than with ``cryptography``'s
``load_ssh_private_key`` (checked against cryptography 50):

* ``load_ssh_private_key`` reads the key's comment and drops it, and pbem
  takes the player's name from the comment. The comment is the last field
  of the private section, after four length-prefixed fields: reading it
  means walking the whole structure again, the reader below in all but its
  checks, so nothing would be saved but a second parser of the same bytes.
* It checks that the file's two copies of the public key agree, not that
  they are the secret's public key. Such a file loads, as a key whose
  public key is not the one the file names; ``age -i`` (Go's ed25519 keeps
  the stored public key beside the seed) would then compute another
  recipient than pbem. This parser derives it and refuses the file
  (``tests/crypto/test_openssh_keys.py``).

``cryptography`` is the test oracle instead: on every key ``ssh-keygen``
writes, this parser finds the key ``load_ssh_private_key`` and
``load_ssh_public_identity`` find (the same test file).
"""

from __future__ import annotations

import base64
import binascii
import struct

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.crypto.errors import KeyFileError

KEY_TYPE = "ssh-ed25519"
PRIVATE_BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----"
PRIVATE_END = "-----END OPENSSH PRIVATE KEY-----"
_MAGIC = b"openssh-key-v1\x00"


class _Reader:
    """Reads the SSH wire encoding (RFC 4251 section 5): uint32 and length-prefixed strings."""

    def __init__(self, data: bytes, what: str) -> None:
        self.data, self.pos, self.what = data, 0, what

    def take(self, count: int) -> bytes:
        if self.pos + count > len(self.data):
            raise KeyFileError(f"{self.what} is truncated")
        chunk = self.data[self.pos : self.pos + count]
        self.pos += count
        return chunk

    def uint32(self) -> int:
        return struct.unpack(">I", self.take(4))[0]

    def string(self) -> bytes:
        return self.take(self.uint32())

    def rest(self) -> bytes:
        return self.data[self.pos :]


def _string(value: bytes) -> bytes:
    return struct.pack(">I", len(value)) + value


def public_blob(ed25519_public: bytes) -> bytes:
    """The SSH wire form of an Ed25519 public key (what ``ssh.PublicKey.Marshal`` returns)."""
    return _string(KEY_TYPE.encode()) + _string(ed25519_public)


def format_public_key(ed25519_public: bytes, comment: str = "") -> str:
    """The ``ssh-ed25519 AAAA…`` line, with the comment if one is given."""
    line = KEY_TYPE + " " + base64.b64encode(public_blob(ed25519_public)).decode()
    return f"{line} {comment}" if comment else line


def _parse_public_blob(blob: bytes, what: str) -> bytes:
    reader = _Reader(blob, what)
    key_type = reader.string()
    if key_type != KEY_TYPE.encode():
        raise KeyFileError(f"{what} is a {key_type.decode(errors='replace')!r} key; only ssh-ed25519 keys are supported")
    public = reader.string()
    if len(public) != 32 or reader.rest():
        raise KeyFileError(f"{what} is not a well-formed ssh-ed25519 key")
    return public


def parse_public_key(line: str, what: str = "OpenSSH public key") -> tuple[bytes, str]:
    """``(ed25519 public key, comment)`` from an ``ssh-ed25519 AAAA… comment`` line."""
    parts = line.strip().split(None, 2)
    if len(parts) < 2:
        raise KeyFileError(f"{what} is not an 'ssh-ed25519 AAAA…' line")
    if parts[0] != KEY_TYPE:
        raise KeyFileError(f"{what} is a {parts[0]!r} key; only ssh-ed25519 keys are supported")
    try:
        blob = base64.b64decode(parts[1], validate=True)
    except binascii.Error:
        raise KeyFileError(f"{what} has malformed base64") from None
    return _parse_public_blob(blob, what), parts[2] if len(parts) > 2 else ""


def parse_private_key(text: str, what: str = "OpenSSH private key") -> tuple[bytes, bytes, str]:
    """``(ed25519 seed, ed25519 public key, comment)`` from an unencrypted ``openssh-key-v1`` file."""
    body = text.strip()
    if not (body.startswith(PRIVATE_BEGIN) and body.endswith(PRIVATE_END)):
        raise KeyFileError(f"{what} is not in the '{PRIVATE_BEGIN}' format")
    encoded = "".join(body[len(PRIVATE_BEGIN) : -len(PRIVATE_END)].split())
    try:
        data = base64.b64decode(encoded, validate=True)
    except binascii.Error:
        raise KeyFileError(f"{what} has malformed base64") from None
    if not data.startswith(_MAGIC):
        raise KeyFileError(f"{what} is not an openssh-key-v1 key")
    reader = _Reader(data[len(_MAGIC) :], what)
    cipher, kdf, _kdf_options = reader.string(), reader.string(), reader.string()
    if cipher != b"none" or kdf != b"none":
        raise KeyFileError(
            f"{what} is protected by a passphrase, which pbem cannot prompt for; "
            "make a pbem key with `pbem keygen NAME` instead (or remove the passphrase: ssh-keygen -p)"
        )
    if reader.uint32() != 1:
        raise KeyFileError(f"{what} holds more than one key")
    public = _parse_public_blob(reader.string(), what)
    private = _Reader(reader.string(), what)
    if private.uint32() != private.uint32():
        raise KeyFileError(f"{what} is corrupt (check integers differ)")
    if private.string() != KEY_TYPE.encode():
        raise KeyFileError(f"{what} is not an ssh-ed25519 key")
    if private.string() != public:
        raise KeyFileError(f"{what} is corrupt (public keys differ)")
    secret = private.string()
    comment = private.string().decode("utf-8", errors="replace")
    padding = private.rest()
    if len(secret) != 64 or secret[32:] != public or padding != bytes(range(1, len(padding) + 1)):
        raise KeyFileError(f"{what} is corrupt")
    seed = secret[:32]
    derived = Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes_raw()
    if derived != public:
        raise KeyFileError(f"{what} is corrupt (the secret does not match the public key)")
    return seed, public, comment

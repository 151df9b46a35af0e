"""Players' and referees' keys: an Ed25519 signing key and an age encryption key.

A **pbem key** (``pbem keygen NAME``) is two independent keys: an Ed25519 key
that signs moves and turns, and an X25519 age identity that opens what is
sealed to its holder. Its two files:

``NAME.key`` (mode 0600, never in a game directory)::

    {"format": "pbem-private-key/1", "name": "alice",
     "ed25519": "<base64 32-byte seed>", "x25519": "AGE-SECRET-KEY-1…"}

``NAME.pub`` (shared with the referee and the other players)::

    {"format": "pbem-public-key/1", "name": "alice", "ed25519": "<base64>",
     "recipient": "age1…", "fingerprint": "pbem:…"}

An **OpenSSH Ed25519 key** (``ssh-keygen -t ed25519``) may be used instead:
the same key signs, and it is the age ``ssh-ed25519`` recipient, so that
``age -d -i ~/.ssh/id_ed25519`` opens what is sealed to it.

A key's fingerprint is ``pbem:`` and the first 16 characters of the
lower-case base32 SHA-256 of its Ed25519 public key (80 bits), for both kinds.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
import stat
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.crypto import age, openssh
from pbem.crypto.canonical import parse_json_strict
from pbem.crypto.edwards import ed25519_public_to_x25519
from pbem.crypto.errors import AgeError, KeyFileError, MalformedError
from pbem.digests import sha256
from pbem.durable import atomic_write
from pbem.immutable import Immutable

PUBLIC_FORMAT = "pbem-public-key/1"
PRIVATE_FORMAT = "pbem-private-key/1"
FINGERPRINT_PREFIX = "pbem:"
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
_MAX_KEY_FILE = 64 * 1024
#: the HKDF salt of :meth:`PrivateKey.derive_secret`
DERIVED_SECRET_SALT = b"pbem-derived-secret"


def check_name(name: str) -> str:
    """A key name is 1-64 letters, digits, ``_`` or ``-``, starting with a letter or digit (it names files)."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise KeyFileError(
            f"key name {name!r} is not allowed: use 1-64 letters, digits, '_' or '-', starting with a letter or digit"
        )
    return name


def fingerprint_of(ed25519_public: bytes) -> str:
    """``pbem:`` + the first 16 lower-case base32 characters of SHA-256(Ed25519 public key)."""
    # base32 writes each 5 bytes as 8 characters of their own: the first 16 are those of the first 10 bytes
    # (Python's base32 encoder is Python, a loop per 5 bytes)
    return FINGERPRINT_PREFIX + base64.b32encode(sha256(ed25519_public)[:10]).decode().lower()


def _raw_public(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes_raw()


def _raw_seed(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes_raw()


def _b64decode(text: object, what: str, size: int) -> bytes:
    if not isinstance(text, str):
        raise KeyFileError(f"{what} must be a base64 string")
    try:
        data = base64.b64decode(text, validate=True)
    except binascii.Error:
        raise KeyFileError(f"{what} is not valid base64") from None
    if len(data) != size:
        raise KeyFileError(f"{what} must be {size} bytes, not {len(data)}")
    return data


class PublicKey(Immutable):
    """What everyone may know of a key: its name, Ed25519 verifying key and age recipient.

    Checked when made: a key that cannot verify or be sealed to is never
    built. Immutable, and equal to another of the same name, key and
    recipient. A plain class rather than a frozen dataclass, whose
    definition costs more when a command starts than the command's use of
    its keys (docs/performance.md, "Records without dataclasses").
    """

    __slots__ = ("ed25519", "fingerprint", "name", "recipient")
    _key = ("name", "ed25519", "recipient")
    name: str
    ed25519: bytes
    recipient: str
    #: ``pbem:`` and 16 characters of the key's hash (:func:`fingerprint_of`)
    fingerprint: str

    def __init__(self, name: str, ed25519: bytes, recipient: str) -> None:
        check_name(name)
        if not isinstance(ed25519, bytes) or len(ed25519) != 32:
            raise KeyFileError("an Ed25519 public key is 32 bytes")
        try:
            montgomery = ed25519_public_to_x25519(ed25519)
        except ValueError as exc:
            raise KeyFileError(f"key {name!r}: unusable Ed25519 key: {exc}") from None
        if age.is_low_order(montgomery):
            # with a small-order key, signatures verify that nobody made (S = 0 for the identity)
            raise KeyFileError(f"key {name!r}: a small-order Ed25519 key, which anyone could sign for")
        try:
            parsed = age.parsed_recipient(recipient)
        except AgeError as exc:
            raise KeyFileError(f"key {name!r} has an unusable recipient: {exc}") from None
        if isinstance(parsed, age.SshEd25519Recipient) and parsed.ed25519_public != ed25519:
            raise KeyFileError(f"key {name!r}: its ssh-ed25519 recipient is not its signing key")
        self._set(name=name, ed25519=ed25519, recipient=recipient, fingerprint=fingerprint_of(ed25519))

    def __reduce__(self) -> tuple[type[PublicKey], tuple[str, bytes, str]]:
        return PublicKey, (self.name, self.ed25519, self.recipient)  # a copy is made, and checked, anew

    @property
    def is_openssh(self) -> bool:
        """Whether this is an OpenSSH key (its recipient is ``ssh-ed25519 …``)."""
        return self.recipient.startswith("ssh-ed25519 ")

    def verify(self, signature: bytes, data: bytes) -> bool:
        """Whether ``signature`` is this key's Ed25519 signature of ``data``."""
        try:
            Ed25519PublicKey.from_public_bytes(self.ed25519).verify(signature, data)
        except InvalidSignature:
            return False
        return True

    def to_json(self) -> dict:
        """The ``NAME.pub`` document (schemas/pubkey.schema.json)."""
        return {
            "format": PUBLIC_FORMAT,
            "name": self.name,
            "ed25519": base64.b64encode(self.ed25519).decode(),
            "recipient": self.recipient,
            "fingerprint": self.fingerprint,
        }

    @classmethod
    def from_json(cls, doc: object) -> PublicKey:
        """Read a ``NAME.pub`` document; its fingerprint must match its key."""
        if not isinstance(doc, dict):
            raise KeyFileError("a public key file holds a JSON object")
        if doc.get("format") != PUBLIC_FORMAT:
            raise KeyFileError(f"unknown public key format {doc.get('format')!r} (expected {PUBLIC_FORMAT!r})")
        unknown = set(doc) - {"format", "name", "ed25519", "recipient", "fingerprint"}
        if unknown:
            raise KeyFileError(f"public key file has unknown fields: {', '.join(sorted(unknown))}")
        for field in ("name", "ed25519", "recipient", "fingerprint"):
            if not isinstance(doc.get(field), str):
                raise KeyFileError(f"public key file lacks the string field {field!r}")
        key = cls(doc["name"], _b64decode(doc["ed25519"], "ed25519", 32), doc["recipient"])
        if doc["fingerprint"] != key.fingerprint:
            raise KeyFileError(
                f"public key {key.name!r}: fingerprint {doc['fingerprint']!r} does not match its key ({key.fingerprint})"
            )
        return key


class PrivateKey:
    """A key its owner holds: signs documents and opens what is sealed to it."""

    def __init__(
        self,
        name: str,
        signing: Ed25519PrivateKey,
        age_identity: age.X25519Identity | age.SshEd25519Identity,
        openssh_text: str | None = None,
    ) -> None:
        self.name = check_name(name)
        self._signing = signing
        self._age_identity = age_identity
        self._openssh_text = openssh_text
        ed_public = _raw_public(signing)
        if isinstance(age_identity, age.SshEd25519Identity):
            recipient = str(age.SshEd25519Recipient(ed_public))
        else:
            recipient = str(age_identity.recipient)
        self._public = PublicKey(name, ed_public, recipient)

    def __repr__(self) -> str:
        return f"PrivateKey({self.name!r}, {self.fingerprint})"

    @property
    def public(self) -> PublicKey:
        return self._public

    @property
    def fingerprint(self) -> str:
        return self._public.fingerprint

    @property
    def is_openssh(self) -> bool:
        return self._openssh_text is not None

    @property
    def age_identity(self) -> age.X25519Identity | age.SshEd25519Identity:
        """The identity :func:`pbem.crypto.age.decrypt` uses."""
        return self._age_identity

    @property
    def identity(self) -> str:
        """What ``age -d -i FILE`` needs in FILE: the ``AGE-SECRET-KEY-1…`` line, or the OpenSSH private key text."""
        if self._openssh_text is not None:
            return self._openssh_text
        return str(self._age_identity)

    def sign(self, data: bytes) -> bytes:
        """The 64-byte Ed25519 signature of ``data``."""
        return self._signing.sign(data)

    def derive_secret(self, label: bytes, length: int = 32) -> bytes:
        """A secret only this key's holder can compute, the same every time for the same ``label``.

        HKDF-SHA256 over the Ed25519 private key (its 32-byte seed), salted
        with ``pbem-derived-secret`` and with ``label`` as the info: one
        independent secret per label, so a caller names its purpose in the
        label (``pbem-join-nonce`` ...). Unlike a signature, which an
        Ed25519 signer can make in many valid forms, this is one value.
        """
        return HKDF(algorithm=hashes.SHA256(), length=length, salt=DERIVED_SECRET_SALT, info=label).derive(
            _raw_seed(self._signing)
        )

    def to_json(self) -> dict:
        """The ``NAME.key`` document (schemas/key.schema.json); only for pbem keys."""
        if self._openssh_text is not None:
            raise KeyFileError(f"key {self.name!r} is an OpenSSH key; it stays in its own file")
        return {
            "format": PRIVATE_FORMAT,
            "name": self.name,
            "ed25519": base64.b64encode(_raw_seed(self._signing)).decode(),
            "x25519": str(self._age_identity),
        }

    @classmethod
    def from_json(cls, doc: object) -> PrivateKey:
        if not isinstance(doc, dict):
            raise KeyFileError("a private key file holds a JSON object")
        if doc.get("format") != PRIVATE_FORMAT:
            raise KeyFileError(f"unknown private key format {doc.get('format')!r} (expected {PRIVATE_FORMAT!r})")
        unknown = set(doc) - {"format", "name", "ed25519", "x25519"}
        if unknown:
            raise KeyFileError(f"private key file has unknown fields: {', '.join(sorted(unknown))}")
        if not isinstance(doc.get("name"), str) or not isinstance(doc.get("x25519"), str):
            raise KeyFileError("private key file lacks its name or x25519 identity")
        seed = _b64decode(doc.get("ed25519"), "ed25519", 32)
        try:
            identity = age.X25519Identity.parse(doc["x25519"])
        except AgeError as exc:
            raise KeyFileError(f"private key file: {exc}") from None
        return cls(doc["name"], Ed25519PrivateKey.from_private_bytes(seed), identity)

    @classmethod
    def from_openssh(cls, text: str, name: str | None = None, what: str = "OpenSSH private key") -> PrivateKey:
        """An unencrypted OpenSSH Ed25519 private key; the name is ``name`` or taken from the key's comment."""
        seed, public, comment = openssh.parse_private_key(text, what)
        chosen = name if name is not None else _name_from_comment(comment, what)
        return cls(chosen, Ed25519PrivateKey.from_private_bytes(seed), age.SshEd25519Identity(seed, public), text)


def _name_from_comment(comment: str, what: str) -> str:
    # "alice@laptop" -> "alice": the part before "@" is the person.
    candidate = comment.split("@", 1)[0].strip()
    if not NAME_PATTERN.fullmatch(candidate):
        raise KeyFileError(f"{what} has no usable name in its comment {comment!r}; give the name explicitly")
    return candidate


def generate(name: str) -> PrivateKey:
    """A fresh pbem key: a new Ed25519 signing key and an independent new X25519 age identity."""
    return PrivateKey(check_name(name), Ed25519PrivateKey.generate(), age.X25519Identity.generate())


def _dump(doc: dict) -> bytes:
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode()


def _write_new(path: Path, data: bytes, mode: int) -> None:
    """Write ``path`` atomically with ``mode``, refusing to replace an existing file."""
    try:
        atomic_write(path, data, mode, replace=False)
    except FileExistsError:
        raise KeyFileError(f"{path} already exists; pbem never overwrites a key file") from None


def write_public_key(public: PublicKey, out_dir: Path) -> Path:
    """Write ``NAME.pub`` in ``out_dir``; refuses to overwrite."""
    path = Path(out_dir) / f"{public.name}.pub"
    _write_new(path, _dump(public.to_json()), 0o644)
    return path


def write_keypair(key: PrivateKey, out_dir: Path) -> tuple[Path, Path]:
    """Write ``NAME.key`` (mode 0600) and ``NAME.pub`` in ``out_dir``; refuses to overwrite either."""
    out_dir = Path(out_dir)
    private_path, public_path = out_dir / f"{key.name}.key", out_dir / f"{key.name}.pub"
    for path in (private_path, public_path):
        if path.exists():
            raise KeyFileError(f"{path} already exists; pbem never overwrites a key file")
    _write_new(private_path, _dump(key.to_json()), 0o600)
    try:
        write_public_key(key.public, out_dir)
    except BaseException:
        private_path.unlink(missing_ok=True)
        raise
    return private_path, public_path


def _read(path: Path, what: str) -> str:
    try:
        with open(path, "rb") as handle:
            data = handle.read(_MAX_KEY_FILE + 1)
    except OSError as exc:
        raise KeyFileError(f"cannot read {what} {path}: {exc.strerror}") from None
    if len(data) > _MAX_KEY_FILE:
        raise KeyFileError(f"{what} {path} is too large to be a key file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise KeyFileError(f"{what} {path} is not UTF-8 text") from None


def _json(text: str, what: str) -> object:
    try:
        return parse_json_strict(text.encode("utf-8"), max_bytes=_MAX_KEY_FILE)
    except MalformedError as exc:
        raise KeyFileError(f"{what} is neither a pbem key file (JSON) nor an OpenSSH key: {exc}") from None


def load_private_key(path: Path, name: str | None = None) -> PrivateKey:
    """Load a pbem ``NAME.key`` or an unencrypted OpenSSH Ed25519 private key.

    Refuses a file that group or others may read (``chmod 600`` it). For a
    pbem key, ``name`` if given must be the name inside the file.
    """
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise KeyFileError(f"cannot read private key {path}: {exc.strerror}") from None
    if not stat.S_ISREG(mode):
        raise KeyFileError(f"private key {path} is not a regular file")
    if mode & 0o077:
        raise KeyFileError(
            f"private key {path} is readable by others (mode {stat.S_IMODE(mode):04o}); run: chmod 600 {path}"
        )
    text = _read(path, "private key")
    what = f"private key {path}"
    if text.lstrip().startswith(openssh.PRIVATE_BEGIN):
        return PrivateKey.from_openssh(text, name, what)
    key = PrivateKey.from_json(_json(text, what))
    if name is not None and name != key.name:
        raise KeyFileError(f"{what} belongs to {key.name!r}, not {name!r}")
    return key


def load_public_key(path: Path, name: str | None = None) -> PublicKey:
    """Load a ``NAME.pub`` file or an OpenSSH ``ssh-ed25519 AAAA… comment`` line.

    For an OpenSSH line the name is ``name`` or taken from the comment; for a
    ``.pub`` file, ``name`` if given must be the name inside the file.
    """
    path = Path(path)
    text = _read(path, "public key")
    what = f"public key {path}"
    if text.lstrip().startswith("ssh-"):
        public, comment = openssh.parse_public_key(text, what)
        chosen = name if name is not None else _name_from_comment(comment, what)
        return PublicKey(check_name(chosen), public, openssh.format_public_key(public))
    key = PublicKey.from_json(_json(text, what))
    if name is not None and name != key.name:
        raise KeyFileError(f"{what} belongs to {key.name!r}, not {name!r}")
    return key

"""age v1 file encryption (https://age-encryption.org/v1), built on ``cryptography``.

An age file is a text header and a binary payload::

    age-encryption.org/v1
    -> X25519 <ephemeral share>          one stanza per recipient: the file key,
    <wrapped file key>                   wrapped for that recipient
    --- <HMAC-SHA256 of the header>
    <16-byte nonce><STREAM chunks>       ChaCha20-Poly1305, 64 KiB per chunk

Supported recipient types: ``X25519`` (``age1…`` recipients,
``AGE-SECRET-KEY-1…`` identities) and ``ssh-ed25519`` (OpenSSH Ed25519
keys, exactly as age's ``agessh`` package). Stanzas of other types
(``scrypt``, ``mlkem768x25519``, plugins, grease) are skipped, so a file
holding only those fails with :class:`AgeNoMatchError`. An ``scrypt`` stanza
that is not alone in its header is refused as the spec requires.

Decryption is as strict as the reference implementation and is checked
against the C2SP test vectors: every failure is an :class:`AgeError` of the
vector's kind (armor, header, no match, HMAC, payload).

Randomness: :func:`encrypt` draws the file key (16 bytes), then one 32-byte
ephemeral secret per recipient in order, then the 16-byte payload nonce,
from ``rng`` (default :func:`os.urandom`). A deterministic ``rng`` gives a
byte-identical file; see docs/crypto.md for when that is safe.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import functools
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.crypto import armor as armor_module
from pbem.crypto import bech32, openssh, x25519
from pbem.crypto.edwards import P, ed25519_public_to_x25519
from pbem.crypto.errors import (
    AgeArmorError,
    AgeError,
    AgeHeaderError,
    AgeHMACError,
    AgeNoMatchError,
    AgePayloadError,
)
from pbem.digests import hmac_sha256, hmac_sha256_matches, sha256, sha512

if TYPE_CHECKING:  # pragma: no cover
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

INTRO = b"age-encryption.org/v1\n"
VERSION_PREFIX = b"age-encryption.org/"
STANZA_PREFIX = b"->"
FOOTER_PREFIX = b"---"
FILE_KEY_SIZE = 16
NONCE_SIZE = 16
CHUNK_SIZE = 64 * 1024
TAG_SIZE = 16
ENCRYPTED_CHUNK_SIZE = CHUNK_SIZE + TAG_SIZE
COLUMNS_PER_LINE = 64
BYTES_PER_LINE = COLUMNS_PER_LINE // 4 * 3

X25519_LABEL = b"age-encryption.org/v1/X25519"
SSH_ED25519_LABEL = b"age-encryption.org/v1/ssh-ed25519"
RECIPIENT_HRP = "age"
IDENTITY_HRP = "AGE-SECRET-KEY-"

RandomSource = Callable[[int], bytes]

_RAW_BASE64 = re.compile(rb"[A-Za-z0-9+/]*")


# --- encodings ------------------------------------------------------------


def b64encode_raw(data: bytes) -> str:
    """Unpadded standard base64, as the age header writes it."""
    return base64.b64encode(data).rstrip(b"=").decode()


def b64decode_raw(text: bytes | str) -> bytes:
    """Strict unpadded base64: no padding, no newlines, canonical trailing bits. ValueError otherwise."""
    if isinstance(text, str):
        text = text.encode("ascii", "replace")
    if len(text) % 4 == 1 or not _RAW_BASE64.fullmatch(text):
        raise ValueError(f"malformed base64 {text[:80]!r}")
    try:
        decoded = base64.b64decode(text + b"=" * (-len(text) % 4), validate=True)
    except binascii.Error:
        raise ValueError(f"malformed base64 {text[:80]!r}") from None
    if base64.b64encode(decoded).rstrip(b"=") != text:
        raise ValueError(f"non-canonical base64 {text[:80]!r}")
    return decoded


def _hkdf(ikm: bytes, salt: bytes, info: bytes, length: int = 32) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def _x25519(scalar: bytes | x25519.X25519PrivateKey, point: bytes) -> bytes:
    """X25519(scalar, point); ValueError if the result is all zeros (a low-order point)."""
    private = scalar if isinstance(scalar, x25519.X25519PrivateKey) else x25519.private_key(scalar)
    shared = private.exchange(x25519.public_key(point))
    if shared == bytes(32):  # cryptography refuses this already; be explicit
        raise ValueError("all-zero shared secret")
    return shared


#: the u-coordinates, reduced mod p, of the X25519 points of small order (1, 2, 4, 8; on the curve or its
#: twist): 0, 1, the two points of order 8, p - 1 (the C2SP and libsodium lists, without the encodings of
#: the same points as u + p, which :func:`is_low_order` reduces). Any clamped scalar (a multiple of the
#: cofactor 8) maps exactly these to the all-zero output (tests/trust/test_low_order_keys.py checks it
#: against X25519 itself).
_LOW_ORDER_U = frozenset({
    0,
    1,
    0x00B8495F16056286FDB1329CEB8D09DA6AC49FF1FAE35616AEB8413B7C7AEBE0,
    0x57119FD0DD4E22D8868E1C58C45C44045BEF839C55B1D0B1248C50A3BC959C5F,
    2**255 - 20,
})


def is_low_order(u: bytes) -> bool:
    """Whether the X25519 point ``u`` (any encoding, canonical or not) has small order.

    Sealing to such a point gives an all-zero shared secret, which age
    refuses; a recipient that is one can never be sealed to. ``u`` is read
    as X25519 reads it (RFC 7748 section 5: little-endian, the top bit
    masked, the value taken mod p) and looked up among the few low-order
    points, with no exchange made: reading a key (every ``game.toml`` that
    ``pbem status`` reads) does not load OpenSSL's X25519 for it. A ``u``
    that is not 32 bytes is no point at all, so it counts as one.
    """
    if len(u) != 32:
        return True
    return (int.from_bytes(u, "little") & ((1 << 255) - 1)) % P in _LOW_ORDER_U


def _x25519_base(private: x25519.X25519PrivateKey) -> bytes:
    return private.public_key().public_bytes_raw()


_ZERO_NONCE = bytes(12)


def _aead(key: bytes) -> ChaCha20Poly1305:
    """ChaCha20-Poly1305 under ``key``."""
    return _chacha20poly1305()(key)


@functools.cache
def _chacha20poly1305() -> type[ChaCha20Poly1305]:
    """cryptography's ChaCha20-Poly1305 class, looked up when first sealing or opening (reading a key, as
    ``pbem status`` does for ``game.toml``, needs none).

    Its public module only names the bindings' class
    (``ChaCha20Poly1305 = rust_openssl.aead.ChaCha20Poly1305``), but importing
    it imports the whole ``ciphers`` package first (the cipher base, its
    algorithms and modes: some 4 ms of a command's start-up); so the class is
    taken from the bindings, the very same object, when they have it."""
    try:
        from cryptography.hazmat.bindings._rust import openssl as bindings

        return bindings.aead.ChaCha20Poly1305
    except (ImportError, AttributeError):  # a release of cryptography laid out otherwise
        from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

        return ChaCha20Poly1305


def _wrap(key: bytes, file_key: bytes) -> bytes:
    return _aead(key).encrypt(_ZERO_NONCE, file_key, None)


def _unwrap(key: bytes, body: bytes) -> bytes | None:
    try:
        return _aead(key).decrypt(_ZERO_NONCE, body, None)
    except InvalidTag:
        return None


# --- header ---------------------------------------------------------------


def _valid_argument(arg: bytes) -> bool:
    return bool(arg) and all(33 <= c <= 126 for c in arg)


# records of a parsed file are NamedTuples, not dataclasses: every command that reads a key imports this
# module (docs/performance.md, "Records without dataclasses")
class Stanza(NamedTuple):
    """One recipient stanza: a type, its arguments, and a binary body."""

    type: str
    args: tuple[str, ...]
    body: bytes

    def format(self) -> bytes:
        line = b" ".join([STANZA_PREFIX, self.type.encode(), *(a.encode() for a in self.args)])
        encoded = b64encode_raw(self.body).encode()
        lines = [encoded[i : i + COLUMNS_PER_LINE] for i in range(0, len(encoded), COLUMNS_PER_LINE)]
        if len(self.body) % BYTES_PER_LINE == 0:
            lines.append(b"")  # a body always ends with a short line
        return line + b"\n" + b"\n".join(lines) + b"\n"


class Header(NamedTuple):
    """The parsed header of an age file."""

    stanzas: tuple[Stanza, ...]
    mac: bytes

    def without_mac(self) -> bytes:
        """The bytes the header MAC covers: everything up to and including ``---``."""
        return INTRO + b"".join(s.format() for s in self.stanzas) + FOOTER_PREFIX


def header_mac(file_key: bytes, header_bytes: bytes) -> bytes:
    """HMAC-SHA256 of the header under HKDF(file key, info "header")."""
    return hmac_sha256(_header_key(file_key), header_bytes)


def _header_key(file_key: bytes) -> bytes:
    return _hkdf(file_key, b"", b"header")


def parse_header(data: bytes) -> tuple[Header, int]:
    """Parse the header of a binary age file; return it and the offset where the payload starts."""
    pos = 0

    def line() -> bytes:
        nonlocal pos
        end = data.find(b"\n", pos)
        if end < 0:
            raise AgeHeaderError("age header is truncated (a line has no end)")
        text, pos = data[pos:end], end + 1
        return text

    if not data.startswith(INTRO):
        if data.startswith(VERSION_PREFIX):
            first = data.split(b"\n", 1)[0]
            raise AgeHeaderError(f"unsupported age version line {first[:80]!r}")
        raise AgeHeaderError("not an age file: it does not start with 'age-encryption.org/v1'")
    pos = len(INTRO)
    stanzas: list[Stanza] = []
    while True:
        if len(data) - pos < len(FOOTER_PREFIX):
            raise AgeHeaderError("age header is truncated")
        if data.startswith(FOOTER_PREFIX, pos):
            parts = line().split(b" ")
            if parts[0] != FOOTER_PREFIX or len(parts) != 2:
                raise AgeHeaderError(f"malformed age header closing line {b' '.join(parts)[:80]!r}")
            try:
                mac = b64decode_raw(parts[1])
            except ValueError as exc:
                raise AgeHeaderError(f"malformed age header MAC: {exc}") from None
            if len(mac) != 32:
                raise AgeHeaderError("age header MAC is not 32 bytes")
            return Header(tuple(stanzas), mac), pos
        opening = line()
        parts = opening.split(b" ")
        if parts[0] != STANZA_PREFIX or len(parts) < 2 or not all(_valid_argument(a) for a in parts[1:]):
            raise AgeHeaderError(f"malformed age stanza line {opening[:80]!r}")
        body = b""
        while True:
            body_line = line()
            try:
                chunk = b64decode_raw(body_line)
            except ValueError as exc:
                raise AgeHeaderError(f"malformed age stanza body line {body_line[:80]!r}: {exc}") from None
            if len(chunk) > BYTES_PER_LINE:
                raise AgeHeaderError("age stanza body line exceeds 64 columns")
            body += chunk
            if len(chunk) < BYTES_PER_LINE:
                break
        stanzas.append(Stanza(parts[1].decode(), tuple(a.decode() for a in parts[2:]), body))


# --- recipients and identities ---------------------------------------------


class X25519Recipient:
    """The native age recipient, ``age1…``."""

    def __init__(self, public: bytes) -> None:
        if len(public) != 32:
            raise AgeError("an X25519 recipient is 32 bytes")
        if is_low_order(public):
            raise AgeError("the X25519 recipient is a low-order point: nothing can be sealed to it")
        self.public = public

    @classmethod
    def parse(cls, text: str) -> X25519Recipient:
        try:
            hrp, data = bech32.decode(text)
        except ValueError as exc:
            raise AgeError(f"malformed age recipient {text!r}: {exc}") from None
        if hrp != RECIPIENT_HRP or len(data) != 32:
            raise AgeError(f"malformed age recipient {text!r}")
        return cls(data)

    def __str__(self) -> str:
        return bech32.encode(RECIPIENT_HRP, self.public)

    def wrap(self, file_key: bytes, rng: RandomSource) -> Stanza:
        ephemeral = x25519.private_key(rng(32))
        share = _x25519_base(ephemeral)
        shared = _x25519(ephemeral, self.public)
        key = _hkdf(shared, share + self.public, X25519_LABEL)
        return Stanza("X25519", (b64encode_raw(share),), _wrap(key, file_key))


class X25519Identity:
    """The native age identity, ``AGE-SECRET-KEY-1…``."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) != 32:
            raise AgeError("an X25519 identity is 32 bytes")
        self.secret = secret
        self._private = x25519.private_key(secret)
        self.public = _x25519_base(self._private)

    @classmethod
    def generate(cls) -> X25519Identity:
        return cls(os.urandom(32))

    @classmethod
    def parse(cls, text: str) -> X25519Identity:
        try:
            hrp, data = bech32.decode(text.strip())
        except ValueError:
            raise AgeError("malformed age identity (expected AGE-SECRET-KEY-1…)") from None
        if hrp != IDENTITY_HRP or len(data) != 32:
            raise AgeError("malformed age identity (expected AGE-SECRET-KEY-1…)")
        return cls(data)

    def __str__(self) -> str:
        return bech32.encode(IDENTITY_HRP, self.secret)

    @property
    def recipient(self) -> X25519Recipient:
        return X25519Recipient(self.public)

    def unwrap(self, stanza: Stanza) -> bytes | None:
        if stanza.type != "X25519":
            return None
        if len(stanza.args) != 1:
            raise AgeHeaderError("invalid X25519 stanza: it must have exactly one argument")
        try:
            share = b64decode_raw(stanza.args[0])
        except ValueError as exc:
            raise AgeHeaderError(f"invalid X25519 stanza share: {exc}") from None
        if len(share) != 32:
            raise AgeHeaderError("invalid X25519 stanza: the share is not 32 bytes")
        try:
            shared = _x25519(self._private, share)
        except ValueError:
            raise AgeHeaderError("invalid X25519 stanza: the share is a low-order point") from None
        if len(stanza.body) != FILE_KEY_SIZE + TAG_SIZE:
            raise AgeHeaderError("invalid X25519 stanza: the wrapped file key is not 16 bytes")
        return _unwrap(_hkdf(shared, share + self.public, X25519_LABEL), stanza.body)


def _ssh_tag(ed25519_public: bytes) -> str:
    return b64encode_raw(sha256(openssh.public_blob(ed25519_public))[:4])


def _ssh_tweak(ed25519_public: bytes) -> bytes:
    # HKDF with an empty secret, salted with the SSH public key blob (agessh).
    return _hkdf(b"", openssh.public_blob(ed25519_public), SSH_ED25519_LABEL)


class SshEd25519Recipient:
    """An OpenSSH Ed25519 public key as an age recipient (``ssh-ed25519 AAAA…``)."""

    def __init__(self, ed25519_public: bytes) -> None:
        try:
            self.x25519_public = ed25519_public_to_x25519(ed25519_public)
        except ValueError as exc:
            raise AgeError(f"invalid ssh-ed25519 recipient: {exc}") from None
        if is_low_order(self.x25519_public):
            raise AgeError("invalid ssh-ed25519 recipient: a small-order key, nothing can be sealed to it")
        self.ed25519_public = ed25519_public

    @classmethod
    def parse(cls, text: str) -> SshEd25519Recipient:
        try:
            public, _comment = openssh.parse_public_key(text, "ssh-ed25519 recipient")
        except Exception as exc:  # KeyFileError: report it as a recipient problem
            raise AgeError(str(exc)) from None
        return cls(public)

    def __str__(self) -> str:
        return openssh.format_public_key(self.ed25519_public)

    def wrap(self, file_key: bytes, rng: RandomSource) -> Stanza:
        ephemeral = x25519.private_key(rng(32))
        share = _x25519_base(ephemeral)
        shared = _x25519(_ssh_tweak(self.ed25519_public), _x25519(ephemeral, self.x25519_public))
        key = _hkdf(shared, share + self.x25519_public, SSH_ED25519_LABEL)
        return Stanza(
            "ssh-ed25519", (_ssh_tag(self.ed25519_public), b64encode_raw(share)), _wrap(key, file_key)
        )


class SshEd25519Identity:
    """An OpenSSH Ed25519 private key as an age identity."""

    def __init__(self, seed: bytes, ed25519_public: bytes) -> None:
        self.ed25519_public = ed25519_public
        # RFC 8032: the Ed25519 secret scalar is the first half of SHA-512(seed);
        # X25519 clamps it the same way, so it is the matching X25519 secret.
        self.secret = sha512(seed)[:32]
        self._private = x25519.private_key(self.secret)
        self.public = _x25519_base(self._private)
        self.tag = _ssh_tag(ed25519_public)

    def unwrap(self, stanza: Stanza) -> bytes | None:
        if stanza.type != "ssh-ed25519":
            return None
        if len(stanza.args) != 2:
            raise AgeHeaderError("invalid ssh-ed25519 stanza: it must have exactly two arguments")
        try:
            share = b64decode_raw(stanza.args[1])
        except ValueError as exc:
            raise AgeHeaderError(f"invalid ssh-ed25519 stanza share: {exc}") from None
        if len(share) != 32:
            raise AgeHeaderError("invalid ssh-ed25519 stanza: the share is not 32 bytes")
        if stanza.args[0] != self.tag:
            return None
        try:
            shared = _x25519(self._private, share)
        except ValueError:
            raise AgeHeaderError("invalid ssh-ed25519 stanza: the share is a low-order point") from None
        shared = _x25519(_ssh_tweak(self.ed25519_public), shared)
        if len(stanza.body) != FILE_KEY_SIZE + TAG_SIZE:
            raise AgeHeaderError("invalid ssh-ed25519 stanza: the wrapped file key is not 16 bytes")
        return _unwrap(_hkdf(shared, share + self.public, SSH_ED25519_LABEL), stanza.body)


Recipient = X25519Recipient | SshEd25519Recipient
Identity = X25519Identity | SshEd25519Identity


def parse_recipient(text: str) -> Recipient:
    """An ``age1…`` or ``ssh-ed25519 AAAA…`` recipient string."""
    if not isinstance(text, str):
        raise AgeError(f"an age recipient is a string, not {type(text).__name__}")
    if text.startswith("ssh-ed25519 "):
        return SshEd25519Recipient.parse(text)
    if text.startswith("age1"):
        return X25519Recipient.parse(text)
    raise AgeError(f"unsupported age recipient {text[:40]!r}: only age1… and ssh-ed25519 are supported")


#: :func:`parse_recipient`, once per process for each text: a recipient is checked (a point decoded, its
#: order tested) when parsed, and a command meets the same ones in ``game.toml``'s keys and when it seals
parsed_recipient = functools.lru_cache(maxsize=256)(parse_recipient)


def _identity(item: object) -> Identity:
    if isinstance(item, (X25519Identity, SshEd25519Identity)):
        return item
    if isinstance(item, str):
        return X25519Identity.parse(item)
    found = getattr(item, "age_identity", None)  # a pbem.crypto.keys.PrivateKey
    if isinstance(found, (X25519Identity, SshEd25519Identity)):
        return found
    raise AgeError(f"unsupported age identity of type {type(item).__name__}")


# --- STREAM ---------------------------------------------------------------


def _chunk_nonce(counter: int, last: bool) -> bytes:
    return counter.to_bytes(11, "big") + (b"\x01" if last else b"\x00")


def payload_key(file_key: bytes, nonce: bytes) -> bytes:
    """The STREAM key: HKDF-SHA256(file key, salt nonce, info "payload")."""
    return _hkdf(file_key, nonce, b"payload")


def stream_seal(key: bytes, plaintext: bytes) -> bytes:
    """STREAM-encrypt: 64 KiB chunks, the last one flagged (full-size if the plaintext fills it)."""
    aead = _aead(key)
    chunks = [plaintext[i : i + CHUNK_SIZE] for i in range(0, len(plaintext), CHUNK_SIZE)] or [b""]
    return b"".join(
        aead.encrypt(_chunk_nonce(i, i == len(chunks) - 1), chunk, None) for i, chunk in enumerate(chunks)
    )


def _stream_open(key: bytes, payload: bytes) -> Iterator[bytes]:
    """Yield each chunk's plaintext as it authenticates, then raise on the first failure.

    The last chunk is the one marked last; it may be full-size, and may be
    empty only if it is the only chunk. Nothing may follow it.
    """
    aead = _aead(key)
    pos, counter = 0, 0
    while True:
        chunk = payload[pos : pos + ENCRYPTED_CHUNK_SIZE]
        pos += len(chunk)
        if not chunk:
            raise AgePayloadError("age payload is truncated: the final chunk is missing")
        last = len(chunk) < ENCRYPTED_CHUNK_SIZE
        if last and counter and len(chunk) == TAG_SIZE:
            raise AgePayloadError("age payload's final chunk is empty, which only an empty file may have")
        plain = None
        if len(chunk) >= TAG_SIZE:
            try:
                plain = aead.decrypt(_chunk_nonce(counter, last), chunk, None)
            except InvalidTag:
                if not last:  # a full-size chunk may be the final one
                    last = True
                    with contextlib.suppress(InvalidTag):
                        plain = aead.decrypt(_chunk_nonce(counter, True), chunk, None)
        if plain is None:
            raise AgePayloadError(f"age payload chunk {counter} fails to authenticate")
        counter += 1
        yield plain
        if last:
            if pos < len(payload):
                raise AgePayloadError("trailing data after the end of the age payload")
            return


# --- files ----------------------------------------------------------------


def encrypt(
    plaintext: bytes, recipients: Sequence[str], armor: bool = True, rng: RandomSource | None = None
) -> bytes:
    """Encrypt ``plaintext`` to every recipient (``age1…`` or ``ssh-ed25519 …`` strings)."""
    file_key, nonce, head = _sealed_head(recipients, rng or os.urandom)
    data = head + stream_seal(payload_key(file_key, nonce), plaintext)
    return armor_module.armor(data) if armor else data


def _sealed_head(recipients: Sequence[str], draw: RandomSource) -> tuple[bytes, bytes, bytes]:
    """The file key, the payload nonce and the bytes before the payload (header, MAC, nonce) of a
    file sealed to ``recipients``, drawn from ``draw`` in the one order :func:`encrypt` and
    :func:`open_as_sealer` both rely on: the file key, each recipient's stanza, the nonce."""
    if not recipients:
        raise AgeError("an age file needs at least one recipient")
    parsed = [r if isinstance(r, (X25519Recipient, SshEd25519Recipient)) else parsed_recipient(r) for r in recipients]
    file_key = _draw(draw, FILE_KEY_SIZE)
    stanzas = tuple(r.wrap(file_key, lambda n: _draw(draw, n)) for r in parsed)
    covered = Header(stanzas, b"").without_mac()
    nonce = _draw(draw, NONCE_SIZE)
    return file_key, nonce, covered + b" " + b64encode_raw(header_mac(file_key, covered)).encode() + b"\n" + nonce


def open_as_sealer(ciphertext: bytes, recipients: Sequence[str], rng: RandomSource) -> bytes:
    """The plaintext of the armored ``ciphertext`` if it is exactly ``encrypt(plaintext, recipients, rng=rng)``.

    For whoever knows the random source a file was sealed with (pbem's
    replay: the seed's streams). The header is rebuilt from ``rng`` as
    :func:`encrypt` builds it (the file key, each recipient's stanza, the
    MAC) and compared byte for byte, as is the payload nonce; the payload is
    then opened with that file key instead of being encrypted again. That
    is the same check: under one key and nonce the STREAM ciphertext is a
    function of the plaintext, and opening authenticates every chunk, so a
    payload that opens to ``p`` is the one :func:`encrypt` writes for ``p``.
    The armor must be laid out exactly as :func:`armor` writes it. Any
    difference raises an :class:`AgeError`: :class:`AgeArmorError`,
    :class:`AgeHeaderError` (the header or the nonce) or
    :class:`AgePayloadError`.
    """
    if not recipients:
        raise AgeError("an age file needs at least one recipient")
    data = armor_module.dearmor_exact(ciphertext)
    if data is None:
        raise AgeArmorError("the armor is not laid out as age writes it")
    file_key, nonce, head = _sealed_head(recipients, rng)
    if not data.startswith(head):
        raise AgeHeaderError("the header is not the one these recipients and this random source give")
    return b"".join(_stream_open(payload_key(file_key, nonce), data[len(head):]))


def _draw(rng: RandomSource, count: int) -> bytes:
    value = rng(count)
    if not isinstance(value, (bytes, bytearray)) or len(value) != count:
        raise AgeError(f"the random source must return {count} bytes")
    return bytes(value)


def iter_decrypt(ciphertext: bytes, identities: Iterable[object], armored: bool | None = None) -> Iterator[bytes]:
    """Yield the plaintext chunk by chunk, each only once authenticated; raise :class:`AgeError` on failure.

    ``armored`` None detects ASCII armor; True or False insists on one form.
    Everything yielded before an error was authentic, but the file as a whole
    is not: use :func:`decrypt` unless you need to see how far it got.
    """
    if isinstance(ciphertext, str):
        ciphertext = ciphertext.encode("utf-8")
    ids = [_identity(i) for i in identities]
    if not ids:
        raise AgeError("no identities given to decrypt with")
    if armored is None:
        armored = armor_module.is_armored(ciphertext)
    data = armor_module.dearmor(ciphertext) if armored else bytes(ciphertext)
    header, offset = parse_header(data)
    if any(s.type == "scrypt" for s in header.stanzas) and len(header.stanzas) != 1:
        raise AgeHeaderError("an scrypt stanza must be alone in the header")
    file_key = None
    for identity in ids:
        for stanza in header.stanzas:
            file_key = identity.unwrap(stanza)
            if file_key is not None:
                break
        if file_key is not None:
            break
    if file_key is None:
        types = sorted({s.type for s in header.stanzas} - {"X25519", "ssh-ed25519"})
        unsupported = f" (this file also has stanzas of unsupported types: {', '.join(types)})" if types else ""
        raise AgeNoMatchError("no identity matched any of the recipients" + unsupported)
    # compared in constant time: how long a refusal takes tells nothing of how much of the MAC was right
    if not hmac_sha256_matches(_header_key(file_key), header.without_mac(), header.mac):
        raise AgeHMACError("bad age header MAC: the header was altered")
    nonce = data[offset : offset + NONCE_SIZE]
    if len(nonce) != NONCE_SIZE:
        raise AgeHeaderError("age file is truncated: the payload nonce is missing")
    yield from _stream_open(payload_key(file_key, nonce), data[offset + NONCE_SIZE :])


def decrypt(ciphertext: bytes, identities: Iterable[object], armored: bool | None = None) -> bytes:
    """Decrypt an armored or binary age file with any of ``identities``.

    Identities are ``AGE-SECRET-KEY-1…`` strings, :class:`X25519Identity` /
    :class:`SshEd25519Identity` objects, or pbem ``PrivateKey`` objects.
    Any failure raises an :class:`AgeError` subclass; no plaintext is
    returned unless the whole file authenticates.
    """
    return b"".join(iter_decrypt(ciphertext, identities, armored))

"""The ASCII armor of age files (age v1 spec, "ASCII armor").

Strict PEM: type ``AGE ENCRYPTED FILE``, no headers, lines of exactly 64
columns of padded, canonical base64 except the last, which may be shorter (it
is never empty). Lines may end in LF or CRLF. Whitespace-only lines before the
armor and whitespace after it are ignored, up to 1024 bytes each, as the
reference implementation does; anything else is an :class:`AgeArmorError`.
"""

from __future__ import annotations

import base64
import binascii
import re

from pbem.crypto.errors import AgeArmorError

BEGIN = b"-----BEGIN AGE ENCRYPTED FILE-----"
END = b"-----END AGE ENCRYPTED FILE-----"
COLUMNS_PER_LINE = 64
BYTES_PER_LINE = COLUMNS_PER_LINE // 4 * 3
MAX_WHITESPACE = 1024

_BASE64_LINE = re.compile(rb"[A-Za-z0-9+/]*={0,2}")


def armor(data: bytes) -> bytes:
    """Wrap a binary age file in ASCII armor."""
    encoded = base64.b64encode(data)
    lines = [encoded[i : i + COLUMNS_PER_LINE] + b"\n" for i in range(0, len(encoded), COLUMNS_PER_LINE)]
    return BEGIN + b"\n" + b"".join(lines) + END + b"\n"


def dearmor_exact(data: bytes) -> bytes | None:
    """The file inside armor laid out exactly as :func:`armor` writes it, decoded at once; else ``None``.

    That is the form of every section pbem writes, so it is read without the
    line-by-line parser below, which reads any other form the reference
    implementation accepts and says what is wrong with the rest.
    """
    head, tail = BEGIN + b"\n", END + b"\n"
    if not (data.startswith(head) and data.endswith(tail)) or b"\r" in data:
        return None
    # full lines of COLUMNS_PER_LINE characters and a last one of 1 to COLUMNS_PER_LINE, each ending
    # with a line feed: the line feeds are exactly every (COLUMNS_PER_LINE + 1)th byte and the last one
    body = data[len(head):len(data) - len(tail)]
    line = COLUMNS_PER_LINE + 1
    breaks = body[COLUMNS_PER_LINE::line]
    if (not body.endswith(b"\n") or len(body) % line == 1 or breaks.count(b"\n") != len(breaks)
            or body.count(b"\n") != len(breaks) + (len(body) % line != 0)):
        return None
    encoded = body.replace(b"\n", b"")
    try:
        decoded = base64.b64decode(encoded, validate=True)
    except binascii.Error:
        return None
    return decoded if base64.b64encode(decoded) == encoded else None


def is_armored(data: bytes) -> bool:
    """Whether ``data`` starts, after any whitespace, with the armor's first line."""
    return data.lstrip().startswith(BEGIN)


def _decode_line(line: bytes) -> bytes:
    if len(line) % 4 or not _BASE64_LINE.fullmatch(line):
        raise AgeArmorError(f"invalid armor: malformed base64 line {line[:80]!r}")
    try:
        decoded = base64.b64decode(line, validate=True)
    except binascii.Error as exc:
        raise AgeArmorError(f"invalid armor: malformed base64 line {line[:80]!r}: {exc}") from None
    if base64.b64encode(decoded) != line:
        raise AgeArmorError(f"invalid armor: base64 line {line[:80]!r} is not canonical")
    return decoded


def dearmor(data: bytes) -> bytes:
    """The binary age file inside ASCII armor."""
    exact = dearmor_exact(data)
    if exact is not None:
        return exact
    pos = 0

    def next_line() -> bytes:
        nonlocal pos
        if pos >= len(data):
            raise AgeArmorError("invalid armor: unexpected end of file")
        end = data.find(b"\n", pos)
        if end < 0:
            line, pos = data[pos:], len(data)
        else:
            line, pos = data[pos:end], end + 1
        return line[:-1] if line.endswith(b"\r") else line

    def check_trailing() -> None:
        rest = data[pos : pos + MAX_WHITESPACE]
        if rest.strip():
            raise AgeArmorError("invalid armor: trailing data after the armored file")
        if len(rest) == MAX_WHITESPACE:
            raise AgeArmorError("invalid armor: too much trailing whitespace")

    skipped = 0
    while True:
        line = next_line()
        if line.strip():
            break
        skipped += len(line) + 1
        if skipped > MAX_WHITESPACE:
            raise AgeArmorError("invalid armor: too much leading whitespace")
    if line != BEGIN:
        raise AgeArmorError(f"invalid armor: first line is {line[:80]!r}, not {BEGIN.decode()!r}")
    chunks: list[bytes] = []
    while True:
        line = next_line()
        if line == END:
            break
        if not line:
            # A file whose length is a multiple of 48 bytes ends on a full line;
            # an empty line before the end marker is not canonical.
            raise AgeArmorError("invalid armor: empty line")
        if len(line) > COLUMNS_PER_LINE:
            raise AgeArmorError("invalid armor: a line exceeds 64 columns")
        decoded = _decode_line(line)
        chunks.append(decoded)
        if len(decoded) < BYTES_PER_LINE:
            closing = next_line()
            if closing != END:
                raise AgeArmorError(f"invalid armor: closing line is {closing[:80]!r}, not {END.decode()!r}")
            break
    check_trailing()
    return b"".join(chunks)

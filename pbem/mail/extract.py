"""Finding the pbem files in a mail, whatever the mail did to them.

A move or join file may arrive as an attachment of any type (JSON, text,
``application/octet-stream``), encoded base64 or quoted-printable, with CRLF
line ends, inside a forwarded message (``message/rfc822``), pasted into the
plain-text body (also ``format=flowed``), or next to the files the referee
sent (a reply with the view still attached). This module finds every JSON
document whose ``format`` is a player's pbem file and hands it over as
the bytes ``pbem move`` wrote. It judges nothing: the referee parses the
file strictly, checks its signature and says why it refuses. Any ``pbem-*``
document that is not one of the files pbem writes for the players (a turn,
a view, ``game.toml``...) goes to the referee, so that a new kind of
player file (a join in two rounds, say) needs no change here.

The referee's own files coming back (``game.toml``, a turn file, a sealed
view) are set aside and named, so that an answer can say "your mail held
only the files I sent you".
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import Message
from email.utils import collapse_rfc2231_value
from typing import Any

from pbem.digests import sha256_hex
from pbem.mail.compose import shown

#: the files pbem itself writes for others to read, set aside with the reason; every other
#: ``pbem-*`` document is a player's file (a move, a join, whatever a later pbem adds) and goes to
#: the referee, which judges it and names an unknown format
REFEREE_FILES = {
    "pbem-turn/": "a turn file the referee sent",
    "pbem-view/": "a view the referee sent",
    "pbem-game/": "the game's set-up (game.toml)",
    "pbem-rejection/": "a rejection notice",
    "pbem-reveal/": "the referee's published seed",
    "pbem-pending/": "a file of the referee's game directory",
    "pbem-seat/": "a seat record the referee sent",
    "pbem-timeout/": "a timeout record of the referee",
    "pbem-rollback/": "a rollback's record the referee sent",
    "pbem-cli-": "the output of a pbem command",
    "pbem-mail-": "a record of the referee's mail loop",
}
#: a part larger than this is not searched (move files are at most 1 MiB)
PART_MAX_BYTES = 4 << 20
#: the most parts of one mail searched for files (a mail of a person has a few); the rest are named as not read
MAX_PARTS = 256
#: the most characters kept of what a file or a part says it is (its name, player, game): for the answer's
#: line about it, which quotes it within bounds (:func:`pbem.mail.compose.shown`)
LABEL_MAX = 200
#: the most pbem files one mail may carry (a move or a join each, for one or a few games); the rest are
#: not read, so that one mail cannot make the referee run thousands of steps and answer with as many lines
MAX_FILES_PER_MAIL = 16
#: the search for JSON documents in a part reads at most this many times the part's length in attempts
#: that fail (an opening brace read up to where it stops being JSON), so that nested openings before a
#: long unfinished document cost a few passes, not one pass per opening
SEARCH_PASSES = 4
_AGE_ARMOR = "-----BEGIN AGE ENCRYPTED FILE-----"
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class PbemFile:
    """One move or join file found in a mail, as bytes to submit, and what it says it is."""

    name: str
    data: bytes
    format: str
    game_id: str | None
    player: str | None
    turn: int | None
    #: the round of a join file (``commit``, ``reveal``), when it names one
    round: str | None = None

    @property
    def digest(self) -> str:
        return sha256_hex(self.data)

    def describe(self) -> str:
        """What the file says it is, as an answer names it (what the file claims is quoted within bounds)."""
        who = f"{shown(self.player)}'s " if self.player else ""
        turn = f" answering turn {self.turn}" if isinstance(self.turn, int) and 0 <= self.turn < 10**9 else ""
        if self.format.startswith("pbem-move/"):
            return f"{who}move{turn}"
        if self.format.startswith("pbem-undo-consent/"):
            return f"{who}consent to a rollback"
        if self.format.startswith("pbem-join/"):
            return f"{who}join file" + (f" ({shown(self.round)})" if self.round else "")
        return f"{who}{shown(self.format)} file{turn}"


@dataclass
class Extracted:
    """What one mail holds for the referee."""

    files: list[PbemFile] = field(default_factory=list)
    #: parts set aside, each with the reason ("000005.json: a turn file the referee sent")
    ignored: list[str] = field(default_factory=list)
    #: attachments that look like pbem files but cannot be read, with the reason
    problems: list[str] = field(default_factory=list)
    #: the mail's text is HTML only (no plain-text part) and it carries no file
    html_only: bool = False

    @property
    def digest(self) -> str:
        """One digest of the files carried, in any order (a re-delivered mail has the same)."""
        return sha256_hex("\n".join(sorted(f.digest for f in self.files)).encode())


def extract(message: Message) -> Extracted:
    """Every move and join file in ``message``, deduplicated, in the order they appear.

    A part that cannot be read (a parameter in a charset that does not decode, a transfer encoding the
    mail library fails on) is named in :attr:`Extracted.problems` and the others are read: anybody can
    write a mail, and nothing in one may stop the search.
    """
    found = Extracted()
    seen: set[str] = set()
    kinds: set[str] = set()
    parts = 0
    for part in message.walk():
        if part.is_multipart():
            continue
        parts += 1
        if parts > MAX_PARTS:
            found.problems.append(f"the mail has more than {MAX_PARTS} parts; the rest were not read")
            break
        try:
            if not _search_part(part, found, seen, kinds):
                return found
        except Exception as error:  # the mail library on a part anybody wrote
            found.problems.append(f"part {parts} of the mail cannot be read ({type(error).__name__})")
    found.html_only = "html" in kinds and "plain" not in kinds and not found.files
    return found


def _search_part(part: Message, found: Extracted, seen: set[str], kinds: set[str]) -> bool:
    """Search one part; False once the mail carries more files than are read."""
    content_type = part.get_content_type()
    filename = clean(part.get_filename() or "")
    name = shown(filename) if filename else ""  # the sender's words: quoted within bounds when not plain
    attachment = bool(filename) or part.get_content_disposition() == "attachment"
    if content_type == "text/html" and not attachment:
        kinds.add("html")
        return True
    if content_type == "text/plain" and not attachment:
        kinds.add("plain")
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes) or not data.strip():
        return True
    label = name or ("the mail's text" if not attachment else "an attachment")
    if len(data) > PART_MAX_BYTES:
        found.problems.append(f"{label}: larger than {PART_MAX_BYTES >> 20} MiB, not read")
        return True
    text = _as_text(part, data)
    if text is None:
        if filename.endswith(".json"):
            found.problems.append(f"{name}: not UTF-8 text, so not a pbem file")
        return True
    if _AGE_ARMOR in text and "{" not in text:
        found.ignored.append(f"{label}: a sealed view (age file) the referee sent")
        return True
    search = _Search(text)
    documents = list(search.documents())
    if search.gave_up:
        found.problems.append(f"{label}: too much that looks like JSON and is not; not searched further")
    elif not documents and filename.endswith(".json"):
        found.problems.append(f"{name}: not a JSON document (cut short or changed on the way?)")
    if not documents and filename.endswith(".toml") and "pbem-game/" in text:
        found.ignored.append(f"{name}: {REFEREE_FILES['pbem-game/']}")
    for doc, raw in documents:
        fmt = doc.get("format")
        if not isinstance(fmt, str) or not fmt.startswith("pbem-"):
            if name:
                found.ignored.append(f"{label}: not a pbem file")
            continue
        why = next((w for family, w in REFEREE_FILES.items() if fmt.startswith(family)), None)
        if why is not None:
            found.ignored.append(f"{label}: {why}")
            continue
        file = PbemFile(
            name=label,
            data=raw,
            format=clean(fmt),
            game_id=_text_member(doc, "game_id"),
            player=_text_member(doc, "player"),
            turn=doc.get("turn") if type(doc.get("turn")) is int else None,
            round=_text_member(doc, "round"),
        )
        if file.digest not in seen:
            if len(found.files) == MAX_FILES_PER_MAIL:
                found.problems.append(
                    f"the mail carries more than {MAX_FILES_PER_MAIL} pbem files; the rest were not read")
                return False
            seen.add(file.digest)
            found.files.append(file)
    return True


def clean(text: str) -> str:
    """``text`` as valid Unicode (a lone surrogate, which no file or mail can carry, becomes ``?``), at most
    :data:`LABEL_MAX` characters."""
    return text.encode("utf-8", "replace").decode("utf-8")[:LABEL_MAX]


def _text_member(doc: dict[str, Any], name: str) -> str | None:
    value = doc.get(name)
    return clean(value) if isinstance(value, str) else None


def _as_text(part: Message, data: bytes) -> str | None:
    """The part as text: its charset for a text part, else UTF-8; ``format=flowed`` undone."""
    charset = part.get_content_charset() if part.get_content_maintype() == "text" else None
    text = _decoded(data, charset or "utf-8")
    if text is None and charset:
        text = _decoded(data, "utf-8")
    if text is None:
        return None
    text = text.lstrip("\ufeff")
    if part.get_content_type() == "text/plain" and _param(part, "format") == "flowed":
        text = unflow(text, delsp=_param(part, "delsp") == "yes")
    return text


def _decoded(data: bytes, charset: str) -> str | None:
    """``data`` in ``charset``, or None: not a text codec, not text in it, or text no file can hold (a codec
    such as ``unicode_escape`` makes lone surrogates of what it reads)."""
    try:
        text = data.decode(charset)
        text.encode("utf-8")
    except Exception:  # a charset name is the sender's: any codec, and any of its errors
        return None
    return text


def _param(part: Message, name: str) -> str:
    """A parameter of the part's Content-Type, lower case ("" when absent or not decodable), RFC 2231
    encoding undone."""
    try:
        return str(collapse_rfc2231_value(part.get_param(name, ""))).lower()
    except Exception:  # the charset of an RFC 2231 value is the sender's: any codec
        return ""


def unflow(text: str, delsp: bool = False) -> str:
    """Undo RFC 3676 ``format=flowed``: join soft line breaks (a line ending in a space), unstuff spaces."""
    out: list[str] = []
    pending = ""
    for line in text.replace("\r\n", "\n").split("\n"):
        line = line.removeprefix(" ")  # space-stuffing
        if line.endswith(" ") and line != "-- ":
            pending += line[:-1] if delsp else line
            continue
        out.append(pending + line)
        pending = ""
    if pending:
        out.append(pending)
    return "\n".join(out)


class _Search:
    """Every top-level JSON object in a part's text, with the bytes to submit (pbem's layout: LF line ends).

    Each ``{`` is tried in turn, and a try that fails costs what it read:
    once the failed tries have read :data:`SEARCH_PASSES` times the text,
    the search stops (``gave_up``), so that no text costs the referee more
    than a few passes over it. A document nested deeper than the JSON
    reader goes (``RecursionError``) is no document, and costs the rest of
    the text.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.budget = SEARCH_PASSES * max(len(text), 1)
        self.gave_up = False

    def documents(self) -> Iterator[tuple[dict[str, Any], bytes]]:
        text = self.text
        index = text.find("{")
        while index != -1:
            try:
                doc, end = _DECODER.raw_decode(text, index)
            except (ValueError, RecursionError) as error:
                stop = error.pos if isinstance(error, json.JSONDecodeError) else len(text)
                self.budget -= stop - index + 1
                if self.budget < 0:
                    self.gave_up = True
                    return
                index = text.find("{", index + 1)
                continue
            if isinstance(doc, dict):
                # a raw CR can only be white space in JSON (inside a string it must be escaped):
                # dropping every one undoes CRLF line ends without changing the document
                raw = text[index:end].replace("\r", "")
                yield doc, (raw + "\n").encode("utf-8")
            index = text.find("{", end)

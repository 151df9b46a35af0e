"""Reading a mail that anybody may have sent: parsed within bounds, its headers read as text.

Anybody can mail the referee, and whatever arrives is read by the same
loop that serves every game: a mail that made the reader fail would stop
every game for good. So a mail is parsed only within bounds (its size, how
many multipart and forwarded parts it declares, which the mail library
parses by recursion), a mail outside them is :class:`UnreadableMail` with
the reason, and a parse that fails all the same is too.

Headers are never parsed by the mail library's header classes (their
parsers fail on values such as a lone ``<`` as Message-ID): the mail is
parsed with the ``compat32`` policy, which keeps each header as text, and
:func:`header` decodes that text (RFC 2047) as far as it can, unfolds it
and makes it valid Unicode. What the referee takes from a header is then
checked for its own form: a Message-ID is kept only as printable ASCII, a
From address only as one plain ``user@domain``.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.header import decode_header, make_header
from email.message import Message
from email.parser import BytesHeaderParser
from email.utils import getaddresses

from pbem.mail.errors import MailFileError

#: a mail larger than this is not parsed (mail providers refuse larger ones too)
MAIL_MAX_BYTES = 25 << 20
#: the most multipart and forwarded-message parts a mail may declare, nested or side by side: the mail
#: library parses nesting by recursion, and no mail a person writes comes near
MAX_CONTAINERS = 64
#: the most characters kept of a header's text
HEADER_MAX = 998
#: the most message ids kept of a References header (the latest ones)
REFERENCES_KEPT = 10
#: the headers of a mail too large or too nested to parse are read from its first bytes only
HEAD_BYTES = 1 << 20

# a header line declaring a container, folded or not (a folded one must not slip past the count)
_CONTAINER = re.compile(rb"^content-type:\s*(?:multipart|message)/", re.IGNORECASE | re.MULTILINE)
#: a message id: printable ASCII but the angle brackets, at most 250 characters
_MESSAGE_ID = re.compile(r"<([\x21-\x3b\x3d\x3f-\x7e]{1,250})>")
_BARE_ID = re.compile(r"[\x21-\x3b\x3d\x3f-\x7e]{1,250}")
#: one plain address, as the referee answers to it: no spaces, brackets, quotes or controls
_ADDRESS = re.compile(r"[^\s<>()\[\]\"',;:\\@\x00-\x1f\x7f]{1,64}@[A-Za-z0-9.-]{1,253}")
#: the Message-ID of the referee's answers carries this (:func:`pbem.mail.compose.stamp`): a mail in reply
#: to one that holds no file is a person's thanks or a robot's reply, and answering it could loop
ANSWER_ID_MARK = "pbem-answer"


class UnreadableMail(MailFileError):
    """A mail pbem cannot read: larger than it reads, nested too deep, or not parseable as a mail."""


def read_mail(raw: bytes) -> Message:
    """The mail ``raw`` parsed (``compat32``: headers as text), or :class:`UnreadableMail` with the reason."""
    if len(raw) > MAIL_MAX_BYTES:
        raise UnreadableMail(f"the mail is larger than {MAIL_MAX_BYTES >> 20} MiB")
    if len(_CONTAINER.findall(raw)) > MAX_CONTAINERS:
        raise UnreadableMail(f"the mail declares more than {MAX_CONTAINERS} multipart or forwarded parts "
                             "(nested in one another or side by side)")
    try:
        return message_from_bytes(raw, policy=policy.compat32)
    except RecursionError:
        raise UnreadableMail("the mail's parts are nested deeper than the mail reader goes") from None
    except Exception as error:  # the mail library's parser, on bytes anybody wrote
        raise UnreadableMail(f"the mail cannot be parsed ({type(error).__name__})") from None


def read_headers(raw: bytes) -> Message:
    """The headers of ``raw`` alone (a mail too large or too nested to parse whole), or none."""
    try:
        return BytesHeaderParser(policy=policy.compat32).parsebytes(raw[:HEAD_BYTES])
    except Exception:  # as read_mail: a header block nobody can parse has no headers
        return Message()


def header(message: Message, name: str) -> str:
    """The text of header ``name`` ('' when absent): RFC 2047 decoded where it can be, unfolded, valid
    Unicode, at most :data:`HEADER_MAX` characters. It may hold anything else its sender wrote."""
    try:
        value = message.get(name)
        if value is None:
            return ""
        text = str(value)
    except Exception:  # a header the library cannot even give as text is no header
        return ""
    with contextlib.suppress(Exception):  # an encoded word that does not decode is kept as written
        text = str(make_header(decode_header(text)))
    text = text.encode("utf-8", "replace").decode("utf-8")  # no lone surrogate from undecodable bytes
    return " ".join(text.split())[:HEADER_MAX]


def message_id(message: Message) -> str | None:
    """The mail's Message-ID, bare (printable ASCII, without its angle brackets), or None."""
    value = header(message, "Message-ID")
    match = _MESSAGE_ID.search(value)
    if match:
        return match.group(1)
    return value if _BARE_ID.fullmatch(value) else None


def sender(message: Message) -> str:
    """The From address, when it is one plain ``user@domain`` ('' otherwise: nobody to answer)."""
    try:
        found = getaddresses([header(message, "From")])
    except Exception:  # an address list the library cannot split names nobody
        return ""
    address = found[0][1].strip() if found and found[0][1] else ""
    return address if _ADDRESS.fullmatch(address) else ""


@dataclass(frozen=True)
class Thread:
    """What an answer names of the mail it answers (``In-Reply-To``, ``References``): message ids only."""

    parent: str
    references: tuple[str, ...] = ()


def thread_of(message: Message) -> Thread | None:
    """The thread an answer to ``message`` belongs to, or None (its Message-ID is not one)."""
    parent = _MESSAGE_ID.search(header(message, "Message-ID"))
    if parent is None:
        return None
    earlier = [f"<{m}>" for m in _MESSAGE_ID.findall(header(message, "References"))]
    return Thread(parent=f"<{parent.group(1)}>", references=tuple(earlier[-REFERENCES_KEPT:]))


#: RFC 3834 and the common practice of robots: a mail with one of these headers, of these values (any, for
#: ``None``), is automatic; answering it is how two robots mail each other for ever
_AUTOMATIC_HEADERS: dict[str, tuple[str, ...] | None] = {
    "Precedence": ("bulk", "junk", "list"),
    "List-Id": None,
    "List-Unsubscribe": None,
    "X-Autoreply": None,
    "X-Autorespond": None,
    "X-Auto-Response-Suppress": ("all", "autoreply", "oof"),
}


def is_automatic(message: Message) -> bool:
    """A mail no program should answer (RFC 3834): auto-submitted, a bounce or a delivery report, a
    mailing list's, or one that asks for no automatic answer."""
    if header(message, "Auto-Submitted").lower() not in ("", "no"):
        return True
    for name, values in _AUTOMATIC_HEADERS.items():
        text = header(message, name).lower()
        if text and (values is None or any(value in text for value in values)):
            return True
    if header(message, "Return-Path").strip() == "<>":  # a bounce has no envelope sender
        return True
    if header(message, "Content-Type").lower().startswith("multipart/report"):
        return True
    who = header(message, "From").lower()
    return "mailer-daemon@" in who or who.startswith("postmaster@") or "<postmaster@" in who


def replies_to_an_answer(message: Message) -> bool:
    """Whether ``message`` answers one of the referee's answers (its ``In-Reply-To`` names one)."""
    return f".{ANSWER_ID_MARK}@" in header(message, "In-Reply-To")

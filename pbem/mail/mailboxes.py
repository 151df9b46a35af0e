"""Reading incoming mail: an IMAP folder, a Maildir or an mbox file.

Each source lists its mails with a **source key** that stays the same for
the same stored mail (IMAP: the folder's UIDVALIDITY and the UID; Maildir:
the file's unique name; mbox: the SHA-256 of the mail's bytes), so that the
serve loop skips what it has done without fetching it again.

pbem never deletes or rewrites a mail. Local mailboxes (Maildir, mbox) are
only read; in an IMAP folder a mail is flagged ``\\Seen`` once it is done,
as a courtesy to a person who looks at the folder (the record in the state
directory, not the flag, decides what is done).
"""

from __future__ import annotations

import contextlib
import imaplib
import mailbox
import re
import ssl
from abc import abstractmethod
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TypeVar

from pbem.digests import sha256_hex
from pbem.mail.config import Mailbox, Server
from pbem.mail.errors import MailConfigError, MailServerError

_T = TypeVar("_T")

#: seconds a network operation may block before the run gives up (a hung server must not hang cron)
NETWORK_TIMEOUT = 60.0


@dataclass(frozen=True)
class Incoming:
    """One stored mail: its source key and its bytes as stored."""

    source: str
    raw: bytes


class MailSource(AbstractContextManager["MailSource"]):
    """A mailbox open for reading (a context manager: the connection closes at the end)."""

    @abstractmethod
    def incoming(self, done: Callable[[str], bool]) -> Iterator[Incoming]:
        """Every stored mail whose source key ``done`` does not know, in the mailbox's order."""

    def mark_done(self, mail: Incoming) -> None:
        """Called once the mail's answer is queued and the record written."""

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the mailbox."""


class MaildirSource(MailSource):
    """A Maildir (``new/``, ``cur/``, ``tmp/``), read in the order of the mails' unique names."""

    def __init__(self, path: Path) -> None:
        if not (path / "new").is_dir() or not (path / "cur").is_dir():
            raise MailConfigError(f"{path}: not a Maildir (no new/ and cur/ folders)")
        self.box = mailbox.Maildir(path, factory=None, create=False)

    def incoming(self, done: Callable[[str], bool]) -> Iterator[Incoming]:
        # Maildir names begin with the delivery time: sorting them is the order of arrival
        for key in sorted(self.box.keys()):
            source = f"maildir:{key}"
            if done(source):
                continue
            try:
                yield Incoming(source, self.box.get_bytes(key))
            except KeyError:  # removed meanwhile by the mail user
                continue


class MboxSource(MailSource):
    """An mbox file, read as it is (pbem takes no lock: it never writes)."""

    def __init__(self, path: Path) -> None:
        if not path.is_file():
            raise MailConfigError(f"{path}: no such mbox file")
        self.box = mailbox.mbox(path, factory=None, create=False)

    def incoming(self, done: Callable[[str], bool]) -> Iterator[Incoming]:
        for key in self.box.keys():  # noqa: SIM118 - iterating a Mailbox yields its messages, not its keys
            raw = self.box.get_bytes(key)
            source = "mbox:" + sha256_hex(raw)
            if not done(source):
                yield Incoming(source, raw)

    def close(self) -> None:
        self.box.close()


class ImapSource(MailSource):
    """One IMAP folder, over TLS, STARTTLS, or in clear on this machine only."""

    def __init__(self, server: Server, folder: str) -> None:
        self.server = server
        self.folder = folder
        self.where = f"IMAP {server.host}:{server.port}"
        self.imap = _imap_call(self.where, "connect", lambda: _connect_imap(server))
        try:
            user = server.credentials.user
            if user is not None:
                password = server.credentials.password() or ""
                _imap_call(self.where, f"login as {user}", lambda: self.imap.login(user, password))
            status, data = _imap_call(self.where, f"select {folder}", lambda: self.imap.select(_quote(folder)))
            if status != "OK":
                raise MailServerError(f"{self.where}: cannot open the folder {folder!r}: {_text(data)}")
            validity = self.imap.response("UIDVALIDITY")[1]
            self.validity = _text(validity) if validity and validity[0] else "0"
        except BaseException:
            self.close()
            raise

    def incoming(self, done: Callable[[str], bool]) -> Iterator[Incoming]:
        status, data = _imap_call(self.where, "search", lambda: self.imap.uid("SEARCH", "ALL"))
        if status != "OK":
            raise MailServerError(f"{self.where}: UID SEARCH failed: {_text(data)}")
        uids = sorted((int(u) for u in _text(data).split()), key=int)
        for uid in uids:
            source = f"imap:{self.folder}:{self.validity}:{uid}"
            if done(source):
                continue
            status, fetched = _imap_call(self.where, f"fetch {uid}",
                                         partial(self.imap.uid, "FETCH", str(uid), "(BODY.PEEK[])"))
            raw = next((item[1] for item in fetched or [] if isinstance(item, tuple)), None)
            if status != "OK" or raw is None:  # expunged meanwhile
                continue
            yield Incoming(source, raw)

    def mark_done(self, mail: Incoming) -> None:
        uid = mail.source.rsplit(":", 1)[1]
        _imap_call(self.where, f"flag {uid} seen", lambda: self.imap.uid("STORE", uid, "+FLAGS", "(\\Seen)"))

    def close(self) -> None:
        with contextlib.suppress(imaplib.IMAP4.error, OSError, AttributeError):
            self.imap.logout()


def open_mailbox(box: Mailbox) -> MailSource:
    """The configured mailbox, open for reading."""
    if box.kind == "imap":
        assert box.server is not None
        return ImapSource(box.server, box.folder)
    assert box.path is not None
    if box.kind == "maildir":
        return MaildirSource(box.path)
    return MboxSource(box.path)


def _connect_imap(server: Server) -> imaplib.IMAP4:
    if server.security == "tls":
        return imaplib.IMAP4_SSL(server.host, server.port, ssl_context=ssl.create_default_context(),
                                 timeout=NETWORK_TIMEOUT)
    imap = imaplib.IMAP4(server.host, server.port, timeout=NETWORK_TIMEOUT)
    if server.security == "starttls":
        imap.starttls(ssl.create_default_context())
    return imap


def _imap_call(where: str, what: str, action: Callable[[], _T]) -> _T:
    try:
        return action()
    except (imaplib.IMAP4.error, OSError, ssl.SSLError) as error:
        raise MailServerError(f"{where}: {what} failed: {error}") from error


def _text(data: object) -> str:
    parts = data if isinstance(data, list) else [data]
    return " ".join(p.decode("utf-8", "replace") if isinstance(p, bytes) else str(p) for p in parts if p)


def _quote(folder: str) -> str:
    """A folder name as an IMAP quoted string."""
    return '"' + re.sub(r'(["\\])', r"\\\1", folder) + '"'

"""Sending mail by SMTP, and the referee's outbox.

The referee never sends a mail straight away: it **queues** it in the
outbox (one ``.eml`` file, written atomically), records the incoming mail
as done, and only then sends the queue. A crash or an SMTP server that is
down loses nothing: the next run sends what is still queued. A mail the
server refuses for good (a 5xx answer, such as an unknown recipient) moves
to ``outbox/failed/`` with the server's answer beside it, so that one bad
address does not block the queue. Delivery is at least once: a crash
between the server's acceptance and the removal of the file sends that
mail again.
"""

from __future__ import annotations

import smtplib
import ssl
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses
from pathlib import Path

from pbem.digests import sha256_hex
from pbem.mail.compose import message_bytes, stamp
from pbem.mail.config import Server
from pbem.mail.errors import MailFileError, MailServerError
from pbem.mail.incoming import UnreadableMail, read_mail
from pbem.mail.mailboxes import NETWORK_TIMEOUT
from pbem.referee.errors import UsageError
from pbem.referee.storage import atomic_write


@contextmanager
def smtp_session(server: Server) -> Iterator[smtplib.SMTP]:
    """A logged-in SMTP connection (TLS, STARTTLS, or clear on this machine only)."""
    where = f"SMTP {server.host}:{server.port}"
    try:
        if server.security == "tls":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(server.host, server.port, timeout=NETWORK_TIMEOUT,
                                                  context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(server.host, server.port, timeout=NETWORK_TIMEOUT)
            if server.security == "starttls":
                smtp.starttls(context=ssl.create_default_context())
        user = server.credentials.user
        if user is not None:
            smtp.login(user, server.credentials.password() or "")
    except (smtplib.SMTPException, OSError, ssl.SSLError) as error:
        raise MailServerError(f"{where}: {error}") from error
    try:
        yield smtp
    finally:
        try:
            smtp.quit()
        except (smtplib.SMTPException, OSError):
            smtp.close()


def recipients(message: EmailMessage) -> list[str]:
    """Every address of To, Cc and Bcc."""
    fields = [str(v) for name in ("To", "Cc", "Bcc") for v in message.get_all(name, [])]
    return [address for _, address in getaddresses(fields) if address]


def envelope_sender(message: EmailMessage) -> str:
    return next((address for _, address in getaddresses([str(message.get("From", ""))]) if address), "")


def send_now(server: Server, messages: list[EmailMessage]) -> None:
    """Send messages in one session; the first refusal stops with its reason (the player's side)."""
    with smtp_session(server) as smtp:
        for message in messages:
            try:
                smtp.sendmail(envelope_sender(message), recipients(message), message_bytes(message))
            except (smtplib.SMTPException, OSError) as error:
                raise MailServerError(f"SMTP {server.host}:{server.port}: {message['To']}: {error}") from error


def saved_mail(data: bytes, name: str, sender: str | None, to: str | None, referee: str | None) -> EmailMessage:
    """A saved mail (``.eml``, as ``pbem move --mail`` writes one) as ``pbem mail send`` sends it: without
    ``X-Unsent``, From ``sender`` when it has none, a new Date and Message-ID, To ``to`` when given, else its
    own or ``referee``. Bytes that are no such mail are :class:`MailFileError`; a mail with nobody to send it
    to, a :class:`~pbem.referee.errors.UsageError`."""
    try:
        read_mail(data)  # within the bounds of any mail pbem reads
    except UnreadableMail as error:
        raise MailFileError(f"{name}: {error}") from None
    try:
        message = message_from_bytes(data, policy=policy.SMTP)
        del message["X-Unsent"]
        if not message["From"]:
            message["From"] = sender
        stamp(message, sender)  # type: ignore[arg-type]
        if to is None and message["To"]:
            recipients(message)  # type: ignore[arg-type]
            message_bytes(message)  # type: ignore[arg-type]
            return message  # type: ignore[return-value]
        if to is None and referee is None:
            raise UsageError(f"{name} names no recipient; give --to or referee in the configuration")
        del message["To"]
        message["To"] = to or referee
        message_bytes(message)  # type: ignore[arg-type]
    except (UsageError, MailFileError):
        raise
    except Exception as error:  # the mail library on a file anybody may have written
        raise MailFileError(f"{name}: not a mail pbem can send ({type(error).__name__}: {error})") from None
    return message  # type: ignore[return-value]


@dataclass
class FlushReport:
    """What one run of the outbox did."""

    sent: list[str] = field(default_factory=list)
    #: refused for good: (file, the server's answer)
    failed: list[tuple[str, str]] = field(default_factory=list)
    #: still queued, and why (the server is down, a temporary refusal)
    kept: int = 0
    error: str | None = None


class Outbox:
    """The referee's queue of mails to send: ``DIR/*.eml``, sent in the order queued."""

    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.failed_dir = directory / "failed"

    def queue(self, message: EmailMessage, once: str | None = None) -> Path:
        """Queue a mail. With ``once`` (a name made of the mail's identity), a mail queued under that
        name and not sent yet is kept rather than queued twice (a run that died before recording it)."""
        data = message_bytes(message)
        if once is not None:
            kept = next(iter(self.dir.glob(f"*-{once}.eml")), None) if self.dir.is_dir() else None
            if kept is not None:
                return kept
        # the time of queueing orders the queue; the digest keeps names unique
        name = f"{time.time_ns():020d}-{once or sha256_hex(data)[:12]}.eml"
        path = self.dir / name
        atomic_write(path, data, mode=0o600)
        return path

    def pending(self) -> list[Path]:
        if not self.dir.is_dir():
            return []
        return sorted(p for p in self.dir.iterdir() if p.is_file() and p.suffix == ".eml")

    def flush(self, server: Server) -> FlushReport:
        report = FlushReport()
        queued = self.pending()
        if not queued:
            return report
        try:
            with smtp_session(server) as smtp:
                for index, path in enumerate(queued):
                    data = path.read_bytes()
                    message = message_from_bytes(data, policy=policy.SMTP)
                    to = recipients(message)  # type: ignore[arg-type]
                    try:
                        smtp.sendmail(envelope_sender(message), to, data)  # type: ignore[arg-type]
                    except smtplib.SMTPRecipientsRefused as error:
                        self._fail(path, report, "; ".join(f"{a}: {c} {m!r}" for a, (c, m) in error.recipients.items()))
                        continue
                    except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as error:
                        if 500 <= error.smtp_code < 600:
                            self._fail(path, report, f"{error.smtp_code} {error.smtp_error!r}")
                            continue
                        report.kept = len(queued) - index
                        report.error = f"SMTP {server.host}:{server.port}: {error}"
                        return report
                    except (smtplib.SMTPException, OSError) as error:
                        report.kept = len(queued) - index
                        report.error = f"SMTP {server.host}:{server.port}: {error}"
                        return report
                    path.unlink()
                    report.sent.append(", ".join(to))
        except MailServerError as error:
            report.kept = len(self.pending())
            report.error = str(error)
        return report

    def _fail(self, path: Path, report: FlushReport, why: str) -> None:
        self.failed_dir.mkdir(parents=True, exist_ok=True)
        target = self.failed_dir / path.name
        path.replace(target)
        atomic_write(target.with_suffix(".reason"), (why + "\n").encode("utf-8"))
        report.failed.append((str(target), why))


@dataclass
class QueuedAnswer:
    """An answer in the outbox that a turn mail may take in (:func:`pbem.mail.compose.merged`)."""

    address: str
    games: tuple[str, ...]
    path: Path
    message: EmailMessage


@dataclass
class QueuedAnswers:
    """The answers of one run that went to one address alone, by address, in the order queued."""

    by_address: dict[str, list[QueuedAnswer]] = field(default_factory=dict)

    def add(self, address: str, games: tuple[str, ...], path: Path, message: EmailMessage) -> None:
        self.by_address.setdefault(address.lower(), []).append(QueuedAnswer(address, games, path, message))

    def take(self, address: str, game_id: str) -> QueuedAnswer | None:
        """The latest answer to ``address`` about game ``game_id`` not taken yet (it is taken: once)."""
        queued = self.by_address.get(address.lower(), [])
        for index in range(len(queued) - 1, -1, -1):
            if game_id in queued[index].games:
                return queued.pop(index)
        return None

"""The mail configuration file (TOML): servers, credentials, addresses, games.

One file format serves both sides. A referee's file (``pbem mail serve``)::

    address = "referee@example.org"   # the From of every mail the referee sends
    key = "referee.key"               # the referee's private key file (mode 0600)
    state = "mail-state"              # record of processed mails, the outbox

    [mailbox]                         # where move and join mails arrive
    kind = "imap"                     # imap | maildir | mbox
    host = "imap.example.org"
    security = "tls"                  # tls | starttls | none (none: this machine only)
    user = "referee@example.org"
    password_env = "PBEM_IMAP_PASSWORD"   # or password_file = "imap-password" (mode 0600)

    [smtp]
    host = "smtp.example.org"
    security = "starttls"
    user = "referee@example.org"
    password_file = "smtp-password"

    [[games]]
    dir = "games/first"
    spectators = ["carol@example.org", { address = "dan@example.org", digest = "end" }]
    digest = "daily"                  # the spectators' schedule: step (default) | daily | end
    players = { alice = "alice@example.org", bob = "bob@example.org" }

A player's file (``pbem mail send``) needs only ``address``, ``referee`` (the
address moves go to) and ``[smtp]``. Relative paths are relative to the
directory of the configuration file. Passwords are never in the file or on
the command line: ``password_env`` names an environment variable,
``password_file`` a file that only its owner may read.
"""

from __future__ import annotations

import ipaddress
import os
import stat
from dataclasses import dataclass, field
from email.errors import HeaderParseError
from email.headerregistry import Address
from pathlib import Path
from typing import Any

from pbem.config_files import ConfigReader, read_document
from pbem.mail.errors import MailConfigError
from pbem.mail.spectators import DEFAULT_SCHEDULE, SCHEDULES

SECURITY = ("tls", "starttls", "none")
MAILBOX_KINDS = ("imap", "maildir", "mbox")
IMAP_PORTS = {"tls": 993, "starttls": 143, "none": 143}
SMTP_PORTS = {"tls": 465, "starttls": 587, "none": 25}


@dataclass(frozen=True)
class Credentials:
    """Where a server password comes from: an environment variable or a private file (never the file itself)."""

    user: str | None = None
    password_env: str | None = None
    password_file: Path | None = None

    def password(self) -> str | None:
        """The password, read now (so that a changed secret needs no restart); None when no login is configured."""
        if self.password_env is not None:
            value = os.environ.get(self.password_env)
            if value is None:
                raise MailConfigError(f"the environment variable {self.password_env} (password_env) is not set")
            return value
        if self.password_file is not None:
            path = self.password_file
            try:
                mode = os.stat(path).st_mode
                if mode & 0o077:
                    raise MailConfigError(
                        f"password file {path} is readable by others (mode {stat.S_IMODE(mode):04o}); "
                        f"run: chmod 600 {path}"
                    )
                return path.read_text(encoding="utf-8").rstrip("\r\n")
            except OSError as error:
                raise MailConfigError(f"password file {path}: {error.strerror or error}") from error
        return None


@dataclass(frozen=True)
class Server:
    """An IMAP or SMTP server and how to log in to it."""

    host: str
    port: int
    security: str
    credentials: Credentials = field(default_factory=Credentials)


@dataclass(frozen=True)
class Mailbox:
    """Where incoming mail is read: an IMAP folder, a Maildir or an mbox file."""

    kind: str
    path: Path | None = None
    server: Server | None = None
    folder: str = "INBOX"


@dataclass(frozen=True)
class GameEntry:
    """One game the referee serves: its directory and who gets mail about it."""

    dir: Path
    players: dict[str, str]
    spectators: tuple[str, ...] = ()
    #: each spectator's schedule of digests, as configured (:mod:`pbem.mail.spectators`)
    digests: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class MailConfig:
    """A parsed mail configuration file; :meth:`require` names what a command needs."""

    path: Path
    address: str | None = None
    referee: str | None = None
    key: Path | None = None
    state: Path | None = None
    mailbox: Mailbox | None = None
    smtp: Server | None = None
    games: tuple[GameEntry, ...] = ()

    @classmethod
    def read(cls, path: Path) -> MailConfig:
        return cls.from_doc(read_document(path, MailConfigError, "mail configuration"), path)

    @classmethod
    def from_doc(cls, doc: dict[str, Any], path: Path) -> MailConfig:
        reader = _Reader(path)
        reader.keys(doc, "", {"address", "referee", "key", "state", "mailbox", "smtp", "games"})
        return cls(
            path=path,
            address=reader.address(doc, "address"),
            referee=reader.address(doc, "referee"),
            key=reader.path(doc, "key"),
            state=reader.path(doc, "state"),
            mailbox=reader.mailbox(doc.get("mailbox")),
            smtp=reader.server(doc.get("smtp"), "smtp", SMTP_PORTS) if "smtp" in doc else None,
            games=tuple(reader.game(g, i) for i, g in enumerate(reader.list_of_tables(doc, "games"))),
        )

    def require(self, *names: str) -> None:
        """Refuse, naming the keys, a configuration that lacks what a command needs."""
        missing = [name for name in names if not getattr(self, name)]
        if missing:
            raise MailConfigError(f"{self.path}: this command needs {', '.join(missing)} in the configuration")


class _Reader(ConfigReader):
    error = MailConfigError

    def address(self, table: dict[str, Any], key: str, where: str = "") -> str | None:
        value = self.text(table, key, where)
        if value is not None:
            check_address(value, f"{self.file}: {where}{key}")
        return value

    def path(self, table: dict[str, Any], key: str, where: str = "") -> Path | None:
        value = self.text(table, key, where)
        return None if value is None else self.base / Path(value).expanduser()

    def list_of_tables(self, doc: dict[str, Any], key: str) -> list[dict[str, Any]]:
        value = doc.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(key, "expected [[games]] tables")
        return value

    def server(self, table: Any, where: str, ports: dict[str, int]) -> Server:
        if not isinstance(table, dict):
            raise self.fail(where, "expected a table")
        extra = {"kind", "path", "folder"} if where == "mailbox" else set()
        self.keys(table, where, {"host", "port", "security", "user", "password_env", "password_file"} | extra)
        host = self.text(table, "host", f"{where}.")
        if host is None:
            raise self.fail(f"{where}.host", "missing")
        security = table.get("security", "tls")
        if security not in SECURITY:
            raise self.fail(f"{where}.security", f"{security!r} is not one of {', '.join(SECURITY)}")
        if security == "none" and not is_loopback(host):
            raise self.fail(f"{where}.security", f"'none' sends passwords in clear: only for a server on this "
                                                 f"machine (localhost), not {host!r}; use tls or starttls")
        port = table.get("port", ports[security])
        if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
            raise self.fail(f"{where}.port", f"{port!r} is not a port number")
        if "password_env" in table and "password_file" in table:
            raise self.fail(where, "give password_env or password_file, not both")
        credentials = Credentials(
            user=self.text(table, "user", f"{where}."),
            password_env=self.text(table, "password_env", f"{where}."),
            password_file=self.path(table, "password_file", f"{where}."),
        )
        if credentials.user is None and (credentials.password_env or credentials.password_file):
            raise self.fail(where, "a password needs a user")
        return Server(host=host, port=port, security=security, credentials=credentials)

    def mailbox(self, table: Any) -> Mailbox | None:
        if table is None:
            return None
        if not isinstance(table, dict):
            raise self.fail("mailbox", "expected a table")
        kind = table.get("kind")
        if kind not in MAILBOX_KINDS:
            raise self.fail("mailbox.kind", f"{kind!r} is not one of {', '.join(MAILBOX_KINDS)}")
        if kind == "imap":
            folder = self.text(table, "folder", "mailbox.") or "INBOX"
            return Mailbox(kind=kind, server=self.server(table, "mailbox", IMAP_PORTS), folder=folder)
        self.keys(table, "mailbox", {"kind", "path"})
        path = self.path(table, "path", "mailbox.")
        if path is None:
            raise self.fail("mailbox.path", f"a {kind} mailbox needs its path")
        return Mailbox(kind=kind, path=path)

    def game(self, table: dict[str, Any], index: int) -> GameEntry:
        where = f"games[{index}]"
        self.keys(table, where, {"dir", "players", "spectators", "digest"})
        directory = self.path(table, "dir", f"{where}.")
        if directory is None:
            raise self.fail(f"{where}.dir", "missing")
        players = table.get("players", {})
        if not isinstance(players, dict):
            raise self.fail(f"{where}.players", "expected a table NAME = ADDRESS")
        for name in players:
            self.address(players, name, f"{where}.players.")
        spectators = table.get("spectators", [])
        if not isinstance(spectators, list):
            raise self.fail(f"{where}.spectators", "expected a list of addresses")
        default = self.schedule(table, "digest", f"{where}.") or DEFAULT_SCHEDULE
        digests: dict[str, str] = {}
        for i, spectator in enumerate(spectators):
            at = f"{where}.spectators[{i}]"
            if isinstance(spectator, dict):
                self.keys(spectator, at, {"address", "digest"})
                address = spectator.get("address")
                if not isinstance(address, str):
                    raise self.fail(f"{at}.address", "expected an address")
                digests[address] = self.schedule(spectator, "digest", f"{at}.") or default
            elif isinstance(spectator, str):
                address = spectator
                digests[address] = default
            else:
                raise self.fail(at, "expected an address, or a table with address and digest")
            check_address(address, f"{self.file}: {at}")
        return GameEntry(dir=directory, players=dict(players), spectators=tuple(digests), digests=digests)

    def schedule(self, table: dict[str, Any], key: str, where: str) -> str | None:
        value = table.get(key)
        if value is not None and value not in SCHEDULES:
            raise self.fail(f"{where}{key}", f"expected one of {', '.join(SCHEDULES)}")
        return value


def check_address(text: str, where: str) -> None:
    """Refuse what is not one plain ``user@domain`` address."""
    try:
        parsed = Address(addr_spec=text)
    except (HeaderParseError, ValueError, IndexError) as error:
        raise MailConfigError(f"{where}: {text!r} is not an e-mail address: {error}") from error
    if not parsed.username or not parsed.domain or parsed.addr_spec != text:
        raise MailConfigError(f"{where}: {text!r} is not a plain e-mail address (user@domain)")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False

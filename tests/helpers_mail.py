"""Real mail servers on localhost for the mail tests: aiosmtpd for SMTP, Dovecot for IMAP.

Nothing of the mail protocols is mocked: the referee reads over IMAP from a
Dovecot this fixture starts (its own configuration in a temporary folder, a
free port, plain login on 127.0.0.1, users in a passwd-file), and every mail
goes through an aiosmtpd server, which files each copy in the recipient's
mailbox: the referee's (a Maildir, an mbox or the Dovecot folder) or a
player's (a list the test reads).
"""

from __future__ import annotations

import imaplib
import mailbox
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from helpers_referee import TEST_SEED, Table, make_keys, make_table

from pbem.crypto.keys import PrivateKey
from pbem.mail.compose import message_bytes
from pbem.mail.config import MailConfig
from pbem.mail.serve import ServeReport, serve_once
from pbem.referee import new_game

REFEREE = "referee@pbem.test"
ADDRESSES = {"alice": "alice@pbem.test", "bob": "bob@pbem.test", "carol": "carol@pbem.test"}
SPECTATOR = "dave@pbem.test"
SMTP_USERS = {"referee": "smtp-secret", "alice": "alice-secret", "bob": "bob-secret"}
IMAP_PASSWORD = "imap-secret"
#: the longest line a mail pbem writes may have, header or text (RFC 5322 recommends 78): a mail client
#: shows it as it is, and a command to copy is never wrapped
MAIL_LINE_MAX = 78


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- SMTP -----------------------------------------------------------------------------------


class PostOffice:
    """The aiosmtpd handler: each recipient's copy goes to their delivery function, or to a list."""

    def __init__(self) -> None:
        self.inboxes: dict[str, list[bytes]] = defaultdict(list)
        self.deliver: dict[str, Callable[[bytes], None]] = {}
        self.refuse: set[str] = set()
        self.logins: list[str] = []
        #: every mail pbem wrote: those the referee's login sent (answers, turn mails, notices...) and the
        #: players' files that pbem mail send sent (their Subject is pbem's: ``[pbem GAME] ...``)
        self.written: list[bytes] = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower() in self.refuse:
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        data = envelope.original_content or envelope.content
        if session.auth_data == "referee" or b"\nSubject: [pbem " in b"\n" + data.partition(b"\r\n\r\n")[0]:
            self.written.append(data)
        for rcpt in envelope.rcpt_tos:
            target = self.deliver.get(rcpt.lower())
            if target is not None:
                target(data)
            else:
                self.inboxes[rcpt.lower()].append(data)
        return "250 OK delivered"

    def authenticate(self, server, session, envelope, mechanism, auth_data):
        if isinstance(auth_data, LoginPassword):
            user, password = auth_data.login.decode(), auth_data.password.decode()
            if SMTP_USERS.get(user) == password:
                self.logins.append(user)
                return AuthResult(success=True, auth_data=user)
        return AuthResult(success=False, handled=False)

    def messages(self, address: str) -> list[EmailMessage]:
        return [message_from_bytes(raw, policy=policy.default) for raw in self.inboxes[address.lower()]]


@dataclass
class SmtpServer:
    host: str
    port: int
    post: PostOffice
    controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(self.post, hostname=self.host, port=self.port,
                                     authenticator=self.post.authenticate, auth_required=True,
                                     auth_require_tls=False)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def send(self, raw: bytes, sender: str, to: str) -> None:
        """Hand a mail to the server as a mail client would (SMTP, logged in)."""
        import smtplib

        with smtplib.SMTP(self.host, self.port) as smtp:
            smtp.login("alice", SMTP_USERS["alice"])
            smtp.sendmail(sender, [to], raw)


def overlong_lines(raw: bytes, most: int = MAIL_LINE_MAX) -> list[str]:
    """The lines of a mail longer than ``most`` characters: of its headers as they go on the wire (folded),
    and of the text of each text part as a mail client shows it (quoted-printable decoded). The base64 of an
    attachment is not text (its lines are 76 characters)."""
    head, _, _ = raw.partition(b"\r\n\r\n")
    long = [line.decode("ascii", "replace") for line in head.split(b"\r\n") if len(line) > most]
    for part in message_from_bytes(raw, policy=policy.default).walk():
        if part.get_content_maintype() == "text" and not part.is_attachment():
            long += [line for line in part.get_content().splitlines() if len(line) > most]
    return long


@pytest.fixture
def smtp_server() -> Iterator[SmtpServer]:
    """An SMTP server for one test; at its end, every mail the referee sent through it is checked: no line of
    it, and of every player's mail pbem wrote, header or text, is longer than :data:`MAIL_LINE_MAX`."""
    server = SmtpServer("127.0.0.1", free_port(), PostOffice())
    server.start()
    try:
        yield server
    finally:
        server.stop()
    long = {line for raw in server.post.written for line in overlong_lines(raw)}
    assert not long, f"lines longer than {MAIL_LINE_MAX} characters in the mails pbem wrote:\n" + "\n".join(sorted(long))


# --- IMAP (Dovecot) ---------------------------------------------------------------------------


def dovecot_binary() -> str:
    """The Dovecot server; CI must have it (.ci/run installs dovecot-imapd), elsewhere the test is skipped."""
    found = shutil.which("dovecot") or next((p for p in ("/usr/sbin/dovecot",) if os.access(p, os.X_OK)), None)
    if found is None and os.environ.get("CI"):
        pytest.fail("CI must run the IMAP tests: .ci/run installs the Debian package dovecot-imapd")
    if found is None:
        pytest.skip("Dovecot is not installed (apt-get install dovecot-imapd); CI installs it")
    return found


@dataclass
class Dovecot:
    host: str
    port: int
    user: str
    password: str
    folders: int = 0

    def connect(self) -> imaplib.IMAP4:
        imap = imaplib.IMAP4(self.host, self.port)
        imap.login(self.user, self.password)
        return imap

    def new_folder(self) -> str:
        """A fresh folder for one test (one Dovecot serves the whole session)."""
        self.folders += 1
        name = f"test{self.folders}"
        imap = self.connect()
        try:
            assert imap.create(name)[0] == "OK"
        finally:
            imap.logout()
        return name

    def append(self, folder: str, raw: bytes) -> None:
        imap = self.connect()
        try:
            status, data = imap.append(folder, None, None, raw)
            assert status == "OK", data
        finally:
            imap.logout()

    def flags(self, folder: str) -> list[bytes]:
        imap = self.connect()
        try:
            imap.select(folder, readonly=True)
            _status, data = imap.fetch("1:*", "(FLAGS)")
            return [item for item in data if isinstance(item, bytes)]
        finally:
            imap.logout()


@pytest.fixture(scope="session")
def dovecot() -> Iterator[Dovecot]:
    binary = dovecot_binary()
    # Dovecot's mail processes never run as root: as root, they run as `nobody`, in a folder
    # it may enter (pytest's own temporary root is closed to other users)
    root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    if os.geteuid() == 0:
        nobody = pwd.getpwnam("nobody")
        uid, gid = nobody.pw_uid, nobody.pw_gid
        users = "default_internal_user = dovecot\ndefault_login_user = dovenull\n"
    else:
        uid, gid = os.getuid(), os.getgid()
        me = pwd.getpwuid(uid).pw_name
        users = f"default_internal_user = {me}\ndefault_login_user = {me}\n"
    (root / "mail").mkdir()
    (root / "home").mkdir()
    if os.geteuid() == 0:
        for path in (root, root / "mail", root / "home"):
            os.chown(path, uid, gid)
    os.chmod(root, 0o755)
    port = free_port()
    (root / "passwd").write_text(f"referee:{{PLAIN}}{IMAP_PASSWORD}\n")
    config = root / "dovecot.conf"
    config.write_text(f"""
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
{users}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
first_valid_uid = 1
mail_location = maildir:{root}/mail/%u
# a test server's mail need not survive a power cut: its fsyncs are what the whole-game tests wait for most
mail_fsync = never
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
  chroot =
}}
service anvil {{
  chroot =
}}
""")
    process = subprocess.Popen([binary, "-F", "-c", str(config)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    server = Dovecot("127.0.0.1", port, "referee", IMAP_PASSWORD)
    try:
        for _ in range(400):  # until it listens (or has died)
            if process.poll() is not None:
                output = process.stdout.read().decode() if process.stdout else ""
                log = (root / "dovecot.log").read_text() if (root / "dovecot.log").exists() else ""
                pytest.fail(f"Dovecot did not start: {output}\n{log}")
            try:
                server.connect().logout()
                break
            except (OSError, imaplib.IMAP4.error):
                time.sleep(0.025)
        else:
            pytest.fail("Dovecot did not accept a login")
        yield server
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(root, ignore_errors=True)


# --- a game served by mail --------------------------------------------------------------------


@dataclass
class Post:
    """A game, its referee's mail configuration and the servers: everything a mail test needs."""

    tmp: Path
    table: Table
    smtp: SmtpServer
    mailbox_kind: str
    referee_box: Path | None = None
    imap: Dovecot | None = None
    folder: str | None = None
    spectators: list[str] = field(default_factory=list)
    #: the spectators' schedule of digests (``digest`` of the game's entry), and those of some spectators
    digest: str | None = None
    spectator_digests: dict[str, str] = field(default_factory=dict)
    addresses: dict[str, str] = field(default_factory=dict)
    extra: str = ""
    #: more games served by the same referee, configured after this one (each a Post of its own game)
    extra_games: list[Post] = field(default_factory=list)

    @property
    def config_path(self) -> Path:
        return self.tmp / "referee-mail.toml"

    def write_config(self) -> Path:
        if self.mailbox_kind == "imap":
            assert self.imap is not None
            box = (f'kind = "imap"\nhost = "{self.imap.host}"\nport = {self.imap.port}\nsecurity = "none"\n'
                   f'user = "{self.imap.user}"\npassword_env = "PBEM_TEST_IMAP_PASSWORD"\nfolder = "{self.folder}"\n')
        else:
            box = f'kind = "{self.mailbox_kind}"\npath = "{self.referee_box}"\n'
        (self.tmp / "smtp-password").write_text(SMTP_USERS["referee"] + "\n")
        (self.tmp / "smtp-password").chmod(0o600)
        self.config_path.write_text(f"""
address = "{REFEREE}"
key = "{self.table.key_files['referee']}"
state = "mail-state"
{self.extra}
[mailbox]
{box}
[smtp]
host = "{self.smtp.host}"
port = {self.smtp.port}
security = "none"
user = "referee"
password_file = "smtp-password"

{self.games_config()}""")
        return self.config_path

    def games_config(self) -> str:
        """This game's ``[[games]]`` table, and those of :attr:`extra_games`."""
        players = ", ".join(f'{p} = "{a}"' for p, a in self.addresses.items())
        spectators = ", ".join(f'{{ address = "{s}", digest = "{self.spectator_digests[s]}" }}'
                               if s in self.spectator_digests else f'"{s}"' for s in self.spectators)
        digest = f'digest = "{self.digest}"\n' if self.digest is not None else ""
        own = f"""
[[games]]
dir = "{self.table.dir}"
players = {{ {players} }}
spectators = [{spectators}]
{digest}"""
        return own + "".join(other.games_config() for other in self.extra_games)

    def config(self) -> MailConfig:
        return MailConfig.read(self.write_config())

    def serve(self, progress: list[str] | None = None) -> ServeReport:
        os.environ["PBEM_TEST_IMAP_PASSWORD"] = IMAP_PASSWORD
        return serve_once(self.config(), self.referee_key, progress.append if progress is not None else None)

    @property
    def referee_key(self) -> PrivateKey:
        return self.table.keys["referee"]

    def deliver_to_referee(self, raw: bytes) -> None:
        """File a mail straight into the referee's mailbox (as the mail system would)."""
        if self.mailbox_kind == "imap":
            assert self.imap is not None and self.folder is not None
            self.imap.append(self.folder, raw)
        elif self.mailbox_kind == "maildir":
            assert self.referee_box is not None
            mailbox.Maildir(self.referee_box, create=True).add(raw)
        else:
            assert self.referee_box is not None
            box = mailbox.mbox(self.referee_box, create=True)
            box.lock()
            try:
                box.add(raw)
                box.flush()
            finally:
                box.unlock()
                box.close()

    def mail_to_referee(self, message: EmailMessage) -> None:
        """Send a mail to the referee through the SMTP server."""
        self.smtp.send(message_bytes(message), str(message.get("From") or ADDRESSES["alice"]), REFEREE)

    def inbox(self, address: str) -> list[EmailMessage]:
        return self.smtp.post.messages(address)


def make_post(tmp: Path, smtp: SmtpServer, kind: str, imap: Dovecot | None = None,
              players: tuple[str, ...] = ("alice", "bob"), wait_for_joins: bool = False,
              seed: bytes | None = TEST_SEED, table: Table | None = None) -> Post:
    """A game served by mail: a new toy game in ``tmp/game`` (or ``table``, made by the caller)."""
    if table is None and wait_for_joins:
        keys, files = make_keys(tmp / "keys", ["referee", *players])
        game = tmp / "game"
        new_game(game, "highcard", [(p, keys[p].public) for p in players], keys["referee"], wait_for_joins=True)
        table = Table(dir=game, keys=keys, key_files=files)
    elif table is None:
        table = make_table(tmp, players, seed=seed)
    post = Post(tmp=tmp, table=table, smtp=smtp, mailbox_kind=kind, imap=imap,
                addresses={p: ADDRESSES[p] for p in players})
    if kind == "maildir":
        post.referee_box = tmp / "referee-Maildir"
        mailbox.Maildir(post.referee_box, create=True)
    elif kind == "mbox":
        post.referee_box = tmp / "referee.mbox"
        post.referee_box.touch()
    else:
        assert imap is not None
        post.folder = imap.new_folder()
    smtp.post.deliver[REFEREE] = post.deliver_to_referee
    return post


@pytest.fixture
def post(tmp_path: Path, smtp_server: SmtpServer) -> Post:
    """A two-player toy game whose referee reads a Maildir."""
    return make_post(tmp_path, smtp_server, "maildir")


@pytest.fixture
def imap_post(tmp_path: Path, smtp_server: SmtpServer, dovecot: Dovecot) -> Post:
    """A two-player toy game whose referee reads a folder of a real IMAP server."""
    return make_post(tmp_path, smtp_server, "imap", imap=dovecot)


def body(message: EmailMessage) -> str:
    """The text of a mail, its wrapped lines joined (the prose is wrapped at 76 columns)."""
    text = message.get_body(("plain",))
    assert text is not None, "the mail has no text"
    return " ".join(text.get_content().split())


def attachments(message: EmailMessage) -> dict[str, bytes]:
    """A mail's attachments by file name."""
    found = {}
    for part in message.iter_attachments():
        name, data = part.get_filename(), part.get_payload(decode=True)
        assert isinstance(name, str) and isinstance(data, bytes), part
        found[name] = data
    return found


@contextmanager
def serving_by_poll(config: Path) -> Iterator[tuple[subprocess.Popen[str], Callable[[str], list[str]]]]:
    """``pbem mail serve --poll 1 --progress`` in a process of its own, and a function that reads its lines
    on stderr until one holds a text (it fails if the process ends first); SIGINT stops it at the end."""
    env = {**os.environ, "PBEM_GAMES": "toygame", "PYTHONPATH": str(Path(__file__).resolve().parent)}
    process = subprocess.Popen(
        [sys.executable, "-m", "pbem", "mail", "serve", "--config", str(config), "--poll", "1", "--progress"],
        stderr=subprocess.PIPE, text=True, env=env,
    )
    lines: list[str] = []

    def until(text: str) -> list[str]:
        assert process.stderr is not None
        while not lines or text not in lines[-1]:
            lines.append(process.stderr.readline())
            assert lines[-1], lines
        return lines

    try:
        yield process, until
    finally:
        process.send_signal(signal.SIGINT)
        process.wait()

"""Players who play by e-mail as people do: only the CLI, only the mails delivered to their own address.

A :class:`MailPlayer` keeps a home folder: the ``.eml`` files it saved, its
own copy of the game (``game/``, built by ``pbem mail unpack`` alone) and
its own state directory (the record of the turns ``pbem view`` showed it).
It never reads the referee's directory: what it knows of the game is what
``pbem view --json`` shows it of its copy. Every command runs in-process
through typer's CliRunner, which is the command line.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from helpers_mail import IMAP_PASSWORD, REFEREE, SMTP_USERS, Post, SmtpServer
from typer.testing import CliRunner, Result

from pbem.cli.main import app


def invoke(*args: object) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


def ok(*args: object) -> Result:
    result = invoke(*args)
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result


@dataclass
class MailPlayer:
    """One player (or the holder of a seat) at one address, with one key."""

    name: str
    address: str
    key: Path
    home: Path
    smtp: SmtpServer
    #: the SMTP login this player sends with (the test server knows alice and bob)
    login: str = "alice"
    saved: list[Path] = field(default_factory=list)
    #: how many files (moves, requests) the player has written
    written: int = 0

    def __post_init__(self) -> None:
        self.home.mkdir(parents=True, exist_ok=True)
        (self.home / "mail.toml").write_text(
            f'address = "{self.address}"\nreferee = "{REFEREE}"\n[smtp]\nhost = "{self.smtp.host}"\n'
            f'port = {self.smtp.port}\nsecurity = "none"\nuser = "{self.login}"\npassword_file = "smtp-password"\n')
        (self.home / "smtp-password").write_text(SMTP_USERS[self.login] + "\n")
        (self.home / "smtp-password").chmod(0o600)

    @property
    def copy(self) -> Path:
        return self.home / "game"

    @property
    def state(self) -> Path:
        return self.home / "state"

    @property
    def config(self) -> Path:
        return self.home / "mail.toml"

    def save(self, raw: bytes) -> Path:
        """Save a mail as the mail client does (``.eml``)."""
        path = self.home / f"mail-{len(self.saved):04d}.eml"
        path.write_bytes(raw)
        self.saved.append(path)
        return path

    def unpack(self, *mails: Path, copy: Path | None = None) -> Result:
        return invoke("mail", "unpack", *mails, "--into", copy or self.copy)

    def view(self, copy: Path | None = None) -> dict[str, Any]:
        """``pbem view --json`` of the copy: what the player knows of the game."""
        result = ok("view", copy or self.copy, "--as", self.name, "--key", self.key, "--json",
                    "--state-dir", self.state)
        return json.loads(result.stdout)

    def view_text(self, copy: Path | None = None) -> Result:
        return ok("view", copy or self.copy, "--as", self.name, "--key", self.key, "--state-dir", self.state)

    def move(self, *choices: str, copy: Path | None = None, turn: int | None = None,
             orders: tuple[str, ...] = ()) -> Path:
        """``pbem move --mail`` (``orders``: ``--auto-pass KIND=MODE`` standing orders): the .eml it writes, ready
        to send. ``turn``, the turn the copy shows (from the last view), names the file."""
        copy = copy or self.copy
        turn = self.view(copy)["turn"] if turn is None else turn
        self.written += 1
        out = self.home / f"move-{turn:06d}-{self.name}-{self.written:04d}.json"
        args: list[object] = ["move", copy, "--as", self.name, "--key", self.key, "--out", out,
                              "--mail", REFEREE, "--from", self.address]
        for choice in choices:
            args += ["--choose", choice]
        for order in orders:
            args += ["--auto-pass", order]
        ok(*args)
        return out.with_suffix(".eml")

    def send(self, *files: Path) -> Result:
        return ok("mail", "send", *files, "--config", self.config)

    def request(self, copy: Path | None = None, game: str | None = None) -> Path:
        """``pbem mail request --mail``: the .eml asking the referee for the turns the copy lacks (``game``: the game
        id, for a copy that holds nothing yet)."""
        self.written += 1
        out = self.home / f"request-{self.name}-{self.written:04d}.json"
        ok("mail", "request", copy or self.copy, "--as", self.name, "--key", self.key, "--out", out,
           "--mail", REFEREE, "--from", self.address, *(("--game", game) if game is not None else ()))
        return out.with_suffix(".eml")


def serve(post: Post) -> None:
    """One run of the referee's loop as cron runs it: ``pbem mail serve --once``, by the command line."""
    os.environ["PBEM_TEST_IMAP_PASSWORD"] = IMAP_PASSWORD
    ok("mail", "serve", "--once", "--config", post.write_config())


def new_mails(post: Post, player: MailPlayer, read: dict[str, int]) -> list[bytes]:
    """The mails delivered to ``player`` since the last call (turn mails and answers alike)."""
    box = post.smtp.post.inboxes[player.address.lower()]
    fresh = box[read.get(player.name, 0):]
    read[player.name] = len(box)
    return list(fresh)

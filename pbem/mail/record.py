"""The serve loop's memory: which mails are done, and which turn each address was last sent.

It lives in the configured state directory::

    mails/HEX.json    one per answered mail: HEX = SHA-256 of its identity
    sources/HEX       one per stored copy read (HEX = SHA-256 of the source key)
    marks.json        per game: the last turn mailed to each player and spectator
    outbox/           mails queued and not yet sent (see pbem.mail.sending)
    .lock             one serve run at a time

A mail's **identity** is its Message-ID with the digest of the pbem files it
carries: a mail delivered twice (or fetched again from another folder) has
the same identity and is answered once; a different mail that reuses a
Message-ID is not mistaken for it. Every file is written atomically, each
record only after the mail's answer is queued.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pbem.referee.storage import atomic_write, dump_json


def _name(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class MailRecord:
    """The state directory of one referee's mail loop."""

    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.mails = directory / "mails"
        self.sources = directory / "sources"
        self.marks_file = directory / "marks.json"
        self.outbox = directory / "outbox"
        self.lock = directory / ".lock"

    def create(self) -> None:
        for path in (self.dir, self.mails, self.sources, self.outbox):
            path.mkdir(parents=True, exist_ok=True)

    def has_source(self, source: str) -> bool:
        return (self.sources / _name(source)).exists()

    def has_mail(self, identity: str) -> bool:
        return (self.mails / f"{_name(identity)}.json").exists()

    def add_mail(self, identity: str, entry: dict[str, Any]) -> None:
        atomic_write(self.mails / f"{_name(identity)}.json", dump_json({"identity": identity, **entry}))

    def add_source(self, source: str, identity: str) -> None:
        atomic_write(self.sources / _name(source), (identity + "\n").encode("utf-8"))

    def marks(self) -> dict[str, Any]:
        try:
            return json.loads(self.marks_file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}

    def save_marks(self, marks: dict[str, Any]) -> None:
        atomic_write(self.marks_file, dump_json(marks))

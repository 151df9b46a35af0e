"""The serve loop's memory: which mails are done, and which turn each address was last sent.

It lives in the configured state directory::

    mails/HEX.json    one per answered mail: HEX = SHA-256 of its identity
    sources/HEX       one per stored copy read (HEX = SHA-256 of the source key)
    marks.json        per game: the last turn mailed to each player and spectator, and the
                      last seat record announced for each seat
    reminders/HEX.json  one per reminder mailed (HEX = SHA-256 of its identity)
    addresses.json    per game and seat: the address of a new seat holder, by key fingerprint
                      (pbem takeover --address)
    outbox/           mails queued and not yet sent (see pbem.mail.sending)
    .lock             one serve run at a time

A mail's **identity** is its Message-ID with the digest of the pbem files it
carries: a mail delivered twice (or fetched again from another folder) has
the same identity and is answered once; a different mail that reuses a
Message-ID is not mistaken for it. Every file is written atomically, each
record only after the mail's answer is queued.

A reminder's identity is its game, player, decision (kind, ``since``,
deadline) and lead time (``4h``): it is queued under a name made from that
identity, then recorded, so a run that dies in between queues the same
file again rather than a second mail, and each reminder is mailed once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from pbem.digests import sha256_hex
from pbem.referee.errors import LockBusy
from pbem.referee.lock import locked
from pbem.referee.storage import atomic_write, dump_json


def _name(key: str) -> str:
    return sha256_hex(key.encode("utf-8"))


class MailRecord:
    """The state directory of one referee's mail loop."""

    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.mails = directory / "mails"
        self.sources = directory / "sources"
        self.marks_file = directory / "marks.json"
        self.reminders = directory / "reminders"
        self.addresses_file = directory / "addresses.json"
        self.outbox = directory / "outbox"
        self.lock = directory / ".lock"

    def create(self) -> None:
        for path in (self.dir, self.mails, self.sources, self.reminders, self.outbox):
            path.mkdir(parents=True, exist_ok=True)

    def has_reminder(self, identity: str) -> bool:
        return (self.reminders / f"{_name(identity)}.json").exists()

    def add_reminder(self, identity: str, entry: dict[str, Any]) -> None:
        atomic_write(self.reminders / f"{_name(identity)}.json", dump_json({"identity": identity, **entry}))

    def address(self, game_id: str, player: str, fingerprint: str) -> str | None:
        """The address recorded for the key ``fingerprint`` holding ``player``'s seat, if any."""
        return self._addresses().get(game_id, {}).get(player, {}).get(fingerprint)

    def addresses_of(self, game_ids: Iterable[str]) -> list[str]:
        """Every address recorded for a holder of a seat of these games (the record read once)."""
        recorded = self._addresses()
        return [address for game_id in game_ids for by_key in recorded.get(game_id, {}).values()
                for address in by_key.values()]

    def set_address(self, game_id: str, player: str, fingerprint: str, address: str) -> None:
        """Record where the holder of ``player``'s seat with key ``fingerprint`` gets mail."""
        addresses = self._addresses()
        addresses.setdefault(game_id, {}).setdefault(player, {})[fingerprint] = address
        atomic_write(self.addresses_file, dump_json(addresses))

    def _addresses(self) -> dict[str, Any]:
        try:
            return json.loads(self.addresses_file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold the state directory's lock: one run at a time (``serve``, or ``tick --config``)."""
        with ExitStack() as stack:
            try:
                stack.enter_context(locked(self.lock, wait=0))
            except LockBusy:
                raise LockBusy(f"{self.dir}: another `pbem mail serve` is running with this state directory "
                               "(or a `pbem tick --config`)") from None
            yield

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

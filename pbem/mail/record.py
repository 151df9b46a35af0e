"""The serve loop's memory: which mails are done, and which turn each address was last sent.

It lives in the configured state directory::

    mails/HEX.json    one per answered mail: HEX = SHA-256 of its identity
    sources/HEX       one per stored copy read (HEX = SHA-256 of the source key)
    marks.json        per game: the last turn mailed to each player and spectator, and the
                      last seat record announced for each seat
    reminders/HEX.json  one per reminder mailed (HEX = SHA-256 of its identity)
    addresses.json    per game and seat: the address of a new seat holder, by key fingerprint
                      (pbem takeover --address)
    set-aside/HEX.json  one per stored copy that could not be handled (HEX = SHA-256 of the source
                      key), with the reason: kept for a next run (its game busy or damaged) or, once
                      ``final``, recorded as read and never read again
    answers/HEX.json  per address answered (HEX = SHA-256 of the address in lower case): when it was
                      answered in the last day, for the limit of answers an address gets
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

**Answers are limited per address** (:data:`ANSWER_LIMITS`, counted over the
runs in ``answers/``): a robot that answers every mail and ignores RFC 3834,
or a flood of mails that forge a player's From, gets a few answers an hour,
not one per mail. An answer that reports a file applied is sent whatever
the count (only a fresh move of a seat's key applies, one per step of the
game), and counts.

**A mail whose game is busy or damaged** waits for a next run, at most
:data:`RETRY_RUNS` runs or :data:`RETRY_TIME` (whichever comes first), and
is then set aside for good with its reason, so that no mail is retried for
ever.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from pbem.digests import sha256_hex
from pbem.durable import remove_temp_files
from pbem.referee import formats
from pbem.referee.clock import format_time, read_recorded
from pbem.referee.errors import LockBusy
from pbem.referee.lock import DEFAULT_WAIT, locked
from pbem.referee.storage import atomic_write, dump_json

#: the answers one address gets at most in each window of time (answers reporting a file applied are sent
#: above it, and count): a player needs one answer per mail and rarely writes more than a few an hour; a
#: robot that answers every answer gets five an hour and twenty a day at most, and so does the victim of
#: mails that forge a From address
ANSWER_LIMITS: tuple[tuple[timedelta, int], ...] = ((timedelta(hours=1), 5), (timedelta(days=1), 20))
#: a mail whose game is busy (another referee holds its lock) or damaged is tried again in at most this
#: many runs ...
RETRY_RUNS = 12
#: ... and for at most this long after the first run that held it back; then it is set aside for good
RETRY_TIME = timedelta(hours=1)


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
        self.set_aside_dir = directory / "set-aside"
        self.answers = directory / "answers"
        self.outbox = directory / "outbox"
        self.lock = directory / ".lock"

    def create(self) -> None:
        for path in (self.dir, self.mails, self.sources, self.reminders, self.outbox, self.set_aside_dir,
                     self.answers):
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

    def set_address(self, game_id: str, player: str, fingerprint: str, address: str,
                    wait: float = DEFAULT_WAIT) -> None:
        """Record where the holder of ``player``'s seat with key ``fingerprint`` gets mail (under the state
        directory's lock, which a serve run holds while it reads and cleans the directory)."""
        with locked(self.lock, wait=wait):
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
        """Hold the state directory's lock: one run at a time (``serve``, or ``tick --config``). A write
        that a killed run left half done (its temporary file) is removed first."""
        with ExitStack() as stack:
            try:
                stack.enter_context(locked(self.lock, wait=0))
            except LockBusy:
                raise LockBusy(f"{self.dir}: another `pbem mail serve` is running with this state directory "
                               "(or a `pbem tick --config`)") from None
            remove_temp_files(self.dir)
            yield

    # --- mails set aside -------------------------------------------------------------------------

    def _set_aside_path(self, source: str) -> Path:
        return self.set_aside_dir / f"{_name(source)}.json"

    def set_aside(self, source: str) -> dict[str, Any] | None:
        """The set-aside record of the stored copy ``source``, if any (``pbem-mail-set-aside/1``)."""
        try:
            return json.loads(self._set_aside_path(source).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None

    def save_set_aside(self, doc: dict[str, Any]) -> Path:
        """Write a set-aside record (its ``source`` names it); it must be of its schema."""
        problem = formats.format_problem(doc, formats.MAIL_SET_ASIDE)
        assert problem is None, problem  # the record is a promise to whoever reads the state directory
        path = self._set_aside_path(doc["source"])
        atomic_write(path, dump_json(doc))
        return path

    def drop_set_aside(self, source: str) -> None:
        """The copy ``source`` was handled after all (its game is free again): its record goes."""
        self._set_aside_path(source).unlink(missing_ok=True)

    # --- the limit of answers --------------------------------------------------------------------

    def _answers_path(self, address: str) -> Path:
        return self.answers / f"{_name(address.lower())}.json"

    def answered(self, address: str, now: datetime) -> list[datetime]:
        """When ``address`` was answered in the longest window of :data:`ANSWER_LIMITS` before ``now``."""
        try:
            doc = json.loads(self._answers_path(address).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        oldest = now - max(window for window, _ in ANSWER_LIMITS)
        return [moment for moment in map(read_recorded, doc["times"]) if oldest < moment <= now]

    def may_answer(self, address: str, now: datetime) -> bool:
        """Whether ``address`` may get one more answer now (:data:`ANSWER_LIMITS`)."""
        times = self.answered(address, now)
        return all(sum(1 for moment in times if moment > now - window) < limit for window, limit in ANSWER_LIMITS)

    def count_answer(self, address: str, now: datetime) -> None:
        """Record that ``address`` was answered at ``now`` (the times outside every window are dropped)."""
        times = [*self.answered(address, now), now]
        doc = {"format": formats.MAIL_ANSWERS, "address": address.lower(), "times": [format_time(t) for t in times]}
        atomic_write(self._answers_path(address), dump_json(doc))

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

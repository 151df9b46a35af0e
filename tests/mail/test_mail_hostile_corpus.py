"""A generated corpus of hostile mails, interleaved with honest moves: no mail stops the referee's loop.

Every kind of :mod:`helpers_hostile_mail` (headers, MIME structure, nesting, encodings, sizes, automatic mails,
forged From addresses, strangers naming a seat), and a robot at a seat's address that answers every mail
it gets and ignores RFC 3834, arrive in the referee's folder of a real IMAP server (Dovecot) between the
players' honest moves, which travel through a real SMTP server (aiosmtpd). The referee runs
``serve_once`` round after round, its clock moving on. Then:

* every run ended (nothing stopped the loop) and every mail was read and recorded, none twice;
* every honest move was applied exactly once and answered APPLIED, in its thread;
* nobody was mailed because of a stranger: strangers got nothing, and no mail names a stranger's mail;
  the records say that no mail from an address no game knows was answered, and the answers each seat got
  are exactly those the records say were sent;
* no address got more answers in an hour or a day than the limit (answers of a file applied aside);
* no mail the referee sent has a line an SMTP server refuses, and none was refused;
* the referee failed on no mail (``failed``): what it set aside, it set aside as unreadable, with a
  record of its schema;
* each game directory verifies.

A few hundred mails in CI (some 15 s); more with ``--mails N``, for example
``python -m pytest -q tests/mail/test_mail_hostile_corpus.py --mails 10000``.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from helpers_hostile_mail import KINDS, Scene, hostile_mail, kind_order
from helpers_mail import ADDRESSES, IMAP_PASSWORD, REFEREE, Post, make_post
from helpers_referee import Table, make_keys, make_table

from pbem.crypto.canonical import parse_json_strict
from pbem.crypto.keys import PrivateKey
from pbem.mail.player import file_mail
from pbem.mail.record import ANSWER_LIMITS
from pbem.mail.serve import serve_once
from pbem.referee import formats, make_move, read_view, status, verify

START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
#: the referee's clock moves on this much between two runs
RUN_EVERY = timedelta(minutes=7)
STRANGERS = [f"stranger{i}@elsewhere.test" for i in range(5)]
PLAYERS = ("alice", "bob")
ROBOT = ADDRESSES["bob"]  # bob's mail system answers every mail, without a word of RFC 3834


@dataclass
class Honest:
    """An honest move mailed by its player, and what must become of it."""

    message_id: str
    data: bytes
    game: Path


@dataclass
class Corpus:
    post: Post
    rng: random.Random
    tables: list[Table] = field(default_factory=list)
    honest: list[Honest] = field(default_factory=list)
    #: the Message-IDs of the mails whose From is a stranger's
    strangers_mails: set[str] = field(default_factory=set)
    kinds_sent: dict[str, int] = field(default_factory=dict)
    robot_read: int = 0
    robot_replies: int = 0
    #: (the referee's clock, address, answers delivered to it in that run that applied nothing)
    unapplied_answers: list[tuple[datetime, str, int]] = field(default_factory=list)
    forger: dict[str, PrivateKey] = field(default_factory=dict)

    def scene(self) -> Scene:
        scene = Scene(referee=REFEREE, seats={p: ADDRESSES[p] for p in PLAYERS}, strangers=STRANGERS)
        if not self.forger:  # a stranger's keys, named after the seats
            self.forger.update(make_keys(self.post.tmp / "forger", list(PLAYERS))[0])
        for table in self.tables[-2:]:
            current = status(table.dir)
            scene.game_ids.append(current.gamefile.game_id)
            scene.public_files += [p.read_bytes() for p in sorted((table.dir / "turns").glob("*.json"))[-3:]]
            scene.public_files += [p.read_bytes() for p in sorted((table.dir / "moves").glob("*.json"))[-3:]]
            for decision in current.awaiting:
                view = read_view(table.dir, decision["player"], table.keys[decision["player"]])
                scene.forged_moves.append(make_move(view, self.forger[decision["player"]], ["1"]))
        if not scene.forged_moves:
            scene.forged_moves.append(b'{"format": "pbem-move/1"}')
        return scene

    def new_game(self) -> None:
        """A new game of the same referee (its key), served from now on beside the others."""
        base = self.post.tmp / f"game{len(self.tables)}"
        table = make_table(base, PLAYERS, seed=None, scenario="long",
                           keys=(self.post.table.keys, self.post.table.key_files))
        self.tables.append(table)
        self.post.extra_games.append(Post(tmp=base, table=table, smtp=self.post.smtp, mailbox_kind="imap",
                                          addresses={p: ADDRESSES[p] for p in PLAYERS}))

    def send_honest_moves(self) -> None:
        for table in self.tables:
            current = status(table.dir)
            if current.over or not any(a["player"] in PLAYERS for a in current.awaiting):
                continue
            for decision in current.awaiting:
                if self.rng.random() < 0.6:
                    player = decision["player"]
                    data = table.move(player, "1")
                    turn = parse_json_strict(data)["turn"]
                    message = file_mail(data, f"move-{turn:06d}-{player}.json", REFEREE, ADDRESSES[player])
                    self.post.mail_to_referee(message)
                    self.honest.append(Honest(str(message["Message-ID"]), data, table.dir))

    def send_hostile(self, kinds: list[str]) -> None:
        """Deliver hostile mails to the referee's folder, as a mail server that takes anything would."""
        scene = self.scene()
        assert self.post.imap is not None and self.post.folder is not None
        imap = self.post.imap.connect()  # one session for the batch: a login per mail costs more than the mail
        try:
            for kind in kinds:
                raw, sender = hostile_mail(self.rng, scene, kind)
                self.kinds_sent[kind] = self.kinds_sent.get(kind, 0) + 1
                if sender in STRANGERS:
                    found = re.search(rb"Message-ID: (<[^>\r\n]*>)", raw)
                    if found:
                        self.strangers_mails.add(found.group(1).decode())
                answer, data = imap.append(self.post.folder, None, None, raw)
                assert answer == "OK", (kind, data)
        finally:
            imap.logout()

    def robot_answers(self) -> None:
        """bob's vacation robot: a reply to every mail that reached bob since it last looked."""
        inbox = self.post.inbox(ROBOT)
        for received in inbox[self.robot_read:]:
            reply = EmailMessage()
            reply["From"] = ROBOT
            reply["To"] = REFEREE
            reply["Subject"] = "Re: " + str(received["Subject"] or "")
            reply["Message-ID"] = make_msgid(domain="pbem.test")
            if received["Message-ID"]:
                reply["In-Reply-To"] = str(received["Message-ID"])
            reply.set_content("I am on vacation and read no mail until Monday.")
            self.post.mail_to_referee(reply)
            self.robot_replies += 1
        self.robot_read = len(inbox)


def delivered(post: Post) -> dict[str, list[bytes]]:
    return {address: list(raws) for address, raws in post.smtp.post.inboxes.items()}


def test_no_hostile_mail_stops_the_loop_and_every_honest_move_applies_once(tmp_path, smtp_server, dovecot,
                                                                            monkeypatch, mail_count):
    count = mail_count(300)
    monkeypatch.setattr("pbem.mail.incoming.MAIL_MAX_BYTES", 2 << 20)  # "too large" costs little then
    monkeypatch.setenv("PBEM_TEST_IMAP_PASSWORD", IMAP_PASSWORD)
    table = make_table(tmp_path, PLAYERS, seed=None, scenario="long")
    post = make_post(tmp_path, smtp_server, "imap", imap=dovecot, table=table)
    corpus = Corpus(post, random.Random(20250301))
    corpus.tables.append(table)
    now = START
    order = kind_order(corpus.rng, count)
    sent = 0
    runs = 0
    while sent < count or runs < 3:
        batch = min(count - sent, corpus.rng.randint(5, 15))
        corpus.send_hostile(order[sent:sent + batch])
        sent += batch
        corpus.send_honest_moves()
        corpus.robot_answers()
        before = {a: len(r) for a, r in delivered(post).items()}
        report = serve_once(post.config(), post.referee_key, wait=0, now=now)
        runs += 1
        assert report.flush.error is None and report.flush.failed == [], report.flush
        for address, raws in delivered(post).items():
            fresh = [message_from_bytes(raw, policy=policy.default) for raw in raws[before.get(address, 0):]]
            unapplied = [m for m in fresh if m["Auto-Submitted"] == "auto-replied" and "APPLIED" not in _text(m)]
            if unapplied:
                corpus.unapplied_answers.append((now, address, len(unapplied)))
        if all(status(t.dir).over for t in corpus.tables[-1:]):
            corpus.new_game()
        now += RUN_EVERY
    final = serve_once(post.config(), post.referee_key, wait=0, now=now)
    assert final.mails == []  # every mail was read and recorded in the runs before

    state = tmp_path / "mail-state"
    mails = [message_from_bytes(raw, policy=policy.default) for raws in delivered(post).values() for raw in raws]

    # every honest move applied exactly once, and answered APPLIED in its thread
    for honest in corpus.honest:
        stored = [p for p in (honest.game / "moves").glob("*.json") if p.read_bytes() == honest.data]
        assert len(stored) == 1, honest.message_id
        replies = [m for m in mails if m["In-Reply-To"] == honest.message_id]
        assert len(replies) == 1 and "APPLIED" in _text(replies[0]), honest.message_id
    moves = sum(len(list((t.dir / "moves").glob("*.json"))) for t in corpus.tables)
    assert moves == len(corpus.honest)
    for table in corpus.tables:
        assert verify(table.dir).turns == status(table.dir).turn + 1

    # nobody mailed because of a stranger
    assert not any(post.smtp.post.inboxes.get(stranger) for stranger in STRANGERS)
    for message in mails:
        named = f"{message['In-Reply-To'] or ''} {message['References'] or ''}"
        assert not any(mid in named for mid in corpus.strangers_mails), message["Subject"]
    known = {address.lower() for address in ADDRESSES.values()}
    records = [json.loads(p.read_text()) for p in sorted((state / "mails").glob("*.json"))]
    aside = [json.loads(p.read_text()) for p in sorted((state / "set-aside").glob("*.json"))]
    for entry in records + aside:
        if (entry["from"] or "").lower() not in known:
            assert entry["answered"] == [], entry
    for player in PLAYERS:
        address = ADDRESSES[player]
        told = sum(entry["answered"].count(address) for entry in records + aside)
        got = sum(1 for raw in post.smtp.post.inboxes[address]
                  if message_from_bytes(raw, policy=policy.default)["Auto-Submitted"] == "auto-replied")
        assert told == got, player

    # a few answers an hour at most, per address (answers of a file applied aside)
    for window, limit in ANSWER_LIMITS:
        for moment, address, _ in corpus.unapplied_answers:
            within = sum(n for t, a, n in corpus.unapplied_answers if a == address and moment - window < t <= moment)
            assert within <= limit, (address, moment, window)

    # no line an SMTP server refuses; none refused
    for raws in delivered(post).values():
        for raw in raws:
            assert max(len(line) for line in raw.split(b"\r\n")) <= 998
    assert not list((state / "outbox" / "failed").glob("*"))

    # what was set aside was unreadable, never a failure of the referee's; every record of its schema
    assert aside, "the corpus holds mails that cannot be read"
    for doc in aside:
        assert formats.format_problem(doc, formats.MAIL_SET_ASIDE) is None
        assert doc["reason"] == "unreadable" and doc["final"] is True, doc
    assert count < len(KINDS) or set(corpus.kinds_sent) == set(KINDS)
    assert corpus.robot_replies > 0
    print(f"\n{sent} hostile mails of {len(corpus.kinds_sent)} kinds (and the robot's {corpus.robot_replies} "
          f"replies), {len(corpus.honest)} honest moves in {len(corpus.tables)} games, {runs} runs; "
          f"{len(aside)} mails set aside")


def _text(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    return part.get_content() if part is not None else ""

"""The referee's mail loop: read new mails, submit their files, answer each, mail the next turns.

One run (``pbem mail serve --once``, from cron or a systemd timer) does:

1. take the state directory's lock (one run at a time);
2. read every mail not yet done from the mailbox, in the mailbox's order,
   and find its move and join files (:mod:`pbem.mail.extract`);
3. for each mail: submit each file to the game it names (the referee's own
   checks decide: applied, already applied, or refused with a reason and an
   exit code); queue the **answer**; record the mail as done; flag it;
4. for each game: **tick** (:mod:`pbem.mail.reminders`): answer the
   decisions past their deadline with the game's default action, and mail
   each reminder due once;
5. for each game: queue a **turn mail** to every player whose decision
   opened since their last mail (with the public turn file and their sealed
   view), an invitation to each player yet to join, the result to everyone
   at the end, a digest to each spectator whose schedule says so
   (:mod:`pbem.mail.spectators`), and a turn mail to the
   new holder of a seat handed over (``pbem takeover``); a turn mail to the
   address an answer of this run goes to alone is **one mail with it**: the
   answer's text, then the turn's, and one set of attachments (the answer
   queued in step 3 is replaced by it);
6. send the outbox.

**How a mail is matched to a game and a player:** by the signed file
inside, never by the mail's headers. The file names its game (``game_id``)
and its player, and the referee checks that player's signature. The From
address is only where the answer goes. When it is not the address
configured for the file's seat (a forwarded copy, a second address, or
somebody else), the file is still judged on its signature alone, the answer
says so, and a copy goes to the seat's address, so that a player always
learns what was done in their name. A From address that no served game
knows is answered only when a file of its mail was applied
(:func:`known_addresses`): the referee must not mail whatever address a
spammer writes.

Mails that are themselves automatic (``Auto-Submitted``, bounces, bulk
mail, the referee's own) are processed but never answered (RFC 3834), so
that two robots cannot mail each other for ever; nor is a mail that only
replies to an answer, and an address gets a few answers an hour at most
(:data:`~pbem.mail.record.ANSWER_LIMITS`), so that neither a robot that
ignores RFC 3834 nor a flood of forged mails makes the referee mail anyone
without end. A stranger's mail mails nobody: neither the stranger nor a
seat its files name, unless one of its files was applied.

**No mail stops the loop.** Each mail is handled on its own. One that
cannot be read (:class:`~pbem.mail.incoming.UnreadableMail`), or on which
the referee fails, is recorded as read with its reason in the state
directory (``set-aside/``), answered when it came from an address a game
knows, and never read again; a mail whose game is busy (another referee
holds its lock) or damaged waits for a next run, a bounded number of runs
(:data:`~pbem.mail.record.RETRY_RUNS`, :data:`~pbem.mail.record.RETRY_TIME`),
and is then set aside too, with an answer saying what was not submitted. A
game busy or damaged holds up neither the other mails nor the other games.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage, Message
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.digests import sha256_hex
from pbem.mail import catchup, compose
from pbem.mail.config import MailConfig
from pbem.mail.consents import ROLLED_BACK, mailed_through, take_consent
from pbem.mail.errors import MailConfigError
from pbem.mail.extract import Extracted, PbemFile, clean, extract
from pbem.mail.incoming import (
    UnreadableMail,
    is_automatic,
    message_id,
    read_headers,
    read_mail,
    replies_to_an_answer,
    sender,
    thread_of,
)
from pbem.mail.keymail import is_key, judge_key
from pbem.mail.mailboxes import Incoming, MailSource, open_mailbox
from pbem.mail.record import RETRY_RUNS, RETRY_TIME, MailRecord
from pbem.mail.reminders import tick_game
from pbem.mail.requests import pending_of, record_answered, take_request
from pbem.mail.sending import FlushReport, Outbox, QueuedAnswers
from pbem.mail.served import GAME_TROUBLE, ServedGame, read_served_games, seat_address
from pbem.mail.spectators import SCHEDULES, asked_schedule, is_due, record_sent, schedule_of, set_schedule
from pbem.referee import formats, public_log, status, submit
from pbem.referee.clock import format_time, read_recorded, referee_now
from pbem.referee.errors import AlreadyApplied, ClockWentBack, LockBusy, Refusal, StaleMove
from pbem.referee.gamefile import GameFile
from pbem.referee.head import HEAD_FILE, Anchors, Head
from pbem.referee.layout import GameDir, read_file
from pbem.referee.lock import DEFAULT_WAIT
from pbem.referee.public import Status, result_text

if TYPE_CHECKING:  # the key is loaded by the command line and handed to the referee as it is
    from pbem.crypto.keys import PrivateKey
    from pbem.referee.tick import TickReport

Progress = Callable[[str], None]



@dataclass
class ServeReport:
    """What one run did: one line per mail read, per mail queued, and the sending."""

    mails: list[str] = field(default_factory=list)
    #: mails kept for a next run (a game busy or damaged), games not ticked or mailed this run: with the reason
    held: list[str] = field(default_factory=list)
    #: mails set aside for good this run (never read again), with the reason and the name of their record
    set_aside: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    flush: FlushReport = field(default_factory=FlushReport)
    #: some game was not stepped because the referee's clock is earlier than its latest turn's time: its mails
    #: wait until the clock reaches it (or the host mends the clock)
    clock_behind: bool = False


@dataclass
class _Mail:
    incoming: Incoming
    message: Message
    extracted: Extracted
    identity: str
    sender: str

    @property
    def head(self) -> str:
        return f"mail {message_id(self.message) or self.incoming.source} from {self.sender or 'an unknown sender'}"


def serve_once(config: MailConfig, referee_key: PrivateKey, progress: Progress | None = None,
               wait: float = DEFAULT_WAIT, now: datetime | None = None) -> ServeReport:
    """One run of the loop (see the module docstring). ``progress`` gets one line per thing done;
    ``now`` is the referee's clock (:mod:`pbem.referee.clock`)."""
    config.require("address", "state", "mailbox", "smtp", "games")
    assert config.state is not None and config.mailbox is not None and config.smtp is not None
    tell = progress or (lambda line: None)
    record = MailRecord(config.state)
    record.create()
    with record.held():
        return _run(config, referee_key, record, tell, wait, now)


def _run(config: MailConfig, key: PrivateKey, record: MailRecord, tell: Progress, wait: float,
         now: datetime | None) -> ServeReport:
    games, unread = read_served_games(config)
    outbox = Outbox(record.outbox)
    report = ServeReport()
    for error in unread:
        report.held.append(f"not served this run: {error}")
    run = _Round(config, games, bool(unread), key, record, outbox, report, wait, now)
    with open_mailbox(config.mailbox) as box:  # type: ignore[arg-type]
        for incoming in box.incoming(record.has_source):
            line = run.handle(incoming, box)
            report.mails.append(line)
            tell(line)
    for game in games.values():
        gid = game.gamefile.game_id
        lines: list[str] = []
        if gid in run.trouble:
            report.held.append(f"game {gid}: not ticked this run: {run.trouble[gid][1]}")
        else:
            try:
                # after the mailbox: a move that arrived before its deadline counts
                lines += tick_game(game, config, key, record, outbox, now, wait)[1]
            except ClockWentBack as error:
                report.clock_behind = True
                report.held.append(f"game {gid}: not ticked this run: {error}")
            except GAME_TROUBLE as error:
                report.held.append(f"game {gid}: not ticked this run: {error}")
            except Exception as error:  # one game's fault stops neither the others nor the loop
                report.held.append(f"game {gid}: not ticked this run: the referee failed: {_fault(error)}")
        try:
            lines += notify(game, config, record, outbox, key, now, run.answers)
        except Exception as error:  # as above: the next run tries again
            report.held.append(f"game {gid}: no turn mails this run: {_fault(error)}")
        for line in lines:
            report.notices.append(line)
            tell(line)
    report.flush = outbox.flush(config.smtp)  # type: ignore[arg-type]
    for to in report.flush.sent:
        tell(f"sent a mail to {to}")
    for path, why in report.flush.failed:
        tell(f"refused for good by the SMTP server, moved to {path}: {why}")
    if report.flush.error:
        tell(f"{report.flush.kept} mails stay queued for the next run: {report.flush.error}")
    return report


def _fault(error: BaseException) -> str:
    """An error as the referee's host reads it: its kind and its message, valid Unicode, bounded."""
    return clean(f"{type(error).__name__}: {error}")


@dataclass
class _Plan:
    """What handling one mail comes to, written only once all of it is known (:meth:`_Round.carry_out`)."""

    incoming: Incoming
    line: str
    #: the mail is done: its source (and its identity, with ``entry``) recorded, never read again
    done: bool = True
    identity: str | None = None
    entry: dict[str, Any] | None = None
    answer: EmailMessage | None = None
    answered: list[str] = field(default_factory=list)
    #: the games the answer reports on, when it goes to one address alone: a turn mail of one of them to that
    #: address in this run is one mail with it
    merges: tuple[str, ...] = ()
    #: its set-aside record to write, or to drop (handled after all, its game free again)
    set_aside: dict[str, Any] | None = None
    drop_set_aside: bool = False
    #: a line for the run's report (held, or set aside for good)
    held: str | None = None
    put_aside: str | None = None


@dataclass
class _Verdict:
    """What the referee made of each file of one mail."""

    text: compose.AnswerText
    touched: dict[str, ServedGame] = field(default_factory=dict)
    #: (player, address) of each seat a file names, when that address is not the mail's sender
    seats: list[tuple[str, str]] = field(default_factory=list)
    #: (reason, message) of the games that held files back: busy or damaged
    held: list[tuple[str, str]] = field(default_factory=list)
    #: the referee's failures on files, as the host reads them
    failed: list[str] = field(default_factory=list)

    @property
    def applied(self) -> bool:
        return any(o.status == "applied" for o in self.text.outcomes)


class _Round:
    """One run over the mailbox: what its mails share (the games, the record, the games in trouble)."""

    def __init__(self, config: MailConfig, games: dict[str, ServedGame], some_unread: bool, key: PrivateKey,
                 record: MailRecord, outbox: Outbox, report: ServeReport, wait: float, now: datetime | None) -> None:
        self.config, self.games, self.some_unread, self.key = config, games, some_unread, key
        self.record, self.outbox, self.report, self.wait, self.now = record, outbox, report, wait, now
        self.moment = referee_now(now)
        #: games busy or damaged this run, by game id: (reason, message); their other mails wait at once
        self.trouble: dict[str, tuple[str, str]] = {}
        #: the referee's anchors: every step of the loop is anchored in its state directory
        self.anchors = Anchors(config.state)  # type: ignore[arg-type]
        self.known = known_addresses(games, record, config)
        #: the answers of this run that a turn mail to the same address may take in (:meth:`QueuedAnswers.take`)
        self.answers = QueuedAnswers()

    def handle(self, incoming: Incoming, box: MailSource) -> str:
        """Handle one stored mail, whatever it holds; one line for the report. Only the state directory
        and the mail servers failing stop it (they would fail for every mail)."""
        try:
            message = read_mail(incoming.raw)
        except UnreadableMail as error:
            plan = self._unreadable(incoming, str(error))
        else:
            try:
                plan = self._plan(incoming, message)
            except Exception as error:  # no mail stops the loop: it is set aside instead
                plan = self._failed(incoming, message, error)
        self.carry_out(plan, box)
        return plan.line

    def carry_out(self, plan: _Plan, box: MailSource) -> None:
        """Write what handling a mail came to: its answer queued first, then what records it (a run that
        dies in between reads the mail again and finds its files already in the game)."""
        if plan.answer is not None:
            queued = self.outbox.queue(plan.answer)
            if plan.merges:
                self.answers.add(plan.answered[0], plan.merges, queued, plan.answer)
            for address in plan.answered:
                self.record.count_answer(address, self.moment)
        if plan.drop_set_aside:
            self.record.drop_set_aside(plan.incoming.source)
        if plan.set_aside is not None:
            path = self.record.save_set_aside(plan.set_aside)
            if plan.put_aside is not None:
                self.report.set_aside.append(f"{plan.put_aside} (record: {path.relative_to(self.record.dir)})")
        if plan.held is not None:
            self.report.held.append(plan.held)
        if plan.done:
            if plan.identity is not None and plan.entry is not None:
                self.record.add_mail(plan.identity, plan.entry)
            self.record.add_source(plan.incoming.source, plan.identity or "")
            box.mark_done(plan.incoming)

    # --- a mail that can be read ------------------------------------------------------------------

    def _plan(self, incoming: Incoming, message: Message) -> _Plan:
        extracted = extract(message)
        identity = f"{message_id(message) or 'sha256:' + sha256_hex(incoming.raw)} {extracted.digest}"
        mail = _Mail(incoming, message, extracted, identity, sender(message))
        if self.record.has_mail(identity):
            return _Plan(incoming, f"{mail.head}: a copy of a mail answered before; not answered again",
                         identity=identity)
        verdict = self._judge(mail)
        before = self.record.set_aside(incoming.source)
        final: dict[str, Any] | None = None
        if verdict.held:
            final = self._held_record(mail, verdict, before)
            if not final["final"]:
                why = "; ".join(message for _, message in verdict.held)
                line = f"{mail.head}: kept for the next run ({final['runs']} of at most {RETRY_RUNS}): {why}"
                return _Plan(incoming, line, done=False, set_aside=final, held=line)
            self._not_submitted(verdict, final)
        elif verdict.failed:
            final = self._record_doc(mail.incoming, mail.message, mail.sender, "failed", "; ".join(verdict.failed),
                                     before)
        answer, answered, unanswered = self._answer(mail, verdict)
        summary = "; ".join(f"{o.what}: {o.status}" + (f" ({o.reason})" if o.reason else "")
                            for o in verdict.text.outcomes)
        summary = summary or ("HTML only, no file" if verdict.text.html_only else "no pbem file")
        line = f"{mail.head}: {summary}" + (f"; answered to {', '.join(answered)}" if answered
                                            else f"; not answered ({unanswered})")
        merges = tuple(verdict.touched) if answer is not None and len(answered) == 1 and not answer["Cc"] else ()
        plan = _Plan(incoming, line, identity=identity, answer=answer, answered=answered, merges=merges, entry={
            "source": incoming.source,
            "from": mail.sender,
            "files": [f.digest for f in extracted.files],
            "outcomes": [{"file": o.file, "status": o.status, "exit_code": o.exit_code} for o in verdict.text.outcomes],
            "answered": answered,
        })
        if final is not None:
            final["answered"] = answered
            plan.set_aside, plan.put_aside = final, f"{mail.head}: set aside, never read again: {final['message']}"
            plan.line = f"{line}; set aside ({final['reason']})"
        elif before is not None:
            plan.drop_set_aside = True
        return plan

    def _judge(self, mail: _Mail) -> _Verdict:
        """Submit each file of ``mail`` to the game it names, unless that game is in trouble this run."""
        text = compose.AnswerText(ignored=mail.extracted.ignored, problems=mail.extracted.problems,
                                  html_only=mail.extracted.html_only)
        verdict = _Verdict(text)
        if not mail.extracted.files:
            self._schedule(mail, text)
        for file in mail.extracted.files:
            if is_key(file):
                judged = judge_key(file, self.games, self.record, mail.sender)
                text.outcomes.append(judged.outcome)
                if judged.game is not None:
                    verdict.touched[judged.game.gamefile.game_id] = judged.game
                continue
            game = self.games.get(file.game_id or "")
            if game is None:
                if self.some_unread:  # the file may be for the game whose game.toml cannot be read now
                    verdict.held.append(("game-damaged", "a configured game cannot be read this run"))
                    text.outcomes.append(compose.Outcome(file.name, file.describe(), "held",
                                                         "not submitted: its game cannot be read now"))
                else:
                    text.outcomes.append(compose.Outcome(file.name, file.describe(), "not-here",
                                                         _not_here(file, self.games)))
                continue
            gid = game.gamefile.game_id
            if gid not in self.trouble:
                try:
                    if file.format == formats.REQUEST:
                        outcome = take_request(game, file, self.record)
                    elif file.format == formats.UNDO_CONSENT:
                        outcome = take_consent(game, file, self.record, self.key, self.anchors, self.wait, self.now)
                    else:
                        outcome = _submit(game, file, self.key, self.wait, self.now, self.anchors)
                    seat = seat_address(game, self.record, file.player) if file.player else None
                except LockBusy as error:
                    self.trouble[gid] = ("game-busy", str(error))
                except ClockWentBack as error:
                    self.trouble[gid] = ("clock-behind", str(error))
                    self.report.clock_behind = True
                except GAME_TROUBLE as error:
                    self.trouble[gid] = ("game-damaged", str(error))
                except Exception as error:  # a fault of pbem or of the game on this file
                    verdict.failed.append(f"{file.describe()}: {_fault(error)}")
                    text.outcomes.append(compose.Outcome(
                        file.name, file.describe(), "failed",
                        "the referee failed on this file (a fault of pbem or of the game, not of the file); "
                        "the referee's host has the reason. Nothing was changed by it."))
                    continue
                else:
                    text.outcomes.append(outcome)
                    verdict.touched[gid] = game
                    if seat and seat.lower() != mail.sender.lower() and all(seat != s for _, s in verdict.seats):
                        verdict.seats.append((file.player or "", seat))
                    continue
            reason, why = self.trouble[gid]
            verdict.held.append((reason, f"game {gid}: {why}"))
            waits = "waits for the referee's clock" if reason == "clock-behind" else "is busy or damaged"
            text.outcomes.append(compose.Outcome(file.name, file.describe(), "held",
                                                 f"not submitted: game {gid} {waits} this run"))
        text.statuses = [f"Game {gid}: {_status_line_of(g)}" for gid, g in verdict.touched.items()]
        return verdict

    def _schedule(self, mail: _Mail, text: compose.AnswerText) -> None:
        """A spectator's mail that asks for a schedule of digests (:mod:`pbem.mail.spectators`): set it for
        each game they watch (or the one it names), and say so in the answer."""
        asked = asked_schedule(mail.message, _subject(mail.message))
        if asked is None or not mail.sender:
            return
        schedule, named = asked
        watched = [gid for gid, game in self.games.items()
                   if mail.sender.lower() in (s.lower() for s in game.entry.spectators) and named in (None, gid)]
        if not watched:
            return
        marks = self.record.marks()
        for gid in watched:
            set_schedule(marks, gid, mail.sender, schedule)
        self.record.save_marks(marks)
        for gid in watched:
            text.outcomes.append(compose.Outcome(
                f"digest {schedule}", f"game {gid}", "schedule",
                f"your digests of this game come {SCHEDULES[schedule]} from now on (mail the referee "
                "digest step, digest daily or digest end to change it)."))

    def _held_record(self, mail: _Mail, verdict: _Verdict, before: dict[str, Any] | None) -> dict[str, Any]:
        """The set-aside record of a mail held back once more: ``final`` when its retries are used up."""
        reasons = {r for r, _ in verdict.held}
        reason = reasons.pop() if len(reasons) == 1 else "game-damaged"
        message = "; ".join(dict.fromkeys(m for _, m in verdict.held))
        doc = self._record_doc(mail.incoming, mail.message, mail.sender, reason, message, before)
        waited = self.moment - read_recorded(doc["first"])
        doc["final"] = doc["runs"] >= RETRY_RUNS or waited >= RETRY_TIME
        return doc

    def _not_submitted(self, verdict: _Verdict, doc: dict[str, Any]) -> None:
        """A mail held back for the last time: what each held file's line of the answer says."""
        for outcome in verdict.text.outcomes:
            if outcome.status == "held":
                outcome.message = (
                    f"not submitted: {outcome.message.removeprefix('not submitted: ').removesuffix(' this run')}"
                    f" at each of {doc['runs']} runs since {doc['first']}; the referee's host is told. "
                    "Nothing was changed; send it again later.")

    def _record_doc(self, incoming: Incoming, message: Message | None, who: str, reason: str, why: str,
                    before: dict[str, Any] | None, final: bool = True) -> dict[str, Any]:
        """A ``pbem-mail-set-aside/1`` record (``before``: the one an earlier run wrote, whose count goes on)."""
        return {
            "format": formats.MAIL_SET_ASIDE,
            "source": clean(incoming.source),
            "message_id": message_id(message) if message is not None else None,
            "from": who or None,
            "size": len(incoming.raw),
            "sha256": "sha256:" + sha256_hex(incoming.raw),
            "reason": reason,
            "message": clean(why)[:2000] if len(why) <= 2000 else clean(why[:2000]),
            "first": before["first"] if before else format_time(self.moment),
            "last": format_time(self.moment),
            "runs": (before["runs"] + 1) if before else 1,
            "final": final,
            "answered": [],
        }

    # --- the answer ---------------------------------------------------------------------------------

    def _answer(self, mail: _Mail, verdict: _Verdict) -> tuple[EmailMessage | None, list[str], str]:
        """The answer to ``mail`` (or None), who it goes to, and why it goes to nobody."""
        text = verdict.text
        why = self._unanswerable(mail.message, mail.sender)
        if why is None and not verdict.applied and mail.sender.lower() not in self.known:
            why = "an address no game here knows, and nothing applied"
        if why is None and not mail.extracted.files and replies_to_an_answer(mail.message):
            why = "a reply to the referee's answer, holding no file"
        if why is None and text.outcomes and all(o.status == "requested" for o in text.outcomes):
            why = "requests for turns alone: the turn mail each asks for goes to its seat's address"
        if why is not None:
            return None, [], why
        # an answer that reports a file applied goes whatever the count (only a seat's fresh move applies)
        allowed = (lambda address: True) if verdict.applied else (
            lambda address: self.record.may_answer(address, self.moment))
        to = [mail.sender] if allowed(mail.sender) else []
        cc = [address for _, address in verdict.seats if allowed(address)]
        for player, address in verdict.seats:
            copy = (f"a copy of this answer goes to {address}" if address in cc
                    else f"no copy goes to {address} (its answers for this hour are used up)")
            text.notes.append(
                f"Note: this mail came from {mail.sender}, not from {player}'s address ({address}). The file was "
                f"judged on {player}'s signature alone, as every file is; {copy}, and {player}'s turn mails go "
                "there too.")
        if not to and not cc:
            return None, [], f"the answers to {mail.sender} for this hour are used up"
        body = compose.answer_body(text)
        if to:
            answer = compose.new_message(self.config.address, to, compose.answer_subject(_subject(mail.message)),
                                         body, cc=cc, automatic="auto-replied", thread=thread_of(mail.message))
        else:
            # the seats named by the files still learn what was done in their name, in a mail of the
            # referee's own words: neither the sender's Subject nor a thread of their mail
            answer = compose.new_message(self.config.address, cc, "pbem: a mail from another address, about your seat",
                                         body, automatic="auto-replied")
        return _with_files(answer, text, verdict.touched, self.anchors, self.key, self.now), [*to, *cc], ""

    def _unanswerable(self, message: Message, who: str) -> str | None:
        """Why a mail from ``who`` gets no answer whatever it holds, or None."""
        if not who:
            return "no From address to answer"
        if is_automatic(message):
            return "automatic mail"
        if who.lower() == (self.config.address or "").lower():
            return "the referee's own mail"
        return None

    # --- a mail that cannot be read, or on which the referee failed ----------------------------------

    def _unreadable(self, incoming: Incoming, why: str) -> _Plan:
        headers = read_headers(incoming.raw)
        text = compose.AnswerText(unreadable=why)
        return self._set_aside_for_good(incoming, headers, "unreadable", why, text)

    def _failed(self, incoming: Incoming, message: Message, error: Exception) -> _Plan:
        text = compose.AnswerText(unreadable="the referee failed on it (a fault of pbem, not of your mail; "
                                             "the referee's host has the reason)")
        return self._set_aside_for_good(incoming, message, "failed", _fault(error), text)

    def _set_aside_for_good(self, incoming: Incoming, message: Message, reason: str, why: str,
                            text: compose.AnswerText) -> _Plan:
        """Record the mail as read with its reason, answer it when it came from an address a game knows."""
        who = sender(message)
        head = f"mail {message_id(message) or incoming.source} from {who or 'an unknown sender'}"
        doc = self._record_doc(incoming, message, who, reason, why, self.record.set_aside(incoming.source))
        unanswered = self._unanswerable(message, who)
        if unanswered is None and who.lower() not in self.known:
            unanswered = "an address no game here knows"
        if unanswered is None and not self.record.may_answer(who, self.moment):
            unanswered = f"the answers to {who} for this hour are used up"
        answer = None
        if unanswered is None:
            answer = compose.new_message(self.config.address, [who], compose.answer_subject(_subject(message)),
                                         compose.answer_body(text), automatic="auto-replied",
                                         thread=thread_of(message))
            doc["answered"] = [who]
        line = (f"{head}: set aside ({reason}: {why}); "
                + (f"answered to {who}" if answer is not None else f"not answered ({unanswered})"))
        return _Plan(incoming, line, answer=answer, answered=doc["answered"], set_aside=doc,
                     put_aside=f"{head}: set aside, never read again: {reason}: {why}")


def _subject(message: Message) -> str:
    from pbem.mail.incoming import header

    return header(message, "Subject")


def _status_line_of(game: ServedGame) -> str:
    try:
        return _status_line(status(game.dir))
    except GAME_TROUBLE:
        return "its status cannot be read now"


def known_addresses(games: dict[str, ServedGame], record: MailRecord, config: MailConfig | None = None) -> set[str]:
    """Every address a served game knows, in lower case: the seats' configured addresses, the addresses
    recorded for holders of a seat (``pbem takeover --address``) and the spectators' (``config``: also those
    of the configured games that cannot be read now).

    Only these get an answer whatever their mail held: a From address proves
    nothing, and answering every one would make the referee mail any address
    a spammer names (backscatter). Any other address is answered when one of
    its mail's files was applied, which only a fresh move of a seat's key
    can be (a replayed public file is "already in the game" or stale)."""
    known = set(record.addresses_of(games.keys()))
    entries = [game.entry for game in games.values()] + (list(config.games) if config is not None else [])
    for entry in entries:
        known.update(entry.players.values())
        known.update(entry.spectators)
    return {address.lower() for address in known}


def _not_here(file: PbemFile, games: dict[str, ServedGame]) -> str:
    if file.game_id is None:
        return "the file names no game; nothing was submitted"
    return (f"game {compose.shown(file.game_id)} is not refereed here (games: {', '.join(games) or 'none'}); "
            "nothing was submitted")


def _with_files(message: EmailMessage, text: compose.AnswerText, touched: dict[str, ServedGame], anchors: Anchors,
                key: PrivateKey, now: datetime | None) -> EmailMessage:
    """An answer with the files it carries: the head of each game it reports on (a copy learns from any mail
    how far the game has gone), and the turns an answer to a stale move carries."""
    attached: dict[str, bytes] = {}
    for gid, game in touched.items():
        try:
            head = catchup.referee_head(game.dir, game.gamefile, key, anchors, now)
        except GAME_TROUBLE:
            continue  # the game's turn mails say why (and carry no head from a directory that lost a turn)
        if head is not None:
            attached[HEAD_FILE if len(touched) == 1 else f"head-{gid}.json"] = head.data
    for outcome in text.outcomes:
        attached.update(outcome.attachments)
    for name, data in attached.items():
        compose.attach(message, name, data)
    return message


def _submit(game: ServedGame, file: PbemFile, key: PrivateKey, wait: float, now: datetime | None,
            anchors: Anchors) -> compose.Outcome:
    try:
        step = submit(game.dir, file.data, key, wait=wait, now=now, anchors=anchors)
    except AlreadyApplied as error:
        return compose.Outcome(file.name, file.describe(), "already-applied", error.message,
                               exit_code=error.exit_code, reason=error.reason)
    except StaleMove as error:
        # the player's copy is behind: the answer carries the turns after the one the move answered
        outcome = compose.Outcome(file.name, file.describe(), "refused", error.message, exit_code=error.exit_code,
                                  reason=error.reason, notice=Path(error.rejection).name if error.rejection else None)
        # a directory that cannot give the turns now still has the refusal answered (its turn mails say why)
        with suppress(*GAME_TROUBLE):
            catchup.stale_turns(game, file, outcome, key, anchors, now)
        return outcome
    except Refusal as error:
        return compose.Outcome(file.name, file.describe(), "refused", error.message, exit_code=error.exit_code,
                               reason=error.reason, notice=Path(error.rejection).name if error.rejection else None)
    if step.kind == "join":
        done = "Every player is in: turn 0 is dealt." if step.dealt else f"Waiting for {', '.join(step.awaiting)} to join."
        return compose.Outcome(file.name, file.describe(), "applied", done)
    return compose.Outcome(file.name, file.describe(), "applied", f"Turn {step.turn} is written.")


def _status_line(current: Status) -> str:
    if current.result is not None:
        return _result_sentence(current.result)
    if current.dealing:
        return "every player has joined; the deal comes with the referee's next run"
    if current.over:
        return "the game was abandoned"
    return f"turn {current.turn}, awaiting {_awaiting(current)}"


def _awaiting(current: Status) -> str:
    return ", ".join(f"{a['player']} ({a['kind']})" for a in current.awaiting) or "nobody"


def _result_sentence(result: dict[str, Any]) -> str:
    """``Game over: ...``: :func:`~pbem.referee.public.result_text` as a mail's sentence."""
    said = result_text(result)
    return f"{said[:1].upper()}{said[1:]}."


# --- turn mails ---------------------------------------------------------------------------


def notify(game: ServedGame, config: MailConfig, record: MailRecord, outbox: Outbox, key: PrivateKey,
           now: datetime | None = None, answers: QueuedAnswers | None = None) -> list[str]:
    """Queue the turn mails this game's state calls for; return one line per mail queued.

    A turn mail to an address that an answer of this run about this game goes
    to alone (``answers``) takes that answer in: one mail, the answer's text
    then the turn's, with the attachments of both (each file once, the turn
    mail's when both carry one name: its head is the newer), threaded and
    marked as the answer was; the queued answer goes. So a player whose move
    opened their next decision gets one mail, not two, and a player whose
    move did not still gets the answer.

    A seat handed to a new key since the last run (a seat record not
    announced yet) gets a turn mail now, whatever was mailed before, with a
    note saying so; its previous holder's address, if another, a notice. A
    seat with a request pending (:mod:`pbem.mail.requests`) gets one too,
    with the turns it asked for. Every mail carries the game's head, from
    the referee's anchor (:mod:`pbem.mail.catchup`): a game directory that
    lost the anchored turn is mailed nothing (:class:`~pbem.referee.errors.HistoryLost`).
    """
    gamedir = GameDir.at(game.dir)
    current = status(game.dir)
    if current.dealing:
        return []
    head = catchup.referee_head(game.dir, game.gamefile, key, Anchors(config.state), now)  # type: ignore[arg-type]
    marks = record.marks()
    gid = game.gamefile.game_id
    mine = marks.setdefault(gid, {"players": {}, "spectators": {}})
    announced = mine.setdefault("seats", {})
    requested = pending_of(marks, gid)
    joining = not gamedir.has_turns()
    awaited = {a["player"]: a for a in current.awaiting}
    handed = {h.player: h for h in current.gamefile.handovers if h.turn > announced.get(h.player, 0)}
    lines: list[str] = []
    for player in game.entry.players:
        address = seat_address(game, record, player, current.gamefile)
        if address is None:
            continue
        handover = handed.get(player)
        mark = mine["players"].get(player) if handover is None else None
        request = requested.get(player)
        if joining:
            # one mail per kind of pre-deal decision (a join may take more than one round)
            new_mark: Any = f"join:{awaited[player]['kind']}" if player in awaited else mark
            due = player in awaited and mark != new_mark
        elif current.over:
            due, new_mark = mark != "over", "over"
        else:
            decision = awaited.get(player)
            fresh = not isinstance(mark, int)  # never mailed since the deal
            due = fresh or (decision is not None and isinstance(mark, int) and mark < decision["since"])
            new_mark = current.turn
        if not due and request is None:
            continue
        note = None
        if handover is not None:
            note = (f"The referee handed {player}'s seat to your key ({handover.key.fingerprint}) at turn "
                    f"{handover.turn}: you hold it now, and your view is sealed to that key. The seat record is "
                    "attached (pbem mail unpack files it).")
            before = seat_address(game, record, player, fingerprint=handover.previous.fingerprint)
            if before is not None and before.lower() != address.lower():
                notice = compose.new_message(
                    config.address, [before], f"{compose.subject_tag(gid)} {player}'s seat was "
                    "handed over", compose.seat_notice_body(gid, game.gamefile.game, player,
                                                           handover.turn, handover.key.fingerprint,
                                                           handover.previous.fingerprint),
                    automatic="auto-generated")
                if head is not None:
                    compose.attach(notice, HEAD_FILE, head.data)
                outbox.queue(notice)
                lines.append(f"game {gid}: queued for {player}'s previous holder <{before}>: {notice['Subject']}")
        # every turn since the last one mailed to this seat's holder (from the deal, for a first mail), and
        # the turns a request asked for
        through = mailed_through(mark)
        wanted = [] if joining else [(through + 1 if through is not None else 0, current.turn)]
        if note is None and isinstance(mark, str) and mark.startswith(ROLLED_BACK):
            returned = through + 1 if through is not None else 0
            note = (f"Every seat consented to roll the game back: it went back to turn {returned}, and the turns "
                    "after it are kept, abandoned (pbem mail unpack files the rollback's record and every consent, "
                    "attached, in your copy; pbem verify checks them). The draws are kept: the decks are as they "
                    "were at that turn.")
        if request is not None:
            wanted += [tuple(r) for r in request["wanted"]]
        message = _turn_mail(game, config, current, player, address, mark, head, wanted, note,
                             asked=request is not None and not due)
        answer = answers.take(address, gid) if answers is not None else None
        if answer is not None:
            message = compose.merged(answer.message, message)
        outbox.queue(message)
        if answer is not None:
            answer.path.unlink(missing_ok=True)  # after the mail that holds it is queued: at least once
        if request is not None:
            record_answered(record, request["hashes"])
            del requested[player]
        if due:
            mine["players"][player] = new_mark
        if handover is not None:
            announced[player] = handover.turn
        record.save_marks(marks)
        lines.append(f"game {gid}: queued for {player} <{address}>: {message['Subject']}")
    if not joining:
        moment = referee_now(now)
        for address in game.entry.spectators:
            mark = mine["spectators"].get(address)
            schedule = schedule_of(marks, gid, game.entry.digests, address)
            if not is_due(marks, gid, schedule, address, mark, current.turn, current.over, moment):
                continue
            message = _spectator_mail(game, config, current, address, mark, head, schedule)
            outbox.queue(message)
            mine["spectators"][address] = "over" if current.over else current.turn
            record_sent(marks, gid, address, moment)
            record.save_marks(marks)
            lines.append(f"game {gid}: queued for spectator <{address}>: {message['Subject']}")
    return lines


def _events_since(game: ServedGame, mark: Any) -> list[tuple[int, str, list[str]]]:
    through = mailed_through(mark)
    first = through + 1 if through is not None else 0
    return [(e.turn, e.what, e.events) for e in public_log(game.dir, first)]


def _seats_in_force(current: Status) -> list[tuple[int, str]]:
    """The seat records in force, as ``(turn, player)``: a copy needs them to know which key holds a seat."""
    return [(handover.turn, handover.player) for handover in current.gamefile.handovers]


def _turn_mail(game: ServedGame, config: MailConfig, current: Status, player: str, address: str, mark: Any,
               head: Head | None, wanted: list[tuple[int, int]], note: str | None = None,
               asked: bool = False) -> EmailMessage:
    """A turn mail (before the deal: an invitation); ``asked``: sent for a request alone."""
    gamefile, gamedir = game.gamefile, GameDir.at(game.dir)
    decision = next((a for a in current.awaiting if a["player"] == player), None)
    joining = not gamedir.has_turns()
    text = compose.TurnText(
        game_id=gamefile.game_id, game=gamefile.game, player=player, turn=current.turn,
        referee=config.address or "", kind=decision["kind"] if decision else None,
        awaiting=_awaiting(current), joining=joining,
        result=_result_sentence(current.result) if current.result is not None else None,
        abandoned=current.over and current.result is None and not joining,
        events=[] if joining else _events_since(game, mark),
        note=note, deadline=decision.get("deadline") if decision else None, asked=asked,
    )
    if joining:
        files = {"game.toml": read_file(gamedir.game_toml)}
        if head is not None:
            files[HEAD_FILE] = head.data
        # the join files kept so far (public and signed): a later round is written against them
        for path in sorted(gamedir.join_files().values()):
            files[path.name] = path.read_bytes()
    else:
        carried = catchup.carried(game.dir, gamefile, current.turn, _seats_in_force(current), wanted, head, player)
        files, text.carried = carried.files, carried.turns_line()
    text.attachments = list(files)
    message = compose.new_message(config.address, [address], compose.turn_subject(text),
                                  compose.turn_body(text, f"game-{gamefile.game_id}"), automatic="auto-generated")
    for name, data in files.items():
        compose.attach(message, name, data)
    return message


def _spectator_mail(game: ServedGame, config: MailConfig, current: Status, address: str, mark: Any,
                    head: Head | None, schedule: str) -> EmailMessage:
    """A digest: the public record since the spectator's last mail, and the turns since then (never a view)."""
    gamefile = game.gamefile
    summary = _status_line(current)
    through = mailed_through(mark)
    carried = catchup.carried(game.dir, gamefile, current.turn, _seats_in_force(current),
                              [(through + 1 if through is not None else 0, current.turn)], head)
    body = compose.spectator_body(gamefile.game_id, gamefile.game, current.turn, summary[0].upper() + summary[1:],
                                  _events_since(game, mark), carried.turns_line(), SCHEDULES[schedule])
    subject = f"{compose.subject_tag(gamefile.game_id)} " + ("game over" if current.over else f"turn {current.turn}")
    message = compose.new_message(config.address, [address], subject, body, automatic="auto-generated")
    for name, data in carried.files.items():
        compose.attach(message, name, data)
    return message


# --- pbem tick --config --------------------------------------------------------------------


@dataclass
class TickMailReport:
    """``pbem tick --config``: the tick, the mails it queued, and the sending."""

    tick: TickReport
    mailed: list[str] = field(default_factory=list)
    flush: FlushReport = field(default_factory=FlushReport)


def tick_with_mail(config: MailConfig, key: PrivateKey, directory: Path, progress: Progress | None = None,
                   now: datetime | None = None, wait: float = DEFAULT_WAIT) -> TickMailReport:
    """Tick the game in ``directory``, one of the games ``config`` serves: its timeouts, reminders and turn mails."""
    config.require("address", "state", "smtp", "games")
    assert config.state is not None and config.smtp is not None
    tell = progress or (lambda line: None)
    gamefile = GameFile.read(GameDir.at(directory).game_toml)
    games, _ = read_served_games(config)  # another game that cannot be read is not this one's business
    game = games.get(gamefile.game_id)
    if game is None:
        raise MailConfigError(f"{config.path}: game {gamefile.game_id} ({directory}) is not among its [[games]]")
    record = MailRecord(config.state)
    record.create()
    outbox = Outbox(record.outbox)
    with record.held():
        ticked, lines = tick_game(game, config, key, record, outbox, now, wait)
        lines += notify(game, config, record, outbox, key, now)
        for line in lines:
            tell(line)
        flushed = outbox.flush(config.smtp)
    return TickMailReport(tick=ticked, mailed=lines, flush=flushed)

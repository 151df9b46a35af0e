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
   at the end, the public record to the spectators, and a turn mail to the
   new holder of a seat handed over (``pbem takeover``);
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
that two robots cannot mail each other for ever.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.crypto.errors import CryptoError
from pbem.digests import sha256_hex
from pbem.engine.errors import EngineError
from pbem.mail import compose
from pbem.mail.config import MailConfig
from pbem.mail.errors import MailConfigError
from pbem.mail.extract import Extracted, PbemFile, extract, is_automatic, message_id
from pbem.mail.mailboxes import Incoming, MailSource, open_mailbox
from pbem.mail.record import MailRecord
from pbem.mail.reminders import tick_game
from pbem.mail.sending import FlushReport, Outbox
from pbem.mail.served import ServedGame, seat_address, served_games
from pbem.referee import public_log, status, submit
from pbem.referee.errors import AlreadyApplied, LockBusy, RefereeError, Refusal
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir, read_file
from pbem.referee.lock import DEFAULT_WAIT
from pbem.referee.public import Status, result_text
from pbem.referee.records import read_turn

if TYPE_CHECKING:  # the key is loaded by the command line and handed to the referee as it is
    from pbem.crypto.keys import PrivateKey
    from pbem.referee.tick import TickReport

Progress = Callable[[str], None]


@dataclass
class ServeReport:
    """What one run did: one line per mail read, per mail queued, and the sending."""

    mails: list[str] = field(default_factory=list)
    #: mails kept for the next run (a game busy or damaged), with the reason
    held: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    flush: FlushReport = field(default_factory=FlushReport)


@dataclass
class _Mail:
    incoming: Incoming
    message: EmailMessage
    extracted: Extracted
    identity: str
    sender: str


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
    games = served_games(config)
    outbox = Outbox(record.outbox)
    report = ServeReport()
    with open_mailbox(config.mailbox) as box:  # type: ignore[arg-type]
        for incoming in box.incoming(record.has_source):
            mail = _read(incoming)
            line = _handle(mail, config, games, key, record, outbox, box, report, wait, now)
            report.mails.append(line)
            tell(line)
    for game in games.values():
        lines: list[str] = []
        try:
            # after the mailbox: a move that arrived before its deadline counts
            lines += tick_game(game, config, key, record, outbox, now, wait)[1]
        except (LockBusy, RefereeError, CryptoError, EngineError, OSError) as error:
            report.held.append(f"game {game.gamefile.game_id}: not ticked this run: {error}")
        lines += notify(game, config, record, outbox)
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


def _read(incoming: Incoming) -> _Mail:
    message = message_from_bytes(incoming.raw, policy=policy.default)
    extracted = extract(message)
    mid = message_id(message) or "sha256:" + sha256_hex(incoming.raw)
    return _Mail(incoming, message, extracted, f"{mid} {extracted.digest}", address_of(message.get("From")))  # type: ignore[arg-type]


def address_of(header: Any) -> str:
    """The bare address of a From header ('' when there is none)."""
    found = getaddresses([str(header or "")])
    return found[0][1].strip() if found and found[0][1] else ""


def _handle(mail: _Mail, config: MailConfig, games: dict[str, ServedGame], key: PrivateKey, record: MailRecord,
            outbox: Outbox, box: MailSource, report: ServeReport, wait: float, now: datetime | None) -> str:
    who = mail.sender or "an unknown sender"
    head = f"mail {message_id(mail.message) or mail.incoming.source} from {who}"
    if record.has_mail(mail.identity):
        record.add_source(mail.incoming.source, mail.identity)
        box.mark_done(mail.incoming)
        return f"{head}: a copy of a mail answered before; not answered again"
    text = compose.AnswerText(ignored=mail.extracted.ignored, problems=mail.extracted.problems,
                              html_only=mail.extracted.html_only)
    touched: dict[str, ServedGame] = {}
    copies: list[str] = []
    for file in mail.extracted.files:
        game = games.get(file.game_id or "")
        if game is None:
            text.outcomes.append(compose.Outcome(file.name, file.describe(), "not-here", _not_here(file, games)))
            continue
        try:
            outcome = _submit(game, file, key, wait, now)
        except (LockBusy, RefereeError, CryptoError, EngineError, OSError) as error:
            # the game is busy or damaged: the mail waits for the next run, unanswered and not done
            why = f"{head}: kept for the next run: game {game.gamefile.game_id}: {error}"
            report.held.append(why)
            return why
        text.outcomes.append(outcome)
        touched[game.gamefile.game_id] = game
        seat = seat_address(game, record, file.player or "")
        if seat and seat.lower() != mail.sender.lower() and seat not in copies:
            copies.append(seat)
            text.notes.append(
                f"Note: this mail came from {who}, not from {file.player}'s address ({seat}). The file was judged "
                f"on {file.player}'s signature alone, as every file is; a copy of this answer goes to {seat}, and "
                f"{file.player}'s turn mails go there too."
            )
    text.statuses = [f"Game {gid}: {_status_line(status(g.dir))}" for gid, g in touched.items()]
    summary = "; ".join(f"{o.what}: {o.status}" + (f" ({o.reason})" if o.reason else "") for o in text.outcomes)
    summary = summary or ("HTML only, no file" if text.html_only else "no pbem file")
    answered: list[str] = []
    unanswered = "automatic mail"
    if mail.sender and not is_automatic(mail.message) and mail.sender.lower() != (config.address or "").lower():
        if any(o.status == "applied" for o in text.outcomes) or mail.sender.lower() in known_addresses(games, record):
            subject = str(mail.message.get("Subject", "") or "").strip() or "your mail"
            outbox.queue(compose.new_message(
                config.address, [mail.sender], subject if subject.lower().startswith("re:") else f"Re: {subject}",
                compose.answer_body(text), cc=copies, automatic="auto-replied", answering=mail.message,
            ))
            answered = [mail.sender, *copies]
        elif copies:
            # the seats named by the files still learn what was done in their name, in a mail of the
            # referee's own words: neither the stranger's Subject nor a thread of their mail
            outbox.queue(compose.new_message(
                config.address, copies, "pbem: a mail from another address, about your seat",
                compose.answer_body(text), automatic="auto-replied",
            ))
            answered = copies
        else:
            unanswered = "an address no game here knows, and nothing applied"
    record.add_mail(mail.identity, {
        "source": mail.incoming.source,
        "from": mail.sender,
        "files": [f.digest for f in mail.extracted.files],
        "outcomes": [{"file": o.file, "status": o.status, "exit_code": o.exit_code} for o in text.outcomes],
        "answered": answered,
    })
    record.add_source(mail.incoming.source, mail.identity)
    box.mark_done(mail.incoming)
    return f"{head}: {summary}" + (f"; answered to {', '.join(answered)}" if answered else f"; not answered ({unanswered})")


def known_addresses(games: dict[str, ServedGame], record: MailRecord) -> set[str]:
    """Every address a served game knows, in lower case: the seats' configured addresses, the addresses
    recorded for holders of a seat (``pbem takeover --address``) and the spectators'.

    Only these get an answer whatever their mail held: a From address proves
    nothing, and answering every one would make the referee mail any address
    a spammer names (backscatter). Any other address is answered when one of
    its mail's files was applied, which only a fresh move of a seat's key
    can be (a replayed public file is "already in the game" or stale)."""
    known = set(record.addresses_of(games.keys()))
    for game in games.values():
        known.update(game.entry.players.values())
        known.update(game.entry.spectators)
    return {address.lower() for address in known}


def _not_here(file: PbemFile, games: dict[str, ServedGame]) -> str:
    if file.game_id is None:
        return "the file names no game; nothing was submitted"
    return f"game {file.game_id} is not refereed here (games: {', '.join(games) or 'none'}); nothing was submitted"


def _submit(game: ServedGame, file: PbemFile, key: PrivateKey, wait: float, now: datetime | None) -> compose.Outcome:
    try:
        step = submit(game.dir, file.data, key, wait=wait, now=now)
    except AlreadyApplied as error:
        return compose.Outcome(file.name, file.describe(), "already-applied", error.message,
                               exit_code=error.exit_code, reason=error.reason)
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


def notify(game: ServedGame, config: MailConfig, record: MailRecord, outbox: Outbox) -> list[str]:
    """Queue the turn mails this game's state calls for; return one line per mail queued.

    A seat handed to a new key since the last run (a seat record not
    announced yet) gets a turn mail now, whatever was mailed before, with a
    note saying so; its previous holder's address, if another, a notice.
    """
    gamedir = GameDir.at(game.dir)
    current = status(game.dir)
    if current.dealing:
        return []
    marks = record.marks()
    mine = marks.setdefault(game.gamefile.game_id, {"players": {}, "spectators": {}})
    announced = mine.setdefault("seats", {})
    joining = not gamedir.has_turns()
    awaited = {a["player"]: a for a in current.awaiting}
    handed = {h.player: h for h in current.gamefile.handovers if h.turn > announced.get(h.player, 0)}
    lines: list[str] = []
    turn_doc: dict[str, Any] | None = None
    for player in game.entry.players:
        address = seat_address(game, record, player, current.gamefile)
        if address is None:
            continue
        handover = handed.get(player)
        mark = mine["players"].get(player) if handover is None else None
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
        if not due:
            continue
        if turn_doc is None and not joining:
            turn_doc = _turn_doc(gamedir, current.turn)
        note = None
        if handover is not None:
            note = (f"The referee handed {player}'s seat to your key ({handover.key.fingerprint}) at turn "
                    f"{handover.turn}: you hold it now, and your view is sealed to that key. The seat record is "
                    "attached (pbem mail unpack files it).")
            before = seat_address(game, record, player, fingerprint=handover.previous.fingerprint)
            if before is not None and before.lower() != address.lower():
                notice = compose.new_message(
                    config.address, [before], f"{compose.subject_tag(game.gamefile.game_id)} {player}'s seat was "
                    "handed over", compose.seat_notice_body(game.gamefile.game_id, game.gamefile.game, player,
                                                           handover.turn, handover.key.fingerprint,
                                                           handover.previous.fingerprint),
                    automatic="auto-generated")
                outbox.queue(notice)
                lines.append(f"game {game.gamefile.game_id}: queued for {player}'s previous holder <{before}>: "
                             f"{notice['Subject']}")
        message = _turn_mail(game, config, current, player, address, mark, turn_doc, note)
        outbox.queue(message)
        mine["players"][player] = new_mark
        if handover is not None:
            announced[player] = handover.turn
        record.save_marks(marks)
        lines.append(f"game {game.gamefile.game_id}: queued for {player} <{address}>: {message['Subject']}")
    if not joining:
        for address in game.entry.spectators:
            mark = mine["spectators"].get(address)
            if mark == "over" or (isinstance(mark, int) and mark >= current.turn and not current.over):
                continue
            message = _spectator_mail(game, config, current, address, mark)
            outbox.queue(message)
            mine["spectators"][address] = "over" if current.over else current.turn
            record.save_marks(marks)
            lines.append(f"game {game.gamefile.game_id}: queued for spectator <{address}>: {message['Subject']}")
    return lines


def _turn_doc(gamedir: GameDir, number: int) -> dict[str, Any]:
    return read_turn(gamedir, GameFile.read(gamedir.game_toml), number).doc


def _events_since(game: ServedGame, mark: Any) -> list[tuple[int, str, list[str]]]:
    first = mark + 1 if isinstance(mark, int) else 0
    return [(e.turn, e.what, e.events) for e in public_log(game.dir, first)]


def _turn_mail(game: ServedGame, config: MailConfig, current: Status, player: str, address: str, mark: Any,
               turn_doc: dict[str, Any] | None, note: str | None = None) -> EmailMessage:
    gamefile, gamedir = game.gamefile, GameDir.at(game.dir)
    decision = next((a for a in current.awaiting if a["player"] == player), None)
    joining = turn_doc is None
    text = compose.TurnText(
        game_id=gamefile.game_id, game=gamefile.game, player=player, turn=current.turn,
        referee=config.address or "", kind=decision["kind"] if decision else None,
        awaiting=_awaiting(current), joining=joining,
        result=_result_sentence(current.result) if current.result is not None else None,
        abandoned=current.over and current.result is None and not joining,
        events=[] if joining else _events_since(game, mark),
        note=note, deadline=decision.get("deadline") if decision else None,
    )
    files = {"game.toml": gamedir.game_toml.read_bytes()}
    if joining:
        # the join files kept so far (public and signed): a later round is written against them
        for path in sorted(gamedir.join_files().values()):
            files[path.name] = path.read_bytes()
    if turn_doc is not None:
        files[gamedir.turn(current.turn).name] = gamedir.turn(current.turn).read_bytes()
        files[f"{player}-{current.turn:06d}.age"] = turn_doc["sealed"][player].encode("ascii")
        # the seats handed over: a copy needs them to know which key holds a seat (small, public, signed)
        for entry in turn_doc.get("seats", []):
            path = gamedir.seat(entry["turn"], entry["player"])
            files[f"seat-{path.name}"] = read_file(path)
    text.attachments = list(files)
    message = compose.new_message(config.address, [address], compose.turn_subject(text),
                                  compose.turn_body(text, f"game-{gamefile.game_id}"), automatic="auto-generated")
    for name, data in files.items():
        compose.attach(message, name, data)
    return message


def _spectator_mail(game: ServedGame, config: MailConfig, current: Status, address: str, mark: Any) -> EmailMessage:
    gamefile, gamedir = game.gamefile, GameDir.at(game.dir)
    summary = _status_line(current)
    body = compose.spectator_body(gamefile.game_id, gamefile.game, current.turn, summary[0].upper() + summary[1:],
                                  _events_since(game, mark))
    subject = f"{compose.subject_tag(gamefile.game_id)} " + ("game over" if current.over else f"turn {current.turn}")
    message = compose.new_message(config.address, [address], subject, body, automatic="auto-generated")
    turn = gamedir.turn(current.turn)
    compose.attach(message, turn.name, turn.read_bytes())
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
    games = served_games(config)
    game = games.get(gamefile.game_id)
    if game is None:
        raise MailConfigError(f"{config.path}: game {gamefile.game_id} ({directory}) is not among its [[games]]")
    record = MailRecord(config.state)
    record.create()
    outbox = Outbox(record.outbox)
    with record.held():
        ticked, lines = tick_game(game, config, key, record, outbox, now, wait)
        lines += notify(game, config, record, outbox)
        for line in lines:
            tell(line)
        flushed = outbox.flush(config.smtp)
    return TickMailReport(tick=ticked, mailed=lines, flush=flushed)

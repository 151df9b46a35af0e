"""Composing the mails pbem sends, with the standard library's ``email`` package.

Four kinds, each plain text with the files as attachments (base64, so that
no transfer encoding changes a byte):

* a **file mail** — a player's move or join file for the referee
  (``pbem move --mail``, ``pbem join --mail``, ``pbem mail send``);
* an **answer** — the referee's reply to every mail it reads: each file
  applied, already applied or refused (with the refusal's message and exit
  code), or why nothing was found;
* a **turn mail** — a player's next turn: ``game.toml``, the public turn
  file, the player's sealed view, and the commands to answer with; before
  the deal, an invitation to join; at the end, the result;
* a **spectator mail** — the public record since the last one, and the turn file;
* a **reminder** — a decision's deadline is near: the deadline, what the
  referee does after it, and the ``pbem move`` line; a **seat notice** — the
  referee handed a seat to another key (to the seat's previous address).

The bodies hold only what is public (the status, the public events, the
refusals' messages, which never name a hidden card); everything private
travels sealed in the attachments. Text that somebody else wrote (a file
name, the player a file names, a Subject) is never copied into a mail raw:
:func:`shown` quotes it within bounds, every control and invisible
character written as its escape.

Every body is laid out for a mail client (:func:`lay_out`): no line is
longer than 78 characters, prose is wrapped and a command the reader is to
copy stands on lines of its own, continued with `` \\``; the headers are
folded by the ``email`` package. A body with any character beyond ASCII
travels quoted-printable, so that every SMTP server takes it.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from pbem.mail.incoming import ANSWER_ID_MARK, Thread

#: media types of the attachments, by file suffix
MEDIA_TYPES = {".json": ("application", "json"), ".toml": ("application", "toml"), ".age": ("application", "octet-stream")}
#: how many turns of public events a mail lists at most (the rest: ``pbem log``)
EVENTS_SHOWN = 40
#: the prefix of the card file's name as an attachment (``cards-NAME``): ``pbem mail unpack`` files it in ``cards/``
CARDS_PREFIX = "cards-"
#: the prefix of a seat record's name as an attachment (``seat-NNNNNN-PLAYER.json``)
SEAT_PREFIX = "seat-"


#: the most characters of somebody else's text a mail shows (:func:`shown`)
SHOWN_MAX = 60
#: the most characters of somebody else's Subject an answer's Subject repeats
SUBJECT_MAX = 100
#: a body line longer than this (or any character beyond ASCII) makes the body quoted-printable
PLAIN_LINE_MAX = 78

#: characters written as their escape in somebody else's text: the C0 and C1 controls and DEL (a terminal
#: takes some as commands), and the invisible ones that reorder or hide text (bidirectional controls,
#: zero-width characters, line and paragraph separators, the byte-order mark)
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
#: the same but the line feed: what no line of a body holds
_HIDDEN_IN_BODY = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
#: text shown as it is: a name of letters, digits and ``._+@/-`` (file names, player names, game ids)
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+@/-]*")


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def shown(text: str, limit: int = SHOWN_MAX) -> str:
    """Text somebody else wrote, as a mail of the referee shows it: as it is when it is a plain name of at
    most ``limit`` characters (letters, digits, ``._+@/-``); otherwise between quotes, every control and
    invisible character as its escape (``\\u001b``), cut after ``limit`` characters. So no one's text
    reaches a reader raw: no terminal command, no line reordered or hidden, no line running on for pages."""
    if len(text) <= limit and _PLAIN.fullmatch(text):
        return text
    escaped = _HIDDEN.sub(_escape, text)
    return '"' + (escaped if len(escaped) <= limit else escaped[:limit] + "...") + '"'


def answer_subject(subject: str) -> str:
    """The Subject of an answer to a mail whose Subject is ``subject``: ``Re:`` it, escaped and cut as
    :func:`shown` does (without the quotes, which a Subject does not need)."""
    text = _HIDDEN.sub(_escape, " ".join(subject.split()))
    if len(text) > SUBJECT_MAX:
        text = text[:SUBJECT_MAX] + "..."
    if not text:
        return "Re: your mail"
    return text if text.lower().startswith("re:") else f"Re: {text}"


def subject_tag(game_id: str) -> str:
    return f"[pbem {game_id}]"


def new_message(
    sender: str | None,
    to: Iterable[str],
    subject: str,
    body: str,
    cc: Iterable[str] = (),
    automatic: str | None = None,
    thread: Thread | None = None,
) -> EmailMessage:
    """A plain-text message. ``automatic`` sets ``Auto-Submitted`` (RFC 3834) on the referee's mails,
    so that no vacation robot answers them (an answer, ``auto-replied``, also has a Message-ID that says
    so: :data:`~pbem.mail.incoming.ANSWER_ID_MARK`); ``thread`` threads a reply to the mail it answers."""
    message = EmailMessage(policy=policy.SMTP)
    if sender:
        message["From"] = sender
    message["To"] = ", ".join(to)
    cc = list(cc)
    if cc:
        message["Cc"] = ", ".join(cc)
    message["Subject"] = subject
    stamp(message, sender, ANSWER_ID_MARK if automatic == "auto-replied" else None)
    if automatic:
        message["Auto-Submitted"] = automatic
    if thread is not None:
        message["In-Reply-To"] = thread.parent
        message["References"] = " ".join([*thread.references, thread.parent])
    body = lay_out(body)
    plain = body.isascii() and all(len(line) <= PLAIN_LINE_MAX for line in body.split("\n"))
    message.set_content(body, cte="7bit" if plain else "quoted-printable")
    return message


#: the first word of a command a body shows on an indented line of its own, for the reader to copy
COMMAND_WORDS = frozenset({"pbem", "git", "age"})


def lay_out(body: str) -> str:
    """A body as a mail client shows it without wrapping anything: every line at most
    :data:`PLAIN_LINE_MAX` characters. A longer line of prose is wrapped at :data:`WIDTH`, keeping its
    indent (a ``* `` item's next lines under its text); a longer command (an indented line whose first word
    is ``pbem``, ``git`` or ``age``) goes on over several lines, each but the last ending in `` \\``, so
    that it is still one command to copy into a shell. Only a single word longer than a line (which no
    text of pbem's holds) is left as it is."""
    lines: list[str] = []
    for line in body.split("\n"):
        if len(line) <= PLAIN_LINE_MAX:
            lines.append(line)
            continue
        text = line.lstrip(" ")
        indent = line[:len(line) - len(text)]
        if indent and text.split(" ", 1)[0] in COMMAND_WORDS:
            lines += _continued(text, indent)
            continue
        hanging = indent + ("  " if text.startswith(("* ", "- ")) else "    " if indent else "")
        lines += textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=hanging,
                               break_long_words=False, break_on_hyphens=False) or [line]
    return "\n".join(lines)


def _continued(command: str, indent: str) -> list[str]:
    """A command over several lines of at most :data:`PLAIN_LINE_MAX` characters, joined by `` \\``, each
    option on the line of its value."""
    words: list[str] = []
    for word in command.split(" "):
        if words and words[-1].startswith("--") and " " not in words[-1] and not word.startswith("-"):
            words[-1] += " " + word  # an option stays on one line with its value
        else:
            words.append(word)
    lines: list[str] = []
    current = indent
    for word in words:
        if current.strip() and len(current) + 1 + len(word) + 2 > PLAIN_LINE_MAX:
            lines.append(current + " \\")
            current = indent + "    " + word
        else:
            current = f"{current} {word}" if current.strip() else current + word
    return [*lines, current]


def stamp(message: EmailMessage, sender: str | None, mark: str | None = None) -> None:
    """A new Date and Message-ID (with ``mark`` in it, when given): each sending is a new mail (the
    referee answers a re-delivered one once)."""
    for name in ("Date", "Message-ID"):
        del message[name]
    message["Date"] = formatdate(localtime=True)
    domain = sender.rpartition("@")[2] if sender else None
    message["Message-ID"] = make_msgid(mark, domain=domain or None)


def attach(message: EmailMessage, filename: str, data: bytes) -> None:
    suffix = filename[filename.rfind("."):] if "." in filename else ""
    maintype, subtype = MEDIA_TYPES.get(suffix, ("application", "octet-stream"))
    message.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)


def message_bytes(message: EmailMessage) -> bytes:
    """The message as it goes on the wire and into ``.eml`` files (CRLF line ends)."""
    return message.as_bytes(policy=policy.SMTP)


# --- the player's side -----------------------------------------------------------------


def file_mail(data: bytes, filename: str, to: str, sender: str | None, what: str, game_id: str) -> EmailMessage:
    """A mail carrying one move or join file to the referee (``what``: "alice's move for turn 4")."""
    body = (
        f"{what} in game {game_id}, for the pbem referee.\n\n"
        f"The attached file {filename} is signed; the referee reads it from the attachment\n"
        "and answers this mail. Send it as it is.\n"
    )
    message = new_message(sender, [to], f"{subject_tag(game_id)} {what}", body)
    # Outlook and others open an unsent message ready to send, rather than as one received
    message["X-Unsent"] = "1"
    attach(message, filename, data)
    return message


# --- the referee's mails -----------------------------------------------------------------


@dataclass
class Outcome:
    """What became of one file of an incoming mail."""

    file: str
    what: str
    #: applied | already-applied | refused | not-here | held (its game busy or damaged: not submitted) |
    #: failed (the referee failed on it: set aside) | requested (a request for turns, which the turn mail to
    #: the seat answers)
    status: str
    message: str
    exit_code: int = 0
    reason: str | None = None
    notice: str | None = None
    #: files the answer carries for this file, by attachment name (the turns a stale move's copy lacks)
    attachments: dict[str, bytes] = field(default_factory=dict)


@dataclass
class AnswerText:
    """The parts of an answer, in the order they are written."""

    outcomes: list[Outcome] = field(default_factory=list)
    #: "game X: awaiting bob (draw)" for each game a file touched
    statuses: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    html_only: bool = False
    #: the mail could not be read at all (:class:`~pbem.mail.incoming.UnreadableMail`): why
    unreadable: str | None = None


#: the width the bodies' prose is wrapped to (commands are not wrapped)
WIDTH = 76


def _wrap(paragraph: str, indent: str = "") -> str:
    return textwrap.fill(paragraph, WIDTH, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)


def answer_body(text: AnswerText) -> str:
    lines = ["This is the pbem referee, answering your mail.", ""]
    for o in text.outcomes:
        if o.status == "applied":
            lines.append(f"* {o.file}: {o.what}: APPLIED. {o.message}")
        elif o.status == "already-applied":
            lines.append(f"* {o.file}: {o.what}: already in the game, nothing changed. {o.message}")
        elif o.status == "refused":
            lines.append(f"* {o.file}: {o.what}: REFUSED (exit code {o.exit_code}, {o.reason}): {o.message}")
            if o.notice:
                lines.append(f"  The referee's signed notice: {o.notice}")
        else:
            lines.append(f"* {o.file}: {o.what}: {o.message}")
    lines = [_wrap(line, "  ") if line.startswith("* ") else line for line in lines]
    if text.unreadable is not None:
        lines.append(_wrap(f"Your mail could not be read: {text.unreadable}. Nothing was submitted, and "
                           "the referee will not read this mail again. Send the move or join file attached "
                           "to a plain mail (pbem move --mail writes one)."))
    elif not text.outcomes:
        lines.append(_nothing_found(text))
    if text.problems:
        lines += ["", "Attachments that could not be read:"] + [f"* {p}" for p in text.problems]
    if text.ignored and not text.outcomes:
        lines += ["", "Set aside (files the referee reads only from you are move and join files):"]
        lines += [f"* {i}" for i in text.ignored]
    if text.statuses:
        lines += [""] + text.statuses
    for note in text.notes:
        lines += ["", _wrap(note)]
    return _HIDDEN_IN_BODY.sub(_escape, "\n".join(lines)) + "\n"


def _nothing_found(text: AnswerText) -> str:
    if text.html_only:
        return (
            "Your mail has only an HTML part and no attachment, so it holds no move file.\n"
            "pbem reads move and join files as attachments: attach the file that `pbem move`\n"
            "(or `pbem join`) wrote, or send the .eml file that `pbem move --mail` wrote.\n"
            "Nothing was submitted."
        )
    if text.ignored:
        return (
            "Your mail holds no move or join file, only files the referee sent you.\n"
            "Attach the file that `pbem move` (or `pbem join`) wrote. Nothing was submitted."
        )
    return (
        "Your mail holds no pbem move or join file. Attach the file that `pbem move`\n"
        "(or `pbem join`) wrote, or send the .eml file that `pbem move --mail` wrote.\n"
        "Nothing was submitted."
    )


@dataclass
class TurnText:
    """What a turn mail says to one player (everything public, or the player's own)."""

    game_id: str
    game: str
    player: str
    turn: int
    referee: str
    #: the player's open decision kind, or None
    kind: str | None
    #: "alice (pick), bob (pick)": who is awaited
    awaiting: str
    result: str | None = None
    joining: bool = False
    abandoned: bool = False
    #: (turn, "move by alice" | "the deal", [public events]) since the player's last mail
    events: list[tuple[int, str, list[str]]] = field(default_factory=list)
    attachments: list[str] = field(default_factory=list)
    #: said first: the seat was handed to the reader's key (a takeover)
    note: str | None = None
    #: the deadline of the player's decision (a game with deadlines)
    deadline: str | None = None
    #: the mail answers a request for turns (pbem mail request), and no decision of the player opened
    asked: bool = False
    #: which turns of the game the mail carries, and which it left out (:meth:`pbem.mail.catchup.Carried.turns_line`)
    carried: str = ""


def turn_subject(text: TurnText) -> str:
    tag = subject_tag(text.game_id)
    if text.joining:
        return f"{tag} {text.game}: please join ({text.kind})"
    if text.result is not None or text.abandoned:
        return f"{tag} game over"
    if text.asked:
        return f"{tag} turn {text.turn}: the turns you asked for"
    if text.kind is not None:
        return f"{tag} turn {text.turn}: your decision ({text.kind})"
    return f"{tag} turn {text.turn}: waiting for {text.awaiting}"


def turn_body(text: TurnText, folder: str) -> str:
    """The body of a turn mail; ``folder`` is the local copy the commands name."""
    player, key = text.player, f"{text.player}.key"
    lines = [f"Game {text.game_id} ({text.game}), turn {text.turn}. You are {player}.", ""]
    if text.note:
        lines += [_wrap(text.note), ""]
    if text.asked:
        lines += [_wrap("You asked for the turns your copy lacks (pbem mail request): here they are, with every "
                        "turn since. Save this mail and run pbem mail unpack, as for any turn mail."), ""]
    lines += _events_lines(text.events)
    if text.joining:
        lines += [
            f"You have a seat in a new game of {text.game}. The deal waits for every player's",
            "join files: first a commitment to a random number of yours, then, once every",
            "commitment is in, the number itself (it goes into every shuffle). pbem join",
            f"writes the one the game waits for; now: {text.kind}. Save this mail as",
            "invite.eml and run:",
            "",
            f"  pbem mail unpack invite.eml --into {folder}",
            f"  pbem join {folder} --as {player} --key {key} --mail {text.referee}",
            "",
            f"and send the mail file it writes to {text.referee} (or attach the join file to a reply).",
        ]
    elif text.result is not None or text.abandoned:
        lines += [text.result or "The game was abandoned; its seed is published, so anyone can replay it.", "",
                  "Check the whole record: pbem verify GAME-DIRECTORY --replay"]
    elif text.kind is not None:
        lines += [f"Your decision: {text.kind}. Awaiting: {text.awaiting}."]
        if text.deadline:
            lines += [f"Deadline: {text.deadline}. {DEADLINE_NOTE}"]
        lines += [
            "",
            "To answer, save this mail as turn.eml and run:",
            "",
            f"  pbem mail unpack turn.eml --into {folder}",
            f"  pbem view {folder} --as {player} --key {key}",
            f"  pbem move {folder} --as {player} --key {key} \\",
            f"      --choose NUMBER --mail {text.referee}",
            "",
            f"and send the mail file pbem move writes to {text.referee}",
            "(or attach the move file to a reply to this mail).",
        ]
    else:
        lines += [f"Not your decision yet: awaiting {text.awaiting}. Your view is attached;",
                  "the referee mails you when it is your turn (pbem mail unpack, then pbem view)."]
    if text.attachments:
        others = [name for name in text.attachments if not is_turn_file(name)]
        lines += ["", "Attached: " + ", ".join(others) + "."]
        if text.carried:
            lines += [_wrap(text.carried)]
        lines += ["Your sealed view opens only with your key (pbem view, or age -d -i IDENTITY)."]
    return "\n".join(lines) + "\n"


def is_turn_file(name: str) -> bool:
    """``NNNNNN.json``: a turn file, which a mail's body counts rather than names."""
    return len(name) == 11 and name.endswith(".json") and name[:6].isdigit()


#: what a player is told about a deadline: public, the same for every decision (whether a pass is
#: among a player's options may be theirs to know only)
DEADLINE_NOTE = ("If no move of yours has arrived by then, the referee answers the decision for you with "
                 "the game's default action for it: a pass, where the game passes and you may, else one of "
                 "your options at random.")


@dataclass
class ReminderText:
    """A reminder that a decision's deadline is near (everything in it is public)."""

    game_id: str
    game: str
    player: str
    kind: str
    since: int
    deadline: str
    before: str
    referee: str


def reminder_subject(text: ReminderText) -> str:
    return f"{subject_tag(text.game_id)} reminder: your {text.kind} decision, deadline {text.deadline}"


def reminder_body(text: ReminderText, folder: str) -> str:
    player, key = text.player, f"{text.player}.key"
    lines = [
        f"Game {text.game_id} ({text.game}). You are {player}.",
        "",
        _wrap(f"Reminder: your {text.kind} decision, open since turn {text.since}, is due by {text.deadline} "
              f"(this reminder goes {text.before} before it). {DEADLINE_NOTE}"),
        "",
        f"The turn mail of turn {text.since} has your view. To answer:",
        "",
        f"  pbem view {folder} --as {player} --key {key}",
        f"  pbem move {folder} --as {player} --key {key} \\",
        f"      --choose NUMBER --mail {text.referee}",
        "",
        f"and send the mail file pbem move writes to {text.referee}.",
    ]
    return "\n".join(lines) + "\n"


def seat_notice_body(game_id: str, game: str, player: str, turn: int, key: str, previous: str) -> str:
    """To the previous holder of a seat: the referee handed it to another key (all public, in the log)."""
    return "\n".join([
        f"Game {game_id} ({game}).",
        "",
        _wrap(f"The referee handed {player}'s seat to another key ({key}) at turn {turn} (pbem takeover). "
              f"The key {previous} holds it no longer: the turns from {turn} on are sealed to the new key, "
              "and moves signed by the previous key are refused. pbem log shows it to every player."),
    ]) + "\n"


def spectator_body(game_id: str, game: str, turn: int, summary: str,
                   events: list[tuple[int, str, list[str]]], carried: str = "", schedule: str = "") -> str:
    """A spectator's digest; ``schedule``: when they get one (:data:`pbem.mail.spectators.SCHEDULES`)."""
    lines = [f"Game {game_id} ({game}), turn {turn}: the public record since the last mail.", ""]
    lines += _events_lines(events)
    lines += [summary, "", _wrap(f"{carried} game.toml and the referee's head (head.json) are attached too: pbem mail "
                                 "unpack builds a copy of the game from them, which pbem log and pbem verify read.")]
    if schedule:
        lines += ["", _wrap(f"You get these digests {schedule}. To change it, mail the referee a line "
                            "of its own:"), "", "  digest step", "  digest daily", "  digest end"]
    return "\n".join(lines) + "\n"


def _events_lines(events: list[tuple[int, str, list[str]]]) -> list[str]:
    if not events:
        return []
    lines = ["What happened since your last mail:"]
    if len(events) > EVENTS_SHOWN:
        lines.append(f"  ({len(events) - EVENTS_SHOWN} earlier turns: see pbem log)")
    for turn, head, items in events[-EVENTS_SHOWN:]:
        lines.append(f"  turn {turn}: {head}")
        lines += [f"      {item}" for item in items]
    return lines + [""]


def merged(answer: EmailMessage, turn: EmailMessage) -> EmailMessage:
    """One mail in place of an ``answer`` and a ``turn`` mail to the same address: the turn mail's Subject,
    the answer's text then the turn's, the answer's thread and marks (a reply to it is a reply to an answer),
    and each attachment of both once (the turn mail's, of a name both carry: its head is the newer)."""
    texts = [part.get_content() for part in (answer.get_body(("plain",)), turn.get_body(("plain",)))
             if part is not None]
    message = new_message(answer["From"], [turn["To"]], turn["Subject"], "\n".join(texts),
                          automatic="auto-replied")
    for name in ("In-Reply-To", "References"):
        if answer[name]:
            message[name] = answer[name]
    names: set[str] = set()
    for part in (*turn.iter_attachments(), *answer.iter_attachments()):
        filename, data = part.get_filename(), part.get_payload(decode=True)
        if isinstance(filename, str) and isinstance(data, bytes) and filename not in names:
            names.add(filename)
            attach(message, filename, data)
    return message

"""``pbem mail``: the e-mail transport's commands (a Typer sub-app joined to ``pbem``).

* ``pbem mail serve --config FILE --once | --poll SECONDS`` — the referee's loop;
* ``pbem mail unpack MAIL... --into DIR`` — a player files a turn mail into their copy of the game;
* ``pbem mail request DIR --as NAME --key KEY`` — a player asks the referee for the turns their copy lacks;
* ``pbem mail send FILE... --config FILE`` — a player sends a move or join file (or an .eml) by SMTP.

``pbem move --mail ADDRESS`` and ``pbem join --mail ADDRESS`` write a ready
``.eml`` beside the file (:func:`write_mail_file`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from pbem.cli.exits import fail as _fail
from pbem.cli.exits import guard as _guard
from pbem.cli.output import say
from pbem.cli.rounds import CLOCK_BEHIND, serve_rounds
from pbem.mail.errors import MailConfigError, MailError, MailServerError
from pbem.referee.errors import ClockWentBack, LockBusy
from pbem.referee.lock import DEFAULT_WAIT

if TYPE_CHECKING:  # pragma: no cover
    from pbem.crypto.keys import PrivateKey
    from pbem.mail.serve import ServeReport
    from pbem.referee.tick import TickReport

# The mail modules are imported by the commands that use them: `pbem status`
# and the other commands of the main app do not pay for them (docs/performance.md,
# "Deferred imports").

app = typer.Typer(
    name="mail",
    help="Play by e-mail: the referee's mail loop (serve), and the players' unpack and send.",
    no_args_is_help=True,
)


def _run(action: Callable[[], Any], file: Path | None = None) -> Any:
    """A library call: mail errors and the referee's errors become a message and an exit code."""
    try:
        return _guard(action, file)
    except MailError as error:
        _fail(str(error), error.exit_code, error.reason)


def write_mail_file(target: Path, data: bytes, to: str, sender: str | None) -> None:
    """``--mail``: write ``target`` with the suffix ``.eml``, a mail carrying the file to ``to``."""
    from pbem.mail import compose
    from pbem.mail.player import file_mail
    from pbem.referee.storage import atomic_write

    message = _run(lambda: file_mail(data, target.name, to, sender))
    eml = target.with_suffix(".eml")
    _run(lambda: atomic_write(eml.resolve(), compose.message_bytes(message)))
    say(f"mail ready: {eml} (to {to}): send it from your mail client, or: pbem mail send {eml} --config FILE")


@app.command()
def serve(
    config: Path = typer.Option(..., "--config", metavar="FILE", help="The referee's mail configuration (TOML)."),
    once: bool = typer.Option(
        False, "--once", help="Read the mailbox once, answer, send, and exit (for cron or a timer)."),
    poll: float | None = typer.Option(
        None, "--poll", metavar="SECONDS", min=1.0,
        help="Run again every SECONDS until stopped (SIGINT or SIGTERM end it after the round).",
    ),
    progress: bool | None = typer.Option(
        None, "--progress/--quiet", help="One line per mail on stderr (default: when stderr is a terminal)."
    ),
    wait: float = typer.Option(
        DEFAULT_WAIT, "--wait", metavar="SECONDS", help="Seconds to wait for a game directory another referee holds."),
) -> None:
    """The referee's mail loop: submit the move and join files that arrive, answer every mail, mail each player their turn.

    Each round also ticks every game (pbem tick): decisions past their
    deadline are answered with the game's default action, and each reminder
    due is mailed once. The referee's clock is $PBEM_NOW, else the system's.

    Exit codes: 0 done; 20 some mails wait for the next run (a game was busy
    or damaged; the message says which); 24 a game waits for the referee's
    clock (its latest turn is stamped later than now); 30 the configuration;
    31 a mail server could not be reached (the answers stay queued and go
    next run).
    """
    from pbem.crypto.keys import load_private_key
    from pbem.mail.config import MailConfig
    from pbem.mail.serve import serve_once

    if once == (poll is not None):
        _fail("give exactly one of --once and --poll SECONDS")
    settings: MailConfig = _run(lambda: MailConfig.read(config), config)
    _run(lambda: settings.require("key"))
    key = _run(lambda: load_private_key(settings.key), settings.key)  # type: ignore[arg-type]
    show = sys.stderr.isatty() if progress is None else progress
    tell = (lambda line: say(line, err=True)) if show else None
    serve_rounds(lambda: serve_once(settings, key, tell, wait), _report_code, MailServerError, poll, _run)


def _report_code(report: ServeReport) -> int:
    """Say on stderr what must be looked at; the exit code of a run."""
    for line in report.held:
        say(f"pbem: {line}", err=True)
    for line in report.set_aside:  # each once: a mail set aside is never read again
        say(f"pbem: {line}", err=True)
    if report.flush.error:
        say(f"pbem: {report.flush.kept} mails stay queued: {report.flush.error}", err=True)
        return MailServerError.exit_code
    if report.clock_behind:
        say(CLOCK_BEHIND, err=True)
        return ClockWentBack.exit_code
    # a mail held back (its game busy or damaged) waits for the next run, as under a busy lock
    return LockBusy.exit_code if report.held else 0


def tick_mail(config: Path, key: PrivateKey, directory: Path, now: datetime | None, wait: float,
              quiet: bool) -> tuple[TickReport, list[str]]:
    """``pbem tick --config``: tick one served game, mail its reminders (each once) and turn mails."""
    from pbem.mail.config import MailConfig
    from pbem.mail.serve import tick_with_mail

    settings: MailConfig = _run(lambda: MailConfig.read(config), config)
    tell = None if quiet or not sys.stderr.isatty() else (lambda line: say(line, err=True))
    done = _run(lambda: tick_with_mail(settings, key, directory, tell, now=now, wait=wait))
    if done.flush.error:
        _fail(f"{done.flush.kept} mails stay queued: {done.flush.error}", MailServerError.exit_code, MailServerError.reason)
    return done.tick, done.mailed


def mail_state(config: Path) -> Path:
    """The state directory of a mail configuration (where the mail loop anchors the games it serves)."""
    from pbem.mail.config import MailConfig

    settings: MailConfig = _run(lambda: MailConfig.read(config), config)
    _run(lambda: settings.require("state"))
    assert settings.state is not None
    return settings.state


def record_seat_address(config: Path, directory: Path, seat: str, fingerprint: str, address: str) -> None:
    """``pbem takeover --address``: where the new holder of ``seat`` gets mail, in the mail state of ``config``."""
    from pbem.mail.config import MailConfig, check_address
    from pbem.mail.record import MailRecord
    from pbem.referee.gamefile import GameFile
    from pbem.referee.layout import GameDir

    settings: MailConfig = _run(lambda: MailConfig.read(config), config)
    _run(lambda: settings.require("state"))
    try:
        check_address(address, "--address")
    except MailConfigError as error:
        _fail(str(error))
    game_id = _run(lambda: GameFile.read(GameDir.at(directory).game_toml)).game_id
    record = MailRecord(settings.state)  # type: ignore[arg-type]
    _run(record.create)
    _run(lambda: record.set_address(game_id, seat, fingerprint, address))


@app.command()
def unpack(
    files: list[Path] = typer.Argument(
        ..., metavar="MAIL", help="Mails from the referee (.eml), or their saved attachments."),
    into: Path = typer.Option(..., "--into", metavar="DIR", help="Your copy of the game directory (created if new)."),
) -> None:
    """File the referee's mails into your copy of the game: game.toml, the turns, the seat records and the
    referee's head, each checked against the referee's signature and the turns next to it.

    Mails may come in any order, twice, or not at all: each file is filed
    once, and a copy with gaps works. Then `pbem view DIR`, `pbem move DIR`,
    `pbem status`, `pbem log` and `pbem verify` work on that copy.
    """
    from pbem.mail.player import unpack as unpack_mail
    from pbem.referee.copies import turns_text

    done = _run(lambda: unpack_mail(list(files), into))
    if done.turns_written:
        filed = ", ".join(str(n) for n in done.turns_written)
        say(f"game {done.game_id}: turn{'s' if len(done.turns_written) > 1 else ''} {filed} filed in {into}")
    elif done.game_toml_written or done.joins_written:
        filed = ", ".join(["game.toml"] * done.game_toml_written + [f"joins/{n}" for n in done.joins_written])
        say(f"game {done.game_id}: {filed} filed in {into} (join with: pbem join {into} --as NAME --key KEYFILE)")
    elif not done.head_written:
        say(f"game {done.game_id}: nothing new for {into}")
    if done.head is not None:
        say(f"the referee's head: turn {done.head.turn}, written {done.head.time}"
            + (f"; your copy is behind (its latest turn is {done.latest}): newer turns exist; "
               f"pbem mail request {into} --as NAME --key KEYFILE --mail REFEREE asks for them"
               if done.behind else ""))
    if done.missing:
        say(f"your copy lacks {turns_text(done.missing)} (a mail that did not arrive); it works without them, and "
            f"pbem mail request asks the referee for them")
    if done.latest is not None:
        say(f"latest turn: {done.latest}; your view: pbem view {into} --as NAME --key KEYFILE")


@app.command()
def request(
    directory: Path = typer.Argument(..., metavar="DIR", help="Your copy of the game (pbem mail unpack filled it)."),
    player: str = typer.Option(..., "--as", metavar="NAME", help="Your player name."),
    key: Path = typer.Option(..., "--key", metavar="KEYFILE",
                             help="Your private key file: the key that holds your seat."),
    out: Path | None = typer.Option(None, "--out", metavar="FILE",
                                    help="Where to write the request (default ./request-NAME.json)."),
    mail: str | None = typer.Option(None, "--mail", metavar="ADDRESS",
                                    help="Also write FILE.eml, a mail carrying the request to this address."),
    sender: str | None = typer.Option(None, "--from", metavar="ADDRESS", help="The From address of the --mail file."),
    game: str | None = typer.Option(
        None, "--game", metavar="ID", help="The game id, for a copy that holds nothing yet (the new holder of a seat "
                                           "whose first mail did not arrive): every turn is asked for."),
) -> None:
    """Ask the referee for the turns your copy lacks: a signed request, which the referee answers once, with a
    turn mail to your seat's address carrying those turns and every later one.

    Send it as a move: pbem mail send FILE (or attach it to a mail). Only a
    request signed with the key that holds the seat is answered, and only to
    the seat's own address.
    """
    from pbem.crypto.keys import load_private_key
    from pbem.referee.copies import turns_text
    from pbem.referee.requests import first_request, make_request
    from pbem.referee.storage import atomic_write

    private = _run(lambda: load_private_key(key, name=player), key)
    if game is not None and not (directory / "game.toml").exists():
        data, held = _run(lambda: first_request(game, player, private)), "your copy holds nothing yet"
    else:
        data, holdings = _run(lambda: make_request(directory, player, private))
        held = (f"your copy holds turns up to {holdings.latest}"
                + (f" and lacks {turns_text(holdings.missing)}" if holdings.missing else "")
                if holdings.latest is not None else "your copy holds no turn yet")
    target = out or Path(f"request-{player}.json")
    _run(lambda: atomic_write(target.resolve(), data))
    say(f"request written: {target} ({held}; the referee sends those and every later turn)")
    if mail is not None:
        write_mail_file(target, data, mail, sender)
    else:
        say(f"send it: pbem mail send {target} --config FILE")


@app.command()
def send(
    files: list[Path] = typer.Argument(
        ..., metavar="FILE", help="Move, join or request files, or .eml files (pbem move --mail wrote them)."),
    config: Path = typer.Option(
        ..., "--config", metavar="FILE", help="Your mail configuration: address, referee and [smtp]."),
    to: str | None = typer.Option(
        None, "--to", metavar="ADDRESS", help="Send to this address instead of the configuration's referee."),
) -> None:
    """Send move, join or request files to the referee by SMTP."""
    from pbem.mail.config import MailConfig
    from pbem.mail.player import file_mail
    from pbem.mail.sending import saved_mail, send_now

    settings: MailConfig = _run(lambda: MailConfig.read(config), config)
    _run(lambda: settings.require("address", "smtp"))
    target = to or settings.referee
    messages = []
    for path in files:
        data = _run(path.read_bytes, path)
        if path.suffix == ".json":
            if target is None:
                _fail(f"{config}: no referee address to send {path} to; give --to")
            messages.append(_run(partial(file_mail, data, path.name, target, settings.address), path))
            continue
        messages.append(_run(partial(saved_mail, data, str(path), settings.address, to, settings.referee), path))
    _run(lambda: send_now(settings.smtp, messages))  # type: ignore[arg-type]
    for path, message in zip(files, messages, strict=True):
        say(f"sent {path} to {message['To']}")

"""``pbem git``: the git transport's commands (a Typer sub-app joined to ``pbem``).

* ``pbem git serve --config FILE --once | --poll SECONDS`` — the referee's loop;
* ``pbem git send FILE...`` — a player pushes move or join files to their inbox.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from pbem.cli.exits import fail as _fail
from pbem.cli.exits import guard as _guard
from pbem.cli.output import say
from pbem.cli.rounds import CLOCK_BEHIND, serve_rounds
from pbem.git.errors import GitError, GitRemoteError
from pbem.mail.errors import MailError, MailServerError
from pbem.referee.errors import ClockWentBack, LockBusy
from pbem.referee.lock import DEFAULT_WAIT

if TYPE_CHECKING:  # pragma: no cover
    from pbem.git.serve import ServeReport

# The git modules are imported by the commands that use them: `pbem status` and the other commands of the
# main app do not pay for them (docs/performance.md, "Deferred imports").

app = typer.Typer(
    name="git",
    help="Play by git: the referee's loop over a shared repository (serve), and the players' send.",
    no_args_is_help=True,
)


def _run(action: Callable[[], Any], file: Path | None = None) -> Any:
    """A library call: git errors and the referee's errors become a message and an exit code."""
    try:
        return _guard(action, file)
    except (GitError, MailError) as error:  # MailError: the mail configuration of the turn notices
        _fail(str(error), error.exit_code, error.reason)


@app.command()
def serve(
    config: Path = typer.Option(..., "--config", metavar="FILE", help="The referee's git configuration (TOML)."),
    once: bool = typer.Option(
        False, "--once", help="Fetch, submit, commit and push once, and exit (cron, a timer, CI)."),
    poll: float | None = typer.Option(
        None, "--poll", metavar="SECONDS", min=1.0,
        help="Run again every SECONDS until stopped (SIGINT or SIGTERM end it after the round).",
    ),
    progress: bool | None = typer.Option(
        None, "--progress/--quiet", help="One line per file read and per commit on stderr (default: when stderr is a "
                                         "terminal)."),
    wait: float = typer.Option(
        DEFAULT_WAIT, "--wait", metavar="SECONDS", help="Seconds to wait for a game directory another referee holds."),
) -> None:
    """The referee's git loop: submit the files players push to their inboxes, commit and push the game branch.

    Each round fetches the game branch and the inboxes, submits every file
    new commits of an inbox add, ticks every game (decisions past their
    deadline get the game's default action), signs each game's head, and
    commits the referee's own game directories, with the answer to every
    file in the commit message, to the game branch. Nothing a player pushed
    is checked out or run. The referee's clock is $PBEM_NOW, else the system's.

    Exit codes: 0 done; 20 a game was busy or damaged (the message says
    which; its files wait for the next run); 24 a game waits for the
    referee's clock (its latest turn is stamped later than now); 40 the configuration; 41 the
    shared repository could not be reached or refused the push (the commit
    is pushed next run); with mail = FILE in the configuration, 30 that mail
    configuration and 31 its SMTP server (the turn notices stay queued).
    """
    from pbem.crypto.keys import load_private_key
    from pbem.git.config import GitConfig
    from pbem.git.serve import serve_once

    if once == (poll is not None):
        _fail("give exactly one of --once and --poll SECONDS")
    settings: GitConfig = _run(lambda: GitConfig.read(config), config)
    _run(lambda: settings.require("remote", "key", "state", "games"))
    key = _run(lambda: load_private_key(settings.key), settings.key)  # type: ignore[arg-type]
    show = sys.stderr.isatty() if progress is None else progress
    tell = (lambda line: say(line, err=True)) if show else None
    serve_rounds(lambda: serve_once(settings, key, tell, wait), _report_code, GitRemoteError, poll, _run)


def _report_code(report: ServeReport) -> int:
    """Say on stderr what must be looked at; the exit code of a run."""
    for line in report.held:
        say(f"pbem: {line}", err=True)
    if report.push_error:
        say(f"pbem: the game branch stays to be pushed: {report.push_error}", err=True)
        return GitRemoteError.exit_code
    if report.mail_error:
        say(f"pbem: {report.mail_error}", err=True)
        return MailServerError.exit_code
    if report.clock_behind:
        say(CLOCK_BEHIND, err=True)
        return ClockWentBack.exit_code
    # a game held back (busy or damaged): its files wait for the next run, as under a busy lock
    return LockBusy.exit_code if report.held else 0


@app.command()
def send(
    files: list[Path] = typer.Argument(
        ..., metavar="FILE", help="Move or join files (pbem move, pbem join wrote them)."),
    directory: Path = typer.Option(Path("."), "--dir", metavar="CLONE", help="Your clone of the shared repository."),
    remote: str = typer.Option(
        "origin", "--remote", metavar="NAME|URL", help="The shared repository: a remote of your clone, or a URL."),
    inbox: str | None = typer.Option(
        None, "--inbox", metavar="REF", help="Your inbox ref (default: inbox/PLAYER, the player the files name)."),
) -> None:
    """Push move or join files to your inbox in the shared repository, for the referee's next run.

    One commit on your inbox ref, pushed as a fast-forward; your clone's
    branches and files are left as they are. The referee answers in its next
    commit of the game branch (git pull; git log -1).
    """
    from pbem.git.send import send as send_files

    sent = _run(lambda: send_files(directory, list(files), remote=remote, inbox=inbox))
    short = sent.ref.removeprefix("refs/heads/")
    if sent.commit is None:
        say(f"nothing sent: {short} of {remote} holds {', '.join(sent.names)} as they are already (the referee "
            "answers each file once: git log of the game branch; to send a file again, give it another name)")
        return
    say(f"sent {', '.join(sent.names)} to {short} of {remote} (commit {sent.commit[:12]})")
    say("the referee answers in its next commit of the game branch: git pull, then git log -1")

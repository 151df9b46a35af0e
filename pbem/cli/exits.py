"""How a command of ``pbem`` ends: the library's errors become a message and an exit code.

Only the command line prints and exits (the library raises). Every error
a command reports has its own exit code and reason, numbered once, on the
error classes; :data:`EXIT_ERRORS` lists them and :data:`EXIT_CODES` says
what each code means (the table of README and ``docs/referee.md``). A
command run with ``--json`` reports its failure as one ``pbem-cli-error/1``
document on stdout (:func:`json_output`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from pbem.cli.output import say
from pbem.crypto.errors import CryptoError, KeyFileError
from pbem.engine.errors import EngineError
from pbem.referee.errors import (
    REFUSALS,
    ClockAhead,
    ClockWentBack,
    FileError,
    GameDirError,
    HistoryLost,
    InternalError,
    KeyMismatch,
    LockBusy,
    NotRevealed,
    RefereeError,
    Refusal,
    RevealRefused,
    SetupError,
    TakeoverRefused,
    UndoRefused,
    UsageError,
    VerificationFailed,
)

if TYPE_CHECKING:  # pragma: no cover
    from pbem.git.errors import GitError
    from pbem.mail.errors import MailError

    #: every error a command reports, each with its own exit code and reason: the one place the codes are
    #: numbered (tests/cli/test_exit_codes.py checks that they are unique, that no command exits with a
    #: number written elsewhere, and the tables of docs/referee.md and README against :data:`EXIT_CODES`).
    #: A usage error of the command line itself (click's) exits with :class:`UsageError`'s code too.
    EXIT_ERRORS: tuple[type[RefereeError | KeyFileError | MailError | GitError], ...]
    #: exit code -> meaning
    EXIT_CODES: dict[int, str]


def __getattr__(name: str) -> Any:
    """:data:`EXIT_ERRORS` and :data:`EXIT_CODES`, made when first read: they name the errors of ``pbem mail``
    and ``pbem git``, whose modules no other command imports."""
    if name not in ("EXIT_ERRORS", "EXIT_CODES"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from pbem.git.errors import GitConfigError, GitRemoteError
    from pbem.mail.errors import MailConfigError, MailFileError, MailServerError

    errors: tuple[type[RefereeError | KeyFileError | MailError | GitError], ...] = (
        FileError,
        UsageError,
        GameDirError,
        KeyMismatch,
        VerificationFailed,
        SetupError,
        KeyFileError,
        *REFUSALS,
        LockBusy,
        RevealRefused,
        ClockWentBack,
        TakeoverRefused,
        ClockAhead,
        HistoryLost,
        NotRevealed,
        UndoRefused,
        MailConfigError,
        MailServerError,
        MailFileError,
        GitConfigError,
        GitRemoteError,
        InternalError,
    )
    globals().update(EXIT_ERRORS=errors,
                     EXIT_CODES={0: "success", **{error.exit_code: _meaning(error) for error in errors}})
    return globals()[name]


def _meaning(error: type[RefereeError | KeyFileError | MailError | GitError]) -> str:
    """An exit code's meaning: its error's reason and the first paragraph of its docstring."""
    summary = " ".join((error.__doc__ or "").strip().split("\n\n")[0].split())
    return f"{'move refused: ' if issubclass(error, Refusal) else ''}{error.reason}: {summary}"


#: set (to anything but empty or 0), an error no check foresaw shows its traceback (for debugging)
TRACEBACK_ENV = "PBEM_TRACEBACK"

#: set by a command run with ``--json``: its failures are then printed as a
#: ``pbem-cli-error/1`` document on stdout (and nothing on stderr), so that a
#: script reads one JSON document whatever happened
_json_errors = False


def json_output(on: bool) -> None:
    global _json_errors
    _json_errors = on


def print_error(message: str, code: int, reason: str, file: Path | str | None) -> None:
    from pbem.referee import formats

    doc = {"format": formats.CLI_ERROR, "code": code, "reason": reason, "message": message,
           "file": str(file) if file is not None else None}
    emit_json(doc)


def fail(message: str, code: int = UsageError.exit_code, reason: str = UsageError.reason,
          file: Path | str | None = None) -> NoReturn:
    """Stop with ``code``: the message on stderr, or with ``--json`` a ``pbem-cli-error/1`` on stdout."""
    if _json_errors:
        print_error(message, code, reason, file)
    else:
        say(f"pbem: {message}", err=True)
    raise typer.Exit(code)


def exit_for(error: Exception, file: Path | str | None = None) -> NoReturn:
    """Print a library error and exit with its code; re-raise what is not ours (a bug)."""
    if isinstance(error, VerificationFailed):
        fail(str(error), error.exit_code, error.reason, error.path or file)
    if isinstance(error, RefereeError):
        fail(str(error), error.exit_code, error.reason, file)
    if isinstance(error, KeyFileError):
        fail(f"key file: {error}", error.exit_code, error.reason, file)
    if isinstance(error, CryptoError):  # a signature or a sealed section of the game's files that does not hold
        fail(str(error), GameDirError.exit_code, GameDirError.reason, file)
    if isinstance(error, EngineError):
        fail(str(error), SetupError.exit_code, SetupError.reason, file)
    if isinstance(error, OSError):
        fail(str(error), FileError.exit_code, FileError.reason, file if file is not None else error.filename)
    raise error


def guard(action: Callable[[], Any], file: Path | str | None = None) -> Any:
    """Run a library call; turn its errors into a message and an exit code."""
    try:
        return action()
    except (RefereeError, CryptoError, EngineError, OSError) as error:
        exit_for(error, file)


def emit_json(doc: dict[str, Any]) -> None:
    from pbem.referee import formats

    problem = formats.format_problem(doc, doc["format"])
    assert problem is None, problem  # the output schema is a promise
    say(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False))


def unexpected(error: Exception) -> NoReturn:
    """The last line of defence: an error no command expects (every input pbem reads is checked, and each
    refusal has its code) ends the command with one line and :class:`~pbem.referee.errors.InternalError`'s
    code, not a traceback; ``$PBEM_TRACEBACK`` set shows the traceback instead."""
    import os

    if os.environ.get(TRACEBACK_ENV, "") not in ("", "0"):
        raise error
    what = " ".join(str(error).split())
    what = what if len(what) <= 300 else what[:300] + "..."
    fail(f"internal error: {type(error).__name__}{': ' + what if what else ''} (a bug of pbem or of the game, on "
         f"an input it does not check; please report it: {TRACEBACK_ENV}=1 shows where)",
         InternalError.exit_code, InternalError.reason)

"""The referee's errors: one class per kind of refusal, each with its exit code.

A :class:`Refusal` is a move the referee will not apply. It carries a
``reason`` code (written in the signed rejection notice) and the ``exit_code``
the command line returns. Codes are part of the documented interface
(``docs/referee.md``); never renumber one.

Errors that are not refusals of a move (a damaged game directory, a key that
does not fit, a failed verification) have their own classes and codes. The
words a message names the awaited players with (:func:`awaiting_text`) are
here, where every refusal and every reader of a game can take them.
"""

from __future__ import annotations

from typing import Any


def awaiting_text(awaiting: list[dict[str, Any]]) -> str:
    """Who is awaited and for what: ``bob (draw, since turn 2), carol (block, since turn 3)``, or ``nobody``.

    ``awaiting`` is a turn's public list (``player``, ``kind``, ``since``, and
    ``deadline`` in a game with deadlines).
    """
    if not awaiting:
        return "nobody"
    return ", ".join(f"{a['player']} ({a['kind']}, since turn {a['since']}"
                     + (f", deadline {a['deadline']}" if "deadline" in a else "") + ")" for a in awaiting)


class RefereeError(Exception):
    """Base of every error the referee library raises."""

    exit_code = 1
    reason = "error"


# --- refusals of a move (pipeline order) -----------------------------------


class Refusal(RefereeError):
    """A move the referee refuses; nothing in the game changes.

    ``index`` is the position of the failing choice in the move's list, when
    one choice is to blame. ``sender`` is the seated player whose signature
    the file carries, once the pipeline has checked it (``None`` before):
    the notice of an authenticated sender takes that player's slot in
    ``rejected/``, anyone else's the slot of unknown senders.
    """

    def __init__(self, message: str, *, player: str | None = None, move_hash: str | None = None,
                 index: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.player = player
        self.move_hash = move_hash
        self.index = index
        self.sender: str | None = None
        #: path of the signed rejection notice, once written
        self.rejection: str | None = None

    def add_note(self, note: str) -> None:
        """Append ``note`` to the message (e.g. that no notice could be written)."""
        self.message = f"{self.message} ({note})"
        self.args = (self.message,)


class UnreadableMove(Refusal):
    """Not a JSON document we can read: oversized, too deep, bad UTF-8, duplicate keys."""

    exit_code = 10
    reason = "unreadable"


class SchemaInvalidMove(Refusal):
    """JSON, but not a ``pbem-move/1`` document (or an unknown format version)."""

    exit_code = 11
    reason = "schema-invalid"


class OtherGameMove(Refusal):
    """The move names another game id."""

    exit_code = 12
    reason = "other-game"


class UnknownPlayerMove(Refusal):
    """The move's player is not seated in this game."""

    exit_code = 13
    reason = "unknown-player"


class BadSignatureMove(Refusal):
    """The signature is not the named player's."""

    exit_code = 14
    reason = "bad-signature"


class GameOverMove(Refusal):
    """The game has ended; no move is applied any more."""

    exit_code = 15
    reason = "game-over"


class StaleMove(Refusal):
    """The move answers a turn that is no longer the one its player must answer."""

    exit_code = 16
    reason = "stale"


class NotYourDecisionMove(Refusal):
    """No decision of this player is awaited."""

    exit_code = 17
    reason = "not-your-decision"


class IllegalMove(Refusal):
    """A choice is not among the options of the awaited decision."""

    exit_code = 18
    reason = "illegal"


class UnexpectedJoin(Refusal):
    """A join file the game does not wait for: dealt already, never waited, a second commitment, or a nonce too early or not matching its commitment."""

    exit_code = 21
    reason = "not-joining"


class RefereeFailed(Refusal):
    """The referee failed on this file: the next turn would be too large to seal, or a bug in pbem or the game."""

    exit_code = 23
    reason = "referee-failed"


class AlreadyApplied(Refusal):
    """This very move (same hash) was applied before; nothing to do."""

    exit_code = 19
    reason = "already-applied"


# --- not refusals -----------------------------------------------------------


class UsageError(RefereeError):
    """The command was given something it cannot use: bad or missing arguments, or a standing order for a
    decision kind the game lacks."""

    exit_code = 2
    reason = "usage"


class LockBusy(RefereeError):
    """Another referee holds the game directory's lock and did not let go in time."""

    exit_code = 20
    reason = "lock-busy"


class RevealRefused(RefereeError):
    """``reveal`` while the game is running, without ``--force`` (which abandons the game)."""

    exit_code = 22
    reason = "game-running"


class ClockWentBack(RefereeError):
    """The referee's clock is earlier than the latest time the game recorded; nothing changed."""

    exit_code = 24
    reason = "clock-went-back"


class ClockAhead(RefereeError):
    """``--now`` is far ahead of this machine's clock (more than :data:`pbem.referee.clock.AHEAD_MAX`); nothing
    changed.

    A game with deadlines records the referee's clock in every turn, and a
    later step at an earlier clock is refused (:class:`ClockWentBack`): a
    turn stamped a day ahead would make every run at the real clock, the
    mail and git loops' too, refuse the game until that day. ``--force-now``
    takes such a clock all the same.
    """

    exit_code = 27
    reason = "clock-ahead"


class TakeoverRefused(RefereeError):
    """A seat cannot be handed over now: the game is not dealt or is over, or the key holds a seat already."""

    exit_code = 25
    reason = "takeover-refused"


class HistoryLost(RefereeError):
    """The game directory no longer holds the latest turn the referee signed (its anchor names it): turns were
    dropped or rewritten; nothing changed.

    The referee keeps, in its state directory, where no player writes, the
    head of every game it steps (:mod:`pbem.referee.head`), and refuses to
    step from a history that lost it: a player who could remove the newest
    turn (from a shared folder or a git branch) would otherwise take back a
    move after seeing what it drew. ``path`` names the anchor.
    """

    exit_code = 26
    reason = "history-lost"

    def __init__(self, message: str, path: object = None) -> None:
        super().__init__(message)
        self.path = str(path) if path is not None else None


class NotRevealed(RefereeError):
    """A look back over a game's turns as a seat saw them, while the game is running and its seed secret: it
    would show what the seats may not know yet; nothing is shown."""

    exit_code = 28
    reason = "not-revealed"


class UndoRefused(RefereeError):
    """A rollback the referee may not make: not every seat consented, a consent is forged or for another game,
    turn or head, the turn is not in the chain, the game is over or revealed, or a seat was handed over since
    that turn; nothing changed."""

    exit_code = 29
    reason = "undo-refused"


class InternalError(RefereeError):
    """An error no check foresaw, on some input: a bug of pbem or of a game. The command line says so in one
    line, with the error's kind, and shows no traceback (``PBEM_TRACEBACK=1`` shows it)."""

    exit_code = 70  # sysexits.h's EX_SOFTWARE, "an internal software error"
    reason = "internal-error"


class GameDirError(RefereeError):
    """The game directory is missing, damaged or of an unknown format version.

    ``path`` names the file to blame, when one is.
    """

    exit_code = 3
    reason = "bad-game-directory"

    def __init__(self, message: str, path: object = None) -> None:
        super().__init__(message)
        self.path = str(path) if path is not None else None


class FileError(RefereeError):
    """A file could not be read or written (the operating system's error)."""

    exit_code = 1
    reason = "io-error"


class StateFileError(FileError):
    """The player's own record of the turns they saw (``pbem view``) cannot be read or written."""


class KeyMismatch(RefereeError):
    """A key was given that is not the one this game names (referee or player)."""

    exit_code = 4
    reason = "wrong-key"


class VerificationFailed(RefereeError):
    """``verify`` found a bad file; ``path`` names the first one."""

    exit_code = 5
    reason = "verification-failed"

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


class SetupError(RefereeError):
    """The game cannot be set up: unknown game or scenario, wrong seat count, bad option, directory not
    empty (and ``keygen`` refuses to overwrite a key file)."""

    exit_code = 6
    reason = "setup"


#: every refusal class, in pipeline order (the documented exit-code table)
REFUSALS: tuple[type[Refusal], ...] = (
    UnreadableMove,
    SchemaInvalidMove,
    OtherGameMove,
    UnknownPlayerMove,
    BadSignatureMove,
    GameOverMove,
    StaleMove,
    NotYourDecisionMove,
    IllegalMove,
    UnexpectedJoin,
    RefereeFailed,
    AlreadyApplied,
)

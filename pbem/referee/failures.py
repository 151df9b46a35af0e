"""Whatever fails inside a referee step is a refusal with a notice, never a traceback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from pbem.crypto.errors import SealTooLarge
from pbem.referee.errors import GameDirError, RefereeFailed, Refusal


@contextmanager
def refusing_failures(sender: str | None = None, move_hash: str | None = None) -> Iterator[None]:
    """Whatever fails inside a referee step is a refusal, never a traceback.

    A refusal passes through (marked with its authenticated ``sender``); a
    damaged game directory (:class:`GameDirError`) and a failed read or write
    (:class:`OSError`) stop the step as they are. Anything else, a bug in pbem
    or in the game, or a next turn too large to seal, becomes
    :class:`RefereeFailed`, whose public message names no value from the
    file or the state (an exception's text may quote a hidden card).
    """
    try:
        yield
    except Refusal as refusal:
        if sender is not None:
            refusal.sender = sender
        raise
    except (GameDirError, OSError):
        raise
    except SealTooLarge as error:
        failure = RefereeFailed(
            f"the referee cannot apply this file: in the next turn, {error}; nothing changed",
            player=sender, move_hash=move_hash,
        )
        failure.sender = sender
        raise failure from error
    except Exception as error:
        failure = RefereeFailed(
            f"the referee failed on this file ({type(error).__name__}); nothing changed. This is a bug in pbem "
            "or in the game: report it with the file",
            player=sender, move_hash=move_hash,
        )
        failure.sender = sender
        raise failure from error

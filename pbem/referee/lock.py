"""One referee step at a time per game directory.

The lock is an advisory ``flock`` on ``.lock`` in the game directory. A
second referee waits for it up to a bounded time, then gives up with
:class:`~pbem.referee.errors.LockBusy` rather than waiting for ever.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pbem.referee.errors import GameDirError, LockBusy
from pbem.referee.layout import GameDir

#: seconds a referee waits for a busy game directory unless told otherwise
DEFAULT_WAIT = 30.0
_POLL = 0.05


@contextmanager
def locked(lock_path: Path, wait: float = DEFAULT_WAIT) -> Iterator[None]:
    """Hold the game directory's lock for the duration of the block.

    Every step that writes a game directory holds its lock, so this is where
    the directory is checked to hold no symbolic link (see
    :meth:`~pbem.referee.layout.GameDir.refuse_symlinks`) before anything
    is read or written.
    """
    if not lock_path.parent.is_dir():
        raise GameDirError(f"{lock_path.parent}: no such game directory")
    try:
        # never through a link: O_CREAT would create the file a dangling link names
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError:
        if lock_path.is_symlink():
            raise GameDirError(f"{lock_path}: a symbolic link; a game directory holds none: remove it") from None
        raise
    try:
        deadline = time.monotonic() + max(wait, 0.0)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise LockBusy(
                        f"{lock_path.parent}: another referee is working on this game "
                        f"(waited {wait:g} s); try again"
                    ) from None
                time.sleep(_POLL)
        try:
            GameDir(lock_path.parent).refuse_symlinks()
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)

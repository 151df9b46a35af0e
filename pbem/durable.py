"""Durable writes: a file is either the old one or the whole new one, never half.

Each write goes to a temporary file in the same directory, is flushed to
disk, then renamed over the target (atomic on POSIX) or, for a file that must
never be replaced (a key file), hard-linked to it; the directory itself is
then flushed so that the rename survives a crash.

The temporary file has a random name (``.tmp-NAME.RANDOM``) and is created
with ``O_EXCL | O_NOFOLLOW``: a file or a symbolic link planted where it will
be written, by someone who can write the directory, makes the write fail
instead of being written through. A crashed write leaves only such a file,
which :func:`remove_temp_files` finds by its prefix.

Used by the referee (game directories) and by :mod:`pbem.crypto.keys` (key
files), so it depends on nothing else in pbem.
"""

from __future__ import annotations

import os
from pathlib import Path

TEMP_PREFIX = ".tmp-"
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def temporary_name(path: Path) -> str:
    """A fresh, unguessable name for the temporary file of a write to ``path``."""
    # what secrets.token_hex(8) returns, without importing secrets and random for it (issue 9)
    return f"{TEMP_PREFIX}{path.name}.{os.urandom(8).hex()}"


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes, mode: int = 0o644, sync_dir: bool = True, replace: bool = True,
                 temp_dir: Path | None = None, sync: bool = True) -> None:
    """Write ``data`` to ``path`` atomically and durably, with exactly ``mode``.

    ``replace=False`` never replaces an existing ``path``: it raises
    :class:`FileExistsError` instead (the temporary file is linked, not
    renamed, into place). ``sync_dir=False`` leaves flushing the directory to
    the caller, who then calls :func:`fsync_dir` once after several writes in
    one directory. Raises :class:`FileExistsError` too if something already
    sits at the temporary name (a planted file or link). ``temp_dir`` (on
    the same file system) holds the temporary file instead of ``path``'s
    folder, so that a crashed write is found there. ``sync=False`` writes
    atomically but does not wait for the disk: for a file that can be
    rebuilt (after a crash, it may hold its old content).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = (path.parent if temp_dir is None else Path(temp_dir)) / temporary_name(path)
    fd = os.open(temp, _CREATE, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), mode)  # the umask may have changed it
            handle.write(data)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
        if replace:
            os.replace(temp, path)
        else:
            _link_new(temp, path, data, mode)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    if sync_dir and sync:
        fsync_dir(path.parent)


def _link_new(temp: Path, path: Path, data: bytes, mode: int) -> None:
    """Put ``temp`` at ``path`` unless ``path`` exists (then :class:`FileExistsError`)."""
    try:
        os.link(temp, path)
    except FileExistsError:
        raise
    except OSError:
        # a file system without hard links: create the file itself exclusively
        fd = os.open(path, _CREATE, mode)
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), mode)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    finally:
        temp.unlink(missing_ok=True)


def remove_temp_files(directory: Path, recursive: bool = True) -> list[Path]:
    """Delete temporary files a crashed write left behind in ``directory`` (and below, if ``recursive``); return them."""
    removed = []
    if directory.is_dir():
        for path in (directory.rglob if recursive else directory.glob)(TEMP_PREFIX + "*"):
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed

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

import contextlib
import os
from pathlib import Path

TEMP_PREFIX = ".tmp-"
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def temporary_name(path: Path) -> str:
    """A fresh, unguessable name for the temporary file of a write to ``path``."""
    # what secrets.token_hex(8) returns, without importing secrets, random and hmac for it at every command's
    # start-up (docs/performance.md, "Digests without hashlib")
    return f"{TEMP_PREFIX}{path.name}.{os.urandom(8).hex()}"


def fsync_dir(path: str | os.PathLike[str]) -> None:
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
    rebuilt (after a crash, it may hold its old content). ``path``'s folder
    is made (with its parents) when it is missing.

    Done on the file's name as a string with :mod:`os` calls alone: a referee
    step writes a dozen files, and :mod:`pathlib`'s objects, a buffered file
    and a ``mkdir`` of a folder that exists added some 50 µs to each write's
    120 µs of system calls.
    """
    path = Path(path)
    target = os.fspath(path)
    folder = os.path.dirname(target) or os.curdir
    if temp_dir is None:
        temp = os.path.join(folder, temporary_name(path))
        try:
            fd = os.open(temp, _CREATE, mode)
        except FileNotFoundError:  # the folder is missing (opening in it says so without a stat)
            os.makedirs(folder, exist_ok=True)
            fd = os.open(temp, _CREATE, mode)
    else:
        if not os.path.isdir(folder):
            os.makedirs(folder, exist_ok=True)
        temp = os.path.join(os.fspath(temp_dir), temporary_name(path))
        fd = os.open(temp, _CREATE, mode)
    try:
        try:
            os.fchmod(fd, mode)  # the umask may have changed it
            _write_all(fd, data)
            if sync:
                os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(temp, target)
        else:
            _link_new(temp, target, data, mode)
    except BaseException:
        _unlink(temp)
        raise
    if sync_dir and sync:
        fsync_dir(folder)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _unlink(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def _link_new(temp: str, path: str, data: bytes, mode: int) -> None:
    """Put ``temp`` at ``path`` unless ``path`` exists (then :class:`FileExistsError`)."""
    try:
        os.link(temp, path)
    except FileExistsError:
        raise
    except OSError:
        # a file system without hard links: create the file itself exclusively
        fd = os.open(path, _CREATE, mode)
        try:
            os.fchmod(fd, mode)
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
    finally:
        _unlink(temp)


def remove_temp_files(directory: Path, recursive: bool = True) -> list[Path]:
    """Delete temporary files a crashed write left behind in ``directory`` (and below, if ``recursive``); return them.

    Looks at the names of one listing per folder (:func:`os.scandir`), without following links.
    """
    removed = []
    pending = [os.fspath(directory)]
    while pending:
        try:
            listing = os.scandir(pending.pop())
        except (FileNotFoundError, NotADirectoryError):
            continue
        with listing:
            for entry in listing:
                if entry.name.startswith(TEMP_PREFIX):
                    _unlink(entry.path)
                    removed.append(Path(entry.path))
                elif recursive and entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
    return sorted(removed)

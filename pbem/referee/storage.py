"""Durable writes: a file is either the old one or the whole new one, never half.

Each write goes to a temporary file in the same directory, is flushed to
disk, renamed over the target (atomic on POSIX), and then the directory
itself is flushed so that the rename survives a crash.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

TEMP_PREFIX = ".tmp-"


def dump_json(doc: Any) -> bytes:
    """The bytes pbem writes for a JSON document: sorted keys, indented, UTF-8.

    Hashes and signatures use the canonical form (RFC 8785), so this layout
    is for people; it is also deterministic, so equal documents give equal files.
    """
    return (json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes, mode: int = 0o644, sync_dir: bool = True) -> None:
    """Replace ``path`` by ``data`` atomically and durably.

    ``sync_dir=False`` leaves flushing the directory to the caller, who then
    calls :func:`fsync_dir` once after several writes in one directory.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.parent / f"{TEMP_PREFIX}{path.name}.{os.getpid()}"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    if sync_dir:
        fsync_dir(path.parent)


def remove_temp_files(directory: Path) -> list[Path]:
    """Delete temporary files a crashed write left behind; return them."""
    removed = []
    if directory.is_dir():
        for path in directory.rglob(TEMP_PREFIX + "*"):
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed

"""How the referee writes a game directory's files: pbem's JSON layout, written durably.

The durable write itself (temporary file with a random name opened
``O_EXCL | O_NOFOLLOW``, flushed, renamed into place) is :mod:`pbem.durable`,
shared with the key files of :mod:`pbem.crypto.keys`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pbem.durable import TEMP_PREFIX, atomic_write, fsync_dir, remove_temp_files
from pbem.referee.layout import GameDir

__all__ = ["TEMP_PREFIX", "atomic_write", "dump_json", "fsync_dir", "remove_temp_files", "write_file"]


def write_file(gamedir: GameDir, path: Path, data: bytes, sync: bool = True) -> None:
    """Write one file of a game directory atomically (and durably, unless ``sync=False``).

    Its temporary file is made at the top of the game directory, so that
    the next step finds what a crash left behind without listing the
    folders that grow with the game (``turns/``, ``moves/``, ``rejected/``).
    """
    atomic_write(path, data, temp_dir=gamedir.root, sync=sync)


def dump_json(doc: Any) -> bytes:
    """The bytes pbem writes for a JSON document: sorted keys, indented, UTF-8.

    Hashes and signatures use the canonical form (RFC 8785), so this layout
    is for people; it is also deterministic, so equal documents give equal files.
    """
    return (json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")

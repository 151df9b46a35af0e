"""How the referee writes a game directory's files: pbem's JSON layout, written durably.

The durable write itself (temporary file with a random name opened
``O_EXCL | O_NOFOLLOW``, flushed, renamed into place) is :mod:`pbem.durable`,
shared with the key files of :mod:`pbem.crypto.keys`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson

from pbem.crypto.canonical import is_plain
from pbem.durable import TEMP_PREFIX, atomic_write, fsync_dir, remove_temp_files
from pbem.referee.layout import GameDir

__all__ = ["TEMP_PREFIX", "atomic_write", "dump_json", "fsync_dir", "laid_out_within_depth", "remove_temp_files",
           "write_file"]


def write_file(gamedir: GameDir, path: Path, data: bytes, sync: bool = True) -> None:
    """Write one file of a game directory atomically (and durably, unless ``sync=False``).

    Its temporary file is made at the top of the game directory, so that
    the next step finds what a crash left behind without listing the
    folders that grow with the game (``turns/``, ``moves/``, ``rejected/``).
    """
    atomic_write(path, data, temp_dir=gamedir.root, sync=sync)


def indented_json(doc: Any) -> bytes:
    """pbem's layout of a JSON document, by definition: sorted keys, indented, UTF-8.

    Hashes and signatures use the canonical form (RFC 8785), so this layout
    is for people; it is also deterministic, so equal documents give equal
    files. :func:`dump_json` writes the same bytes faster.
    """
    return (json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


#: orjson's options for pbem's layout: two spaces a level, names sorted (UTF-8 is its only output)
_LAYOUT = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS


def dump_json(doc: Any) -> bytes:
    """The bytes pbem writes for a JSON document: :func:`indented_json`'s, sooner.

    A plain document (:func:`~pbem.crypto.canonical.is_plain`: dicts with
    str names, lists, tuples, str, bool, None and integers within
    ±(2**53-1), no float) is written by orjson with two-space indentation
    and sorted names, which gives the standard library's bytes for it:
    names sorted by code point, the same escapes (a short form for the
    quotation mark, the backslash and five control characters; ``u`` and
    four hexadecimal digits in lower case after a backslash for the other
    control characters; nothing else escaped), integers in decimal, the
    same line breaks, ``[]`` and ``{}`` when empty
    (``tests/referee/test_file_layout.py`` compares the two over random
    documents, every character below U+0080 among them, and every file of
    real games). Anything else (a float, which orjson writes its own way; a
    type JSON does not read; nesting beyond orjson's limit) is left to
    :func:`indented_json`. orjson is 20 times faster on a turn than the
    standard library's C encoder walked from Python, which writing and
    checking the layout used before.
    """
    if is_plain(doc):
        try:
            return orjson.dumps(doc, option=_LAYOUT) + b"\n"
        except orjson.JSONEncodeError:  # nesting deeper than orjson goes
            pass
    return indented_json(doc)


def laid_out_within_depth(data: bytes, max_depth: int) -> bool:
    """Whether ``data``, known to be exactly :func:`dump_json`'s bytes for its document, shows that the
    document nests no deeper than ``max_depth``: no line of it is indented ``2 * max_depth`` spaces or more.

    In pbem's layout a value inside k arrays and objects that is not itself an empty one
    is written on a line of its own indented 2k spaces (a string never holds a
    line feed: JSON escapes it), and an empty array or object inside k is written
    ``[]`` or ``{}`` on a line indented 2k too, or after its name on such a line. So a
    document nesting d deep has a line indented 2(d - 1) or 2d, and one with no
    line indented 2 * ``max_depth`` or more nests at most ``max_depth`` deep. The
    converse fails only for a document nesting exactly ``max_depth`` deep whose
    deepest array or object is not empty, which the caller measures otherwise.
    """
    return b"\n" + b" " * (2 * max_depth - 1) not in data


def dump_json_and_compact(doc: Any, without: str, plain: bool | None = None) -> tuple[bytes, bytes] | None:
    """:func:`dump_json`'s bytes for the plain object ``doc``, and the compact text of ``doc`` without its
    member ``without`` (``None`` for a document that is not a plain object; ``plain``: whether it is, if
    the caller knows, as the strict reader does of what it has just read).

    The compact text is what the standard library's C encoder writes with sorted names and no whitespace
    (``json.dumps(..., separators=(",", ":"), sort_keys=True, ensure_ascii=False)``), which is the
    canonical form of a plain document unless a name holds a character beyond U+FFFF
    (:func:`pbem.crypto.canonical.compact_is_canonical`). A reader of a file that must be exactly the
    layout of its document, and whose signature covers the canonical form of the rest, thus has both.
    """
    if type(doc) is not dict or not doc or not (is_plain(doc) if plain is None else plain):
        return None
    try:
        laid = orjson.dumps(doc, option=_LAYOUT) + b"\n"
        compact = orjson.dumps({name: value for name, value in doc.items() if name != without},
                               option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        return None
    return laid, compact

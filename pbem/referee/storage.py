"""How the referee writes a game directory's files: pbem's JSON layout, written durably.

The durable write itself (temporary file with a random name opened
``O_EXCL | O_NOFOLLOW``, flushed, renamed into place) is :mod:`pbem.durable`,
shared with the key files of :mod:`pbem.crypto.keys`.
"""

from __future__ import annotations

import json
from json.encoder import c_encode_basestring, c_make_encoder  # type: ignore[attr-defined]
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


def indented_json(doc: Any) -> bytes:
    """pbem's layout of a JSON document, by definition: sorted keys, indented, UTF-8.

    Hashes and signatures use the canonical form (RFC 8785), so this layout
    is for people; it is also deterministic, so equal documents give equal
    files. :func:`dump_json` writes the same bytes faster.
    """
    return (json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


#: the line breaks of pbem's layout, by nesting level (two spaces a level)
_BREAKS = ["\n" + "  " * level for level in range(80)]
#: the values the standard library's C encoder writes the same at every level: no array, no object
_SCALARS = frozenset({str, int, float, bool, type(None)})


class _NotLaidOutHere(Exception):
    """A value :func:`dump_json` leaves to :func:`indented_json`."""


def _flat_encoder(level: int) -> Any:
    # json.dumps(indent=2) writes an array or object of scalars at nesting level ``level - 1`` as the C
    # encoder writes it with ",\n" and ``level``'s indentation between members, after the opening bracket
    # and the same break before the closing one; the C encoder runs only without ``indent``
    return c_make_encoder(None, _reject, c_encode_basestring, None, ": ", "," + _BREAKS[level], True, False, True)


def _reject(value: Any) -> Any:
    raise _NotLaidOutHere(type(value).__name__)


_FLAT = [_flat_encoder(level) for level in range(len(_BREAKS))] if c_make_encoder is not None else []


def dump_json(doc: Any) -> bytes:
    """The bytes pbem writes for a JSON document: :func:`indented_json`'s, sooner.

    ``json.dumps`` with ``indent`` runs the standard library's encoder in
    Python, value by value; here every array and object that holds no other
    is written by its C encoder at once (see :func:`_flat_encoder`), and only
    the ones that hold others are walked. Anything else (a type JSON does
    not read, nesting deeper than :data:`_BREAKS`, no C encoder) is left to
    :func:`indented_json` itself. Writing the files with ``indented_json``
    was a tenth of a referee step, and checking each turn's layout with it a
    fourteenth of ``pbem verify --replay``.
    """
    if not _FLAT:
        return indented_json(doc)
    out: list[str] = []
    try:
        _lay(doc, 0, out)
    except (_NotLaidOutHere, IndexError, TypeError, ValueError, RecursionError):
        return indented_json(doc)
    out.append("\n")
    return "".join(out).encode("utf-8")


def _lay(value: Any, level: int, out: list[str]) -> None:
    kind = type(value)
    if kind is dict:
        children = value.values()
    elif kind is list or kind is tuple:
        children = value
    elif kind in _SCALARS:
        out.append(_FLAT[0](value, 0)[0])
        return
    else:
        raise _NotLaidOutHere(kind.__name__)
    if not value:
        out.append("{}" if kind is dict else "[]")
        return
    inner, outer = _BREAKS[level + 1], _BREAKS[level]
    if all(type(child) in _SCALARS for child in children):
        text = _FLAT[level + 1](value, 0)[0]
        out.append(text[0] + inner + text[1:-1] + outer + text[-1])
        return
    between = "," + inner
    if kind is dict:
        out.append("{")
        for index, name in enumerate(sorted(value)):
            out.append((between if index else inner) + c_encode_basestring(name) + ": ")
            _lay(value[name], level + 1, out)
        out.append(outer + "}")
    else:
        out.append("[")
        for index, item in enumerate(value):
            out.append(between if index else inner)
            _lay(item, level + 1, out)
        out.append(outer + "]")

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


def _flat_encoder(level: int, colon: str = ": ", breaks: list[str] = _BREAKS) -> Any:
    # json.dumps(indent=2) writes an array or object of scalars at nesting level ``level - 1`` as the C
    # encoder writes it with ",\n" and ``level``'s indentation between members, after the opening bracket
    # and the same break before the closing one; the C encoder runs only without ``indent``
    return c_make_encoder(None, _reject, c_encode_basestring, None, colon, "," + breaks[level], True, False, True)


def _reject(value: Any) -> Any:
    raise _NotLaidOutHere(type(value).__name__)


_FLAT = [_flat_encoder(level) for level in range(len(_BREAKS))] if c_make_encoder is not None else []

#: what :func:`dump_json_and_compact` writes at first in place of each space of the layout (the one after a
#: name and those of the indentation): a control character, which no JSON text holds raw (a string escapes
#: every one; in UTF-8 no other character's bytes hold it), so that each is found again
_MARK = "\x01"
_MARK_BYTE = _MARK.encode("ascii")
_SPACE, _INDENT = _MARK, _MARK * 2
#: :data:`_BREAKS` and :data:`_FLAT` with those marks
_MARKED_BREAKS = ["\n" + _INDENT * level for level in range(len(_BREAKS))]
_MARKED = ([_flat_encoder(level, ":" + _SPACE, _MARKED_BREAKS) for level in range(len(_BREAKS))]
           if c_make_encoder is not None else [])


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


def dump_json_and_compact(doc: Any, without: str) -> tuple[bytes, bytes] | None:
    """:func:`dump_json`'s bytes for the object ``doc``, and the compact text of ``doc`` without its member
    ``without``, from one walk (``None`` for a document ``dump_json`` leaves to :func:`indented_json`).

    The compact text is what the standard library's C encoder writes with sorted names and no whitespace
    (``json.dumps(..., separators=(",", ":"), sort_keys=True, ensure_ascii=False)``), which is the
    canonical form of a plain document (:func:`pbem.crypto.canonical.canonical_json`). It is the layout
    without its whitespace: the layout writes every name and value as that encoder does (each array and
    object holding no other by the encoder itself, the names between by its string encoder), and puts
    between them only line breaks (a line feed and the indentation; a string escapes its line feeds, so
    none lies inside one) and the space of ``": "``. Here each of those spaces is first written as a mark
    (:data:`_MARK`) that no string holds raw either: the layout turns the marks into spaces, the compact
    text drops them and every line feed. A reader of a file that must
    be exactly the layout of its document, and whose signature covers the canonical form of the rest,
    thus serialises it once.
    """
    if not _MARKED or type(doc) is not dict or not doc:
        return None
    members: list[str] = []
    try:
        names = sorted(doc)
        for name in names:
            out = [c_encode_basestring(name), ":" + _SPACE]
            _lay(doc[name], 1, out, _MARKED, ":" + _SPACE, _MARKED_BREAKS)
            members.append("".join(out))
        kept = "{" + ",".join(text for name, text in zip(names, members, strict=True) if name != without) + "}"
        compact = kept.encode("utf-8").replace(b"\n", b"").replace(_MARK_BYTE, b"")
        members[0] = "{" + _MARKED_BREAKS[1] + members[0]
        members[-1] += "\n}\n"
        laid = ("," + _MARKED_BREAKS[1]).join(members).encode("utf-8").replace(_MARK_BYTE, b" ")
    except (_NotLaidOutHere, IndexError, TypeError, ValueError, RecursionError):
        return None
    return laid, compact


def _lay(value: Any, level: int, out: list[str], flat: list[Any] = _FLAT, colon: str = ": ",
         breaks: list[str] = _BREAKS) -> None:
    kind = type(value)
    if kind is dict:
        children = value.values()
    elif kind is list or kind is tuple:
        children = value
    elif kind in _SCALARS:
        out.append(flat[0](value, 0)[0])
        return
    else:
        raise _NotLaidOutHere(kind.__name__)
    if not value:
        out.append("{}" if kind is dict else "[]")
        return
    inner, outer = breaks[level + 1], breaks[level]
    if _all_scalars(map(type, children)):
        text = flat[level + 1](value, 0)[0]
        out.append(text[0] + inner + text[1:-1] + outer + text[-1])
        return
    # a member that is a string is written here as the encoder writes it, the others by a call of their own
    between, deeper = "," + inner, level + 1
    if kind is dict:
        out.append("{")
        for index, name in enumerate(sorted(value)):
            child = value[name]
            head = (between if index else inner) + c_encode_basestring(name) + colon
            if type(child) is str:
                out.append(head + c_encode_basestring(child))
            else:
                out.append(head)
                _lay(child, deeper, out, flat, colon, breaks)
        out.append(outer + "}")
    else:
        out.append("[")
        for index, item in enumerate(value):
            if type(item) is str:
                out.append((between if index else inner) + c_encode_basestring(item))
            else:
                out.append(between if index else inner)
                _lay(item, deeper, out, flat, colon, breaks)
        out.append(outer + "]")


#: whether the types of an array's or object's members are all of :data:`_SCALARS` (stops at the first other)
_all_scalars = _SCALARS.issuperset

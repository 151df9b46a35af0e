"""Reading the signed JSON records of a game directory: turns, moves, views.

The referee writes these files itself, but it reads them back as it would
read anyone's: strictly parsed, format checked, signature verified. A game
directory travels by e-mail and git; a turn file that does not verify is
never trusted.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from json.encoder import c_encode_basestring, c_make_encoder  # type: ignore[attr-defined]
from pathlib import Path
from typing import Any

from pbem.crypto.canonical import document_hash, is_plain, parse_json_strict
from pbem.crypto.errors import CryptoError, MalformedError, SignatureError
from pbem.crypto.keys import PublicKey
from pbem.crypto.signing import signed_bytes, verify_document
from pbem.engine.protocol import Decision, Option
from pbem.referee import formats
from pbem.referee.errors import GameDirError
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir, read_file
from pbem.referee.storage import dump_json

#: a referee's own files may be larger than a player's move (a big game state)
RECORD_MAX_BYTES = 64 << 20


@dataclass(frozen=True)
class Record:
    """A parsed JSON file with its document hash."""

    path: Path
    doc: dict[str, Any]
    hash: str
    #: the bytes it was read from, when it was read from a file (for checks of the file's layout)
    data: bytes | None = field(default=None, repr=False, compare=False)
    #: whether ``doc`` is plain (:func:`~pbem.crypto.canonical.is_plain`), if reading it found out
    plain: bool | None = field(default=None, repr=False, compare=False)
    #: the bytes its signature covers (:func:`~pbem.crypto.signing.signed_bytes`), if reading it wrote them
    signed: bytes | None = field(default=None, repr=False, compare=False)


def read_record(path: Path, expected_format: str, signer: PublicKey | None = None, by_referee: bool = False) -> Record:
    """Read, format-check and (when ``signer`` is given) signature-check one file (see :func:`parse_record`)."""
    try:
        data = read_file(path)
    except FileNotFoundError:
        raise GameDirError(f"{path}: missing") from None
    return parse_record(data, path, expected_format, signer, by_referee)


def parse_record(data: bytes, path: Path, expected_format: str, signer: PublicKey | None = None,
                 by_referee: bool = False) -> Record:
    """:func:`read_record` on bytes already read (``path`` names where they come from or go).

    ``by_referee``: ``signer`` is the game's referee, whose signature vouches
    for the document's form: once it verifies, a plain document of the
    expected format is not checked against its schema again
    (:func:`~pbem.referee.formats.signed_format_problem`). The signature
    and the document hash are computed from one canonical form.
    """
    try:
        doc = parse_json_strict(data, max_bytes=RECORD_MAX_BYTES)
    except CryptoError as error:
        raise GameDirError(f"{path}: unreadable: {error}") from error
    trusting = by_referee and signer is not None
    if trusting and isinstance(doc, dict) and doc.get("format") == expected_format:
        problem = None
    else:
        problem = formats.format_problem(doc, expected_format)
    if problem:
        raise GameDirError(f"{path}: {problem}")
    # one walk says whether a referee's document is plain, for its canonical form and its format check
    plain = trusting and is_plain(doc)
    try:
        body: bytes | None = signed_bytes(doc, plain)
    except MalformedError:
        body = None  # the signature check below says so; a document without one has no hash either
    if signer is not None:
        try:
            verify_document(doc, signer, body)
        except SignatureError as error:
            raise GameDirError(f"{path}: bad signature: {error}") from error
        problem = formats.signed_format_problem(doc, expected_format, plain) if trusting else None
        if problem:
            raise GameDirError(f"{path}: {problem}")
    digest = "sha256:" + hashlib.sha256(body).hexdigest() if body is not None else document_hash(doc)
    return Record(path=path, doc=doc, hash=digest, data=data, plain=plain if trusting else None, signed=body)


def check_layout(record: Record) -> Record:
    """A file pbem wrote must be exactly the bytes pbem writes for its document (:func:`~pbem.referee.storage.dump_json`)."""
    data = record.data if record.data is not None else read_file(record.path)
    if data != laid_out(record.doc):
        raise GameDirError(f"{record.path}: is not byte for byte what the referee wrote (altered after signing?)")
    return record


#: the line breaks of pbem's layout, by nesting level (two spaces a level)
_BREAKS = ["\n" + "  " * level for level in range(80)]
#: the values the standard library's C encoder writes the same at every level: no array, no object
_SCALARS = frozenset({str, int, float, bool, type(None)})


class _NotLaidOutHere(Exception):
    """A value :func:`laid_out` leaves to :func:`~pbem.referee.storage.dump_json`."""


def _flat_encoder(level: int) -> Any:
    # json.dumps(indent=2) writes an array or object of scalars at nesting level ``level - 1`` as the C
    # encoder writes it with ",\n" and ``level``'s indentation between members, after the opening bracket
    # and the same break before the closing one; the C encoder runs only without ``indent``
    return c_make_encoder(None, _reject, c_encode_basestring, None, ": ", "," + _BREAKS[level], True, False, True)


def _reject(value: Any) -> Any:
    raise _NotLaidOutHere(type(value).__name__)


_FLAT = [_flat_encoder(level) for level in range(len(_BREAKS))] if c_make_encoder is not None else []


def laid_out(doc: Any) -> bytes:
    """:func:`~pbem.referee.storage.dump_json` of a document read from JSON, the same bytes, sooner.

    ``json.dumps`` with ``indent`` runs the standard library's encoder in
    Python, value by value; here every array and object that holds no other
    is written by its C encoder at once (see :func:`_flat_encoder`), and only
    the ones that hold others are walked. Anything else (a type JSON does
    not read, nesting deeper than :data:`_BREAKS`, no C encoder) is left to
    ``dump_json`` itself. Checking each turn's layout with ``dump_json`` was
    a fourteenth of ``pbem verify --replay``.
    """
    if not _FLAT:
        return dump_json(doc)
    out: list[str] = []
    try:
        _lay(doc, 0, out)
    except (_NotLaidOutHere, IndexError, TypeError, ValueError, RecursionError):
        return dump_json(doc)
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


def read_step_record(path: Path, fmt: str, gamefile: GameFile, number: int, player: str,
                     base: str | None = None) -> Record:
    """A record the referee signed in place of a move (a timeout or seat record, ``NUMBER-PLAYER.json``):
    of format ``fmt``, signed by the referee of ``game.toml``, of this game and ``game.toml``, about
    ``player``, answering turn ``number - 1`` and, when given, the turn whose hash is ``base``."""
    record = read_record(path, fmt, gamefile.referee)
    doc = record.doc
    if doc["game_id"] != gamefile.game_id or doc["game"] != gamefile.hash():
        raise GameDirError(f"{path}: a record of another game or game.toml", path=path)
    if doc["player"] != player or doc["turn"] + 1 != number:
        raise GameDirError(f"{path}: its name does not match its player and turn", path=path)
    if base is not None and doc["base"] != base:
        raise GameDirError(f"{path}: does not answer turn {doc['turn']} of this chain (base)", path=path)
    return record


def read_turn(gamedir: GameDir, gamefile: GameFile, number: int) -> Record:
    """Turn file ``number``, checked against ``game.toml`` and the referee's signature."""
    return check_turn(read_record(gamedir.turn(number), formats.TURN, gamefile.referee, by_referee=True),
                      gamefile, number)


def check_turn(record: Record, gamefile: GameFile, number: int) -> Record:
    """A signature-checked turn record is turn ``number`` of the game of ``gamefile``."""
    doc = record.doc
    if doc["turn"] != number:
        raise GameDirError(f"{record.path}: says it is turn {doc['turn']}")
    if doc["game_id"] != gamefile.game_id:
        raise GameDirError(f"{record.path}: belongs to game {doc['game_id']}, not {gamefile.game_id}")
    if doc["game"] != gamefile.hash():
        raise GameDirError(f"{record.path}: was written for a different game.toml")
    return record


def current_turn(gamedir: GameDir, gamefile: GameFile, gapless: bool = False) -> Record:
    """The latest turn file (the current position of the game).

    ``gapless``: the directory holds every turn, as the referee's own does
    (it writes each one), so the latest is found by probing names
    (:meth:`GameDir.latest_turn`) rather than by listing ``turns/``. A
    player's copy may lack the turns that were not mailed to them.
    """
    latest = gamedir.latest_turn() if gapless else next(iter(gamedir.turn_numbers()[-1:]), None)
    if latest is None:
        raise GameDirError(f"{gamedir.root}: no turn files; is this a pbem game directory?")
    return read_turn(gamedir, gamefile, latest)


def decision_from_json(data: dict[str, Any]) -> Decision:
    """The :class:`Decision` a player's view carries, rebuilt."""
    return Decision(
        player=data["player"],
        kind=data["kind"],
        options=tuple(Option(o["id"], o["label"], bool(o.get("free", False))) for o in data["options"]),
        prompt=data.get("prompt", ""),
        pass_id=data.get("pass_id"),
        simultaneous=bool(data.get("simultaneous", False)),
    )

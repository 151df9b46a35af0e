"""Reading the signed JSON records of a game directory: turns, moves, views.

The referee writes these files itself, but it reads them back as it would
read anyone's: strictly parsed, format checked, signature verified. A game
directory travels by e-mail and git; a turn file that does not verify is
never trusted.
"""

# No ``from __future__ import annotations`` here (docs/performance.md, "Annotations evaluated at import").
# The annotations below name only what is defined above them (those of names imported for type checking
# alone are strings).

from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pbem.crypto.canonical import (
    MAX_DEPTH,
    check_depth,
    compact_is_canonical,
    document_hash,
    is_plain,
    parse_json_strict_plain,
    sha256_ref,
)
from pbem.crypto.errors import CryptoError, MalformedError, SignatureError
from pbem.crypto.keys import PublicKey
from pbem.crypto.signing import SIGNATURE_FIELD, signed_bytes, verify_document
from pbem.referee import formats
from pbem.referee.errors import GameDirError
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir, read_file
from pbem.referee.storage import dump_json, dump_json_and_compact, laid_out_within_depth

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.protocol import Decision

#: a referee's own files may be larger than a player's move (a big game state)
RECORD_MAX_BYTES = 64 << 20


class Record(NamedTuple):
    """A parsed JSON file with its document hash.

    A NamedTuple, not a dataclass (docs/performance.md, "Records without dataclasses");
    shown without the bytes it keeps.
    """

    path: Path
    doc: dict[str, Any]
    hash: str
    #: the bytes it was read from, when it was read from a file (for checks of the file's layout)
    data: bytes | None = None
    #: whether ``doc`` is plain (:func:`~pbem.crypto.canonical.is_plain`), if reading it found out
    plain: bool | None = None
    #: the bytes its signature covers (:func:`~pbem.crypto.signing.signed_bytes`), if reading it wrote them
    signed: bytes | None = None
    #: whether ``data`` is exactly the bytes pbem writes for ``doc`` (:func:`check_layout`), if reading it found out
    laid_out: bool | None = None

    def __repr__(self) -> str:
        return f"Record(path={self.path!r}, doc={self.doc!r}, hash={self.hash!r})"


def read_record(path: Path, expected_format: str, signer: PublicKey | None = None, by_referee: bool = False,
                layout: bool = False) -> Record:
    """Read, format-check and (when ``signer`` is given) signature-check one file (see :func:`parse_record`)."""
    try:
        data = read_file(path)
    except FileNotFoundError:
        raise GameDirError(f"{path}: missing") from None
    return parse_record(data, path, expected_format, signer, by_referee, layout)


def parse_record(data: bytes, path: Path, expected_format: str, signer: PublicKey | None = None,
                 by_referee: bool = False, layout: bool = False) -> Record:
    """:func:`read_record` on bytes already read (``path`` names where they come from or go).

    ``by_referee``: ``signer`` is the game's referee; once its signature
    verifies, the document is checked against its schema by the quick check
    (:func:`~pbem.referee.formats.signed_format_problem`: the signature says
    who wrote it, not that it is of its schema). The signature and the
    document hash are computed from one canonical form.

    ``layout``: the caller then checks that the file is exactly the bytes pbem
    writes for its document (:func:`check_layout`). For a plain document
    those bytes and the canonical form are written together
    (:func:`~pbem.referee.storage.dump_json_and_compact`), and the record says
    whether they are the file's (``laid_out``). When they are, the file's
    indentation bounds the document's depth
    (:func:`~pbem.referee.storage.laid_out_within_depth`), which is then not
    measured by a walk of the document; any other is walked
    (:func:`~pbem.crypto.canonical.check_depth`), before anything but orjson
    looks at it.
    """
    body: bytes | None = None
    laid_out: bool | None = None
    try:
        # a file that is exactly the layout of its document shows its depth in its indentation
        doc, plain = parse_json_strict_plain(data, max_bytes=RECORD_MAX_BYTES, measure_depth=not layout)
        if layout:
            if plain:  # orjson alone looks at a value whose depth is not known yet (it stops at its own limit)
                both = dump_json_and_compact(doc, SIGNATURE_FIELD, plain=True)
                if both is not None and compact_is_canonical(both[1]):
                    laid_out, body = both[0] == data, both[1]
            if not (laid_out and laid_out_within_depth(data, MAX_DEPTH)):
                check_depth(doc)
    except CryptoError as error:
        raise GameDirError(f"{path}: unreadable: {error}") from error
    # a referee's document is checked against its schema once its signature holds, by the quick check
    after_signature = by_referee and signer is not None
    if after_signature and isinstance(doc, dict) and doc.get("format") == expected_format:
        problem = None
    else:
        problem = formats.format_problem(doc, expected_format)
    if problem:
        raise GameDirError(f"{path}: {problem}")
    if body is None:
        try:
            body = signed_bytes(doc, plain)
        except MalformedError:
            body = None  # the signature check below says so; a document without one has no hash either
    if signer is not None:
        try:
            verify_document(doc, signer, body)
        except SignatureError as error:
            raise GameDirError(f"{path}: bad signature: {error}") from error
        problem = formats.signed_format_problem(doc, expected_format, plain) if after_signature else None
        if problem:
            raise GameDirError(f"{path}: {problem}")
    digest = sha256_ref(body) if body is not None else document_hash(doc)
    return Record(path=path, doc=doc, hash=digest, data=data, plain=plain, signed=body, laid_out=laid_out)


def read_game_file(gamedir: GameDir) -> GameFile:
    """The game's ``game.toml``. Once dealt, the current turn (which every reader checks next) names
    the hash of the game.toml it was signed for and so vouches for the file, which is then not checked
    against its schema again (:meth:`GameFile.read`); before the deal it is."""
    return GameFile.read(gamedir.game_toml, schema=not gamedir.has_turns())


def check_layout(record: Record) -> Record:
    """A file pbem wrote must be exactly the bytes pbem writes for its document (:func:`~pbem.referee.storage.dump_json`),
    and plain (:func:`~pbem.crypto.canonical.is_plain`), as every document the referee writes is.

    A float that is an integer has that integer's canonical form (``1.0`` and ``1`` are both ``1``), so
    an integer of a signed file rewritten as one keeps the signature and, laid out with the text of a
    float, the layout: only its plainness tells such a file from the one the referee wrote.
    """
    if record.plain is False or (record.plain is None and not is_plain(record.doc)):
        raise GameDirError(f"{record.path}: holds a number with a fraction or an exponent (or an integer beyond "
                           "±(2**53-1)), which the referee never writes: not what the referee wrote (altered after "
                           "signing?)")
    if record.laid_out is None:
        data = record.data if record.data is not None else read_file(record.path)
        laid_out = data == dump_json(record.doc)
    else:
        laid_out = record.laid_out  # found when the file was read
    if not laid_out:
        raise GameDirError(f"{record.path}: is not byte for byte what the referee wrote (altered after signing?)")
    return record


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


def read_turn(gamedir: GameDir, gamefile: GameFile, number: int, layout: bool = False) -> Record:
    """Turn file ``number``, checked against ``game.toml`` and the referee's signature (``layout``: see
    :func:`parse_record`)."""
    return check_turn(read_record(gamedir.turn(number), formats.TURN, gamefile.referee, by_referee=True,
                                  layout=layout), gamefile, number)


def check_turn(record: Record, gamefile: GameFile, number: int) -> Record:
    """A signature-checked turn record is turn ``number`` of the game of ``gamefile``."""
    doc = record.doc
    if doc["turn"] != number:
        raise GameDirError(f"{record.path}: says it is turn {doc['turn']}")
    if doc["game_id"] != gamefile.game_id:
        raise GameDirError(f"{record.path}: belongs to game {doc['game_id']}, not {gamefile.game_id}")
    if doc["game"] != gamefile.hash():
        raise GameDirError(f"{record.path}: was written for a different game.toml")
    # its schema bounds each member's form; these bound what it may name: the game's seats
    seats = gamefile.player_names
    if len(doc["sealed"]) != len(seats) + 1 or not all(name in doc["sealed"] for name in seats):
        raise GameDirError(f"{record.path}: its sealed sections are not one for each seat and the referee's")
    if any(a["player"] not in seats for a in doc["awaiting"]) or (doc["mover"] is not None
                                                                  and doc["mover"] not in seats):
        raise GameDirError(f"{record.path}: awaits a player, or names a mover, not seated in this game")
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


class ChainBreak(NamedTuple):
    """Where a walk back along the ``previous`` hashes stopped: turn ``number`` could not be read (``error``),
    or it is not the turn that turn ``number + 1`` follows (``error`` is ``None``)."""

    number: int
    error: GameDirError | None


def walk_back(gamedir: GameDir, gamefile: GameFile, latest: Record, turn: int) -> Record | ChainBreak:
    """Turn ``turn`` (at most ``latest``'s) of the chain that ends in ``latest``, or where that chain breaks.

    Each turn on the way is read and signature-checked and must be the one
    its successor names, so the answer is about the chain itself and not
    merely about a file of that name; the walk needs every turn between the
    two.
    """
    current = latest
    while current.doc["turn"] > turn:
        number = current.doc["turn"] - 1
        try:
            earlier = read_turn(gamedir, gamefile, number)
        except GameDirError as error:
            return ChainBreak(number, error)
        if earlier.hash != current.doc["previous"]:
            return ChainBreak(number, None)
        current = earlier
    return current


def decision_from_json(data: dict[str, Any]) -> "Decision":
    """The :class:`Decision` a player's view carries, rebuilt."""
    from pbem.engine.protocol import Decision, Option  # a view's decision: not for status

    return Decision(
        player=data["player"],
        kind=data["kind"],
        options=tuple(Option(o["id"], o["label"], bool(o.get("free", False))) for o in data["options"]),
        prompt=data.get("prompt", ""),
        pass_id=data.get("pass_id"),
        simultaneous=bool(data.get("simultaneous", False)),
    )

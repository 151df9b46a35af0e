"""The referee's turn files: its section opened with its key, a turn and its views signed and written.

A turn file holds the game's public part, whose decisions are awaited (player,
kind and since when), the result, the hashes that chain it to the previous
turn and to the move that produced it, and one sealed section per player
(what only they know, their options) plus one for the referee (the state
without its static members, the seed, the standing orders, the choices of
this step). Nothing public is repeated inside a sealed section, and every
section is padded to a size fixed by public facts (the game's
:meth:`~pbem.engine.protocol.Game.sealed_sizes`), so the length of a turn
file says nothing hidden. It holds no history, so its size depends on the
state alone. The step core makes its document (:func:`pbem.referee.core.next_turn`);
here the referee signs it and writes it.
"""

# No ``from __future__ import annotations`` here (docs/performance.md, "Annotations evaluated at import").
# The annotations below name only what is defined above them (those of names imported for type checking
# alone are strings).

import base64
from pathlib import Path
from typing import Any, NamedTuple

from pbem.crypto.canonical import canonical_json, is_plain, sha256_ref
from pbem.crypto.keys import PrivateKey
from pbem.crypto.signing import ALGORITHM, SIGNATURE_FIELD, sign_document
from pbem.referee import formats, keying, sealing
from pbem.referee.core import Position
from pbem.referee.errors import GameDirError
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.records import Record
from pbem.referee.static import StaticMembers
from pbem.referee.storage import dump_json, write_file

REFEREE_SECTION = formats.REFEREE_SECTION


def _open_referee_section(turn: Record, referee_key: PrivateKey, gamefile: GameFile) -> dict[str, Any]:
    # The turn's signature covers the sealed text, so these are the very bytes the referee sealed: the
    # canonical JSON of a document it built, not a rewrite of one (``1.0`` for ``1``, which
    # :func:`~pbem.referee.formats.signed_format_problem` walks the document to catch). So it is read without
    # the strict reader's checks, which it passes by construction, and only its format is checked; walking
    # the whole state again was a tenth of a step.
    doc = sealing.open_with_key(turn.doc["sealed"][REFEREE_SECTION], referee_key, f"{turn.path} (referee section)",
                                compressed=True, signed=True)
    if not isinstance(doc, dict) or doc.get("format") != formats.REFEREE:
        raise GameDirError(f"{turn.path}: referee section: not a {formats.REFEREE!r} document")
    if doc["turn"] != turn.doc["turn"] or doc["game_id"] != gamefile.game_id:
        raise GameDirError(f"{turn.path}: the referee section belongs to another turn or game")
    if keying.commitment(bytes.fromhex(doc["seed"])) != gamefile.commitment:
        raise GameDirError(f"{turn.path}: the referee section's seed does not match the commitment in game.toml")
    return doc


def open_position(turn: Record, referee_key: PrivateKey, gamefile: GameFile, static: StaticMembers) -> Position:
    """Open the referee's section of a turn with the referee's private key; ``static`` completes the state."""
    return Position.from_section(_open_referee_section(turn, referee_key, gamefile), str(turn.path), static,
                                 checked=True)


def open_seed(turn: Record, referee_key: PrivateKey, gamefile: GameFile) -> bytes:
    """The seed in the referee's section of a turn (checked against the commitment), without rebuilding the state."""
    return bytes.fromhex(_open_referee_section(turn, referee_key, gamefile)["seed"])


class TurnFiles(NamedTuple):
    """A turn ready to be written: the signed turn and each player's signed view wrapper."""

    turn: dict[str, Any]
    hash: str
    views: dict[str, dict[str, Any]]


def sign_turn(unsigned: dict[str, Any], gamefile: GameFile, referee_key: PrivateKey) -> TurnFiles:
    """Sign a turn the core made (:func:`pbem.referee.core.next_turn`), and each player's view of it."""
    turn, turn_hash = sign_and_hash(unsigned, referee_key)
    number = turn["turn"]
    views = {
        player: view_wrapper(gamefile, number, turn_hash, player, turn["sealed"][player], referee_key)
        for player in gamefile.player_names
    }
    return TurnFiles(turn=turn, hash=turn_hash, views=views)


class NotPlainTurn(ValueError):
    """A turn holding a float or an integer beyond ±(2**53-1) (from the game's public part or result).

    The referee writes only plain documents (:func:`~pbem.crypto.canonical.is_plain`): a float has the
    canonical form of an integer when it is one (``1.0`` and ``1`` are both ``1``), so the signature of
    a file would not tell the two apart, and plain ``verify`` finds a changed byte only because a file
    the referee wrote holds none. Inside a step this is a bug of the game, refused as ``referee-failed``.
    """


def sign_and_hash(doc: dict[str, Any], key: PrivateKey) -> tuple[dict[str, Any], str]:
    """``sign_document(doc, key)`` and its ``document_hash``, from one canonical form.

    Both cover the canonical JSON of the document without ``signature``, so
    a large turn is serialised once rather than twice. A turn that is not
    plain is refused (:class:`NotPlainTurn`).
    """
    signed = {name: value for name, value in doc.items() if name != SIGNATURE_FIELD}
    if not is_plain(signed):
        raise NotPlainTurn(f"turn {doc.get('turn')} holds a float or an integer beyond ±(2**53-1)")
    body = canonical_json(signed, True)
    signed[SIGNATURE_FIELD] = {
        "alg": ALGORITHM,
        "signer": key.fingerprint,
        "value": base64.b64encode(key.sign(body)).decode(),
    }
    return signed, sha256_ref(body)


def view_doc(gamefile: GameFile, number: int, turn_hash: str, player: str, sealed: str) -> dict[str, Any]:
    """A player's view wrapper without its signature."""
    return {
        "format": formats.VIEW,
        "game_id": gamefile.game_id,
        "player": player,
        "turn": number,
        "turn_hash": turn_hash,
        "sealed": sealed,
    }


def view_wrapper(
    gamefile: GameFile, number: int, turn_hash: str, player: str, sealed: str, referee_key: PrivateKey
) -> dict[str, Any]:
    return sign_document(view_doc(gamefile, number, turn_hash, player, sealed), referee_key)


#: the length of a signature's value in a signed document (the base64 of 64 bytes of Ed25519)
SIGNATURE_TEXT_LENGTH = 88
_SIGNATURE_SLOT = "signature-value-slot"


def view_layout(gamefile: GameFile, number: int, turn_hash: str, player: str, sealed: str,
                signer: str) -> tuple[bytes, bytes]:
    """The bytes of a player's view file before and after the value of its signature by ``signer``
    (a fingerprint): the file is these around :data:`SIGNATURE_TEXT_LENGTH` characters."""
    doc = view_doc(gamefile, number, turn_hash, player, sealed)
    doc[SIGNATURE_FIELD] = {"alg": ALGORITHM, "signer": signer, "value": _SIGNATURE_SLOT}
    before, _, after = dump_json(doc).partition(_SIGNATURE_SLOT.encode("ascii"))
    return before, after


def write_views(gamedir: GameDir, views: dict[str, dict[str, Any]]) -> None:
    """Write each player's view files atomically, without waiting for the disk.

    A view is a copy of the player's section of the current turn: after a
    crash, the next step compares every view with the turn and rewrites the
    ones that differ (:func:`pbem.referee.pipeline.recover`).
    """
    for player, wrapper in views.items():
        write_file(gamedir, gamedir.view_json(player), dump_json(wrapper), sync=False)
        write_file(gamedir, gamedir.view_age(player), wrapper["sealed"].encode("ascii"), sync=False)


def write_turn(
    gamedir: GameDir, files: TurnFiles, move: tuple[str, bytes] | None = None,
    record: tuple[Path, bytes] | None = None,
) -> None:
    """Write a step to disk in crash-safe order.

    The move file (or the referee's ``record`` that stands in for one: a
    timeout or a seat record, at its path) first, then the turn file (its
    rename is the commit point), each flushed to disk with its folder, then
    the views. A crash before the turn's rename leaves a move file or record
    with no turn, which the next step removes; a crash after it leaves old
    views, which the next step rewrites from the turn.
    """
    number = files.turn["turn"]
    if move is not None:
        player, data = move
        write_file(gamedir, gamedir.move(number, player), data)
    if record is not None:
        write_file(gamedir, *record)
    write_file(gamedir, gamedir.turn(number), dump_json(files.turn))
    write_views(gamedir, files.views)

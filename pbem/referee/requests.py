"""A player's request for the turns their copy lacks (``pbem-request/1``), signed with the key holding their seat.

A copy fed by mail lacks the turns of a mail that did not arrive, and the
turns written since its last mail. ``pbem mail request`` writes a signed
request naming the latest turn the copy holds (and its hash) and the turns
it lacks before it; the referee answers with a mail to the seat's own
address carrying those turns and every later one, within the bound of a
mail (:mod:`pbem.mail.catchup`). Rules (:func:`check_request`):

* it is read as strictly as a move (at most :data:`REQUEST_MAX_BYTES`, no
  duplicate keys, its schema), names this game and a seated player, and
  is signed by the key that holds that seat now (the seat records in force
  at the current turn): nobody else can have the referee mail a seat;
* it is answered once: the referee records the hash of every request it
  answered, so that a copy of it (a mail is read by whoever carries it)
  makes the referee mail nobody; ``nonce`` makes each request a player
  writes a new one;
* it names at most :data:`MAX_RANGES` ranges of missing turns (a copy with
  more gaps asks again once the first are filled).

A request changes nothing in the game and holds nothing private: the turns
are public and the player's sections are sealed to them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from pbem.crypto.canonical import parse_json_strict, sha256_ref
from pbem.crypto.errors import CryptoError, SignatureError
from pbem.crypto.keys import PrivateKey
from pbem.crypto.signing import sign_document, signed_bytes, verify_document
from pbem.referee import copies, formats, seats
from pbem.referee.copies import TurnRange
from pbem.referee.errors import (
    BadSignatureMove,
    KeyMismatch,
    OtherGameMove,
    SchemaInvalidMove,
    UnknownPlayerMove,
    UnreadableMove,
    UsageError,
)
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.records import current_turn, read_game_file
from pbem.referee.storage import dump_json

#: a request is a few hundred bytes; anything much larger is not one
REQUEST_MAX_BYTES = 4096
#: the most ranges of missing turns one request names
MAX_RANGES = 32
#: a game id, as game.toml gives it
GAME_ID = re.compile(r"[0-9a-f]{16}")


class Request(NamedTuple):
    """A request, read and checked."""

    player: str
    #: the latest turn the copy holds (``None``: it holds no turn)
    turn: int | None
    #: the turns the copy lacks before it
    missing: tuple[TurnRange, ...]
    #: the SHA-256 of the request's canonical form: what the referee records once it answered it
    hash: str

    def wanted(self, current: int) -> list[TurnRange]:
        """The turns to send, up to the ``current`` turn: the missing ones and every one after the latest held."""
        ranges = [(a, min(b, current)) for a, b in self.missing if a <= current]
        after = 0 if self.turn is None else self.turn + 1
        if after <= current:
            ranges.append((after, current))
        return ranges


def request_doc(gamefile: GameFile, player: str, holdings: copies.Holdings, latest_hash: str | None,
                nonce: str) -> dict[str, Any]:
    """The unsigned request of ``player``'s copy, which holds ``holdings``."""
    return {"format": formats.REQUEST, "game_id": gamefile.game_id, "player": player, "turn": holdings.latest,
            "turn_hash": latest_hash, "missing": [list(r) for r in holdings.missing[-MAX_RANGES:]], "nonce": nonce}


def make_request(directory: str | Path, player: str, key: PrivateKey,
                 rng: Callable[[int], bytes] = os.urandom) -> tuple[bytes, copies.Holdings]:
    """A signed request for the turns ``player``'s copy in ``directory`` lacks; and what the copy holds.

    Signed by ``key``, which must hold ``player``'s seat as the copy knows
    it (:class:`KeyMismatch` otherwise): the referee answers only a request
    of the seat's key.
    """
    gamedir = GameDir.at(directory)
    gamedir.refuse_symlinks()
    gamefile = read_game_file(gamedir)
    if gamefile.player_key(player) is None:
        raise KeyMismatch(f"{player!r} is not seated in game {gamefile.game_id} "
                          f"(players: {', '.join(gamefile.player_names)})")
    holdings = copies.survey(gamedir, gamefile)
    latest_hash = None
    if holdings.latest is not None:
        latest = current_turn(gamedir, gamefile)
        latest_hash = latest.hash
        gamefile = seats.in_force(gamedir, gamefile, latest.doc, partial=True)
    seat = gamefile.player_key(player)
    if seat is None:
        raise KeyMismatch(f"{player!r} is not seated in game {gamefile.game_id} "
                          f"(players: {', '.join(gamefile.player_names)})")
    if seat.fingerprint != key.public.fingerprint:
        raise KeyMismatch(f"this key ({key.public.fingerprint}) is not {player}'s key in game {gamefile.game_id} "
                          f"({seat.fingerprint}) as your copy knows it: the referee answers only a request signed "
                          "by the key that holds the seat")
    doc = request_doc(gamefile, player, holdings, latest_hash, rng(16).hex())
    return dump_json(sign_document(doc, key)), holdings


def first_request(game_id: str, player: str, key: PrivateKey, rng: Callable[[int], bytes] = os.urandom) -> bytes:
    """A signed request for every turn of game ``game_id``, from a copy that holds nothing yet.

    For the new holder of a seat whose first mail did not arrive (the
    referee tells them the game id when it hands them the seat): the
    referee checks the signature against the key holding the seat, which
    the copy cannot do yet.
    """
    if not GAME_ID.fullmatch(game_id):
        raise UsageError(f"{game_id!r} is not a game id (16 hexadecimal digits, as pbem status shows it)")
    doc: dict[str, Any] = {"format": formats.REQUEST, "game_id": game_id, "player": player, "turn": None, "turn_hash": None,
           "missing": [], "nonce": rng(16).hex()}
    return dump_json(sign_document(doc, key))


def check_request(data: bytes, gamefile: GameFile) -> Request:
    """A request's bytes, checked against ``gamefile`` (``game.toml`` with the seat records in force now).

    Refused as a move would be (:class:`~pbem.referee.errors.Refusal`):
    unreadable (10), not of its schema (11), of another game (12), naming
    a player not seated (13), not signed by the key holding the seat (14).
    """
    if len(data) > REQUEST_MAX_BYTES:
        raise UnreadableMove(f"a request is at most {REQUEST_MAX_BYTES} bytes, not {len(data)}")
    try:
        doc = parse_json_strict(data, max_bytes=REQUEST_MAX_BYTES)
    except CryptoError as error:
        raise UnreadableMove(f"not a request pbem can read: {error}") from None
    problem = formats.format_problem(doc, formats.REQUEST)
    if problem:
        raise SchemaInvalidMove(problem)
    if doc["game_id"] != gamefile.game_id:
        raise OtherGameMove(f"the request names game {doc['game_id']}, not {gamefile.game_id}")
    player = doc["player"]
    seat = gamefile.player_key(player)
    if seat is None:
        raise UnknownPlayerMove(f"{player} is not seated in game {gamefile.game_id}")
    body = signed_bytes(doc)
    digest = sha256_ref(body)
    try:
        verify_document(doc, seat, body)
    except SignatureError as error:
        raise BadSignatureMove(f"the request is not signed by the key that holds {player}'s seat: {error}",
                               player=player, move_hash=digest) from None
    missing = tuple((a, b) for a, b in doc["missing"] if a <= b)
    return Request(player=player, turn=doc["turn"], missing=missing, hash=digest)

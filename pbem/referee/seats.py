"""Seat records: a seat handed to a new key by the referee (``pbem takeover``).

``game.toml`` is never rewritten (every turn names its hash). When a player
leaves and someone else takes their seat, the referee signs a **seat
record** (``seats/NNNNNN-PLAYER.json``, ``pbem-seat/1``) naming the seat,
the key that held it (``previous``, a fingerprint) and the new key; the
record produces turn NNNNNN like a move, and from that turn on:

* the seat's sections are sealed to the new key (the old key reads no new
  turn);
* moves are checked against the new key; a move signed by the previous key
  is refused (bad signature, exit 14) with a message saying the seat was
  taken over;
* ``pbem view`` and ``pbem move`` take the new key for that seat.

The turn names the record's hash (``move``, ``move_file``) and says what
happened in ``referee_step``: ``{"kind": "takeover", "player", "key",
"previous"}`` (fingerprints). The game's state does not change; the seat's
open decision opens anew at that turn (``since``, and a new deadline), for
its new holder.

Every turn from the first takeover on names the records in force
(``seats``: ``{player, turn}`` each), and readers take those
(:func:`in_force`), by name: nothing lists ``seats/``. Each is checked:
signed by the referee key of ``game.toml``, of this game and ``game.toml``,
naming a seated player and the key that held the seat until then, and named
by the turn it produced. A record for the current turn that the turn does
not name (one a player pushed) is a damaged game directory; one for the
next turn belongs to a step that died before its commit point, which the
next step removes; any other is named by ``pbem verify``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.crypto.errors import KeyFileError
from pbem.crypto.keys import PublicKey
from pbem.referee import formats
from pbem.referee.errors import GameDirError
from pbem.referee.gamefile import GameFile, Handover
from pbem.referee.layout import GameDir
from pbem.referee.records import Record, read_step_record, read_turn

if TYPE_CHECKING:  # pragma: no cover
    pass


def record_doc(gamefile: GameFile, turn: int, base: str, player: str, key: PublicKey, previous: PublicKey,
               time: str | None) -> dict[str, Any]:
    """A seat record (unsigned): ``key`` holds ``player``'s seat from turn ``turn + 1`` on."""
    doc: dict[str, Any] = {
        "format": formats.SEAT,
        "game_id": gamefile.game_id,
        "game": gamefile.hash(),
        "turn": turn,
        "base": base,
        "player": player,
        "key": key.to_json(),
        "previous": previous.fingerprint,
    }
    if time is not None:
        doc["time"] = time
    return doc


def act_of(doc: dict[str, Any]) -> dict[str, str]:
    """The turn's ``referee_step`` for a seat record."""
    return {"kind": "takeover", "player": doc["player"], "key": doc["key"]["fingerprint"], "previous": doc["previous"]}


def read_seat_record(path: Path, gamefile: GameFile, number: int, player: str,
                     base: str | None = None) -> tuple[Record, Handover]:
    """The seat record ``seats/NUMBER-PLAYER.json``, checked against the seats in force before it (``gamefile``)
    and, when given, the hash of the turn it answers (``base``); raises :class:`GameDirError`."""
    record = read_step_record(path, formats.SEAT, gamefile, number, player, base)
    doc = record.doc
    holder = gamefile.player_key(player)
    if holder is None:
        raise GameDirError(f"{path}: {player} is not seated in this game", path=path)
    if doc["previous"] != holder.fingerprint:
        raise GameDirError(f"{path}: names {doc['previous']} as {player}'s key, but {holder.fingerprint} held the seat",
                           path=path)
    try:
        key = PublicKey.from_json(doc["key"])
    except (KeyFileError, ValueError) as error:
        raise GameDirError(f"{path}: its key is unusable: {error}", path=path) from error
    if key.name != player:
        raise GameDirError(f"{path}: the new key is named {key.name!r}, not {player!r}", path=path)
    return record, Handover(player=player, turn=number, key=key, previous=holder)


def in_force(gamedir: GameDir, gamefile: GameFile, turn: dict[str, Any], partial: bool = False) -> GameFile:
    """``gamefile`` with the seat records that the (checked) turn document ``turn`` names in force, each checked.

    The records are looked up by the names the turn gives, in order; a record
    a player slipped in for this very turn, which the turn does not name, is
    refused (:class:`GameDirError`), as is a named one its turn was not
    produced by. A player's copy (``partial``) may lack the turn a record
    produced: the record, signed by the referee and named by the turn read,
    is then taken without that turn to compare it with (``pbem verify`` on
    the copy says so).
    """
    number = turn["turn"]
    named = [(entry["turn"], entry["player"]) for entry in turn.get("seats", [])]
    for produced, player in named:
        path = gamedir.seat(produced, player)
        record, handover = read_seat_record(path, gamefile, produced, player)
        if produced != number and partial and not os.path.lexists(gamedir.turn(produced)):
            gamefile = gamefile.with_handover(handover)
            continue
        doc = turn if produced == number else read_turn(gamedir, gamefile, produced).doc
        if doc["move"] != record.hash or doc.get("referee_step") != act_of(record.doc):
            raise GameDirError(f"{path}: turn {produced} was not produced by this seat record", path=path)
        gamefile = gamefile.with_handover(handover)
    for player in gamefile.player_names:
        path = gamedir.seat(number, player)
        if (number, player) not in named and os.path.lexists(path):
            read_seat_record(path, gamefile, number, player)  # a forged one fails its own checks first
            raise GameDirError(f"{path}: turn {number} was not produced by this seat record", path=path)
    return gamefile


def describe(gamefile: GameFile) -> list[dict[str, Any]]:
    """Every seat handed over: ``{player, turn, key, previous}`` (fingerprints), in turn order."""
    return [{"player": h.player, "turn": h.turn, "key": h.key.fingerprint, "previous": h.previous.fingerprint}
            for h in gamefile.handovers]

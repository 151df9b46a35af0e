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

Readers take the records in force at the turn they read
(:func:`in_force`): each one signed by the referee key of ``game.toml``,
of this game and ``game.toml``, naming a seated player and the key that
held the seat until then, and, when its turn file is present, named by that
turn. A record whose turn is not written yet belongs to a step that died
before its commit point; the next step removes it.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from pbem.crypto.errors import KeyFileError
from pbem.crypto.keys import PublicKey
from pbem.engine.protocol import Game
from pbem.referee import formats
from pbem.referee.errors import GameDirError
from pbem.referee.gamefile import GameFile, Handover
from pbem.referee.layout import GameDir
from pbem.referee.records import Record, read_step_record, read_turn
from pbem.referee.turns import Position, carry_since


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


def in_force(gamedir: GameDir, gamefile: GameFile, current: int) -> GameFile:
    """``gamefile`` with every seat record of turns up to ``current`` in force, each checked."""
    for number, player, path in gamedir.seat_files():
        if number > current:
            continue  # a step that died before its turn: the next step removes the record
        record, handover = read_seat_record(path, gamefile, number, player)
        turn_path = gamedir.turn(number)
        if turn_path.exists():
            turn = read_turn(gamedir, gamefile, number).doc
            if turn["move"] != record.hash or turn.get("referee_step") != act_of(record.doc):
                raise GameDirError(f"{path}: turn {number} was not produced by this seat record", path=path)
        gamefile = gamefile.with_handover(handover)
    return gamefile


def takeover_position(game: Game, position: Position, since_before: dict[str, int], player: str) -> tuple[Position, dict[str, int]]:
    """The step of a takeover: the same state at the next turn, a step in which nothing happens in the game
    (the game begins it, so the turn repeats none of the last step's events); the seat's decision opens anew
    for its new holder.

    Shared by ``pbem takeover`` and ``verify --replay``.
    """
    state = copy.deepcopy(position.state)
    game.begin_step(state)
    awaiting = game.awaiting(state)
    new_turn = position.turn + 1
    since = carry_since(awaiting, since_before, awaiting, {player}, new_turn)
    new_position = Position(turn=new_turn, state=state, seed=position.seed, entropy=position.entropy,
                            standing_orders=position.standing_orders, step=[], unapplied=None)
    return new_position, since


def describe(gamefile: GameFile) -> list[dict[str, Any]]:
    """Every seat handed over: ``{player, turn, key, previous}`` (fingerprints), in turn order."""
    return [{"player": h.player, "turn": h.turn, "key": h.key.fingerprint, "previous": h.previous.fingerprint}
            for h in gamefile.handovers]

"""Players' entropy: signed join files, and the deal once every player is in.

A game created with ``pbem new --wait-for-joins`` commits to its secret seed
in ``game.toml`` (``rng.commitment``, ``rng.entropy = "player-joins"``) and
deals nothing yet. The seed waits in ``pending.json``, sealed to the referee
and the game identity. Each seated player then writes a join file
(``pbem join``): ``pbem-join/1`` with a fresh 32-byte random ``nonce``, the
hash of the ``game.toml`` it answers (so the nonce is chosen after the
commitment was published), signed by the player. ``pbem submit`` takes join
files like move files and keeps each, verbatim, as ``joins/PLAYER.json``.
When the last seated player's join is in, the same step deals turn 0 with
``step_rng(seed, [nonce of each player in seat order], 0)``, and every later
step's generator is keyed by the same list.

The referee cannot choose the seed after seeing the nonces (it is committed
first), and no player can predict a draw (the seed is secret until the end).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pbem.crypto.canonical import document_hash, parse_json_strict
from pbem.crypto.errors import CryptoError
from pbem.crypto.keys import PrivateKey
from pbem.crypto.signing import sign_document
from pbem.engine.errors import EngineError
from pbem.engine.registry import find_game
from pbem.referee import formats, keying, sealing
from pbem.referee.admission import admit_sender
from pbem.referee.errors import (
    AlreadyApplied,
    GameDirError,
    GameOverMove,
    KeyMismatch,
    NotYourDecisionMove,
    OtherGameMove,
    Refusal,
    SchemaInvalidMove,
    UnexpectedJoin,
    UnreadableMove,
)
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.records import read_record
from pbem.referee.storage import atomic_write, dump_json
from pbem.referee.turns import REFEREE_SECTION, TurnFiles, build_turn, write_turn

NONCE_BYTES = 32
#: join files are small; anything larger is refused unread
JOIN_MAX_BYTES = 64 << 10
#: the sealing stream of pending.json is that of "turn -1", which no turn uses
PENDING_TURN = -1


# --- the referee's sealed seed, while the game waits ------------------------------


def pending_doc(gamefile: GameFile, seed: bytes) -> dict[str, Any]:
    """``pending.json`` without its signature (reproducible from the seed)."""
    secret = {"format": formats.SEED, "game_id": gamefile.game_id, "seed": seed.hex()}
    return {
        "format": formats.PENDING,
        "game_id": gamefile.game_id,
        "game": gamefile.hash(),
        "sealed": sealing.seal_json(
            secret,
            [gamefile.referee.recipient, gamefile.game_recipient],
            keying.seal_stream(seed, PENDING_TURN, None, REFEREE_SECTION),
        ),
    }


def write_pending(gamedir: GameDir, gamefile: GameFile, seed: bytes, referee_key: PrivateKey) -> None:
    atomic_write(gamedir.pending, dump_json(sign_document(pending_doc(gamefile, seed), referee_key)))


def read_pending_seed(gamedir: GameDir, gamefile: GameFile, referee_key: PrivateKey) -> bytes:
    """The seed kept in ``pending.json``, opened with the referee's key and checked against the commitment.

    ``pending.json`` must name the hash of this very ``game.toml``: every join
    and the deal go through here, so a ``game.toml`` changed since ``pbem new``
    (a seat key swapped) is never dealt on.
    """
    record = read_record(gamedir.pending, formats.PENDING, gamefile.referee)
    if record.doc["game_id"] != gamefile.game_id or record.doc["game"] != gamefile.hash():
        # a seat key or any other setting of game.toml changed after `pbem new`:
        # dealing on it would seat whoever holds the new key
        raise GameDirError(
            f"{gamedir.pending}: was written for another game.toml than {gamedir.game_toml} "
            f"({record.doc['game']}, not {gamefile.hash()}); game.toml changed after `pbem new`, nothing is dealt"
        )
    secret = sealing.open_with_key(record.doc["sealed"], referee_key, f"{gamedir.pending} (sealed seed)")
    problem = formats.format_problem(secret, formats.SEED)
    if problem or secret["game_id"] != gamefile.game_id:
        raise GameDirError(f"{gamedir.pending}: the sealed seed is not this game's: {problem or 'other game id'}")
    seed = bytes.fromhex(secret["seed"])
    if keying.commitment(seed) != gamefile.commitment:
        raise GameDirError(f"{gamedir.pending}: the sealed seed does not match the commitment in game.toml")
    return seed


# --- the player's side ------------------------------------------------------------


def make_join(directory: str | Path, player: str, key: PrivateKey, nonce: bytes | None = None) -> bytes:
    """A signed join file for ``player``: a fresh random nonce for the deal."""
    gamedir = GameDir.at(directory)
    gamedir.refuse_symlinks()
    gamefile = GameFile.read(gamedir.game_toml)
    seat = gamefile.player_key(player)
    if seat is None:
        raise KeyMismatch(
            f"{player!r} is not seated in game {gamefile.game_id} (players: {', '.join(gamefile.player_names)})"
        )
    if seat.fingerprint != key.public.fingerprint:
        raise KeyMismatch(f"this key ({key.public.fingerprint}) is not {player}'s key in game {gamefile.game_id}")
    if not gamefile.waits_for_joins:
        raise UnexpectedJoin(f"game {gamefile.game_id} does not wait for joins (entropy = referee-only)")
    if gamedir.turn_numbers():
        raise UnexpectedJoin(f"game {gamefile.game_id} was dealt already; joins are closed")
    doc = {
        "format": formats.JOIN,
        "game_id": gamefile.game_id,
        "game": gamefile.hash(),
        "player": player,
        "nonce": (nonce if nonce is not None else os.urandom(NONCE_BYTES)).hex(),
    }
    return dump_json(sign_document(doc, key))


# --- the referee's side -------------------------------------------------------------


def read_join(path: Path, gamefile: GameFile, player: str) -> tuple[dict[str, Any], bytes]:
    """A kept join file, checked: format, game, player, signature. Returns the document and its bytes."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise GameDirError(f"{path}: missing") from None
    try:
        doc = check_join(gamefile, data)
    except Refusal as refusal:
        raise GameDirError(f"{path}: {refusal.message}") from refusal
    if doc["player"] != player:
        raise GameDirError(f"{path}: is {doc['player']}'s join, not {player}'s")
    return doc, data


def check_join(gamefile: GameFile, data: bytes) -> dict[str, Any]:
    """The checks of a join file, in pipeline order; raises the refusal."""
    try:
        doc = parse_json_strict(data, max_bytes=JOIN_MAX_BYTES, max_depth=16)
    except CryptoError as error:
        raise UnreadableMove(f"unreadable join file: {error}") from error
    if isinstance(doc, dict) and doc.get("format") == formats.MOVE:
        raise NotYourDecisionMove(
            f"game {gamefile.game_id} waits for every player's join file; no move is taken before the deal"
        )
    problem = formats.format_problem(doc, formats.JOIN)
    if problem:
        raise SchemaInvalidMove(f"not a valid join file: {problem}")
    player, join_hash = doc["player"], document_hash(doc)
    admit_sender(gamefile, doc, join_hash, "join")
    if doc["game"] != gamefile.hash():
        raise OtherGameMove(f"the join answers another game.toml than game {gamefile.game_id}'s",
                            player=player, move_hash=join_hash)
    return doc


def joined(gamedir: GameDir, gamefile: GameFile) -> dict[str, tuple[dict[str, Any], bytes]]:
    """The seated players who have joined: ``player -> (join document, file bytes)``."""
    files = gamedir.join_files()
    return {p: read_join(files[p], gamefile, p) for p in gamefile.player_names if p in files}


def deal(gamedir: GameDir, gamefile: GameFile, seed: bytes, joins: dict[str, tuple[dict[str, Any], bytes]],
         referee_key: PrivateKey) -> TurnFiles:
    """Turn 0 of a game whose players have all joined (not written)."""
    from pbem.referee.deal import deal_position, load_setup
    from pbem.referee.pipeline import file_hash

    try:
        game = find_game(gamefile.game)
    except EngineError as error:
        raise GameDirError(f"{gamedir.game_toml}: {error}") from error
    entropy = entropy_of(gamefile, {p: doc for p, (doc, _) in joins.items()})
    setup = load_setup(game, gamedir, gamefile)
    position, since = deal_position(game, gamefile, setup, seed, entropy)
    record = {p: file_hash(data) for p, (_, data) in joins.items()}
    return build_turn(game, gamefile, position, None, None, None, since, referee_key, joins=record)


def entropy_of(gamefile: GameFile, joins: dict[str, dict[str, Any]]) -> list[bytes]:
    """The players' nonces in seat order: the entropy of every step's generator."""
    return [bytes.fromhex(joins[p]["nonce"]) for p in gamefile.player_names]


def complete_deal(gamedir: GameDir, gamefile: GameFile, referee_key: PrivateKey) -> bool:
    """Deal if every player has joined but turn 0 is missing (a step died after the last join)."""
    if gamedir.turn_numbers():
        return False
    joins = joined(gamedir, gamefile)
    if set(joins) != set(gamefile.player_names):
        return False
    seed = read_pending_seed(gamedir, gamefile, referee_key)
    write_turn(gamedir, deal(gamedir, gamefile, seed, joins, referee_key))
    return True


def submit_join(gamedir: GameDir, gamefile: GameFile, data: bytes, referee_key: PrivateKey):
    """One referee step on a join file, while the game waits for joins (under the lock)."""
    from pbem.referee.pipeline import Step, write_notice
    from pbem.referee.public import joining_status, turn_status

    from pbem.referee.reveal import read_reveal

    seed = read_pending_seed(gamedir, gamefile, referee_key)
    joins = joined(gamedir, gamefile)
    try:
        doc = check_join(gamefile, data)
        if read_reveal(gamedir, gamefile) is not None:
            raise GameOverMove(f"game {gamefile.game_id} was abandoned and its seed revealed; no join is taken",
                               player=doc["player"], move_hash=document_hash(doc))
        player, join_hash = doc["player"], document_hash(doc)
        if player in joins:
            if document_hash(joins[player][0]) == join_hash:
                raise AlreadyApplied(f"{player} has joined with this very file", player=player, move_hash=join_hash)
            raise UnexpectedJoin(f"{player} has joined already, with another nonce", player=player,
                                 move_hash=join_hash)
    except AlreadyApplied:
        raise
    except Refusal as refusal:
        refusal.rejection = str(write_notice(gamedir, gamefile, 0, referee_key, data, refusal))
        raise
    atomic_write(gamedir.join(player), data)
    joins[player] = (doc, data)
    missing = [p for p in gamefile.player_names if p not in joins]
    if missing:
        return Step(turn=0, player=player, move_hash=join_hash, choices=0, auto_choices=[], awaiting=missing,
                    result=None, kind="join", dealt=False, status=joining_status(gamefile, missing))
    files = deal(gamedir, gamefile, seed, joins, referee_key)
    write_turn(gamedir, files)
    return Step(turn=0, player=player, move_hash=join_hash, choices=0, auto_choices=[],
                awaiting=[a["player"] for a in files.turn["awaiting"]], result=files.turn["result"],
                kind="join", dealt=True, status=turn_status(gamefile, files.turn))

"""Writing one turn: the public record, the sealed sections, the views.

A turn file holds the game's public part, whose decisions are awaited (player,
kind and since when), the result, the hashes that chain it to the previous
turn and to the move that produced it, and one sealed section per player (their
view, their options) plus one for the referee (the whole state, the seed,
the standing orders, the choices of this step). It holds no history, so its
size depends on the state alone.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from typing import Any

from pbem.crypto.canonical import canonical_json
from pbem.crypto.keys import PrivateKey
from pbem.crypto.signing import ALGORITHM, SIGNATURE_FIELD, sign_document
from pbem.engine.protocol import Decision, Game
from pbem.referee import commitments, formats, keying, sealing
from pbem.referee.errors import GameDirError
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.records import Record
from pbem.referee.storage import atomic_write, dump_json, fsync_dir

REFEREE_SECTION = "referee"


@dataclass
class Position:
    """What the referee knows after a step: the content of its sealed section."""

    turn: int
    state: dict[str, Any]
    seed: bytes
    entropy: list[bytes] = field(default_factory=list)
    #: player -> {"auto_pass": {kind: mode}}
    standing_orders: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the choices applied in the step that produced this turn
    step: list[dict[str, str]] = field(default_factory=list)
    #: the choices of that step's move that were not applied, ``{"player", "from", "to"}``
    #: (1-based positions in the move's list), or ``None`` when every choice was
    unapplied: dict[str, Any] | None = None

    def to_section(self, game_id: str) -> dict[str, Any]:
        return {
            "format": formats.REFEREE,
            "game_id": game_id,
            "turn": self.turn,
            "seed": self.seed.hex(),
            "entropy": [e.hex() for e in self.entropy],
            "state": self.state,
            "standing_orders": self.standing_orders,
            "step": self.step,
            "unapplied": self.unapplied,
        }

    @classmethod
    def from_section(cls, doc: Any, where: str) -> "Position":
        problem = formats.format_problem(doc, formats.REFEREE)
        if problem:
            raise GameDirError(f"{where}: referee section: {problem}")
        return cls(
            turn=doc["turn"],
            state=doc["state"],
            seed=bytes.fromhex(doc["seed"]),
            entropy=[bytes.fromhex(e) for e in doc["entropy"]],
            standing_orders=doc["standing_orders"],
            step=doc["step"],
            unapplied=doc["unapplied"],
        )


def open_position(turn: Record, referee_key: PrivateKey, gamefile: GameFile) -> Position:
    """Open the referee's section of a turn with the referee's private key."""
    doc = sealing.open_with_key(turn.doc["sealed"][REFEREE_SECTION], referee_key, f"{turn.path} (referee section)")
    position = Position.from_section(doc, str(turn.path))
    if position.turn != turn.doc["turn"] or doc["game_id"] != gamefile.game_id:
        raise GameDirError(f"{turn.path}: the referee section belongs to another turn or game")
    if keying.commitment(position.seed) != gamefile.commitment:
        raise GameDirError(f"{turn.path}: the referee section's seed does not match the commitment in game.toml")
    return position


def same_decision(a: Decision, b: Decision) -> bool:
    return a.kind == b.kind and a.options == b.options


def carry_since(
    before: list[Decision], since_before: dict[str, int], after: list[Decision], acted: set[str], turn: int
) -> dict[str, int]:
    """When each decision open after a step opened.

    A player who did not act in the step and is still awaited with the same
    decision (same kind, same options) keeps the turn number at which it
    opened, so a simultaneous choice sent against that turn is not stale just
    because another player moved meanwhile. Every other decision opens now.
    """
    previous = {d.player: d for d in before}
    since: dict[str, int] = {}
    for decision in after:
        old = previous.get(decision.player)
        if (
            decision.player not in acted
            and old is not None
            and same_decision(old, decision)
            and decision.player in since_before
        ):
            since[decision.player] = since_before[decision.player]
        else:
            since[decision.player] = turn
    return since


def player_view_doc(
    game: Game, gamefile: GameFile, position: Position, player: str, decision: Decision | None,
    since: int | None,
) -> dict[str, Any]:
    result = game.result(position.state)
    unapplied = position.unapplied if position.unapplied and position.unapplied["player"] == player else None
    return {
        "format": formats.PLAYER_VIEW,
        "game_id": gamefile.game_id,
        "turn": position.turn,
        "player": player,
        "view": game.view(position.state, player),
        "decision": decision.to_json() if decision is not None else None,
        "since": since,
        "standing_orders": position.standing_orders.get(player, {}),
        "unapplied": {"from": unapplied["from"], "to": unapplied["to"]} if unapplied else None,
        "result": result.to_json() if result is not None else None,
    }


@dataclass(frozen=True)
class TurnFiles:
    """A turn ready to be written: the signed turn and each player's signed view wrapper."""

    turn: dict[str, Any]
    hash: str
    views: dict[str, dict[str, Any]]


def is_over(game: Game, state: dict[str, Any]) -> bool:
    """The game has ended: a result, or nobody is awaited."""
    return game.result(state) is not None or not game.awaiting(state)


def section_documents(
    game: Game, gamefile: GameFile, position: Position, since: dict[str, int]
) -> dict[str, dict[str, Any]]:
    """The plaintext of every sealed section of a turn: each player's view document, and the referee's."""
    decisions = {d.player: d for d in game.awaiting(position.state)}
    docs = {
        player: player_view_doc(game, gamefile, position, player, decisions.get(player), since.get(player))
        for player in gamefile.player_names
    }
    docs[REFEREE_SECTION] = position.to_section(gamefile.game_id)
    return docs


def assemble_turn(
    game: Game,
    gamefile: GameFile,
    position: Position,
    previous_hash: str | None,
    move_hash: str | None,
    mover: str | None,
    since: dict[str, int],
    move_file: str | None = None,
    joins: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Turn ``position.turn`` as the referee signs it (without the signature).

    Everything here is a function of the game directory's inputs and the
    seed: the sealing draws its randomness from the seed's streams, so
    ``pbem verify --replay`` rebuilds this document exactly. ``move_file`` is
    the SHA-256 of the move file's bytes as received (so that not one byte of
    the kept move can change unnoticed), ``joins`` the same for each join
    file (turn 0 of a game that waited for joins). When the game is over the
    seed is published in the turn (``seed``), so anyone can replay the game.
    """
    seed, number = position.seed, position.turn
    plain = section_documents(game, gamefile, position, since)
    # each section's canonical form serves both its sealing and its commitment
    canonical = {name: canonical_json(doc) for name, doc in plain.items()}
    sealed: dict[str, str] = {}
    for player, public_key in gamefile.players:
        sealed[player] = sealing.seal_canonical(
            canonical[player], [public_key.recipient], keying.seal_stream(seed, number, move_hash, player)
        )
    sealed[REFEREE_SECTION] = sealing.seal_canonical(
        canonical[REFEREE_SECTION],
        [gamefile.referee.recipient, gamefile.game_recipient],
        keying.seal_stream(seed, number, move_hash, REFEREE_SECTION),
    )
    result = game.result(position.state)
    return {
        "format": formats.TURN,
        "game_id": gamefile.game_id,
        "game": gamefile.hash(),
        "turn": number,
        "previous": previous_hash,
        "move": move_hash,
        "move_file": move_file,
        "mover": mover,
        "joins": joins,
        "public": game.public(position.state),
        "awaiting": [
            {"player": d.player, "kind": d.kind, "since": since[d.player]} for d in game.awaiting(position.state)
        ],
        "result": result.to_json() if result is not None else None,
        "commitments": commitments.turn_commitments(game, seed, number, move_hash, plain, position.state, canonical),
        "seed": seed.hex() if is_over(game, position.state) else None,
        "sealed": sealed,
    }


def build_turn(
    game: Game,
    gamefile: GameFile,
    position: Position,
    previous: Record | None,
    move_hash: str | None,
    mover: str | None,
    since: dict[str, int],
    referee_key: PrivateKey,
    move_file: str | None = None,
    joins: dict[str, str] | None = None,
) -> TurnFiles:
    """Seal, assemble and sign turn ``position.turn`` and the views of it."""
    unsigned = assemble_turn(
        game, gamefile, position, previous.hash if previous is not None else None, move_hash, mover, since,
        move_file=move_file, joins=joins,
    )
    turn, turn_hash = sign_and_hash(unsigned, referee_key)
    number = position.turn
    views = {
        player: view_wrapper(gamefile, number, turn_hash, player, turn["sealed"][player], referee_key)
        for player in gamefile.player_names
    }
    return TurnFiles(turn=turn, hash=turn_hash, views=views)


def sign_and_hash(doc: dict[str, Any], key: PrivateKey) -> tuple[dict[str, Any], str]:
    """``sign_document(doc, key)`` and its ``document_hash``, from one canonical form.

    Both cover the canonical JSON of the document without ``signature``, so
    a large turn is serialised once rather than twice.
    """
    body = canonical_json({name: value for name, value in doc.items() if name != SIGNATURE_FIELD})
    signed = {name: value for name, value in doc.items() if name != SIGNATURE_FIELD}
    signed[SIGNATURE_FIELD] = {
        "alg": ALGORITHM,
        "signer": key.fingerprint,
        "value": base64.b64encode(key.sign(body)).decode(),
    }
    return signed, "sha256:" + hashlib.sha256(body).hexdigest()


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


def write_views(gamedir: GameDir, views: dict[str, dict[str, Any]]) -> None:
    for player, wrapper in views.items():
        atomic_write(gamedir.view_json(player), dump_json(wrapper), sync_dir=False)
        atomic_write(gamedir.view_age(player), wrapper["sealed"].encode("ascii"), sync_dir=False)
        fsync_dir(gamedir.view_json(player).parent)


def write_turn(
    gamedir: GameDir, files: TurnFiles, move: tuple[str, bytes] | None = None
) -> None:
    """Write a step to disk in crash-safe order.

    The move file first, then the turn file (its rename is the commit
    point), then the views. A crash before the turn's rename leaves a move
    file with no turn, which the next step removes; a crash after it leaves
    old views, which the next step rewrites from the turn.
    """
    number = files.turn["turn"]
    if move is not None:
        player, data = move
        atomic_write(gamedir.move(number, player), data)
    atomic_write(gamedir.turn(number), dump_json(files.turn))
    write_views(gamedir, files.views)

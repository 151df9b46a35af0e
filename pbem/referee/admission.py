"""Pipeline steps 3-5 for any signed file a player sends (a move or a join).

The file must name this game, come from a seated player and carry that
player's signature; each failure is its own refusal.
"""

from __future__ import annotations

from typing import Any

from pbem.crypto.errors import SignatureError
from pbem.crypto.keys import PublicKey
from pbem.crypto.signing import verify_document
from pbem.referee.errors import BadSignatureMove, OtherGameMove, UnknownPlayerMove
from pbem.referee.gamefile import GameFile


def admit_sender(gamefile: GameFile, doc: dict[str, Any], doc_hash: str, what: str,
                 body: bytes | None = None, verified_by: PublicKey | None = None) -> PublicKey:
    """Check game id, seat and signature of ``doc`` (``what``: "move" or "join"); return the sender's key.

    ``body`` is the canonical form the signature covers, if the caller has it (it hashed it).
    ``verified_by`` is a key the caller has verified this very document's signature with
    (``pbem verify`` before its replay): if it is the seated player's key, the signature is not
    verified again.
    """
    player = doc["player"]
    if doc["game_id"] != gamefile.game_id:
        raise OtherGameMove(
            f"the {what} is for game {doc['game_id']}, this is game {gamefile.game_id}",
            player=player, move_hash=doc_hash,
        )
    public_key = gamefile.player_key(player)
    if public_key is None:
        raise UnknownPlayerMove(
            f"{player!r} is not seated in game {gamefile.game_id} (players: {', '.join(gamefile.player_names)})",
            player=player, move_hash=doc_hash,
        )
    if verified_by is not None and verified_by.ed25519 == public_key.ed25519:
        return public_key
    try:
        verify_document(doc, public_key, body)
    except SignatureError as error:
        raise BadSignatureMove(
            _taken_over(gamefile, doc, player) or f"the signature is not {player}'s: {error}",
            player=player, move_hash=doc_hash,
        ) from error
    return public_key


def _taken_over(gamefile: GameFile, doc: dict[str, Any], player: str) -> str | None:
    """Why a file signed by a key that held ``player``'s seat before a takeover is refused, or ``None``."""
    for handover in reversed(gamefile.handovers_of(player)):
        try:
            verify_document(doc, handover.previous)
        except SignatureError:
            continue
        return (f"signed by {handover.previous.fingerprint}, which held {player}'s seat until the referee handed it "
                f"to {gamefile.player_key(player).fingerprint} at turn {handover.turn} (pbem takeover): "  # type: ignore[union-attr]
                f"the seat was taken over, and files signed by the previous key are refused")
    return None

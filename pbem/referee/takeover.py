"""``pbem takeover``: the referee hands a seat to a new key.

A player who leaves (or loses their key) can be replaced: the referee signs
a seat record (:mod:`pbem.referee.seats`) and writes the next turn, whose
sections for that seat are sealed to the new key. Nothing happens in the
game (a step without events: the game begins it, and nothing else of its
state changes); the seat's open decision opens anew for its new holder (a new
``since``, and in a game with deadlines a new deadline). The record and the
turn are public, so everyone sees, in ``pbem log`` and ``pbem status``,
that the seat changed hands, when, and the fingerprints of both keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.crypto.canonical import document_hash, sha256_ref
from pbem.crypto.keys import PrivateKey, PublicKey
from pbem.crypto.signing import sign_document
from pbem.referee import core, seats
from pbem.referee.errors import TakeoverRefused
from pbem.referee.gamefile import GameFile, Handover, check_referee_key
from pbem.referee.layout import GameDir
from pbem.referee.lock import DEFAULT_WAIT, locked
from pbem.referee.pipeline import hold_anchor, name_rollback, open_game, recover
from pbem.referee.records import Record
from pbem.referee.reveal import read_reveal
from pbem.referee.storage import dump_json
from pbem.referee.turns import sign_turn, write_turn

if TYPE_CHECKING:  # pragma: no cover
    from pbem.referee.head import Anchors


@dataclass(frozen=True)
class Takeover:
    """A seat handed over: ``key`` holds ``player``'s seat from turn ``turn`` on (fingerprints)."""

    game_id: str
    player: str
    turn: int
    key: str
    previous: str
    record: str


def take_over(directory: str | Path, player: str, key: PublicKey, referee_key: PrivateKey,
              now: datetime | None = None, wait: float = DEFAULT_WAIT,
              anchors: Anchors | None = None) -> Takeover:
    """Hand ``player``'s seat to ``key``: write the seat record and the turn it produces.

    Refused (:class:`TakeoverRefused`, nothing written) before the deal, once
    the game is over, for a name that is not seated, and for a key that
    holds a seat already (this one or another) or is the referee's.
    """
    gamedir = GameDir.at(directory)
    with locked(gamedir.lock, wait):
        gamefile = GameFile.read(gamedir.game_toml)
        check_referee_key(gamefile, referee_key)
        if gamefile.player_key(player) is None:
            raise TakeoverRefused(f"{player!r} is not seated in game {gamefile.game_id} "
                                  f"(players: {', '.join(gamefile.player_names)})")
        if not gamedir.has_turns():
            raise TakeoverRefused(f"game {gamefile.game_id} is not dealt yet: a seat is handed over from turn 0 on "
                                  "(before the deal, set up a new game with the new key)")
        ctx = open_game(directory, referee_key, gamefile)
        if anchors is not None:
            hold_anchor(anchors, ctx, now)
        recover(ctx)
        if read_reveal(gamedir, gamefile) is not None or core.is_over(ctx.game, ctx.position.state):
            raise TakeoverRefused(f"game {gamefile.game_id} is over; its seats are no longer handed over")
        holder = ctx.gamefile.player_key(player)
        assert holder is not None
        holders = {seat: k.fingerprint for seat, k in ctx.gamefile.seat_keys}
        if key.fingerprint in holders.values():
            seat = next(s for s, f in holders.items() if f == key.fingerprint)
            raise TakeoverRefused(f"the key {key.fingerprint} holds {seat}'s seat already")
        if key.fingerprint == ctx.gamefile.referee.fingerprint:
            raise TakeoverRefused("the referee's key holds no seat")
        if key.name != player:
            raise TakeoverRefused(f"the key is named {key.name!r}: a key for {player}'s seat is named {player!r} "
                                  f"(pbem keygen {player})")
        step_clock = ctx.step_clock(now)
        number = ctx.current.doc["turn"]
        record = sign_document(
            seats.record_doc(ctx.gamefile, number, ctx.current.hash, player, key, holder,
                             step_clock.time if step_clock is not None else None),
            referee_key,
        )
        data = dump_json(record)
        handed = ctx.gamefile.with_handover(Handover(player=player, turn=number + 1, key=key, previous=holder))
        played = core.hand_over(ctx.game, ctx.position, ctx.since_before, player)
        unsigned = core.next_turn(
            ctx.game, handed, played, ctx.current.hash, document_hash(record), None, ctx.static, move_file=sha256_ref(data), clock=step_clock, act=seats.act_of(record),
        )
        files = sign_turn(name_rollback(ctx, unsigned), handed, referee_key)
        path = gamedir.seat(number + 1, player)
        write_turn(gamedir, files, record=(path, data))
        if anchors is not None:
            anchors.advance(gamefile, Record(gamedir.turn(number + 1), files.turn, files.hash), referee_key, now)
        return Takeover(game_id=gamefile.game_id, player=player, turn=number + 1, key=key.fingerprint,
                        previous=holder.fingerprint, record=str(path))

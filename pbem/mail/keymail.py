"""A player's public key by mail: what the referee does with it.

Before a game exists, a player mails the referee their public key (the
``.pub.json`` file ``pbem keygen`` writes), for the referee's host to seat
it with ``pbem new``. The mail loop reads it as it reads any file, and its
answer says what the referee does with it:

* a key that holds no seat in a game served here: nothing yet. The
  referee's host seats it when creating the game, and the invitation to
  join comes by mail then; the run's report names the key, its
  fingerprint and the address, for the host;
* a key that holds a seat in a game waiting for that player's join: the
  answer carries the invitation (``game.toml``, the join files so far, the
  ``pbem join`` command) when the mail came from the seat's own address;
  an invitation mailed before goes again, in the answer (the player has
  plainly not got it). From another address, nothing goes but the answer:
  a key is public, and anybody's copy of it must not make the referee
  mail a seat;
* a key that holds a seat in a game under way, or over: where its turn
  mails go, and that nothing was changed.

A key proves nothing (anybody may mail anybody's public key): nothing is
recorded from it, and no seat changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.crypto.canonical import parse_json_strict
from pbem.crypto.errors import CryptoError
from pbem.crypto.keys import PublicKey
from pbem.mail.compose import Outcome
from pbem.mail.extract import PbemFile
from pbem.mail.record import MailRecord
from pbem.mail.served import GAME_TROUBLE, ServedGame, seat_address
from pbem.referee import status
from pbem.referee.errors import UnreadableMove
from pbem.referee.layout import GameDir

#: the family of the public key files pbem writes (``pbem-public-key/1``)
KEY_FAMILY = "pbem-public-key/"


def is_key(file: PbemFile) -> bool:
    return file.format.startswith(KEY_FAMILY)


@dataclass
class KeyVerdict:
    """What the answer to a key says (its reason: the seat it holds, for the run's report), and the game it
    holds a seat in, whose status the answer gives and whose invitation may go with it."""

    outcome: Outcome
    game: ServedGame | None = None


def judge_key(file: PbemFile, games: dict[str, ServedGame], record: MailRecord, sender: str) -> KeyVerdict:
    """What the referee does with a public key found in a mail from ``sender`` (see the module docstring)."""
    what = "a public key"
    try:
        key = PublicKey.from_json(parse_json_strict(file.data))
    except (CryptoError, ValueError) as error:
        return KeyVerdict(Outcome(file.name, what, "refused", f"not a public key pbem reads ({error}); nothing "
                                  "was done with it", exit_code=UnreadableMove.exit_code, reason=UnreadableMove.reason))
    what = f"{key.name}'s public key ({key.fingerprint})"
    for gid, game in games.items():
        try:
            current = status(game.dir)
        except GAME_TROUBLE:
            continue  # a game in trouble holds no seat this run; its own mails say why
        player = next((p for p in current.gamefile.player_names
                       if (held := current.gamefile.player_key(p)) is not None and held.fingerprint == key.fingerprint),
                      None)
        if player is None:
            continue
        address = seat_address(game, record, player, current.gamefile) or ""
        seat = f"{player}'s seat in game {gid}"
        awaited = next((a for a in current.awaiting if a["player"] == player), None)
        if not GameDir.at(game.dir).has_turns() and awaited is not None:
            if address.lower() == sender.lower():
                _invite_again(record, gid, player, awaited["kind"])
                message = (f"it holds {player}'s seat in game {gid}, which waits for {player}'s join "
                           f"({awaited['kind']}): the invitation, with the files and the command to join, is in "
                           "this mail.")
                return KeyVerdict(Outcome(file.name, what, "key", message, reason=seat), game)
            message = (f"it holds {player}'s seat in game {gid}, which waits for {player}'s join: the invitation "
                       "goes to the seat's own address, not to this one. Nothing was changed.")
            return KeyVerdict(Outcome(file.name, what, "key", message, reason=seat))
        if current.over:
            message = f"it holds {player}'s seat in game {gid}, which is over. Nothing was changed."
        else:
            message = (f"it holds {player}'s seat in game {gid}, at turn {current.turn}: the turn mails go to the "
                       "seat's own address. Nothing was changed.")
        return KeyVerdict(Outcome(file.name, what, "key", message, reason=seat), game)
    message = ("it holds no seat in a game refereed here yet. The referee's host seats it when creating the game "
               "(pbem new, with this key file); the invitation to join then comes to you by mail. Nothing else "
               "is done with it.")
    return KeyVerdict(Outcome(file.name, what, "key", message, reason="no seat in a game served here"))


def _invite_again(record: MailRecord, game_id: str, player: str, kind: str) -> None:
    """Forget that the invitation of this round was mailed to ``player``: the turn mails of this run send it."""
    marks: dict[str, Any] = record.marks()
    players = marks.get(game_id, {}).get("players", {})
    if players.get(player) == f"join:{kind}":
        del players[player]
        record.save_marks(marks)

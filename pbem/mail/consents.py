"""Consents to a rollback, by mail: the referee's loop keeps each seat's and rolls back once it holds them all.

A player mails the file ``pbem undo consent`` wrote, like a move. The loop
checks it as ``pbem undo apply`` would (:func:`pbem.referee.rollback.check_consent`:
a seat of this game signed it with the key that holds the seat, for the
game's current head) and keeps it in its state directory
(``STATE/consents/GAME_ID/PLAYER.json``, a seat's newer consent replacing
its older one; a consent for a head the game has left is dropped). Once it
holds one from every seat for the current head, it rolls the game back
(:func:`pbem.referee.undo.apply_rollback`, with its anchors) and marks every
seat and spectator as owed a turn mail from the turn returned to: the next
turn mails carry that turn, the rollback's record and every consent, which
``pbem mail unpack`` needs to file the rollback in a player's copy.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from pbem.mail.compose import Outcome
from pbem.mail.extract import PbemFile
from pbem.mail.record import MailRecord
from pbem.mail.served import ServedGame
from pbem.referee.errors import UndoRefused

if TYPE_CHECKING:  # pragma: no cover
    from pbem.crypto.keys import PrivateKey
    from pbem.referee.head import Anchors

#: a seat's mark in the loop's record once a rollback returned the game to turn N: owed a turn mail from N on
ROLLED_BACK = "rolled-back:"


def take_consent(game: ServedGame, file: PbemFile, record: MailRecord, key: PrivateKey, anchors: Anchors,
                 wait: float, now: datetime | None = None) -> Outcome:
    """Check a consent found in a mail and keep it; roll back once every seat's is in. What the answer says."""
    from pbem.referee.undo import gather_consent

    what = f"{file.player}'s consent to a rollback" if file.player else "a consent to a rollback"
    gid = game.gamefile.game_id
    try:
        gathered = gather_consent(game.dir, file.data, file.name, record.dir / "consents" / gid, key,
                                  anchors=anchors, wait=wait, now=now)
    except UndoRefused as error:
        return _refused(file, what, str(error))
    applied = gathered.applied
    if applied is None:
        return Outcome(file.name, what, "applied",
                       f"kept: the game is rolled back to turn {gathered.to} once every seat has consented to it "
                       f"for this head (turn {gathered.head}); waiting for {', '.join(gathered.missing)}")
    marks = record.marks()
    mine = marks.setdefault(gid, {"players": {}, "spectators": {}})
    for group in ("players", "spectators"):
        for who in list(mine.get(group, {})):
            mine[group][who] = f"{ROLLED_BACK}{applied.to}"
    record.save_marks(marks)
    return Outcome(file.name, what, "applied",
                   f"every seat consented: game {gid} is rolled back to turn {applied.to}; turns {applied.to + 1} "
                   f"to {applied.head} are kept (rollback {applied.number}), and every seat gets a turn mail from "
                   "that turn")


def _refused(file: PbemFile, what: str, message: str) -> Outcome:
    return Outcome(file.name, what, "refused", message, exit_code=UndoRefused.exit_code, reason=UndoRefused.reason)


def mailed_through(mark: Any) -> int | None:
    """The latest turn a seat's mark says was mailed to it (``None``: none yet, a turn mail from the deal)."""
    if isinstance(mark, int):
        return mark
    if isinstance(mark, str) and mark.startswith(ROLLED_BACK) and mark[len(ROLLED_BACK):].isdigit():
        return int(mark[len(ROLLED_BACK):]) - 1
    return None

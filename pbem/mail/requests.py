"""Requests for turns in the mail loop: a player asks by mail for the turns their copy lacks.

A request (``pbem-request/1``, :mod:`pbem.referee.requests`) found in a
mail is checked against the game as it is now: of this game, naming a
seated player, signed by the key that holds that seat (:func:`take_request`).
It is then noted as pending for that seat (``marks.json``, the game's
``requests``), and the turn mails of the same run (:func:`pbem.mail.serve.notify`)
mail the seat's own address, never the mail's sender, a mail carrying the
turns it asks for and every later one (:mod:`pbem.mail.catchup`); once that
mail is queued, the request is recorded as answered (``requests/HEX``, HEX
its hash) and never answered again. So nobody but the holder of a seat can
have the referee mail that seat, and a copy of a request, which anybody who
handles the mail could send again, makes it mail nobody.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.mail.compose import Outcome
from pbem.mail.extract import PbemFile
from pbem.mail.record import MailRecord
from pbem.mail.served import ServedGame
from pbem.referee import status
from pbem.referee.copies import TurnRange, turns_text
from pbem.referee.errors import AlreadyApplied, Refusal
from pbem.referee.requests import MAX_RANGES, check_request
from pbem.referee.storage import atomic_write

#: the most ranges of turns one seat's pending requests keep (several requests before the next turn mail)
PENDING_RANGES = 2 * MAX_RANGES


def _answered_path(record: MailRecord, request_hash: str) -> Path:
    return record.dir / "requests" / request_hash.removeprefix("sha256:")


def was_answered(record: MailRecord, request_hash: str) -> bool:
    return _answered_path(record, request_hash).exists()


def record_answered(record: MailRecord, request_hashes: list[str]) -> None:
    """Record that the requests with these hashes were answered (a turn mail queued for each)."""
    for request_hash in request_hashes:
        path = _answered_path(record, request_hash)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, (request_hash + "\n").encode("ascii"))


def pending_of(marks: dict[str, Any], game_id: str) -> dict[str, dict[str, Any]]:
    """The requests pending for each seat of a game, in the loop's marks: ``{player: {hashes, wanted}}``."""
    return marks.setdefault(game_id, {"players": {}, "spectators": {}}).setdefault("requests", {})


def merge(ranges: list[TurnRange]) -> list[TurnRange]:
    """``ranges`` sorted, overlapping and touching ones joined."""
    joined: list[TurnRange] = []
    for first, last in sorted(ranges):
        if joined and first <= joined[-1][1] + 1:
            joined[-1] = (joined[-1][0], max(last, joined[-1][1]))
        else:
            joined.append((first, last))
    return joined


def take_request(game: ServedGame, file: PbemFile, record: MailRecord) -> Outcome:
    """Check a request found in a mail and note it as pending for its seat; what the answer says of it."""
    current = status(game.dir)
    what = f"{file.player}'s request for turns" if file.player else "a request for turns"
    try:
        request = check_request(file.data, current.gamefile)
    except Refusal as error:
        return Outcome(file.name, what, "refused", error.message, exit_code=error.exit_code, reason=error.reason)
    marks = record.marks()
    pending = pending_of(marks, game.gamefile.game_id)
    mine = pending.setdefault(request.player, {"hashes": [], "wanted": []})
    if was_answered(record, request.hash) or request.hash in mine["hashes"]:
        return Outcome(file.name, what, "already-applied",
                       "this very request was answered already, and is not answered again: if that mail did not "
                       "arrive, write a new request (pbem mail request)", exit_code=AlreadyApplied.exit_code,
                       reason=AlreadyApplied.reason)
    wanted = request.wanted(current.turn)
    mine["hashes"].append(request.hash)
    mine["wanted"] = [list(r) for r in merge([*map(tuple, mine["wanted"]), *wanted])][-PENDING_RANGES:]
    record.save_marks(marks)
    asked = turns_text(wanted) if wanted else "the current turn"
    return Outcome(file.name, what, "requested",
                   f"{asked} of game {game.gamefile.game_id} go to {request.player}'s address in a turn mail of "
                   "their own (never to the sender of a request)")

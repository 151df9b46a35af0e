"""Spectators' digests: the public record of a game, mailed on the schedule each spectator chooses.

A spectator gets a **digest**: the public events since their last one, the
status, ``game.toml``, the referee's head and the turn files since then
(never a view). When, is the spectator's **schedule**:

* ``step`` — after every run of the referee that moved the game on (the
  default);
* ``daily`` — at most one a day by the referee's clock (the first when the
  game is dealt), with everything since the last one;
* ``end`` — one, when the game is over, with the whole record.

Whatever the schedule, the end of the game is mailed once. The referee's
mail configuration sets it (``digest = "daily"`` in a ``[[games]]`` entry
for its spectators, or ``{ address = "...", digest = "end" }`` in its
``spectators`` list, for one), and a spectator may change their own by mail:
a mail from their address whose Subject, or whose text's first line, is
``digest step``, ``digest daily`` or ``digest end`` (and, for one game
only of several they watch, its game id after it). The schedule a mail
sets is kept in the loop's state directory (``marks.json``) and wins over
the configuration's. A From address proves nothing, so the answer, which
goes to the spectator's address, says what was set: a forged mail can only
change how often a spectator gets the public record, and they learn of it.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from email.message import Message
from typing import Any

from pbem.referee.clock import format_time, read_recorded

#: the schedules, and how a mail says each
SCHEDULES = {
    "step": "after every step of the game",
    "daily": "at most once a day, with everything since the last one",
    "end": "once, at the end of the game, with the whole record",
}
DEFAULT_SCHEDULE = "step"
#: the time between two digests of the daily schedule
DAY = timedelta(days=1)
#: what a spectator writes: ``digest daily``, or ``digest daily GAME_ID``
_COMMAND = re.compile(r"\s*digest\s+(step|daily|end)(?:\s+([A-Za-z0-9._-]{1,64}))?\s*", re.IGNORECASE)
#: the most of a mail's text searched for the command (it is the first line)
_TEXT_MAX = 4096


def asked_schedule(message: Message, subject: str) -> tuple[str, str | None] | None:
    """The schedule a mail asks for, and the game it names if any: from its Subject, else from the first
    line of its text that is not blank; None when it asks for none."""
    found = _COMMAND.fullmatch(subject)
    if found is None:
        found = _COMMAND.fullmatch(_first_line(message))
    if found is None:
        return None
    return found.group(1).lower(), found.group(2)


def _first_line(message: Message) -> str:
    for part in message.walk():
        if part.get_content_type() == "text/plain" and part.get_content_disposition() != "attachment":
            data = part.get_payload(decode=True)
            if not isinstance(data, bytes):
                return ""
            # the command is ASCII, in any charset a person's mail uses; the sender's charset name is not
            # trusted with a codec (any name reaches the codec registry)
            text = data[:_TEXT_MAX].decode("utf-8", errors="replace")
            return next((line for line in text.splitlines() if line.strip()), "")
    return ""


def _digests(marks: dict[str, Any], game_id: str) -> dict[str, Any]:
    return marks.setdefault(game_id, {"players": {}, "spectators": {}}).setdefault("digests", {})


def schedule_of(marks: dict[str, Any], game_id: str, configured: dict[str, str], address: str) -> str:
    """A spectator's schedule: the one their mail set, else the configuration's, else ``step``."""
    asked = _digests(marks, game_id).get(address.lower(), {}).get("schedule")
    return asked or configured.get(address) or DEFAULT_SCHEDULE


def set_schedule(marks: dict[str, Any], game_id: str, address: str, schedule: str) -> None:
    """Note the schedule a spectator's mail asked for (the caller saves the marks)."""
    _digests(marks, game_id).setdefault(address.lower(), {})["schedule"] = schedule


def is_due(marks: dict[str, Any], game_id: str, schedule: str, address: str, mark: Any, turn: int, over: bool,
           now: datetime) -> bool:
    """Whether a spectator is due a digest now: the game moved on since their last (``mark``: the turn it
    reached, or ``"over"``) and their schedule says so; the end, once, whatever the schedule."""
    if mark == "over":
        return False
    if over:
        return True
    if isinstance(mark, int) and mark >= turn:
        return False
    if schedule == "end":
        return False
    if schedule == "daily":
        last = _digests(marks, game_id).get(address.lower(), {}).get("sent")
        return last is None or now - read_recorded(last) >= DAY
    return True


def record_sent(marks: dict[str, Any], game_id: str, address: str, now: datetime) -> None:
    """Note when a spectator was last sent a digest (for the daily schedule)."""
    _digests(marks, game_id).setdefault(address.lower(), {})["sent"] = format_time(now)

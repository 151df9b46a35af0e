"""The referee's clock: an input of a step, like a move file, never read by the rules.

Deadlines need time, which the rules engine never sees. The referee takes
"now" as an input — ``--now ISO-8601`` on the command line, else the
environment variable ``PBEM_NOW`` (tests, replays of a session), else the
system clock — and records it, in games that have deadlines only, in every
turn it writes (``time``). ``pbem verify --replay`` then takes the recorded
times as inputs, exactly as it takes the move files, so the replay stays
byte-exact; it checks that they never go backwards.

Times are written in one canonical form, UTC to the second:
``2025-03-01T12:00:00Z``. Durations (deadlines, reminders) are a whole
number and a unit: ``90s``, ``30m``, ``48h``, ``7d``.
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime, timedelta

from pbem.referee.errors import ClockAhead, ClockWentBack, UsageError

#: the environment variable that sets the referee's clock when ``--now`` is not given
NOW_ENV = "PBEM_NOW"
# the patterns here are compiled when first used (and kept by re): most commands read no time
#: a duration: a whole number of seconds, minutes, hours or days
DURATION = r"^([1-9][0-9]{0,6})([smhd])$"
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
#: the longest duration: ten years (a deadline later than the calendar goes is no deadline)
DURATION_MAX = 3650 * 86400
#: how far ``--now`` may be ahead of this machine's clock without ``--force-now``: the clocks of two machines
#: differ by seconds or minutes, and a referee may step a game a little before a deadline on purpose
AHEAD_MAX = timedelta(minutes=10)
_CANONICAL = "%Y-%m-%dT%H:%M:%SZ"
_CANONICAL_TIME = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"


def parse_time(text: str, where: str = "time") -> datetime:
    """An ISO-8601 time with its offset (``Z`` or ``+01:00``), as UTC to the second.

    A time without an offset is refused: "12:00" means nothing to a
    referee and players in different time zones.
    """
    try:
        found = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"{where} {text!r}: not an ISO-8601 time such as 2025-03-01T12:00:00Z") from None
    if found.tzinfo is None:
        raise UsageError(f"{where} {text!r}: give the time zone (Z, or an offset such as +01:00)")
    return found.astimezone(UTC).replace(microsecond=0)


def format_time(moment: datetime) -> str:
    """The canonical form: UTC, to the second, ``Z``."""
    return moment.astimezone(UTC).strftime(_CANONICAL)


def read_recorded(text: str) -> datetime:
    """A time the referee recorded (already canonical)."""
    return datetime.strptime(text, _CANONICAL).replace(tzinfo=UTC)


def is_canonical(text: str) -> bool:
    return bool(re.match(_CANONICAL_TIME, text))


def referee_now(now: datetime | None = None) -> datetime:
    """The referee's clock for this step: ``now`` if given, else ``$PBEM_NOW``, else the system clock."""
    if now is not None:
        return now.astimezone(UTC).replace(microsecond=0)
    text = os.environ.get(NOW_ENV)
    if text:
        return parse_time(text, NOW_ENV)
    return datetime.now(UTC).replace(microsecond=0)


def check_not_ahead(now: datetime, where: str = "--now") -> None:
    """Refuse a clock given by hand that is more than :data:`AHEAD_MAX` ahead of this machine's
    (:class:`~pbem.referee.errors.ClockAhead`).

    A turn records its step's clock and no later step may go back from it,
    so a typo in ``--now`` (a day, a year ahead) would lock the game against
    every run at the real clock until then. ``$PBEM_NOW`` is not checked: it
    is the clock of tests and of replays of a session, which are ahead or
    behind on purpose.
    """
    system = datetime.now(UTC).replace(microsecond=0)
    if now - system > AHEAD_MAX:
        raise ClockAhead(
            f"{where} {format_time(now)} is {_span(now - system)} ahead of this machine's clock "
            f"({format_time(system)}): a game with deadlines that records it refuses every later run at the real "
            "clock until then (exit 24); check the time, or give --force-now to take it all the same"
        )


def _span(delta: timedelta) -> str:
    """A time span in its largest whole unit, rounded down: ``3 days``, ``5 hours``, ``12 minutes``."""
    seconds = int(delta.total_seconds())
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds} seconds"


def parse_duration(text: str, where: str = "duration") -> int:
    """Seconds in a duration such as ``48h`` (units s, m, h, d)."""
    found = re.match(DURATION, text.strip()) if isinstance(text, str) else None
    if found is None:
        raise UsageError(f"{where} {text!r}: a duration is a whole number and a unit, such as 90s, 30m, 48h or 7d")
    seconds = int(found.group(1)) * _UNITS[found.group(2)]
    if seconds > DURATION_MAX:
        raise UsageError(f"{where} {text!r}: a duration is at most {DURATION_MAX // 86400}d (ten years)")
    return seconds


def after(moment: datetime, seconds: int) -> datetime:
    try:
        return moment + timedelta(seconds=seconds)
    except OverflowError:
        raise UsageError(f"{format_time(moment)} and {seconds} s more is past the end of the calendar (year 9999); "
                         "check the clock (--now, $PBEM_NOW) and the durations") from None


def check_forward(previous: str | None, now: datetime, what: str) -> None:
    """Refuse a clock earlier than the latest time the game recorded (``previous``)."""
    if previous is not None and now < read_recorded(previous):
        raise ClockWentBack(
            f"the referee's clock says {format_time(now)}, earlier than {what} ({previous}): "
            "recorded times never go backwards; check the clock (or --now / $PBEM_NOW) and run again"
        )

"""Deadlines and reminders: how long a player has for each decision.

A game may set them in ``game.toml`` (``pbem new --deadline 48h
--deadline claim=12h --remind 24h --remind 4h``)::

    [deadlines]
    default = "48h"            # every decision kind not listed below
    remind = ["24h", "4h"]     # reminders, this long before a deadline

    [deadlines.kinds]
    claim = "12h"              # a kind of its own
    draft-pick = "off"         # no deadline for this kind

A decision's deadline is the time of the turn at which it opened (its
``since``; the referee's clock, recorded in that turn) plus the duration for
its kind. It is written into the turn's public ``awaiting`` entry, and
carried with ``since``: a player still awaited with the same decision after
someone else moved keeps the deadline they had. Once a deadline has passed,
``pbem tick`` may answer the decision with the game's default action
(:mod:`pbem.referee.tick`). Before it does, a move still counts: the
deadline is the earliest time the referee may act for a player, not a
cut-off for the player.

Decisions before the deal (the joins) have no deadline: nobody can send a
nonce for a player.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from types import MappingProxyType
from typing import Any, NamedTuple

from pbem.referee.clock import after, format_time, is_canonical, parse_duration, read_recorded, referee_now
from pbem.referee.errors import UsageError

#: a kind's duration that exempts it from the default deadline
OFF = "off"
#: an empty mapping that nobody can fill: the default of a record's mapping, shared by every record without one
_EMPTY: Mapping[str, str] = MappingProxyType({})

# The records here are NamedTuples, not dataclasses: a step of a game with deadlines imports this module
# (docs/performance.md, "Records without dataclasses").


class DeadlineRules(NamedTuple):
    """The ``[deadlines]`` table of ``game.toml``."""

    default: str | None = None
    kinds: Mapping[str, str] = _EMPTY
    remind: tuple[str, ...] = ()

    @classmethod
    def from_options(cls, deadlines: Iterable[str], remind: Iterable[str], kinds: frozenset[str]) -> DeadlineRules:
        """From ``--deadline DURATION`` / ``--deadline KIND=DURATION|off`` and ``--remind DURATION`` options.

        ``kinds`` are the game's decision kinds: a deadline for any other
        kind is refused rather than silently never used.
        """
        default: str | None = None
        per_kind: dict[str, str] = {}
        for text in deadlines:
            kind, sep, duration = text.partition("=")
            if not sep:
                if default is not None:
                    raise UsageError(f"--deadline {text!r}: the default deadline is given twice")
                parse_duration(text, "--deadline")
                default = text
                continue
            if kind not in kinds:
                raise UsageError(f"--deadline {text!r}: the game has no decision kind {kind!r}; "
                                 f"its kinds: {', '.join(sorted(kinds))}")
            if duration != OFF:
                parse_duration(duration, f"--deadline {kind}=")
            per_kind[kind] = duration
        reminders = tuple(remind)
        for text in reminders:
            parse_duration(text, "--remind")
        rules = cls(default=default, kinds=dict(sorted(per_kind.items())), remind=reminders)
        if not rules.any_deadline:
            raise UsageError("no decision would have a deadline: give --deadline DURATION (every kind) "
                             "or --deadline KIND=DURATION" + (" (--remind needs a deadline)" if reminders else ""))
        return rules

    @property
    def any_deadline(self) -> bool:
        return self.default is not None or any(d != OFF for d in self.kinds.values())

    def to_doc(self) -> dict[str, Any]:
        doc: dict[str, Any] = {}
        if self.default is not None:
            doc["default"] = self.default
        if self.kinds:
            doc["kinds"] = dict(self.kinds)
        if self.remind:
            doc["remind"] = list(self.remind)
        return doc

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> DeadlineRules:
        return cls(default=doc.get("default"), kinds=dict(doc.get("kinds", {})), remind=tuple(doc.get("remind", ())))

    def duration(self, kind: str) -> int | None:
        """Seconds a decision of ``kind`` has, or ``None`` (no deadline)."""
        text = self.kinds.get(kind, self.default)
        if text is None or text == OFF:
            return None
        return parse_duration(text)

    def reminder_seconds(self) -> list[tuple[str, int]]:
        """The reminders, as written and in seconds, the longest first."""
        return sorted(((text, parse_duration(text)) for text in self.remind), key=lambda r: -r[1])


class StepClock(NamedTuple):
    """The referee's clock at one step of a game with deadlines (``None`` in a game without).

    ``time`` is the step's time (canonical, :mod:`pbem.referee.clock`);
    ``previous`` the deadlines of the turn before (player -> deadline), which
    decisions carried over with their ``since`` keep.
    """

    time: str
    previous: Mapping[str, str] = _EMPTY


def deal_clock(rules: DeadlineRules | None, now: datetime | None) -> StepClock | None:
    """The clock of the deal (turn 0): the referee's time, no turn before it; ``None`` without deadlines."""
    if rules is None:
        return None
    return StepClock(format_time(referee_now(now)))


def set_deadlines(rules: DeadlineRules, awaiting: list[dict[str, Any]], turn: int, time: str,
                  previous: Mapping[str, str]) -> None:
    """Write each awaited decision's ``deadline`` into the turn's ``awaiting`` entries.

    A decision that opened at this turn (``since == turn``) gets ``time`` plus
    its kind's duration; one carried over from an earlier turn keeps the
    deadline it had there (``previous``: player -> deadline in the turn
    before). A kind without a deadline gets none.
    """
    for entry in awaiting:
        seconds = rules.duration(entry["kind"])
        if seconds is None:
            continue
        if entry["since"] == turn:
            entry["deadline"] = format_time(after(read_recorded(time), seconds))
        else:  # carried with ``since``: the same decision, so the same kind and deadline
            entry["deadline"] = previous[entry["player"]]


def previous_deadlines(awaiting: list[dict[str, Any]]) -> dict[str, str]:
    """player -> deadline, from a turn's ``awaiting``."""
    return {a["player"]: a["deadline"] for a in awaiting if "deadline" in a}


def overdue(awaiting: list[dict[str, Any]], now: datetime) -> list[dict[str, Any]]:
    """The awaited decisions whose deadline has come (``deadline <= now``), in ``awaiting`` order."""
    return [a for a in awaiting if "deadline" in a and read_recorded(a["deadline"]) <= now]


class Reminder(NamedTuple):
    """A reminder whose time has come: ``before`` (as written in ``game.toml``) before ``deadline``."""

    player: str
    kind: str
    since: int
    deadline: str
    before: str
    #: when it fell due (the deadline less ``before``)
    due: str

    def to_json(self) -> dict[str, Any]:
        return self._asdict()


def reminders_due(rules: DeadlineRules, awaiting: list[dict[str, Any]], now: datetime) -> list[Reminder]:
    """Every reminder whose time has come for a decision whose deadline has not (longest lead first).

    A reminder as long as the decision's whole time or longer (24 h before a
    12 h deadline) is not sent: it would fall due when the decision opens,
    whose turn mail says the deadline anyway.
    """
    found = []
    for entry in awaiting:
        if "deadline" not in entry:
            continue
        deadline = read_recorded(entry["deadline"])
        if deadline <= now:
            continue
        for text, seconds in rules.reminder_seconds():
            if seconds >= (rules.duration(entry["kind"]) or 0):
                continue
            due = after(deadline, -seconds)
            if due <= now:
                found.append(Reminder(entry["player"], entry["kind"], entry["since"], entry["deadline"], text,
                                      format_time(due)))
    return found


def recorded_time_problem(has_deadlines: bool, turn: Mapping[str, Any], previous: Mapping[str, Any] | None) -> str | None:
    """What is wrong with the time a turn records, or ``None``.

    A game with deadlines records the referee's clock in every turn, and the
    recorded times never go backwards; a game without records none.
    """
    time = turn.get("time")
    if not has_deadlines:
        return None if time is None else "records a time, but the game has no deadlines (game.toml)"
    if not isinstance(time, str) or not is_canonical(time):
        return "records no time: a game with deadlines records the referee's clock in every turn"
    before = previous.get("time") if previous is not None else None
    if isinstance(before, str) and is_canonical(before) and read_recorded(time) < read_recorded(before):
        return (f"its time {time} is earlier than the time of turn {previous['turn']} ({before}): "  # type: ignore[index]
                "the referee's clock went backwards")
    return None

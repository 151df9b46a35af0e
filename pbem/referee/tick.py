"""``pbem tick``: the referee's clock strikes; decisions past their deadline are answered, reminders reported.

Run by cron, or by ``pbem mail serve`` every round. Under the game's lock,
with the referee's clock ``now`` (:mod:`pbem.referee.clock`):

1. while an awaited decision's deadline has come (``deadline <= now``), the
   referee answers the first such decision (in ``awaiting`` order) with the
   game's default action, one step per decision, each recorded by a signed
   timeout record (:mod:`pbem.referee.timeouts`). The new decisions this
   opens get deadlines counted from ``now``, so one run never times out a
   decision it opened itself; a simultaneous decision still open since
   before keeps its deadline and may be answered in the same run;
2. it reports the reminders whose time has come (``deadline - REMIND <= now
   < deadline``). The game directory keeps no record of reminders: sending
   each one once is the mail layer's business (``pbem tick --config``,
   ``pbem mail serve``).

A game without deadlines, one not dealt yet, or one that is over has
nothing to tick.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.crypto.canonical import document_hash, sha256_ref
from pbem.crypto.keys import PrivateKey
from pbem.crypto.signing import sign_document
from pbem.referee import clock, core, timeouts
from pbem.referee.core import refusing_failures
from pbem.referee.deadlines import Reminder, overdue, reminders_due
from pbem.referee.gamefile import GameFile, check_referee_key
from pbem.referee.layout import GameDir
from pbem.referee.lock import DEFAULT_WAIT, locked
from pbem.referee.pipeline import StepContext, hold_anchor, name_rollback, open_game, recover
from pbem.referee.reveal import read_reveal
from pbem.referee.storage import dump_json
from pbem.referee.turns import sign_turn, write_turn

if TYPE_CHECKING:  # pragma: no cover
    from pbem.referee.head import Anchors

#: at most this many timeouts in one run (a guard; each opens decisions with deadlines after ``now``)
TIMEOUT_LIMIT = 1000


@dataclass(frozen=True)
class TimedOut:
    """One decision the referee answered after its deadline."""

    turn: int
    player: str
    kind: str
    deadline: str
    action: str
    record: str

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass
class TickReport:
    """What one tick did and found."""

    game_id: str
    now: str
    turn: int | None = None
    timeouts: list[TimedOut] = field(default_factory=list)
    reminders: list[Reminder] = field(default_factory=list)
    #: why there was nothing to do: no deadlines, not dealt, over (``None``: the game runs)
    idle: str | None = None
    awaiting: list[dict[str, Any]] = field(default_factory=list)


def tick(directory: str | Path, referee_key: PrivateKey, now: datetime | None = None,
         wait: float = DEFAULT_WAIT, anchors: Anchors | None = None) -> TickReport:
    """Answer every decision past its deadline; report the reminders due (see the module docstring).

    ``anchors``: as :func:`~pbem.referee.pipeline.submit` takes them.
    """
    gamedir = GameDir.at(directory)
    moment = clock.referee_now(now)
    with locked(gamedir.lock, wait):
        gamefile = GameFile.read(gamedir.game_toml)
        check_referee_key(gamefile, referee_key)
        report = TickReport(game_id=gamefile.game_id, now=clock.format_time(moment))
        rules = gamefile.deadline_rules
        if rules is None:
            report.idle = "the game has no deadlines (game.toml)"
            return report
        if not gamedir.has_turns():
            report.idle = "the game is not dealt yet; deadlines start with the deal"
            return report
        ctx = open_game(directory, referee_key, gamefile)
        if anchors is not None:
            hold_anchor(anchors, ctx, moment)
        recover(ctx)
        ctx.step_clock(moment)  # a clock earlier than the latest turn's is refused before anything is done
        for _ in range(TIMEOUT_LIMIT):
            if read_reveal(gamedir, gamefile) is not None or core.is_over(ctx.game, ctx.position.state):
                break
            due = overdue(ctx.current.doc["awaiting"], moment)
            if not due:
                break
            report.timeouts.append(time_out(ctx, due[0], moment))
            ctx = open_game(directory, referee_key, gamefile)
            if anchors is not None:
                anchors.advance(ctx.gamefile, ctx.current, referee_key, moment)
        report.turn = ctx.current.doc["turn"]
        report.awaiting = [dict(a) for a in ctx.current.doc["awaiting"]]
        if read_reveal(gamedir, gamefile) is not None or core.is_over(ctx.game, ctx.position.state):
            report.idle = "the game is over"
            return report
        report.reminders = reminders_due(rules, ctx.current.doc["awaiting"], moment)
        return report


def time_out(ctx: StepContext, entry: dict[str, Any], now: datetime) -> TimedOut:
    """Answer the awaited decision ``entry`` with the game's default action: the record, the turn, the views.

    The caller has checked that the deadline has come; ``verify`` checks
    it again from the record and the turns.
    """
    step_clock = ctx.step_clock(now)
    assert step_clock is not None, "a timeout in a game without deadlines"
    number, player = ctx.current.doc["turn"], entry["player"]
    with refusing_failures():
        played, action = core.time_out(ctx.game, ctx.position, ctx.since_before, player, entry["kind"])
        record = sign_document(
            timeouts.record_doc(ctx.gamefile, number, ctx.current.hash, entry, step_clock.time, action),
            ctx.referee_key,
        )
        data = dump_json(record)
        unsigned = core.next_turn(
            ctx.game, ctx.gamefile, played, ctx.current.hash, document_hash(record), None, ctx.static, move_file=sha256_ref(data), clock=step_clock, act=timeouts.act_of(record),
        )
        files = sign_turn(name_rollback(ctx, unsigned), ctx.gamefile, ctx.referee_key)
    path = ctx.gamedir.timeout(number + 1, player)
    write_turn(ctx.gamedir, files, record=(path, data))
    return TimedOut(turn=number + 1, player=player, kind=entry["kind"], deadline=entry["deadline"], action=action,
                    record=str(path))

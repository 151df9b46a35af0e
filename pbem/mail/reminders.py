"""Deadlines in the mail loop: the referee's tick for each served game, and each reminder mailed once.

``pbem mail serve`` ticks every game it serves each round (after reading
the mailbox, so that a move already in the mailbox counts before its
deadline is enforced), and ``pbem tick DIR --config FILE`` does the same for
one game. A tick answers the decisions past their deadline
(:mod:`pbem.referee.tick`); the turn mails then tell the players, as after
any step. For every reminder whose time has come, the seat's holder gets one
mail: the most urgent reminder of a decision not mailed yet (a run that
missed the 24 h reminder and finds the 4 h one due sends that one only).
Each is recorded in the state directory (``reminders/``), outside the game
directory, after it is queued under a name made of its identity, so it is
mailed once even if a run dies in between.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from pbem.digests import sha256_hex
from pbem.mail import compose
from pbem.mail.catchup import referee_head
from pbem.mail.config import MailConfig
from pbem.mail.record import MailRecord
from pbem.mail.sending import Outbox
from pbem.mail.served import seat_address
from pbem.referee.deadlines import Reminder
from pbem.referee.head import HEAD_FILE, Anchors
from pbem.referee.tick import TickReport, tick

if TYPE_CHECKING:
    from pbem.crypto.keys import PrivateKey
    from pbem.mail.served import ServedGame

Progress = Callable[[str], None]


def reminder_identity(game_id: str, reminder: Reminder) -> str:
    return " ".join([game_id, reminder.player, reminder.kind, str(reminder.since), reminder.deadline, reminder.before])


def tick_game(game: ServedGame, config: MailConfig, key: PrivateKey, record: MailRecord, outbox: Outbox,
              now: datetime | None, wait: float) -> tuple[TickReport, list[str]]:
    """Tick one served game and queue its reminders; one line per thing done.

    The tick is anchored in the loop's state directory (:mod:`pbem.referee.head`), and each reminder
    carries the game's head, as every mail to a player does.
    """
    anchors = Anchors(config.state)  # type: ignore[arg-type]
    report = tick(game.dir, key, now, wait, anchors=anchors)
    gid = report.game_id
    lines = [f"game {gid}: {t.player}'s {t.kind} decision timed out (deadline {t.deadline}): turn {t.turn}, "
             f"the referee's {'pass' if t.action == 'pass' else 'random choice'}" for t in report.timeouts]
    by_decision: dict[tuple[str, int, str], list[Reminder]] = {}
    for reminder in report.reminders:
        by_decision.setdefault((reminder.player, reminder.since, reminder.deadline), []).append(reminder)
    for (player, since, deadline), due in by_decision.items():
        unsent = [r for r in due if not record.has_reminder(reminder_identity(gid, r))]
        if not unsent:
            continue
        urgent = due[-1]  # the shortest lead time: reminders come longest first
        address = seat_address(game, record, player)
        queued = None
        if address is not None and urgent in unsent:
            text = compose.ReminderText(game_id=gid, game=game.gamefile.game, player=player, kind=urgent.kind,
                                        since=since, deadline=deadline, before=urgent.before,
                                        referee=config.address or "")
            message = compose.new_message(config.address, [address], compose.reminder_subject(text),
                                          compose.reminder_body(text, f"game-{gid}"), automatic="auto-generated")
            head = referee_head(game.dir, game.gamefile, key, anchors, now)
            if head is not None:
                compose.attach(message, HEAD_FILE, head.data)
            once = sha256_hex(reminder_identity(gid, urgent).encode())[:24]
            queued = outbox.queue(message, once=once)
            lines.append(f"game {gid}: queued for {player} <{address}>: {message['Subject']}")
        try:
            for reminder in unsent:
                record.add_reminder(reminder_identity(gid, reminder), {"game_id": gid, **reminder.to_json(),
                                                                       "to": address})
        except OSError:
            # not recorded, so not sent either: the next run queues it again (a run that dies here
            # leaves the queued file, which the next run finds under the same name)
            if queued is not None:
                queued.unlink(missing_ok=True)
            raise
    return report, lines

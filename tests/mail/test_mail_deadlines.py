"""Deadlines, reminders and takeovers in the mail loop, against a real SMTP server.

``pbem mail serve`` ticks every game each round: a decision past its
deadline is answered with the game's default action and the next turn is
mailed; each reminder is mailed once (recorded in the mail state, outside
the game directory); the new holder of a seat handed over gets a turn mail
with the seat record, at their new address if the referee gave one.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

import pytest
from helpers_mail import ADDRESSES, REFEREE, Post, attachments, body, make_post
from helpers_referee import make_table
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.crypto.keys import generate, write_keypair
from pbem.mail.compose import message_bytes
from pbem.mail.player import file_mail
from pbem.mail.record import MailRecord
from pbem.mail.serve import tick_with_mail
from pbem.referee import make_move, read_view, status, verify
from pbem.referee.clock import NOW_ENV

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def at(monkeypatch, hours: float) -> None:
    """Set the referee's clock, as cron's environment would for a test."""
    monkeypatch.setenv(NOW_ENV, (T0 + timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%SZ"))




def reminders(post: Post, address: str) -> list[EmailMessage]:
    return [m for m in post.inbox(address) if "reminder:" in str(m["Subject"])]


@pytest.fixture
def post(tmp_path, smtp_server) -> Post:
    table = make_table(tmp_path, deadlines=["48h"], remind=["24h", "4h"], now=T0)
    return make_post(tmp_path, smtp_server, "maildir", table=table)


def test_a_reminder_is_mailed_once_with_the_deadline_and_the_move_line_and_nothing_private(post, monkeypatch):
    at(monkeypatch, 1)
    post.serve()
    assert reminders(post, ADDRESSES["alice"]) == []
    at(monkeypatch, 25)
    post.serve()
    at(monkeypatch, 26)
    post.serve()
    tick_with_mail(post.config(), post.referee_key, post.table.dir)  # `pbem tick --config` as well: still once
    [reminder] = reminders(post, ADDRESSES["alice"])
    assert reminder["Subject"] == f"[pbem {status(post.table.dir).gamefile.game_id}] reminder: your play decision, " \
                                  "deadline 2025-03-03T12:00:00Z"
    text = body(reminder)
    assert "is due by 2025-03-03T12:00:00Z (this reminder goes 24h before it)" in text
    assert "--choose NUMBER --mail referee@pbem.test" in text
    assert "card-" not in text and "hand" not in text.lower()
    assert reminder["Auto-Submitted"] == "auto-generated"
    assert list(attachments(reminder)) == ["head.json"]  # the referee's head, as in every mail: nothing private
    at(monkeypatch, 45)
    post.serve()
    assert [m["Subject"].split("reminder: ")[1] for m in reminders(post, ADDRESSES["bob"])] == [
        "your play decision, deadline 2025-03-03T12:00:00Z"] * 2
    assert "(this reminder goes 4h before it)" in body(reminders(post, ADDRESSES["bob"])[1])


def test_a_run_that_missed_a_reminder_sends_only_the_most_urgent_one(post, monkeypatch):
    at(monkeypatch, 45)  # both the 24 h and the 4 h reminders are due
    post.serve()
    [reminder] = reminders(post, ADDRESSES["alice"])
    assert "4h before it" in body(reminder)
    post.serve()
    assert len(reminders(post, ADDRESSES["alice"])) == 1


def test_a_run_that_dies_between_queueing_a_reminder_and_recording_it_mails_it_once(post, monkeypatch):
    at(monkeypatch, 25)

    class Killed(BaseException):
        """The process dies: nothing after this point of the run happens."""

    def die(*args, **kwargs):
        raise Killed

    with monkeypatch.context() as patch:
        patch.setattr(MailRecord, "add_reminder", die)
        with pytest.raises(Killed):
            post.serve()
    assert reminders(post, ADDRESSES["alice"]) == []  # queued, never sent
    post.serve()
    post.serve()
    assert len(reminders(post, ADDRESSES["alice"])) == 1


def test_a_reminder_that_cannot_be_recorded_is_not_sent_and_goes_next_run(post, monkeypatch):
    at(monkeypatch, 25)
    with monkeypatch.context() as patch:
        patch.setattr(MailRecord, "add_reminder", lambda *a, **k: (_ for _ in ()).throw(OSError("disk full")))
        report = post.serve()
    assert any("not ticked this run" in line for line in report.held)
    assert reminders(post, ADDRESSES["alice"]) == []
    post.serve()
    post.serve()
    assert len(reminders(post, ADDRESSES["alice"])) == 1


def test_serve_answers_a_decision_past_its_deadline_and_mails_the_next_turn(post, monkeypatch):
    at(monkeypatch, 0)
    post.serve()
    at(monkeypatch, 1)
    data = post.table.move("alice", post.table.view("alice").decision.options[0].id)
    post.mail_to_referee(file_mail(data, "move-000000-alice.json", REFEREE, ADDRESSES["alice"]))
    post.serve()
    at(monkeypatch, 49)
    lines: list[str] = []
    post.serve(lines)
    assert any("bob's play decision timed out (deadline 2025-03-03T12:00:00Z): turn 2" in line for line in lines)
    current = status(post.table.dir)
    assert current.turn == 2 and [a["player"] for a in current.awaiting] == ["alice"]
    latest = post.inbox(ADDRESSES["alice"])[-1]
    assert "turn 2: your decision (draw)" in latest["Subject"]
    text = body(latest)
    assert "bob's play decision timed out: the referee chose one of the options at random on bob's behalf" in text
    assert "Deadline: 2025-03-05T13:00:00Z." in text


def test_the_new_holder_of_a_seat_gets_the_turn_at_a_new_address_and_plays_on(post, monkeypatch, tmp_path):
    at(monkeypatch, 0)
    post.serve()
    new = generate("bob")
    home = tmp_path / "carol-home"
    _key_file, pub_file = write_keypair(new, home)
    runner = CliRunner()
    result = runner.invoke(app, ["takeover", str(post.table.dir), "--seat", "bob", "--key", str(pub_file),
                                 "--referee-key", str(post.table.key_files["referee"]), "--config",
                                 str(post.write_config()), "--address", ADDRESSES["carol"]])
    assert result.exit_code == 0, result.output
    at(monkeypatch, 1)
    post.serve()
    [notice] = [m for m in post.inbox(ADDRESSES["bob"]) if "handed over" in str(m["Subject"])]
    assert "holds it no longer" in body(notice)
    [turn_mail] = post.inbox(ADDRESSES["carol"])
    assert "The referee handed bob's seat to your key" in body(turn_mail) and "you hold it now" in body(turn_mail)
    saved = home / "turn.eml"
    saved.write_bytes(message_bytes(turn_mail))
    copy = home / "game"
    out = runner.invoke(app, ["mail", "unpack", str(saved), "--into", str(copy)])
    assert out.exit_code == 0, out.output
    kept = post.table.dir / "seats" / "000001-bob.json"
    assert (copy / "seats" / "000001-bob.json").read_bytes() == kept.read_bytes()
    view = read_view(copy, "bob", new)
    assert view.number == 1 and view.decision is not None
    moved = make_move(view, new, [view.decision.options[0].id])
    post.mail_to_referee(file_mail(moved, "move-000001-bob.json", REFEREE, ADDRESSES["carol"]))
    at(monkeypatch, 2)
    post.serve()
    answer = [m for m in post.inbox(ADDRESSES["carol"]) if m["Auto-Submitted"] == "auto-replied"][-1]
    assert "APPLIED" in body(answer) and "Note:" not in body(answer)  # carol's address is the seat's now
    assert status(post.table.dir).turn == 2
    assert verify(post.table.dir, replay=True).turns == 3
    # an address recorded by the takeover is one the referee knows: a mail with no file is answered there too
    question = EmailMessage()
    question["From"], question["To"], question["Subject"] = ADDRESSES["carol"], REFEREE, "is it my turn?"
    question.set_content("Is it my turn?")
    post.mail_to_referee(question)
    post.serve()
    last = [m for m in post.inbox(ADDRESSES["carol"]) if m["Auto-Submitted"] == "auto-replied"][-1]
    assert last["Subject"] == "Re: is it my turn?"


def test_the_old_holders_move_after_a_takeover_is_answered_refused_saying_why(post, monkeypatch):
    at(monkeypatch, 0)
    post.serve()
    stale = post.table.move("bob", post.table.view("bob").decision.options[0].id)
    runner = CliRunner()
    new = generate("bob")
    _key_file, pub_file = write_keypair(new, post.tmp / "newkey")
    assert runner.invoke(app, ["takeover", str(post.table.dir), "--seat", "bob", "--key", str(pub_file),
                               "--referee-key", str(post.table.key_files["referee"])]).exit_code == 0
    post.mail_to_referee(file_mail(stale, "move-000000-bob.json", REFEREE, ADDRESSES["bob"]))
    at(monkeypatch, 1)
    post.serve()
    [answer] = [m for m in post.inbox(ADDRESSES["bob"]) if m["Auto-Submitted"] == "auto-replied"]
    assert "REFUSED (exit code 14, bad-signature)" in body(answer)
    assert "the seat was taken over" in body(answer)


def test_a_game_whose_clock_is_ahead_of_the_referees_makes_the_loop_exit_24_and_waits(post, monkeypatch):
    """A turn stamped later than the loop's clock (a tick given a forced ``--now`` ahead): the loop serves the
    other games and keeps this one's mail for a later run, and its exit code says that the clock is the cause
    (24), not a busy game (20)."""
    at(monkeypatch, 49)  # both first decisions time out: turns recorded at 49 h
    post.serve()
    at(monkeypatch, 30)
    report = post.serve()
    assert report.clock_behind and any("earlier than" in line for line in report.held)
    result = CliRunner().invoke(app, ["mail", "serve", "--config", str(post.write_config()), "--once"])
    assert result.exit_code == 24, result.output
    assert "the referee's clock is behind" in result.output
    at(monkeypatch, 50)
    assert not post.serve().clock_behind

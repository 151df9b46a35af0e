"""No mail stops the referee's loop: each mail is handled on its own, and one that cannot be read, or that
makes a step fail, is recorded with its reason, set aside and never read again (docs/mail.md).

Anybody can mail the referee. A mail that stopped every run (a header the mail library cannot parse, a
multipart nested thousands deep) would stop every game of that referee for good: no move read, no
deadline enforced, no turn mailed. Real servers: aiosmtpd and a Maildir (or Dovecot), as every mail test.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from helpers_mail import ADDRESSES, REFEREE, Post, body, make_post, serving_by_poll
from helpers_referee import make_table, snapshot
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.crypto.canonical import parse_json_strict
from pbem.mail.player import file_mail
from pbem.mail.record import ANSWER_LIMITS, RETRY_RUNS
from pbem.mail.serve import ServeReport, serve_once
from pbem.referee import formats, status
from pbem.referee.lock import locked

START = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def move_mail(post: Post, player: str, *choices: str, sender: str | None = None) -> EmailMessage:
    data = post.table.move(player, *choices)
    turn = parse_json_strict(data)["turn"]
    return file_mail(data, f"move-{turn:06d}-{player}.json", REFEREE, sender or ADDRESSES[player])


def rename_attachment(message: EmailMessage, name: str) -> None:
    [part] = list(message.iter_attachments())
    part.set_param("filename", name, header="Content-Disposition")


def answers(post: Post, address: str) -> list[EmailMessage]:
    return [m for m in post.inbox(address) if m["Auto-Submitted"] == "auto-replied"]


def serve(post: Post, now: datetime = START, wait: float = 0) -> ServeReport:
    os.environ.setdefault("PBEM_TEST_IMAP_PASSWORD", "")
    return serve_once(post.config(), post.referee_key, wait=wait, now=now)


def raw_mail(headers: str, text: str = "hello") -> bytes:
    return (headers.strip().replace("\n", "\r\n") + "\r\n\r\n" + text + "\r\n").encode()


def nested(depth: int, sender: str = ADDRESSES["alice"]) -> bytes:
    """A multipart nested ``depth`` deep, a text part at the bottom."""
    opening = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n' for i in range(depth))
    return (f"From: {sender}\r\nTo: {REFEREE}\r\nSubject: deep\r\nMIME-Version: 1.0\r\n" + opening
            + "Content-Type: text/plain\r\n\r\nhello\r\n").encode()


def second_game(post: Post, tmp_path: Path) -> Post:
    """Another game of the same referee (its key, its mailbox), served beside ``post``'s."""
    table = make_table(tmp_path / "other", keys=(post.table.keys, post.table.key_files), seed=None)
    other = make_post(tmp_path / "other", post.smtp, "maildir", table=table)
    post.extra_games.append(other)
    post.smtp.post.deliver[REFEREE] = post.deliver_to_referee
    return other


def mails_held(report: ServeReport) -> list[str]:
    """The report's lines about mails kept for a next run (not those about games not ticked)."""
    return [line for line in report.held if line.startswith("mail ")]


def set_aside(post: Post) -> list[dict]:
    folder = post.tmp / "mail-state" / "set-aside"
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))] if folder.is_dir() else []


# --- one mail the mail library cannot read -------------------------------------------------------


def test_a_lone_angle_bracket_as_message_id_is_set_aside_and_the_next_mail_applied(post):
    post.deliver_to_referee(raw_mail(f"From: {ADDRESSES['alice']}\nTo: {REFEREE}\nSubject: hi\nMessage-ID: <"))
    post.mail_to_referee(move_mail(post, "alice", "1"))
    report = serve(post)
    assert status(post.table.dir).turn == 1
    assert len(report.mails) == 2
    assert serve(post).mails == []  # both recorded: never read again


def test_a_multipart_nested_3000_deep_is_set_aside_with_its_reason_answered_and_never_read_again(post):
    post.deliver_to_referee(nested(3000))
    post.mail_to_referee(move_mail(post, "alice", "1"))
    report = serve(post)
    assert status(post.table.dir).turn == 1
    [record] = set_aside(post)
    assert record["reason"] == "unreadable" and record["final"] is True
    assert "nested" in record["message"]
    assert formats.format_problem(record, formats.MAIL_SET_ASIDE) is None
    assert any("set aside" in line for line in report.set_aside)
    [answer] = [m for m in answers(post, ADDRESSES["alice"]) if "could not be read" in body(m)]
    assert "Nothing was submitted" in body(answer)
    assert serve(post).mails == []


def test_a_strangers_unreadable_mail_is_set_aside_and_mails_nobody(post):
    post.deliver_to_referee(nested(3000, sender="stranger@elsewhere.test"))
    serve(post)
    [record] = set_aside(post)
    assert record["answered"] == [] and not post.inbox("stranger@elsewhere.test")


def test_a_mail_larger_than_the_limit_is_set_aside_unparsed(post, monkeypatch):
    monkeypatch.setattr("pbem.mail.incoming.MAIL_MAX_BYTES", 10_000)
    post.deliver_to_referee(raw_mail(f"From: {ADDRESSES['bob']}\nSubject: big", "x" * 20_000))
    serve(post)
    [record] = set_aside(post)
    assert record["reason"] == "unreadable" and "larger than" in record["message"]


def test_stale_temporary_files_of_a_killed_run_are_removed_from_the_state_directory(post):
    serve(post)
    state = post.tmp / "mail-state"
    for where in (state, state / "outbox", state / "mails"):
        (where / ".tmp-left-by-a-killed-run.1234").write_bytes(b"half")
    serve(post)
    assert not list(state.rglob(".tmp-*"))


# --- a step that fails -----------------------------------------------------------------------------


def test_a_mail_that_makes_a_step_fail_is_set_aside_and_the_others_go_on(post, monkeypatch):
    real = __import__("pbem.mail.serve", fromlist=["submit"]).submit
    calls = []

    def failing(directory, data, *args, **kwargs):
        calls.append(data)
        if len(calls) == 1:
            raise ZeroDivisionError("a bug")
        return real(directory, data, *args, **kwargs)

    monkeypatch.setattr("pbem.mail.serve.submit", failing)
    post.mail_to_referee(move_mail(post, "alice", "1"))
    post.mail_to_referee(move_mail(post, "bob", "1"))
    report = serve(post)
    assert status(post.table.dir).turn == 1  # bob's move, the second mail
    [record] = set_aside(post)
    assert record["reason"] == "failed" and "ZeroDivisionError" in record["message"]
    assert any("ZeroDivisionError" in line for line in report.set_aside)
    [answer] = answers(post, ADDRESSES["alice"])
    assert "the referee failed on this file" in body(answer)
    assert "a bug" not in body(answer)  # the host reads the reason in the state directory
    assert serve(post).mails == []


# --- a game busy or damaged ------------------------------------------------------------------------


def test_a_busy_game_holds_its_mails_for_a_few_runs_only_then_sets_them_aside_and_says_so(post, tmp_path):
    other = second_game(post, tmp_path)
    post.mail_to_referee(move_mail(post, "alice", "1"))
    post.mail_to_referee(move_mail(other, "alice", "1"))
    now = START
    with locked(post.table.dir / ".lock"):
        for run in range(RETRY_RUNS):
            report = serve(post, now)
            assert status(other.table.dir).turn == 1  # the other game is not held up
            if run < RETRY_RUNS - 1:
                assert len(mails_held(report)) == 1 and not set_aside(post)[0]["final"]
            now += timedelta(minutes=1)
    [record] = set_aside(post)
    assert record["final"] is True and record["reason"] == "game-busy" and record["runs"] == RETRY_RUNS
    assert status(post.table.dir).turn == 0
    answer = answers(post, ADDRESSES["alice"])[-1]
    assert "not submitted" in body(answer) and "send it again" in body(answer)
    assert serve(post, now).mails == []  # never read again


def test_a_busy_game_is_set_aside_after_an_hour_whatever_the_runs(post):
    post.mail_to_referee(move_mail(post, "alice", "1"))
    with locked(post.table.dir / ".lock"):
        assert mails_held(serve(post, START))
        assert mails_held(serve(post, START + timedelta(minutes=61))) == []
    assert set_aside(post)[0]["final"] is True


def test_a_mail_held_for_a_busy_game_is_applied_when_the_game_is_free_again_and_its_record_goes(post):
    post.mail_to_referee(move_mail(post, "alice", "1"))
    with locked(post.table.dir / ".lock"):
        assert mails_held(serve(post))
    assert set_aside(post)
    serve(post, START + timedelta(minutes=1))
    assert status(post.table.dir).turn == 1 and not set_aside(post)


def test_a_damaged_game_does_not_stop_the_run_nor_make_its_mails_loop(post, tmp_path):
    other = second_game(post, tmp_path)
    serve(post)
    early = move_mail(post, "alice", "1")
    (post.table.dir / "turns" / "000000.json").write_text("{ damaged")
    post.mail_to_referee(early)
    post.mail_to_referee(move_mail(other, "alice", "1"))
    now = START
    for _ in range(RETRY_RUNS):
        report = serve(post, now)
        now += timedelta(minutes=1)
    assert status(other.table.dir).turn == 1
    [record] = set_aside(post)
    assert record["reason"] == "game-damaged" and record["final"] is True
    assert any("no turn mails this run" in line for line in report.held)  # the game, every run
    assert serve(post, now).mails == []


# --- answers -----------------------------------------------------------------------------------------


def test_an_answer_with_a_line_longer_than_smtp_allows_reaches_the_player(post):
    message = move_mail(post, "alice", "1")
    rename_attachment(message, "m" * 3000 + ".json")
    post.mail_to_referee(message)
    report = serve(post)
    assert report.flush.failed == []
    [answer] = answers(post, ADDRESSES["alice"])
    assert "APPLIED" in body(answer)
    raw = post.smtp.post.inboxes[ADDRESSES["alice"]][-1]
    assert max(len(line) for line in raw.split(b"\r\n")) <= 998


def test_an_autoresponder_that_ignores_rfc_3834_gets_a_few_answers_an_hour_across_runs(post):
    """bob's address answers every mail with a vacation notice and none of RFC 3834's headers."""
    now = START
    for _ in range(30):
        robot = EmailMessage()
        robot["From"] = ADDRESSES["bob"]
        robot["To"] = REFEREE
        robot["Subject"] = "I am away"
        robot["Message-ID"] = make_msgid()  # a new mail each time, as a robot's are
        robot.set_content("I am on vacation until Monday.")
        post.mail_to_referee(robot)
        serve(post, now)
        now += timedelta(minutes=2)  # one run per mail, an hour in all
    hourly = dict(ANSWER_LIMITS)[timedelta(hours=1)]
    assert 1 <= len(answers(post, ADDRESSES["bob"])) <= hourly


def test_a_reply_to_the_referees_answer_that_holds_no_file_is_not_answered(post):
    post.mail_to_referee(move_mail(post, "alice", "1"))
    serve(post)
    [answer] = answers(post, ADDRESSES["alice"])
    robot = EmailMessage()
    robot["From"] = ADDRESSES["alice"]
    robot["To"] = REFEREE
    robot["Subject"] = "Re: " + answer["Subject"]
    robot["In-Reply-To"] = answer["Message-ID"]
    robot.set_content("Thank you for your mail. I am away.")
    post.mail_to_referee(robot)
    report = serve(post)
    assert len(answers(post, ADDRESSES["alice"])) == 1
    assert "not answered" in report.mails[0]


def test_an_applied_move_is_answered_whatever_the_rate_limit(post):
    now = START
    for _ in range(10):
        question = EmailMessage()
        question["From"] = ADDRESSES["alice"]
        question["Subject"] = "hello"
        question["Message-ID"] = make_msgid()
        question.set_content("where is my turn?")
        post.mail_to_referee(question)
    serve(post, now)
    assert len(answers(post, ADDRESSES["alice"])) == dict(ANSWER_LIMITS)[timedelta(hours=1)]
    post.mail_to_referee(move_mail(post, "alice", "1"))
    serve(post, now)
    assert "APPLIED" in body(answers(post, ADDRESSES["alice"])[-1])


def test_a_strangers_mail_never_makes_the_referee_mail_a_seat(post, tmp_path):
    from helpers_referee import make_keys

    from pbem.referee import make_move

    keys, _ = make_keys(tmp_path / "eve", ["alice"])  # eve made a key named alice
    forged = make_move(post.table.view("alice"), keys["alice"], ["1"])
    post.serve()  # the deal's turn mails
    before = {address: len(post.inbox(address)) for address in ADDRESSES.values()}
    for index in range(20):
        message = file_mail(forged, "move.json", REFEREE, f"eve{index}@elsewhere.test")
        message.replace_header("Subject", "\x1b[2J pay now " + "!" * 500)
        post.mail_to_referee(message)
    report = serve(post)
    assert {address: len(post.inbox(address)) for address in ADDRESSES.values()} == before
    assert all("not answered" in line for line in report.mails)
    assert status(post.table.dir).turn == 0


def test_text_others_wrote_is_quoted_bounded_and_escaped_in_an_answer(post):
    message = move_mail(post, "alice", "1")
    rename_attachment(message, "\u202eevil\x1b[31m" + "n" * 200 + ".json")
    message.replace_header("Subject", "\x1b]0;owned\x07 " + "s" * 400)
    post.mail_to_referee(message)
    serve(post)
    [answer] = answers(post, ADDRESSES["alice"])
    text = body(answer)
    assert "\u202e" not in text and "\x1b" not in text and "n" * 200 not in text
    assert "\x1b" not in answer["Subject"] and len(answer["Subject"]) < 200


# --- the process -------------------------------------------------------------------------------------


def test_serve_poll_survives_a_hostile_mail_and_applies_the_next_one(post):
    with serving_by_poll(post.write_config()) as (process, until):
        until("sent a mail to bob")  # the first round: the deal
        post.deliver_to_referee(nested(3000))
        post.deliver_to_referee(raw_mail(f"From: {ADDRESSES['bob']}\nSubject: x\nMessage-ID: <"))
        post.mail_to_referee(move_mail(post, "alice", "1"))
        lines = until("alice's move answering turn 0: applied")  # a later round
        assert process.poll() is None
    assert process.returncode == 0
    assert not any("Traceback" in line for line in lines)
    assert status(post.table.dir).turn == 1


def test_unpack_of_a_mail_nested_3000_deep_is_a_clear_error_and_changes_nothing(tmp_path):
    saved = tmp_path / "turn.eml"
    saved.write_bytes(nested(3000))
    copy = tmp_path / "copy"
    copy.mkdir()
    before = snapshot(copy, skip=())
    result = CliRunner().invoke(app, ["mail", "unpack", str(saved), "--into", str(copy)])
    assert result.exit_code == 32, (result.output, result.exception)
    assert "nested" in result.output and "Traceback" not in result.output
    assert snapshot(copy, skip=()) == before


def test_mail_send_of_a_saved_mail_nested_3000_deep_is_a_clear_error_and_sends_nothing(post, tmp_path):
    config = tmp_path / "player.toml"
    config.write_text(f'address = "{ADDRESSES["alice"]}"\nreferee = "{REFEREE}"\n[smtp]\nhost = "127.0.0.1"\n'
                      f'port = {post.smtp.port}\nsecurity = "none"\n')
    saved = tmp_path / "deep.eml"
    saved.write_bytes(nested(3000))
    result = CliRunner().invoke(app, ["mail", "send", str(saved), "--config", str(config)])
    assert result.exit_code == 32, (result.output, result.exception)
    assert "Traceback" not in result.output and "nested" in result.output
    assert not post.inbox(REFEREE)


def test_the_set_aside_record_is_written_atomically_as_pbem_writes_every_file(post):
    post.deliver_to_referee(nested(3000))
    serve(post)
    [path] = (post.tmp / "mail-state" / "set-aside").glob("*.json")
    from pbem.referee.storage import dump_json

    assert path.read_bytes() == dump_json(json.loads(path.read_text()))

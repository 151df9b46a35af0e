"""The referee's mail loop against a real SMTP server and a Maildir.

Every mail from an address a game knows, and every mail that applied a
file, is answered: applied, already applied, or refused with the referee's
reason and exit code; a stranger's mail that applied nothing is not
(no backscatter). A mail is matched to its game and player by
the signed file inside; the From address is only where the answer goes.
"""

from __future__ import annotations

import json
import mailbox
from email.message import EmailMessage

import pytest
from helpers_mail import ADDRESSES, REFEREE, SPECTATOR, Post, attachments, body, make_post
from helpers_referee import make_keys, snapshot

from pbem.crypto.canonical import parse_json_strict
from pbem.mail.compose import attach, message_bytes
from pbem.mail.player import file_mail
from pbem.mail.serve import serve_once
from pbem.referee import status
from pbem.referee.errors import LockBusy
from pbem.referee.lock import locked
from pbem.referee.player import Choice


def move_mail(post: Post, player: str, *choices: str, sender: str | None = None) -> EmailMessage:
    data = post.table.move(player, *choices)
    turn = parse_json_strict(data)["turn"]
    return file_mail(data, f"move-{turn:06d}-{player}.json", REFEREE, sender or ADDRESSES[player])


def answers(post: Post, address: str) -> list[EmailMessage]:
    return [m for m in post.inbox(address) if m["Auto-Submitted"] == "auto-replied"]


def turn_mails(post: Post, address: str) -> list[EmailMessage]:
    return [m for m in post.inbox(address) if m["Auto-Submitted"] == "auto-generated"]


def text_mail(subject: str, content: str, subtype: str = "plain", sender: str = ADDRESSES["alice"]) -> EmailMessage:
    """A mail as a person writes it to the referee."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = REFEREE
    message["Subject"] = subject
    message.set_content(content, subtype=subtype)
    return message


# --- every mail gets an answer -----------------------------------------------------------------


def test_an_applied_move_is_answered_in_the_thread_and_the_next_turn_is_mailed(post):
    post.serve()  # the deal: both are asked to play
    sent = move_mail(post, "alice", "1")
    post.mail_to_referee(sent)
    lines: list[str] = []
    post.serve(lines)
    [answer] = answers(post, ADDRESSES["alice"])
    assert answer["In-Reply-To"] == sent["Message-ID"]
    assert answer["From"] == REFEREE and answer["To"] == ADDRESSES["alice"]
    assert "alice's move answering turn 0: APPLIED. Turn 1 is written." in body(answer)
    assert "turn 1, awaiting bob (play)" in body(answer)
    assert any("alice's move answering turn 0: applied" in line for line in lines)  # one line per mail
    assert status(post.table.dir).turn == 1


def test_a_turn_mail_carries_game_toml_the_head_the_public_turn_file_and_the_sealed_view_and_the_command_to_answer(
        post):
    post.serve()
    [mail] = turn_mails(post, ADDRESSES["bob"])
    files = attachments(mail)
    game = post.table.dir
    head = (post.tmp / "mail-state" / "anchors" / f"{status(game).gamefile.game_id}.json").read_bytes()
    assert files == {
        "game.toml": (game / "game.toml").read_bytes(),
        "head.json": head,  # the referee's anchor: the latest turn it wrote, signed
        "000000.json": (game / "turns" / "000000.json").read_bytes(),
        "bob-000000.age": (game / "views" / "bob" / "latest.age").read_bytes(),
    }
    text = body(mail)
    assert mail["Subject"].endswith("turn 0: your decision (play)")
    assert "--choose NUMBER --mail referee@pbem.test" in text
    assert "your hand" not in text.lower() and "card-" not in text  # the body holds nothing private


def test_a_refused_move_is_answered_with_the_referees_message_and_exit_code(post, monkeypatch):
    # a pbem that does not check the choices locally writes a move the referee refuses
    monkeypatch.setattr("pbem.referee.player.resolve_choices", lambda view, texts: [Choice(t) for t in texts])
    post.mail_to_referee(move_mail(post, "alice", "card-99"))
    post.serve()
    [answer] = answers(post, ADDRESSES["alice"])
    text = body(answer)
    assert "REFUSED (exit code 18, illegal): the first choice is not an option of alice's play decision" in text
    assert "The referee's signed notice: 000000-alice.json" in text
    assert status(post.table.dir).turn == 0


def test_a_mail_without_a_move_file_is_answered_saying_so(post):
    message = text_mail("hello", "Do I play card 3 now?")
    post.mail_to_referee(message)
    post.serve()
    [answer] = answers(post, ADDRESSES["alice"])
    assert "holds no pbem move or join file" in body(answer) and "Nothing was submitted." in body(answer)
    assert answer["Subject"] == "Re: hello"


def test_an_html_only_mail_gets_a_reply_saying_why(post):
    message = text_mail("my move", "<p>I play <b>card 2</b></p>", subtype="html")
    post.mail_to_referee(message)
    post.serve()
    [answer] = answers(post, ADDRESSES["alice"])
    assert "only an HTML part and no attachment" in body(answer)


def test_a_reply_with_the_view_still_attached_is_applied_and_the_referees_files_set_aside(post):
    post.serve()
    [turn_mail] = turn_mails(post, ADDRESSES["alice"])
    reply = text_mail("Re: " + turn_mail["Subject"], "> Your decision: play\n\nhere is my move")
    for name, data in attachments(turn_mail).items():
        attach(reply, name, data)
    data = post.table.move("alice", "2")
    attach(reply, "move-000000-alice.json", data)
    post.mail_to_referee(reply)
    post.serve()
    [answer] = answers(post, ADDRESSES["alice"])
    assert "APPLIED" in body(answer)
    assert (post.table.dir / "moves" / "000001-alice.json").read_bytes() == data


def test_a_quoted_printable_move_with_crlf_line_ends_is_stored_as_pbem_wrote_it(post):
    data = post.table.move("alice", "1")
    raw = (
        f"From: {ADDRESSES['alice']}\r\nTo: {REFEREE}\r\nSubject: move\r\nMessage-ID: <qp@pbem.test>\r\n"
        "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"xx\"\r\n\r\n"
        "--xx\r\nContent-Type: text/plain\r\n\r\nmy move\r\n"
        "--xx\r\nContent-Type: text/plain; name=\"move.json\"\r\nContent-Disposition: attachment; filename=\"move.json\"\r\n"
        "Content-Transfer-Encoding: quoted-printable\r\n\r\n"
    ).encode() + __import__("quopri").encodestring(data).replace(b"\n", b"\r\n") + b"\r\n--xx--\r\n"
    post.smtp.send(raw, ADDRESSES["alice"], REFEREE)
    post.serve()
    assert (post.table.dir / "moves" / "000001-alice.json").read_bytes() == data


# --- duplicates, copies, out-of-order delivery ----------------------------------------------


def test_a_mail_delivered_twice_is_answered_once(post):
    sent = move_mail(post, "alice", "1")
    raw = message_bytes(sent)
    post.deliver_to_referee(raw)
    post.deliver_to_referee(raw)  # the mail system delivered it again (same Message-ID, same file)
    lines: list[str] = []
    post.serve(lines)
    post.deliver_to_referee(raw)  # and once more, a run later
    post.serve(lines)
    assert len(answers(post, ADDRESSES["alice"])) == 1
    assert sum("a copy of a mail answered before" in line for line in lines) == 2


def test_a_forwarded_copy_of_an_applied_move_is_answered_already_in_the_game(post):
    sent = move_mail(post, "alice", "1")
    post.mail_to_referee(sent)
    post.serve()
    forward = text_mail("Fwd: my move (did you get it?)", "forwarding")
    forward.add_attachment(sent)
    before = snapshot(post.table.dir, skip=())
    post.mail_to_referee(forward)
    post.serve()
    answer = answers(post, ADDRESSES["alice"])[-1]
    assert "already in the game, nothing changed. this move was already applied: it produced turn 1" in body(answer)
    assert snapshot(post.table.dir, skip=()) == before


def test_simultaneous_moves_delivered_in_reverse_order_are_both_applied(post):
    alice, bob = move_mail(post, "alice", "1"), move_mail(post, "bob", "1")  # both answer turn 0
    post.mail_to_referee(bob)
    post.mail_to_referee(alice)
    post.serve()
    assert status(post.table.dir).turn == 2
    assert all("APPLIED" in body(answers(post, ADDRESSES[p])[0]) for p in ("alice", "bob"))


def test_a_move_delivered_after_the_game_moved_on_is_answered_stale(post):
    # alice writes a move at turn 2, then writes another one (she thought the first was lost): the
    # second arrives first and is applied; the first arrives late
    for player in ("alice", "bob"):
        post.mail_to_referee(move_mail(post, player, "1"))
    post.serve()
    late = move_mail(post, "alice", "draw")
    post.mail_to_referee(move_mail(post, "alice", "pass"))
    post.serve()
    post.mail_to_referee(late)
    post.serve()
    answer = answers(post, ADDRESSES["alice"])[-1]
    assert "REFUSED (exit code 16, stale)" in body(answer)


# --- sender and seat ----------------------------------------------------------------------------


def test_a_move_sent_from_another_address_is_judged_on_its_signature_with_a_note_and_a_copy_to_the_seat(post):
    post.mail_to_referee(move_mail(post, "alice", "1", sender="alice.at.work@elsewhere.test"))
    post.serve()
    [answer] = post.inbox("alice.at.work@elsewhere.test")
    assert answer["Cc"] == ADDRESSES["alice"]
    assert "APPLIED" in body(answer)
    assert "this mail came from alice.at.work@elsewhere.test, not from alice's address (alice@pbem.test)" in body(answer)
    assert [m["Message-ID"] for m in answers(post, ADDRESSES["alice"])] == [answer["Message-ID"]]


def test_a_forged_move_from_a_stranger_is_refused_and_mails_nobody(post, tmp_path):
    """A stranger's mail never makes the referee mail a seat: a flood of forged files naming alice would
    otherwise reach alice through the referee, one mail each."""
    keys, _ = make_keys(tmp_path / "eve", ["alice"])  # eve made a key named alice
    view = post.table.view("alice")
    from pbem.referee import make_move

    forged = make_move(view, keys["alice"], ["1"])
    post.mail_to_referee(file_mail(forged, "move.json", REFEREE, "eve@elsewhere.test"))
    report = post.serve()
    assert not post.inbox("eve@elsewhere.test") and not answers(post, ADDRESSES["alice"])
    assert "bad-signature" in report.mails[0]
    assert "not answered (an address no game here knows, and nothing applied)" in report.mails[0]
    assert status(post.table.dir).turn == 0


# --- no backscatter: the referee does not answer a From address anyone can write ----------------


def test_a_strangers_mail_that_applied_nothing_is_not_answered(post):
    """Anyone can write any From: a referee that answered every mail would send, to any address a spammer
    names, a mail with the spammer's Subject. A mail from an address no served game knows (a seat, a
    recorded holder of a seat, a spectator) is answered only when one of its files was applied, which
    only the key holder's fresh move can be; a replay of a public file is not."""
    post.serve()
    post.mail_to_referee(text_mail("Cheap watches", "buy now", sender="victim@elsewhere.test"))
    with_file = text_mail("Re: your order", "see attached", sender="victim2@elsewhere.test")
    attach(with_file, "turn.json", (post.table.dir / "turns" / "000000.json").read_bytes())  # the public archive
    post.mail_to_referee(with_file)
    report = post.serve()
    assert not post.inbox("victim@elsewhere.test") and not post.inbox("victim2@elsewhere.test")
    assert all("not answered (an address no game here knows, and nothing applied)" in line
               for line in report.mails)


def test_a_replayed_move_of_alice_from_a_stranger_mails_nobody(post):
    data = post.table.move("alice", "1")
    post.mail_to_referee(file_mail(data, "move.json", REFEREE, ADDRESSES["alice"]))
    post.serve()
    post.mail_to_referee(file_mail(data, "move.json", REFEREE, "victim@elsewhere.test"))
    report = post.serve()
    assert not post.inbox("victim@elsewhere.test")
    assert len(answers(post, ADDRESSES["alice"])) == 1  # the answer to her own mail, none for the replay
    assert "already-applied" in report.mails[0]


def test_spectators_and_seats_are_answered_whatever_their_mail_holds(post):
    post.spectators = [SPECTATOR]
    for sender in (SPECTATOR, ADDRESSES["bob"]):
        post.mail_to_referee(text_mail("hello", "Is the game on?", sender=sender))
    post.serve()
    assert answers(post, SPECTATOR) and answers(post, ADDRESSES["bob"])


def test_automatic_mails_are_processed_but_never_answered(post):
    vacation = text_mail("Out of office", "I am away until Monday.")
    vacation["Auto-Submitted"] = "auto-replied"
    post.mail_to_referee(vacation)
    lines: list[str] = []
    report = post.serve(lines)
    assert not answers(post, ADDRESSES["alice"])
    assert "not answered (automatic mail)" in report.mails[0]


def test_a_file_for_a_game_not_served_here_is_answered_and_submitted_nowhere(post, tmp_path):
    other = make_post(tmp_path / "other", post.smtp, "maildir", seed=None)
    post.smtp.post.deliver["referee@pbem.test"] = post.deliver_to_referee
    post.mail_to_referee(move_mail(other, "alice", "1"))
    post.serve()
    [answer] = answers(post, ADDRESSES["alice"])
    assert f"game {status(other.table.dir).gamefile.game_id} is not refereed here" in body(answer)
    assert status(other.table.dir).turn == 0


# --- crash safety ------------------------------------------------------------------------------


def test_answers_stay_queued_while_the_smtp_server_is_down_and_go_at_the_next_run(post):
    post.mail_to_referee(move_mail(post, "alice", "1"))
    post.smtp.stop()
    report = post.serve()
    # the answer with alice's first turn mail (one mail), and bob's turn mail
    assert report.flush.error and report.flush.kept == 2
    assert status(post.table.dir).turn == 1
    post.smtp.start()
    report = post.serve()
    assert report.flush.kept == 0 and len(report.flush.sent) == 2
    assert len(answers(post, ADDRESSES["alice"])) == 1
    assert not report.mails  # the mail itself was done before the server went away


def test_a_run_that_died_before_recording_a_mail_answers_it_on_the_next_run_without_applying_twice(post):
    post.mail_to_referee(move_mail(post, "alice", "1"))
    post.serve()
    state = post.tmp / "mail-state"
    for folder in ("mails", "sources"):  # the state of a run that died after submitting
        for path in (state / folder).iterdir():
            path.unlink()
    before = snapshot(post.table.dir, skip=())
    post.serve()
    assert snapshot(post.table.dir, skip=()) == before
    first, second = answers(post, ADDRESSES["alice"])
    assert "APPLIED" in body(first)
    assert "already in the game" in body(second)


def test_a_mail_for_a_busy_game_waits_unanswered_for_the_next_run(post):
    post.mail_to_referee(move_mail(post, "alice", "1"))
    with locked(post.table.dir / ".lock"):
        os_env = serve_once(post.config(), post.referee_key, wait=0)
    assert os_env.held and not answers(post, ADDRESSES["alice"])
    post.serve()
    assert "APPLIED" in body(answers(post, ADDRESSES["alice"])[0])


def test_one_serve_run_at_a_time(post):
    post.write_config()
    (post.tmp / "mail-state").mkdir()
    with locked(post.tmp / "mail-state" / ".lock"), pytest.raises(LockBusy, match="another `pbem mail serve` is running"):
        post.serve()


def test_a_recipient_refused_for_good_is_set_aside_and_does_not_block_the_queue(post):
    post.smtp.post.refuse.add(ADDRESSES["bob"])
    report = post.serve()
    assert len(report.flush.failed) == 1 and "550" in report.flush.failed[0][1]
    assert len(turn_mails(post, ADDRESSES["alice"])) == 1
    assert len(list((post.tmp / "mail-state" / "outbox" / "failed").glob("*.eml"))) == 1


# --- turn mails, spectators, the end -----------------------------------------------------------


def test_a_player_is_mailed_when_a_decision_opens_not_when_others_move(post):
    post.serve()
    post.mail_to_referee(move_mail(post, "alice", "1"))
    post.serve()
    assert len(turn_mails(post, ADDRESSES["bob"])) == 1  # bob's play opened at turn 0, mailed then
    post.mail_to_referee(move_mail(post, "bob", "1"))
    post.serve()  # the reveal: alice draws now
    assert len(turn_mails(post, ADDRESSES["alice"])) == 2
    assert turn_mails(post, ADDRESSES["alice"])[-1]["Subject"].endswith("turn 2: your decision (draw)")
    assert len(turn_mails(post, ADDRESSES["bob"])) == 1


def test_spectators_get_the_public_record_and_no_sealed_view(post):
    post.spectators = [SPECTATOR]
    post.serve()
    post.mail_to_referee(move_mail(post, "alice", "1"))
    post.serve()
    mails = post.inbox(SPECTATOR)
    assert [m["Subject"].split("] ")[1] for m in mails] == ["turn 0", "turn 1"]
    # the turns since the last mail, game.toml and the head (a spectator can build a copy), never a view
    assert set(attachments(mails[-1])) == {"game.toml", "head.json", "000001.json"}
    assert "turn 1: move by alice" in body(mails[-1]) and "alice has picked" in body(mails[-1])


def test_the_result_goes_to_every_player_and_spectator_once(post):
    post.spectators = [SPECTATOR]
    while not status(post.table.dir).over:
        for decision in status(post.table.dir).awaiting:
            post.mail_to_referee(move_mail(post, decision["player"], "1"))
        post.serve()
    post.serve()
    for address in (ADDRESSES["alice"], ADDRESSES["bob"], SPECTATOR):
        final = [m for m in post.inbox(address) if m["Subject"].endswith("game over")]
        assert len(final) == 1, address
        assert "Game over:" in body(final[0])


def test_mbox_mailbox(tmp_path, smtp_server):
    post = make_post(tmp_path, smtp_server, "mbox")
    post.mail_to_referee(move_mail(post, "alice", "1"))
    post.serve()
    post.serve()
    assert len(answers(post, ADDRESSES["alice"])) == 1
    assert post.referee_box is not None
    assert len(mailbox.mbox(post.referee_box)) == 1  # pbem never changes the mailbox


def test_a_player_file_of_an_unknown_format_version_goes_to_the_referee_which_names_it(post):
    doc = parse_json_strict(post.table.move("alice", "1"))
    doc["format"] = "pbem-move/9"
    message = text_mail("from a newer pbem", "move")
    attach(message, "move.json", json.dumps(doc).encode())
    post.mail_to_referee(message)
    post.serve()
    [answer] = answers(post, ADDRESSES["alice"])
    assert "REFUSED (exit code 11, schema-invalid): not a valid move file: unknown format version 'pbem-move/9'" \
        in body(answer)


def test_an_abandoned_game_is_announced_to_everyone_once(post):
    from pbem.referee import reveal

    post.spectators = [SPECTATOR]
    post.serve()
    reveal(post.table.dir, post.referee_key, force=True)
    post.serve()
    post.serve()
    for address in (ADDRESSES["alice"], ADDRESSES["bob"], SPECTATOR):
        [final] = [m for m in post.inbox(address) if m["Subject"].endswith("game over")]
        assert "abandoned" in body(final)


def test_a_mail_nested_too_deep_to_read_is_answered_and_the_next_mail_applied(post):
    """Anyone may mail the referee: one mail the JSON reader cannot follow must not stop every run."""
    post.serve()
    post.mail_to_referee(text_mail("hello", '{"a":' + "[" * 100_000))
    post.mail_to_referee(move_mail(post, "alice", "1"))
    post.serve()
    assert status(post.table.dir).turn == 1
    assert any("not a JSON document" in body(m) or "not searched further" in body(m)
               or "holds no pbem move" in body(m) for m in answers(post, ADDRESSES["alice"]))

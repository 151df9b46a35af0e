"""Fewer mails that carry nothing new: an answer and the next turn mail to one player are one mail; a spectator's
digests come on the schedule they choose; joining takes as few round trips as commit-then-reveal allows; and
the mail with a player's public key is answered with what the referee does with it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from helpers_mail import ADDRESSES, REFEREE, SPECTATOR, Post, attachments, body, make_post
from helpers_referee import make_keys

from pbem.crypto.canonical import parse_json_strict
from pbem.crypto.keys import PublicKey, write_public_key
from pbem.mail.compose import attach
from pbem.mail.config import MailConfig
from pbem.mail.errors import MailConfigError
from pbem.mail.player import file_mail
from pbem.mail.serve import serve_once
from pbem.referee import status
from pbem.referee.joins import make_join


def move_mail(post: Post, player: str, *choices: str) -> EmailMessage:
    data = post.table.move(player, *choices)
    turn = parse_json_strict(data)["turn"]
    return file_mail(data, f"move-{turn:06d}-{player}.json", REFEREE, ADDRESSES[player])


def text_mail(subject: str, content: str, sender: str) -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, REFEREE, subject
    message.set_content(content)
    return message


# --- an answer and the next turn mail are one mail ---------------------------------------------------------------


def test_the_answer_to_a_move_that_opens_the_players_next_decision_is_one_mail_with_the_turn_mail(post):
    post.serve()  # the deal: both pick
    for player in ("alice", "bob", "alice"):  # the picks, then alice draws
        post.mail_to_referee(move_mail(post, player, "1"))
        post.serve()
    before = len(post.inbox(ADDRESSES["bob"]))
    sent = move_mail(post, "bob", "1")
    post.mail_to_referee(sent)
    post.serve()  # bob's draw ends the round: both pick again
    [last] = post.inbox(ADDRESSES["bob"])[before:]
    text = body(last)
    # the answer's text, then the turn's: one mail, threaded to bob's mail, marked as an answer
    assert text.index("bob's move answering turn 3: APPLIED") < text.index("You are bob")
    assert last["Auto-Submitted"] == "auto-replied" and last["In-Reply-To"] == sent["Message-ID"]
    assert last["Subject"].endswith("turn 4: your decision (play)")
    # one set of attachments: the head once, the turns since bob's last turn mail, his view
    files = attachments(last)
    assert {"game.toml", "head.json", "000004.json", "bob-000004.age"} <= set(files)
    assert [part.get_filename() for part in last.iter_attachments()].count("head.json") == 1


def test_a_player_whose_move_opens_no_decision_of_theirs_gets_the_answer_alone(post):
    post.serve()
    post.mail_to_referee(move_mail(post, "alice", "1"))
    post.serve()
    post.mail_to_referee(move_mail(post, "bob", "1"))
    post.serve()  # both cards revealed: alice draws, bob waits
    answer = post.inbox(ADDRESSES["bob"])[-1]
    assert answer["Subject"].startswith("Re: ") and "APPLIED" in body(answer) and "You are bob" not in body(answer)
    assert post.inbox(ADDRESSES["alice"])[-1]["Subject"].endswith("turn 2: your decision (draw)")


# --- spectators' digests -----------------------------------------------------------------------------------------


def play_steps(post: Post, steps: int, start: datetime, every: timedelta) -> None:
    """``steps`` runs of the referee, each after a move of every player awaited, ``every`` apart on its clock."""
    for index in range(steps):
        for decision in status(post.table.dir).awaiting:
            post.mail_to_referee(move_mail(post, decision["player"], "1"))
        serve_once(post.config(), post.referee_key, now=start + index * every)
        if status(post.table.dir).over:
            return


def test_a_spectator_on_the_daily_schedule_gets_one_digest_a_day_with_everything_since_the_last(post):
    post.spectators = [SPECTATOR]
    post.digest = "daily"
    start = datetime(2026, 12, 1, 12, tzinfo=UTC)
    play_steps(post, 6, start, timedelta(hours=6))  # a day and a half
    subjects = [m["Subject"] for m in post.inbox(SPECTATOR)]
    assert len(subjects) == 2  # the deal, and a day later
    digest = post.inbox(SPECTATOR)[-1]
    assert "at most once a day" in body(digest)
    assert len([name for name in attachments(digest) if name[:6].isdigit()]) > 1  # every turn since the first


def test_a_spectator_on_the_end_schedule_gets_one_mail_at_the_end_with_the_whole_record(post):
    post.spectators = [SPECTATOR]
    post.digest = "end"
    play_steps(post, 60, datetime(2026, 12, 1, tzinfo=UTC), timedelta(minutes=5))
    assert status(post.table.dir).over
    [final] = post.inbox(SPECTATOR)
    assert final["Subject"].endswith("game over") and "000000.json" in attachments(final)


def test_a_spectator_sets_their_schedule_by_mail_and_the_answer_says_so(post):
    post.spectators = [SPECTATOR]
    post.serve()
    assert len(post.inbox(SPECTATOR)) == 1  # every step, as configured
    post.mail_to_referee(text_mail("digest end", "Thanks!\n", SPECTATOR))
    post.serve()
    [answer] = [m for m in post.inbox(SPECTATOR) if m["Auto-Submitted"] == "auto-replied"]
    gid = status(post.table.dir).gamefile.game_id
    assert f"game {gid}: your digests of this game come once, at the end of the game" in body(answer)
    play_steps(post, 60, datetime(2026, 12, 1, tzinfo=UTC), timedelta(minutes=5))
    digests = [m for m in post.inbox(SPECTATOR) if m["Auto-Submitted"] == "auto-generated"]
    assert len(digests) == 2 and digests[-1]["Subject"].endswith("game over")


def test_a_schedule_asked_by_a_mail_whose_first_line_says_it_is_taken_too(post):
    post.spectators = [SPECTATOR]
    post.mail_to_referee(text_mail("my digests", "\n  digest daily\n\nDan\n", SPECTATOR))
    post.serve()
    [answer] = [m for m in post.inbox(SPECTATOR) if m["Auto-Submitted"] == "auto-replied"]
    assert "at most once a day" in body(answer)


def test_a_schedule_the_configuration_does_not_know_is_refused_by_name(post):
    post.spectators = [SPECTATOR]
    post.digest = "weekly"
    with pytest.raises(MailConfigError, match=r"games\[0\]\.digest: expected one of step, daily, end"):
        MailConfig.read(post.write_config())


def test_one_spectator_may_have_a_schedule_of_their_own_in_the_configuration(post):
    post.spectators = [SPECTATOR, "erin@pbem.test"]
    post.spectator_digests = {"erin@pbem.test": "end"}
    entry = MailConfig.read(post.write_config()).games[0]
    assert entry.spectators == (SPECTATOR, "erin@pbem.test")
    assert entry.digests == {SPECTATOR: "step", "erin@pbem.test": "end"}


# --- joining ---------------------------------------------------------------------------------------------------


def test_joining_takes_three_mails_from_each_player_and_the_last_to_send_gets_each_answer_with_the_next_round(
        tmp_path, smtp_server):
    post = make_post(tmp_path, smtp_server, "maildir", wait_for_joins=True)
    post.serve()  # the invitations to the commit round
    for kind in ("commit", "reveal"):
        for player in ("alice", "bob"):
            data = make_join(post.table.dir, player, post.table.keys[player])
            assert json.loads(data)["round"] == kind
            post.mail_to_referee(file_mail(data, f"join-{player}.json", REFEREE, ADDRESSES[player]))
            post.serve()
    assert status(post.table.dir).turn == 0
    # alice, first each round: the invitation, her answer, the next round's invitation, her answer, turn 0;
    # bob, last each round: the invitation, then each answer carries the next round, then turn 0 itself
    assert len(post.inbox(ADDRESSES["alice"])) == 5
    bobs = post.inbox(ADDRESSES["bob"])
    assert len(bobs) == 3
    assert "(join-reveal)" in bobs[1]["Subject"] and "APPLIED" in body(bobs[1])
    assert bobs[2]["Subject"].endswith("turn 0: your decision (play)") and "APPLIED" in body(bobs[2])


# --- a player's public key ---------------------------------------------------------------------------------------


def key_mail(key: PublicKey, directory: Path, sender: str) -> EmailMessage:
    """A player's public key attached to a mail, as a mail client sends it."""
    path = write_public_key(key, directory)
    message = text_mail(f"{key.name}'s key", "Here is my key.\n", sender)
    attach(message, path.name, path.read_bytes())
    return message


def test_a_public_key_seated_in_a_game_waiting_for_its_join_is_answered_with_the_invitation(tmp_path, smtp_server):
    post = make_post(tmp_path, smtp_server, "maildir", wait_for_joins=True)
    post.serve()  # the invitation went, and got lost
    post.mail_to_referee(key_mail(post.table.keys["alice"].public, tmp_path / "pub", ADDRESSES["alice"]))
    post.serve()
    last = post.inbox(ADDRESSES["alice"])[-1]
    text = body(last)
    assert "alice's public key" in text and "holds alice's seat in game" in text
    assert "please join (join-commit)" in last["Subject"] and "game.toml" in attachments(last)
    assert "pbem join game-" in text


def test_a_public_key_that_holds_no_seat_is_answered_with_what_the_referee_does_with_it(post, tmp_path):
    keys, _ = make_keys(tmp_path / "other", ["alice"])
    post.mail_to_referee(key_mail(keys["alice"].public, tmp_path / "pub", ADDRESSES["alice"]))
    lines: list[str] = []
    post.serve(lines)
    [answer] = [m for m in post.inbox(ADDRESSES["alice"]) if m["Auto-Submitted"] == "auto-replied"]
    text = body(answer)
    assert "names no game" not in text
    assert "holds no seat in a game refereed here yet" in text and "pbem new" in text
    assert any("no seat in a game served here" in line for line in lines)  # the host's report names it


def test_a_public_key_mailed_from_another_address_than_its_seats_mails_the_seat_nothing(tmp_path, smtp_server):
    post = make_post(tmp_path, smtp_server, "maildir", wait_for_joins=True)
    post.serve()
    mail = key_mail(post.table.keys["alice"].public, tmp_path / "pub", ADDRESSES["bob"])
    before = len(post.inbox(ADDRESSES["alice"]))
    post.mail_to_referee(mail)
    post.serve()
    assert len(post.inbox(ADDRESSES["alice"])) == before
    assert "goes to the seat's own address" in body(post.inbox(ADDRESSES["bob"])[-1])

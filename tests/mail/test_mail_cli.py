"""The mail commands: pbem move/join --mail, pbem mail serve/unpack/send (exit codes, messages, progress)."""

from __future__ import annotations

import json
from email import message_from_bytes, policy

from helpers_mail import ADDRESSES, IMAP_PASSWORD, REFEREE, SMTP_USERS, make_post, serving_by_poll
from typer.testing import CliRunner, Result

from pbem.cli.main import app
from pbem.mail.compose import message_bytes
from pbem.mail.player import file_mail
from pbem.referee import status


def invoke(*args: object) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


def test_pbem_move_mail_writes_a_ready_eml_carrying_the_move_file(post, tmp_path):
    out = tmp_path / "move.json"
    result = invoke("move", post.table.dir, "--as", "alice", "--key", post.table.key_files["alice"],
                    "--choose", "1", "--out", out, "--mail", REFEREE, "--from", ADDRESSES["alice"])
    assert result.exit_code == 0, result.output
    assert f"mail ready: {out.with_suffix('.eml')} (to {REFEREE})" in result.output
    mail = message_from_bytes(out.with_suffix(".eml").read_bytes(), policy=policy.default)
    assert mail["To"] == REFEREE and mail["From"] == ADDRESSES["alice"] and mail["X-Unsent"] == "1"
    assert "alice's move for turn 0" in mail["Subject"]
    [part] = list(mail.iter_attachments())
    assert part.get_filename() == "move.json" and part.get_payload(decode=True) == out.read_bytes()
    # and the referee applies it as it arrives
    post.deliver_to_referee(out.with_suffix(".eml").read_bytes())
    post.serve()
    assert status(post.table.dir).turn == 1


def test_pbem_join_mail_writes_a_ready_eml_carrying_the_join_file(tmp_path, smtp_server):
    post = make_post(tmp_path, smtp_server, "maildir", wait_for_joins=True)
    out = tmp_path / "join-alice.json"
    result = invoke("join", post.table.dir, "--as", "alice", "--key", post.table.key_files["alice"],
                    "--out", out, "--mail", REFEREE)
    assert result.exit_code == 0, result.output
    mail = message_from_bytes(out.with_suffix(".eml").read_bytes(), policy=policy.default)
    assert mail["From"] is None  # the mail client fills it in
    assert "alice's join file" in mail["Subject"]
    post.deliver_to_referee(out.with_suffix(".eml").read_bytes())
    post.serve()
    assert [a["player"] for a in status(post.table.dir).awaiting] == ["bob"]


def test_serve_once_prints_one_line_per_mail_with_progress_and_nothing_without(post):
    post.mail_to_referee(file_mail(post.table.move("alice", "1"), "m.json", REFEREE, ADDRESSES["alice"]))
    config = post.write_config()
    quiet = invoke("mail", "serve", "--config", config, "--once")
    assert quiet.exit_code == 0 and quiet.output == ""  # cron mails only problems
    post.mail_to_referee(file_mail(post.table.move("bob", "1"), "m.json", REFEREE, ADDRESSES["bob"]))
    loud = CliRunner().invoke(app, ["mail", "serve", "--config", str(config), "--once", "--progress"])
    assert loud.exit_code == 0
    assert "from bob@pbem.test: bob's move answering turn 1: applied; answered to bob@pbem.test" in loud.stderr
    assert "sent a mail to bob@pbem.test" in loud.stderr


def test_serve_needs_once_or_poll(post):
    result = invoke("mail", "serve", "--config", post.write_config())
    assert result.exit_code == 2 and "exactly one of --once and --poll" in result.output


def test_serve_exits_31_when_the_smtp_server_is_down_and_keeps_the_mails_queued(post):
    config = post.write_config()
    post.smtp.stop()
    result = invoke("mail", "serve", "--config", config, "--once")
    assert result.exit_code == 31
    assert "mails stay queued" in result.output
    assert len(list((post.tmp / "mail-state" / "outbox").glob("*.eml"))) == 2


def test_serve_exits_31_when_the_imap_login_is_refused(imap_post, monkeypatch):
    config = imap_post.write_config()
    monkeypatch.setenv("PBEM_TEST_IMAP_PASSWORD", "wrong")
    result = invoke("mail", "serve", "--config", config, "--once")
    assert result.exit_code == 31 and "login as referee failed" in result.output
    monkeypatch.setenv("PBEM_TEST_IMAP_PASSWORD", IMAP_PASSWORD)
    assert invoke("mail", "serve", "--config", config, "--once").exit_code == 0


def test_unpack_files_a_turn_mail_and_view_and_move_work_on_the_copy(post, tmp_path):
    post.serve()
    [mail] = post.inbox(ADDRESSES["alice"])
    saved = tmp_path / "turn.eml"
    saved.write_bytes(message_bytes(mail))
    copy = tmp_path / "my-game"
    result = invoke("mail", "unpack", saved, "--into", copy)
    assert result.exit_code == 0, result.output
    assert "turn 0 filed in" in result.output
    assert (copy / "game.toml").read_bytes() == (post.table.dir / "game.toml").read_bytes()
    assert (copy / "turns" / "000000.json").read_bytes() == (post.table.dir / "turns" / "000000.json").read_bytes()
    view = invoke("view", copy, "--as", "alice", "--key", post.table.key_files["alice"])
    assert view.exit_code == 0 and "your decision: play" in view.output
    again = invoke("mail", "unpack", saved, "--into", copy)
    assert again.exit_code == 0 and "nothing new" in again.output


def test_unpack_takes_saved_attachments_too(post, tmp_path):
    files = [post.table.dir / "game.toml", post.table.dir / "turns" / "000000.json"]
    result = invoke("mail", "unpack", *files, "--into", tmp_path / "copy")
    assert result.exit_code == 0 and "turn 0 filed" in result.output


def test_unpack_refuses_a_turn_file_the_referee_did_not_sign(post, tmp_path):
    turn = json.loads((post.table.dir / "turns" / "000000.json").read_text())
    turn["public"]["scores"]["alice"] = 5
    forged = tmp_path / "000000.json"
    forged.write_text(json.dumps(turn))
    copy = tmp_path / "copy"
    result = invoke("mail", "unpack", post.table.dir / "game.toml", forged, "--into", copy)
    assert result.exit_code == 32 and "bad signature" in result.output
    assert not (copy / "turns").exists()


def test_unpack_refuses_another_games_toml_into_a_copy(post, tmp_path, smtp_server):
    copy = tmp_path / "copy"
    assert invoke("mail", "unpack", post.table.dir / "game.toml", "--into", copy).exit_code == 0
    other = make_post(tmp_path / "other", smtp_server, "maildir", seed=None)
    result = invoke("mail", "unpack", other.table.dir / "game.toml", "--into", copy)
    assert result.exit_code == 32 and "is not the one in" in result.output


def test_send_mails_a_move_file_to_the_referee_through_smtp(post, tmp_path, monkeypatch):
    move = tmp_path / "move.json"
    move.write_bytes(post.table.move("alice", "1"))
    config = tmp_path / "alice.toml"
    config.write_text(f'address = "{ADDRESSES["alice"]}"\nreferee = "{REFEREE}"\n[smtp]\nhost = "127.0.0.1"\n'
                      f'port = {post.smtp.port}\nsecurity = "none"\nuser = "alice"\npassword_env = "ALICE_PW"\n')
    monkeypatch.setenv("ALICE_PW", SMTP_USERS["alice"])
    result = invoke("mail", "send", move, "--config", config)
    assert result.exit_code == 0 and f"sent {move} to {REFEREE}" in result.output
    post.serve()
    assert status(post.table.dir).turn == 1
    # the same .eml sent again is a new mail (new Message-ID): answered again, "already in the game"
    eml = tmp_path / "move.eml"
    eml.write_bytes(message_bytes(file_mail(move.read_bytes(), "move.json", REFEREE)))
    assert invoke("mail", "send", eml, "--config", config).exit_code == 0
    assert invoke("mail", "send", eml, "--config", config).exit_code == 0
    post.serve()
    answers = [m for m in post.inbox(ADDRESSES["alice"]) if m["Auto-Submitted"] == "auto-replied"]
    assert len(answers) == 3 and all("already in the game" in m.get_body(("plain",)).get_content()
                                     for m in answers[1:])
    monkeypatch.setenv("ALICE_PW", "wrong")
    refused = invoke("mail", "send", move, "--config", config)
    assert refused.exit_code == 31 and "Authentication" in refused.output


def test_serve_poll_runs_round_after_round_until_stopped(post):
    with serving_by_poll(post.write_config()) as (process, until):
        until("sent a mail to bob")  # the first round: the deal
        post.mail_to_referee(file_mail(post.table.move("alice", "1"), "m.json", REFEREE, ADDRESSES["alice"]))
        until("alice's move answering turn 0: applied")  # a later round
    assert process.returncode == 0


def test_unpack_files_the_commitments_of_the_invitation_to_the_second_join_round_and_refuses_a_forged_one(
        tmp_path, smtp_server):
    post = make_post(tmp_path, smtp_server, "maildir", wait_for_joins=True)
    for player in ("alice", "bob"):
        out = tmp_path / f"join-{player}.json"
        assert invoke("join", post.table.dir, "--as", player, "--key", post.table.key_files[player],
                      "--out", out, "--mail", REFEREE).exit_code == 0
        post.deliver_to_referee(out.with_suffix(".eml").read_bytes())
    post.serve()
    invitation = [m for m in post.inbox(ADDRESSES["alice"]) if "(join-reveal)" in m["Subject"]][-1]
    saved = tmp_path / "invite.eml"
    saved.write_bytes(message_bytes(invitation))
    copy = tmp_path / "copy"
    result = invoke("mail", "unpack", saved, "--into", copy)
    assert result.exit_code == 0 and "joins/alice.commit.json, joins/bob.commit.json" in result.output
    assert invoke("join", copy, "--as", "alice", "--key", post.table.key_files["alice"],
                  "--out", tmp_path / "nonce.json").exit_code == 0
    assert json.loads((tmp_path / "nonce.json").read_text())["round"] == "reveal"
    forged = json.loads((post.table.dir / "joins" / "bob.commit.json").read_text())
    forged["commitment"] = "sha256:" + "0" * 64
    (tmp_path / "bob.commit.json").write_text(json.dumps(forged))
    refused = invoke("mail", "unpack", post.table.dir / "game.toml", tmp_path / "bob.commit.json",
                     "--into", tmp_path / "other-copy")
    assert refused.exit_code == 32 and "not a join file of game" in refused.output
    assert not (tmp_path / "other-copy").exists()  # checked before anything is written


def test_unpack_of_a_file_nested_too_deep_to_read_is_a_clear_error(tmp_path):
    """A turn mail comes from whoever claims to be the referee: a part the JSON reader cannot follow
    is no game file (exit 1 with a message), not a traceback."""
    deep = tmp_path / "000003.json"
    deep.write_bytes(b'{"a":' + b"[" * 100_000)
    result = invoke("mail", "unpack", deep, "--into", tmp_path / "copy")
    assert result.exit_code != 0 and not isinstance(result.exception, RecursionError), result.exception
    assert "Traceback" not in result.output and "game.toml" in result.output

"""A whole game played by e-mail: real SMTP (aiosmtpd), a real IMAP server (Dovecot), the real commands.

The players never touch the referee's game directory. Each one reads the
mails the referee sends (saved as .eml files), files them into a copy of
their own with `pbem mail unpack`, reads their view from the attachments
with `pbem view`, writes `pbem join` / `pbem move --mail` and sends the
.eml with `pbem mail send` through SMTP. That mail lands in the referee's
IMAP folder, which `pbem mail serve --once` reads.
"""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

from helpers_mail import ADDRESSES, IMAP_PASSWORD, REFEREE, SMTP_USERS, SPECTATOR, attachments, body, make_post
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.crypto.seal import open_sealed
from pbem.mail.compose import message_bytes
from pbem.referee import read_view, status, verify


def player_config(home: Path, player: str, smtp) -> Path:
    path = home / "mail.toml"
    path.write_text(f"""
address = "{ADDRESSES[player]}"
referee = "{REFEREE}"
[smtp]
host = "{smtp.host}"
port = {smtp.port}
security = "none"
user = "{player}"
password_env = "PBEM_TEST_SMTP_{player.upper()}"
""")
    return path


def run(*args: object) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, (args, result.output)
    return result.output


def test_a_whole_game_by_mail_with_joins_through_smtp_and_imap(tmp_path, smtp_server, dovecot, monkeypatch):
    post = make_post(tmp_path, smtp_server, "imap", imap=dovecot, wait_for_joins=True)
    post.spectators = [SPECTATOR]
    config = post.write_config()
    monkeypatch.setenv("PBEM_TEST_IMAP_PASSWORD", IMAP_PASSWORD)
    players = ("alice", "bob")
    homes = {}
    for player in players:
        monkeypatch.setenv(f"PBEM_TEST_SMTP_{player.upper()}", SMTP_USERS[player])
        homes[player] = tmp_path / "home" / player
        homes[player].mkdir(parents=True)
    configs = {p: player_config(homes[p], p, smtp_server) for p in players}
    read = dict.fromkeys(players, 0)
    finished: dict[str, EmailMessage] = {}
    sent = 0
    for _ in range(100):  # rounds of mail; the toy game ends well before
        run("mail", "serve", "--once", "--config", config)
        if len(finished) == len(players):
            break
        for player in players:
            home, key, address = homes[player], post.table.key_files[player], ADDRESSES[player]
            copy = home / "game"
            mails = post.inbox(address)[read[player]:]
            read[player] += len(mails)
            for number, mail in enumerate(mails, start=read[player] - len(mails)):
                if mail["Auto-Submitted"] == "auto-replied":  # the answer to a mail of ours, and maybe our next turn
                    text = body(mail)
                    assert "APPLIED" in text and "REFUSED" not in text, text
                    if mail["Subject"].startswith("Re: "):
                        continue
                saved = home / f"mail-{number}.eml"
                saved.write_bytes(message_bytes(mail))
                run("mail", "unpack", saved, "--into", copy)
                subject = mail["Subject"]
                if "please join" in subject:
                    run("join", copy, "--as", player, "--key", key, "--out", home / "join.json", "--mail", REFEREE)
                    run("mail", "send", home / "join.eml", "--config", configs[player])
                    sent += 1
                elif "your decision" in subject:
                    view = read_view(copy, player, post.table.keys[player])  # from the mailed turn file
                    sealed = next(data for name, data in attachments(mail).items() if name.endswith(".age"))
                    assert open_sealed(sealed.decode(), post.table.keys[player]) == view.doc
                    out = home / f"move-{view.number:06d}.json"
                    run("move", copy, "--as", player, "--key", key, "--choose", "1", "--out", out,
                        "--mail", REFEREE, "--from", address)
                    run("mail", "send", out.with_suffix(".eml"), "--config", configs[player])
                    sent += 1
                elif "game over" in subject:
                    finished[player] = mail
    assert set(finished) == set(players)
    final = status(post.table.dir)
    assert final.result is not None
    assert verify(post.table.dir, replay=True).replayed
    answered = sum(1 for p in players for m in post.inbox(ADDRESSES[p]) if m["Auto-Submitted"] == "auto-replied")
    assert answered == sent  # every mail got its answer, once
    assert "Game over:" in body(finished["alice"])
    spectator = post.inbox(SPECTATOR)
    assert spectator and spectator[-1]["Subject"].endswith("game over")
    assert all(not name.endswith(".age") for m in spectator for name in attachments(m))
    # the referee's IMAP folder: every mail read is flagged seen
    assert all(b"\\Seen" in flags for flags in dovecot.flags(post.folder))


def test_the_referee_reads_an_imap_folder_and_a_run_later_reads_only_new_mail(imap_post):
    post = imap_post
    from pbem.mail.player import file_mail

    post.mail_to_referee(file_mail(post.table.move("alice", "1"), "move.json", REFEREE, ADDRESSES["alice"]))
    first = post.serve()
    assert len(first.mails) == 1 and "applied" in first.mails[0]
    assert post.serve().mails == []
    post.mail_to_referee(file_mail(post.table.move("bob", "2"), "move.json", REFEREE, ADDRESSES["bob"]))
    third = post.serve()
    assert len(third.mails) == 1 and "bob's move answering turn 1: applied" in third.mails[0]
    assert status(post.table.dir).turn == 2

"""Turn notices: with ``mail = FILE``, each player is mailed when a decision of theirs opens, once, with
nothing private in it; an SMTP server that is down keeps them for the next run."""

from __future__ import annotations

from email.message import EmailMessage

from helpers_git import GitTable, first_choice, move, send
from helpers_mail import ADDRESSES, REFEREE, SMTP_USERS, SmtpServer


def with_notices(table: GitTable, smtp: SmtpServer, port: int | None = None) -> None:
    referee = table.referee
    (referee.home / "referee-mail.toml").write_text(
        f'address = "{REFEREE}"\n[smtp]\nhost = "127.0.0.1"\nport = {port or smtp.port}\nsecurity = "none"\n'
        'user = "referee"\npassword_env = "PBEM_SMTP_PASSWORD"\n'
        f'[[games]]\ndir = "games/first"\nplayers = {{ alice = "{ADDRESSES["alice"]}", bob = "{ADDRESSES["bob"]}" }}\n')
    referee.write_config('mail = "referee-mail.toml"')
    referee.env["PBEM_SMTP_PASSWORD"] = SMTP_USERS["referee"]


def notices(smtp: SmtpServer, player: str) -> list[EmailMessage]:
    return smtp.post.messages(ADDRESSES[player])


def text(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    return part.get_content()  # type: ignore[no-any-return,attr-defined]


def test_each_player_is_told_once_when_a_decision_of_theirs_opens(table: GitTable, smtp_server: SmtpServer) -> None:
    with_notices(table, smtp_server)
    table.referee.serve()
    for player in ("alice", "bob"):
        (mail,) = notices(smtp_server, player)
        assert mail["Subject"].endswith("turn 0: your decision (play)") and mail["Auto-Submitted"] == "auto-generated"
        assert f"pbem view game --as {player}" in text(mail) and "pbem git send move.json" in text(mail)
        assert "card-" not in text(mail)  # nothing of the hand: it is in the game branch, sealed
    send(table, table.alice, move(table, table.alice, first_choice(table, table.alice)))
    table.referee.serve()
    assert len(notices(smtp_server, "bob")) == 1  # still the same decision, opened at turn 0
    assert len(notices(smtp_server, "alice")) == 1
    send(table, table.bob, move(table, table.bob, first_choice(table, table.bob)))
    table.referee.serve()
    latest = notices(smtp_server, "alice")[-1]
    assert "turn 2: your decision (draw)" in latest["Subject"]
    table.referee.serve()
    assert len(notices(smtp_server, "alice")) == 2


def test_notices_wait_in_the_outbox_while_the_smtp_server_is_down(table: GitTable, smtp_server: SmtpServer) -> None:
    with_notices(table, smtp_server, port=1)  # nothing listens there
    down = table.referee.serve(code=31)
    assert "notices stay queued" in down.stderr
    assert len(list((table.referee.state / "outbox").glob("*.eml"))) == 2
    with_notices(table, smtp_server)
    table.referee.serve()
    assert len(notices(smtp_server, "alice")) == 1 and len(notices(smtp_server, "bob")) == 1
    assert not list((table.referee.state / "outbox").glob("*.eml"))

"""The mail configuration file: what it may say, and every mistake named (docs/mail.md)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.mail.config import MailConfig
from pbem.mail.errors import MailConfigError
from pbem.mail.served import served_games

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "mail"


def config(tmp_path: Path, text: str) -> MailConfig:
    path = tmp_path / "mail.toml"
    path.write_text(text)
    return MailConfig.read(path)


def test_the_example_configurations_read(tmp_path):
    referee = MailConfig.read(EXAMPLES / "referee.toml")
    assert referee.mailbox is not None and referee.mailbox.server is not None and referee.smtp is not None
    assert referee.mailbox.kind == "imap" and referee.mailbox.server.port == 993
    assert referee.smtp.port == 587 and referee.smtp.security == "starttls"
    assert referee.key == EXAMPLES / "referee.key"  # relative to the file
    assert referee.games[0].players == {"alice": "alice@example.org", "bob": "bob@example.org"}
    assert referee.games[0].spectators == ("carol@example.org",)
    player = MailConfig.read(EXAMPLES / "player.toml")
    assert player.smtp is not None
    assert player.referee == "referee@example.org" and player.smtp.credentials.password_env == "PBEM_SMTP_PASSWORD"


@pytest.mark.parametrize("unit", ["pbem-mail.service", "crontab"])
def test_the_example_cron_line_and_systemd_service_run_a_valid_serve_command(unit, tmp_path):
    text = (EXAMPLES / unit).read_text()
    line = next(line for line in text.splitlines() if "mail serve" in line and not line.startswith("#"))
    args = shlex.split(line[line.index("mail serve"):])
    args[args.index("--config") + 1] = str(tmp_path / "absent.toml")
    result = CliRunner().invoke(app, args)
    # the arguments parse; the run stops at the missing configuration (exit 30), not at usage (2)
    assert result.exit_code == 30, result.output
    assert "no such mail configuration file" in result.output
    timer = (EXAMPLES / "pbem-mail.timer").read_text()
    assert re.search(r"^OnUnitActiveSec=5min$", timer, re.MULTILINE)


@pytest.mark.parametrize("text, message", [
    ('adress = "a@b.test"', "unknown key 'adress'"),
    ('address = "not an address"', "is not a"),
    ('[mailbox]\nkind = "pop3"', "mailbox.kind: 'pop3' is not one of imap, maildir, mbox"),
    ('[mailbox]\nkind = "maildir"', "mailbox.path: a maildir mailbox needs its path"),
    ('[smtp]\nhost = "smtp.example.org"\nsecurity = "none"', "'none' sends passwords in clear"),
    ('[smtp]\nhost = "localhost"\nport = 70000', "smtp.port: 70000 is not a port number"),
    ('[smtp]\nhost = "localhost"\npassword_env = "X"', "a password needs a user"),
    ('[smtp]\nhost = "h.test"\nuser = "u"\npassword_env = "X"\npassword_file = "f"', "not both"),
    ('[[games]]\nplayers = {}', "games[0].dir: missing"),
    ('[[games]]\ndir = "g"\nspectators = ["nobody"]', "games[0].spectators[0]"),
])
def test_a_bad_configuration_is_refused_naming_the_key(tmp_path, text, message):
    with pytest.raises(MailConfigError, match=re.escape(message)):
        config(tmp_path, text)


def test_passwords_come_from_the_environment_or_a_private_file_never_the_command_line(tmp_path, monkeypatch):
    settings = config(tmp_path, '[smtp]\nhost = "localhost"\nuser = "u"\npassword_env = "PBEM_TEST_PW"\n'
                                '[mailbox]\nkind = "imap"\nhost = "localhost"\nuser = "u"\npassword_file = "pw"\n')
    assert settings.smtp is not None and settings.mailbox is not None and settings.mailbox.server is not None
    monkeypatch.delenv("PBEM_TEST_PW", raising=False)
    with pytest.raises(MailConfigError, match="PBEM_TEST_PW"):
        settings.smtp.credentials.password()
    monkeypatch.setenv("PBEM_TEST_PW", "s3cret")
    assert settings.smtp.credentials.password() == "s3cret"
    secret = tmp_path / "pw"
    secret.write_text("imap pw\n")
    secret.chmod(0o644)
    with pytest.raises(MailConfigError, match="readable by others"):
        settings.mailbox.server.credentials.password()
    secret.chmod(0o600)
    assert settings.mailbox.server.credentials.password() == "imap pw"


def test_a_seat_address_for_a_player_not_seated_in_the_game_is_refused(tmp_path):
    from helpers_referee import make_table

    table = make_table(tmp_path)
    settings = config(tmp_path, f'[[games]]\ndir = "{table.dir}"\nplayers = {{ alice = "a@x.test", zed = "z@x.test" }}\n')
    with pytest.raises(MailConfigError, match="'zed' is not seated in game"):
        served_games(settings)


def test_a_command_names_what_its_configuration_lacks(tmp_path):
    settings = config(tmp_path, 'address = "a@b.test"\n')
    with pytest.raises(MailConfigError, match="this command needs state, mailbox, smtp, games"):
        settings.require("address", "state", "mailbox", "smtp", "games")

"""Fixtures of the mail tests: real mail servers on localhost (see tests/helpers_mail.py)."""

import sys
from pathlib import Path

import pytest

# the toy game and the shared helpers live in tests/, the servers beside this file
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers_mail import dovecot, imap_post, post, smtp_server  # noqa: F401 - fixtures


def pytest_configure(config: pytest.Config) -> None:
    # the test SMTP server takes plain AUTH without TLS: it listens on 127.0.0.1 only
    config.addinivalue_line("filterwarnings", "ignore:Requiring AUTH while not requiring TLS:UserWarning")

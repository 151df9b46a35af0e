"""The play-by-git tests' table: a host with its permissions, the referee's machine, and two players; and
the SMTP server the turn notices go through (tests/helpers_mail.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_git import GitTable, set_table
from helpers_mail import smtp_server  # noqa: F401 - a fixture


def pytest_configure(config: pytest.Config) -> None:
    # the test SMTP server takes plain AUTH without TLS: it listens on 127.0.0.1 only
    config.addinivalue_line("filterwarnings", "ignore:Requiring AUTH while not requiring TLS:UserWarning")


@pytest.fixture
def table(tmp_path: Path) -> GitTable:
    return set_table(tmp_path)

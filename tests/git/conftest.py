"""The play-by-git tests' table: a host with its permissions, the referee's machine, and two players."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_git import GitTable, set_table


@pytest.fixture
def table(tmp_path: Path) -> GitTable:
    return set_table(tmp_path)

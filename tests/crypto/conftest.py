"""Fixtures and markers of the crypto tests."""

from __future__ import annotations

import os
import shutil

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "age_interop: checks interoperability with the stock `age` command (skipped only if it is not installed)",
    )


@pytest.fixture
def age_binary() -> str:
    """Path of the stock ``age`` command; the test is skipped, with the reason, if it is absent."""
    path = shutil.which("age")
    if path is None and os.environ.get("CI"):
        pytest.fail("CI must run the age interop tests: .ci/run installs the Debian package `age`")
    if path is None:
        pytest.skip("the `age` command is not installed (apt-get install age); CI installs it")
    return path

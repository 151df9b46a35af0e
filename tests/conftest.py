"""Shared test options, and the test games.

Random-playout and leak-property tests run a small count of games in CI.
Run thousands with, for example::

    pytest --games 2000 -k random

and the hostile-mail corpus of the mail loop with ``--mails 10000``
(``tests/mail/test_mail_hostile_corpus.py``). The whole games played by mail
(``tests/mail/test_whole_games_by_mail.py``) play one seed of each game in CI;
``--mail-games N`` plays N.

The games the suite defines are registered here, before any test module is
collected, the way ``PBEM_GAMES`` registers them for a command, so that every
generic test (they iterate ``game_names()``) sees the same games: High Card
(the referee's fast toy, on the protocol alone), High Card with named hidden
zones, and Love Letter (a game on the kit that is one folder,
``tests/loveletter/``, run by the conformance suite like the shipped games).
"""

from __future__ import annotations

import pytest

from pbem.engine.registry import register_modules

#: the games of the test suite, as PBEM_GAMES names them (tests/ is on the path)
TEST_GAMES = "toygame,zonegame,loveletter"
register_modules(TEST_GAMES)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--games",
        type=int,
        default=None,
        help="random games (or positions) per configuration in the playout and leak tests",
    )
    parser.addoption(
        "--mails",
        type=int,
        default=None,
        help="hostile mails in the mail loop's corpus test (tests/mail/test_mail_hostile_corpus.py)",
    )
    parser.addoption(
        "--mail-games",
        type=int,
        default=None,
        help="seeds of each whole game played by mail (tests/mail/test_whole_games_by_mail.py); CI plays one",
    )


@pytest.fixture(autouse=True)
def player_state_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """``pbem view`` remembers the turns it showed in a state directory: never the real one in tests."""
    monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path_factory.mktemp("pbem-state")))


def _count(request: pytest.FixtureRequest, option: str):
    """The count a test runs: the command line's ``option``, or the test's own CI default."""

    def count(ci_default: int) -> int:
        chosen = request.config.getoption(option)
        return ci_default if chosen is None else chosen

    return count


@pytest.fixture
def game_count(request: pytest.FixtureRequest):
    """How many random games a playout test runs: ``--games N`` or the test's own CI default."""
    return _count(request, "--games")


@pytest.fixture
def mail_count(request: pytest.FixtureRequest):
    """How many hostile mails the corpus test sends: ``--mails N`` or the test's own CI default."""
    return _count(request, "--mails")


@pytest.fixture
def mail_games(request: pytest.FixtureRequest):
    """How many seeds of each whole game by mail a test plays: ``--mail-games N`` or the test's own CI default."""
    return _count(request, "--mail-games")

"""Shared test options, and the test games.

Random-playout and leak-property tests run a small count of games in CI.
Run thousands with, for example::

    pytest --games 2000 -k random

The games the suite defines are registered here, before any test module is
collected, so that every generic test (they iterate ``game_names()``) sees
the same games: High Card (the referee's fast toy), High Card with named
hidden zones, and Sealed Bids (a game on the turn machine that is one
subpackage plus scenario data).
"""

from __future__ import annotations

import pytest
import sealedbids
import toygame
import zonegame

from pbem.engine import register

for _game in (toygame.GAME, zonegame.GAME, sealedbids.GAME):
    register(_game)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--games",
        type=int,
        default=None,
        help="random games (or positions) per configuration in the playout and leak tests",
    )


@pytest.fixture(autouse=True)
def player_state_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """``pbem view`` remembers the turns it showed in a state directory: never the real one in tests."""
    monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path_factory.mktemp("pbem-state")))


@pytest.fixture
def game_count(request: pytest.FixtureRequest):
    """How many random games a playout test runs: ``--games N`` or the test's own CI default."""

    def count(ci_default: int) -> int:
        chosen = request.config.getoption("--games")
        return ci_default if chosen is None else chosen

    return count

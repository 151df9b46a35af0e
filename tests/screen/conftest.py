import sys
from pathlib import Path

# the toy game and the shared helpers live in tests/
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pytest
from helpers_screen import PlayedGame, play


@pytest.fixture(scope="session")
def finished(tmp_path_factory) -> PlayedGame:
    """A whole two-player Nightfall game, played to its end through the real files."""
    return play(tmp_path_factory.mktemp("finished"), "nightfall", 2, 0x21, None)


@pytest.fixture(scope="session")
def nightfall(tmp_path_factory) -> PlayedGame:
    """Two players, 60 turns into a game: opponents' turns with draws (private to the drawer) between each player's moves."""
    return play(tmp_path_factory.mktemp("nightfall"), "nightfall", 2, 0x5A, 60)


@pytest.fixture(scope="session")
def nightfall3(tmp_path_factory) -> PlayedGame:
    """Three players, 45 turns in."""
    return play(tmp_path_factory.mktemp("nightfall3"), "nightfall", 3, 0x3C, 45)


@pytest.fixture(scope="session")
def nightlancer(tmp_path_factory) -> PlayedGame:
    """Two players, 50 turns in."""
    return play(tmp_path_factory.mktemp("nightlancer"), "nightlancer", 2, 0x4B, 50)

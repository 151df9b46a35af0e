"""Every game ``pbem demo`` plays replays byte for byte, and one changed byte is detected.

For every registered game. A game module that does not import makes its
test FAIL with the reason: the replay is promised for every game.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_trust import flip
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.engine import find_game, game_names
from pbem.referee import run_demo, verify
from pbem.referee.errors import VerificationFailed

#: a short demo: enough turns for draws, reactions and hidden cards to move
DEMO_TURNS = 20


@pytest.mark.parametrize("name", game_names())
def test_a_demo_game_replays_and_one_flipped_byte_is_detected(name: str, tmp_path: Path) -> None:
    try:
        find_game(name)
    except Exception as error:  # the module is missing or broken: a failure, not a skip
        pytest.fail(f"the game {name} does not import, so its games cannot be replayed: {error!r}")
    report = run_demo(tmp_path, name, seed=bytes.fromhex("5eed") * 16, max_turns=DEMO_TURNS)
    game = tmp_path / "game"
    assert report.turns >= 2
    assert report.verified.replayed and verify(game, replay=True).replayed
    middle = game / "turns" / f"{report.turns // 2:06d}.json"
    flip(middle, len(middle.read_bytes()) // 2)
    with pytest.raises(VerificationFailed) as caught:
        verify(game, replay=True)
    assert caught.value.path == str(middle)


def test_pbem_demo_replays_a_whole_toy_game_from_its_revealed_seed(tmp_path: Path) -> None:
    """No test seed: the final turn publishes the seed and the demo's verification replays."""
    result = CliRunner().invoke(app, ["demo", "highcard", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "replayed from the revealed seed" in result.output


def _files(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


@pytest.mark.parametrize("name", ["nightfall", "nightlancer"])
def test_a_demo_with_a_test_seed_writes_the_same_files_each_time(name: str, tmp_path: Path) -> None:
    """``pbem demo --seed`` promises a reproducible test game: the same seed gives the same game, file for
    file. The players' nonces, which the deal draws from, are derived from their keys, so the demo's keys
    are derived from the seed too (they are test keys: the seed is published in ``game.toml``)."""
    seed = bytes.fromhex("5eed") * 16
    first = run_demo(tmp_path / "first", name, seed=seed, max_turns=DEMO_TURNS)
    again = run_demo(tmp_path / "again", name, seed=seed, max_turns=DEMO_TURNS)
    assert (first.turns, first.result) == (again.turns, again.result)
    assert _files(tmp_path / "first") == _files(tmp_path / "again")
    run_demo(tmp_path / "other", name, seed=bytes.fromhex("0dd5") * 16, max_turns=DEMO_TURNS)
    assert _files(tmp_path / "other" / "keys").keys() == _files(tmp_path / "first" / "keys").keys()
    assert not set(_files(tmp_path / "other" / "keys").values()) & set(_files(tmp_path / "first" / "keys").values())

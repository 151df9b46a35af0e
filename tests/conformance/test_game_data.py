"""An owner's card file that is missing, not TOML or not the game's format is
refused with a ScenarioError naming the file, for every registered game, and
the command line says so with exit code 6 (not a traceback). Scenario lists
come from the scenario files."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.crypto.keys import generate, write_keypair
from pbem.engine import ScenarioError, find_game, game_names
from pbem.resources import data_dir

BAD_FILES = {
    "missing.toml": None,
    "not-toml.toml": "cards = [toml",
    "wrong-format.toml": "x = 1\n",
}


def _bad_file(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    content = BAD_FILES[name]
    if content is not None:
        path.write_text(content)
    return path


@pytest.mark.parametrize("game_name", game_names())
@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_bad_card_file_is_a_scenario_error_naming_it(tmp_path: Path, game_name: str, name: str) -> None:
    game = find_game(game_name)
    path = _bad_file(tmp_path, name)
    with pytest.raises(ScenarioError, match=name):
        game.load_scenario(game.scenarios()[0], cards=str(path))


@pytest.mark.parametrize("game_name", game_names())
def test_an_unknown_scenario_name_is_a_scenario_error(game_name: str) -> None:
    with pytest.raises(ScenarioError):
        find_game(game_name).load_scenario("no-such-scenario")


@pytest.mark.parametrize("game_name", game_names())
@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_pbem_new_refuses_a_bad_card_file_with_exit_code_6(tmp_path: Path, game_name: str, name: str) -> None:
    for who in ("referee", "alice", "bob"):
        (tmp_path / "keys").mkdir(exist_ok=True)
        write_keypair(generate(who), tmp_path / "keys")
    path = _bad_file(tmp_path, name)
    result = CliRunner().invoke(app, [
        "new", str(tmp_path / "game"), "--game", game_name,
        "--player", f"alice={tmp_path / 'keys' / 'alice.pub'}", "--player", f"bob={tmp_path / 'keys' / 'bob.pub'}",
        "--referee-key", str(tmp_path / "keys" / "referee.key"), "--cards", str(path),
    ])
    assert result.exit_code == 6, result.output
    assert name in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def _shipped_games() -> list[str]:
    """The registered games whose scenarios ship in pbem's own scenarios/ directory."""
    return [name for name in game_names() if (data_dir("scenarios") / name).is_dir()]


@pytest.mark.parametrize("game_name", _shipped_games())
def test_the_scenario_list_is_the_scenario_files_in_the_order_they_give(game_name: str) -> None:
    """Scenario lists come from data: every scenario file of the game but the worked examples,
    ordered by their ``order`` (the first is the standard set-up)."""
    files = [tomllib.loads(p.read_text()) for p in sorted((data_dir("scenarios") / game_name).glob("*.toml"))]
    scenarios = [f for f in files if "name" in f]  # a card file has no top-level name
    listed = sorted((f["order"], f["name"]) for f in scenarios if not f.get("example"))
    game = find_game(game_name)
    assert list(game.scenarios()) == [name for _, name in listed]
    assert game.scenarios()[0] == "standard"
    assert all(f.get("example") for f in scenarios if f["name"] not in game.scenarios())


@pytest.mark.parametrize("game_name", game_names())
def test_every_listed_scenario_loads_under_its_name(game_name: str) -> None:
    game = find_game(game_name)
    for name in game.scenarios():
        assert game.load_scenario(name)["name"] == name

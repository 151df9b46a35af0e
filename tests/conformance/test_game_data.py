"""A game's data: its files hold against their schemas, its parsed copies are made from their files' very
bytes, its scenarios are listed from their files and load under their names, its options are declared.

An owner's card file that is missing, not TOML or not the game's format is
refused with a ScenarioError naming the file, for every registered game, and
the command line says so with exit code 6 (not a traceback). Every option a
scenario sets, and every option the rules read (recorded while random games
are played and viewed), is one the game declares, and each it declares is
read.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any, ClassVar

import pytest
from helpers_conformance import game_data, kit_games, set_ups
from typer.testing import CliRunner

from pbem.bots.playout import play
from pbem.cli.main import app
from pbem.crypto.keys import generate, write_keypair
from pbem.engine import ScenarioError, find_game, game_names
from pbem.engine.options import OptionTable, options_of, parse_option_table
from pbem.engine.scenario_files import parsed_copy_of, parsed_form, read_toml, schema_problem

DATA_FILES = [(name, path, schema) for name in kit_games() for path, schema in game_data(name).data_files()]

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


@pytest.mark.parametrize(("game_name", "path", "schema"), DATA_FILES,
                         ids=[f"{name}/{path.name}" for name, path, _ in DATA_FILES])
def test_every_data_file_holds_against_its_schema(game_name: str, path: Path, schema: str) -> None:
    """Read as written (not through its parsed copy): the files of a game's data are not checked at run
    time, the set-up hash in ``game.toml`` pins what a game was dealt with."""
    text = path.read_text(encoding="utf-8")
    doc = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    assert schema_problem(doc, schema) is None, f"{path}: {schema_problem(doc, schema)}"


@pytest.mark.parametrize("game_name", kit_games())
def test_every_parsed_copy_is_made_from_its_files_very_bytes(game_name: str) -> None:
    """Written with ``pbem kit data --write``, never by hand: read instead of the TOML, it gives exactly
    what parsing the TOML gives."""
    data = game_data(game_name)
    assert data.parsed_files() and not data.stale_parsed_copies(), data.stale_parsed_copies()
    for path in data.parsed_files():
        committed = json.loads(parsed_copy_of(path).read_text(encoding="utf-8"))
        exact = json.dumps(parsed_form(path.read_bytes()), sort_keys=True)
        assert json.dumps(committed, sort_keys=True) == exact
        assert json.dumps(read_toml(path, "card file", parsed=True), sort_keys=True) == json.dumps(
            parsed_form(path.read_bytes())["data"], sort_keys=True)


@pytest.mark.parametrize("game_name", kit_games())
def test_the_scenario_list_is_the_scenario_files_in_the_order_they_give(game_name: str) -> None:
    """Scenario lists come from data: every scenario file of the game but the worked examples,
    ordered by their ``order`` (the first is the standard set-up)."""
    game = find_game(game_name)
    files = [tomllib.loads(path.read_text()) for path in game_data(game_name).scenario_files()]
    listed = sorted((f["order"], f["name"]) for f in files if not f.get("example"))
    assert list(game.scenarios()) == [name for _, name in listed]
    assert all(f.get("example") for f in files if f["name"] not in game.scenarios())


@pytest.mark.parametrize("game_name", game_names())
def test_every_listed_scenario_loads_under_its_name(game_name: str) -> None:
    game = find_game(game_name)
    for name in game.scenarios():
        assert game.load_scenario(name)["name"] == name


# --- options


@pytest.mark.parametrize("game_name", game_names())
def test_every_option_a_scenario_sets_is_declared(game_name: str) -> None:
    game = find_game(game_name)
    table = options_of(game)
    for scenario in game.scenarios():
        loaded = game.load_scenario(scenario)
        # the scenario as loaded holds every declared option, settled
        assert list(loaded["options"]) == table.names, scenario


class _Recorded(dict):  # type: ignore[type-arg]
    """Settled options that note each one read."""

    read: ClassVar[set[str]] = set()

    def __getitem__(self, name: str) -> Any:
        _Recorded.read.add(name)
        return super().__getitem__(name)

    def get(self, name: str, default: Any = None) -> Any:
        _Recorded.read.add(name)
        return super().get(name, default)


@pytest.mark.parametrize("game_name", game_names())
def test_every_option_the_rules_read_is_declared_and_every_one_declared_is_read(
        game_name: str, monkeypatch: pytest.MonkeyPatch, game_count) -> None:
    """The rules read their settings from the options as set up (``OptionTable.settle``) and only
    there: recorded over random games of every scenario and seat count, played and viewed."""
    game = find_game(game_name)
    table = options_of(game)
    settle = OptionTable.settle
    monkeypatch.setattr(OptionTable, "settle", lambda self, *args, **kwargs: _Recorded(settle(self, *args, **kwargs)))
    monkeypatch.setattr(_Recorded, "read", set())

    def view(game: Any, state: Any) -> None:
        game.public(state)
        for player in state.get("players", ()):
            game.private(state, player)

    for scenario, players in set_ups(game):
        for seed in range(game_count(1)):
            play(game, players, seed, scenario, check=view)
    assert _Recorded.read <= set(table.names), f"read but not declared: {sorted(_Recorded.read - set(table.names))}"
    assert set(table.names) <= _Recorded.read, f"declared but never read: {sorted(set(table.names) - _Recorded.read)}"


@pytest.mark.parametrize("game_name", game_names())
def test_every_registered_games_declaration_holds_against_the_schema(game_name: str) -> None:
    """A game's options.toml, and a declaration made in code (the referee's toy game), read as the
    declaration document would: run time checks neither, the tests check both."""
    table = options_of(find_game(game_name))
    doc = {"format": "pbem-game-options/1",
           "option": [{k: v for k, v in entry.items() if v is not None} for entry in table.to_json()]}
    assert parse_option_table(game_name, doc, "the test").options == table.options

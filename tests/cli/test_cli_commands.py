"""The ``pbem`` commands through Typer's CliRunner: output, JSON schemas, exit codes."""

from __future__ import annotations

import importlib
import json
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from helpers_cli import keygen, new_game, pbem
from helpers_referee import TEST_SEED, snapshot, validate_directory  # registers the toy game
from typer.core import TyperGroup
from typer.main import get_command

from pbem.cli.main import app
from pbem.referee import formats

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def game(tmp_path: Path) -> Path:
    new_game(tmp_path / "game", keygen(tmp_path / "keys"))
    return tmp_path / "game"


def keys_of(game: Path) -> Path:
    return game.parent / "keys"


def as_json(output: str, fmt: str) -> dict:
    doc = json.loads(output)
    assert formats.format_problem(doc, fmt) is None, formats.format_problem(doc, fmt)
    return doc


def move(game: Path, player: str, *choices: str, code: int = 0) -> Path:
    out = game.parent / f"{player}-move.json"
    args = ["move", game, "--as", player, "--key", keys_of(game) / f"{player}.key", "--out", out]
    for choice in choices:
        args += ["--choose", choice]
    pbem(*args, code=code)
    return out


def submit(game: Path, *files: Path, code: int = 0, json_out: bool = False) -> str:
    extra = ["--json"] if json_out else []
    return pbem("submit", game, *files, "--referee-key", keys_of(game) / "referee.key", *extra, code=code)


def test_keygen_writes_a_private_key_only_its_owner_reads(tmp_path: Path) -> None:
    output = pbem("keygen", "carol", "--out", tmp_path)
    assert re.search(r"fingerprint: pbem:\w+", output)
    assert stat.S_IMODE((tmp_path / "carol.key").stat().st_mode) == 0o600
    assert json.loads((tmp_path / "carol.pub").read_text())["name"] == "carol"
    assert "exists" in pbem("keygen", "carol", "--out", tmp_path, code=6)


def test_new_records_a_test_seed_and_deals_turn_0(game: Path) -> None:
    toml = (game / "game.toml").read_text()
    assert "test_seed = true" in toml and TEST_SEED.hex() in toml
    validate_directory(game)


def test_new_without_a_seed_publishes_only_the_commitment(tmp_path: Path, game: Path) -> None:
    keys = keys_of(game)
    pbem("new", tmp_path / "g2", "--game", "highcard", "--player", f"alice={keys / 'alice.pub'}",
         "--player", f"bob={keys / 'bob.pub'}", "--referee-key", keys / "referee.key")
    toml = (tmp_path / "g2" / "game.toml").read_text()
    assert "commitment" in toml and "seed =" not in toml and "test_seed" not in toml


def test_new_refuses_a_bad_set_up(tmp_path: Path, game: Path) -> None:
    keys = keys_of(game)
    alice = f"alice={keys / 'alice.pub'}"
    base = ["--referee-key", keys / "referee.key"]
    assert "seats 2-4" in pbem("new", tmp_path / "a", "--game", "highcard", "--player", alice, *base, code=6)
    assert "unknown game" in pbem("new", tmp_path / "b", "--game", "chess", "--player", alice, *base, code=6)
    assert "not empty" in pbem("new", game, "--game", "highcard", "--player", alice,
                               "--player", f"bob={keys / 'bob.pub'}", *base, code=6)
    assert "no scenario 'short'" in pbem("new", tmp_path / "e", "--game", "highcard", "--player", alice,
                                        "--player", f"bob={keys / 'bob.pub'}", "--scenario", "short", *base, code=6)
    assert "highcard has no option 'speed'; its options: rounds" in pbem("new", tmp_path / "c", "--game", "highcard", "--player", alice,
                                       "--player", f"bob={keys / 'bob.pub'}", "--option", "speed=3", *base, code=6)
    assert "belongs to 'bob'" in pbem("new", tmp_path / "d", "--game", "highcard", "--player", f"alice={keys / 'bob.pub'}",
                                       "--player", f"bob={keys / 'bob.pub'}", *base, code=7)


def test_new_takes_scenario_options_and_a_card_file(tmp_path: Path, game: Path) -> None:
    keys = keys_of(game)
    cards = tmp_path / "cards.toml"
    cards.write_text("cards = [1, 2, 3, 4, 5, 6, 7, 8]\n")
    pbem("new", tmp_path / "g", "--game", "highcard", "--player", f"alice={keys / 'alice.pub'}",
         "--player", f"bob={keys / 'bob.pub'}", "--referee-key", keys / "referee.key",
         "--scenario", "long", "--option", "rounds=1", "--cards", cards)
    toml = (tmp_path / "g" / "game.toml").read_text()
    assert "rounds = 1" in toml and 'file = "cards.toml"' in toml and 'scenario = "long"' in toml
    status = as_json(pbem("status", tmp_path / "g", "--json"), formats.CLI_STATUS)
    assert status["awaiting"] == ["alice", "bob"]


def test_status_lists_the_awaited_players_and_kind(game: Path) -> None:
    doc = as_json(pbem("status", game, "--json"), formats.CLI_STATUS)
    assert doc["turn"] == 0 and doc["awaiting"] == ["alice", "bob"] and doc["result"] is None
    assert doc["decisions"][0] == {"player": "alice", "kind": "play", "since": 0}
    assert "awaiting: alice (play, since turn 0), bob (play, since turn 0)" in pbem("status", game)


def test_view_shows_the_hand_and_numbered_options(game: Path) -> None:
    key = keys_of(game) / "alice.key"
    text = pbem("view", game, "--as", "alice", "--key", key)
    doc = as_json(pbem("view", game, "--as", "alice", "--key", key, "--json"), formats.CLI_VIEW)
    assert doc["awaited"] and doc["kind"] == "play"
    assert [set(o) for o in doc["options"]] == [{"id", "label"}] * 2
    assert f"your hand: {', '.join(doc['cards'][str(c)]['name'] for c in doc['private']['hand'])}" in text
    assert doc["public"]["hand_sizes"] == {"alice": 2, "bob": 2} and "hand" not in doc["public"]
    assert f" 1. {doc['options'][0]['label']}  [{doc['options'][0]['id']}]" in text


def test_view_with_someone_elses_key_is_refused(game: Path) -> None:
    assert "belongs to 'bob'" in pbem("view", game, "--as", "alice", "--key", keys_of(game) / "bob.key", code=7)
    pbem("keygen", "alice", "--out", game.parent / "impostor")
    assert "is not alice's key" in pbem("view", game, "--as", "alice", "--key",
                                        game.parent / "impostor" / "alice.key", code=4)


def test_move_refuses_locally_an_id_that_is_not_an_option(game: Path) -> None:
    output = pbem("move", game, "--as", "alice", "--key", keys_of(game) / "alice.key", "--choose", "card-99",
                  "--out", game.parent / "m.json", code=18)
    assert "not among the options" in output and not (game.parent / "m.json").exists()


def test_a_move_by_number_is_applied_by_submit(game: Path) -> None:
    before = snapshot(game)
    doc = as_json(submit(game, move(game, "alice", "1"), json_out=True), formats.CLI_SUBMIT)
    assert doc["exit_code"] == 0 and doc["results"][0]["status"] == "applied" and doc["turn"] == 1
    assert doc["awaiting"] == ["bob"]
    assert snapshot(game) != before
    validate_directory(game)


def test_submit_reports_a_refusal_with_its_exit_code_and_notice(game: Path) -> None:
    bad = game.parent / "bad.json"
    bad.write_text("{")
    before = snapshot(game)
    doc = as_json(submit(game, bad, code=10, json_out=True), formats.CLI_SUBMIT)
    (result,) = doc["results"]
    assert result["reason"] == "unreadable" and Path(result["rejection"]).exists()
    assert snapshot(game) == before
    assert "unreadable" in submit(game, bad, code=10)


def test_submitting_twice_says_already_applied(game: Path) -> None:
    path = move(game, "alice", "1")
    submit(game, path)
    before = snapshot(game, skip=())
    assert "already applied" in submit(game, path, code=19)
    assert snapshot(game, skip=()) == before


def test_several_files_apply_in_order_and_the_first_failure_sets_the_code(game: Path) -> None:
    alice, bob = move(game, "alice", "1"), move(game, "bob", "2")
    doc = as_json(submit(game, alice, bob, alice, json_out=True, code=19), formats.CLI_SUBMIT)
    assert [r["status"] for r in doc["results"]] == ["applied", "applied", "already-applied"]
    assert doc["turn"] == 2


def test_orders_from_the_command_line(game: Path) -> None:
    out = game.parent / "orders.json"
    pbem("move", game, "--as", "bob", "--key", keys_of(game) / "bob.key", "--auto-pass", "draw=always",
         "--order", "play=label=*x*, pass", "--choose", "1", "--out", out)
    submit(game, out)
    doc = as_json(pbem("view", game, "--as", "bob", "--key", keys_of(game) / "bob.key", "--json"), formats.CLI_VIEW)
    assert doc["standing_orders"] == {"orders": {"draw": {"fallback": "pass"},
                                                 "play": {"fallback": "pass", "rules": [{"choose": {"label": "*x*"}}]}}}
    screen = pbem("view", game, "--as", "bob", "--key", keys_of(game) / "bob.key")
    assert "your orders, which answer these decisions for you" in screen
    assert "  draw: pass" in screen and "  play: label=*x*, pass" in screen
    assert "your orders" not in pbem("view", game, "--as", "alice", "--key", keys_of(game) / "alice.key")
    key = keys_of(game) / "bob.key"
    assert "MODE must be" in pbem("move", game, "--as", "bob", "--key", key, "--auto-pass", "draw=sometimes", code=2)
    assert "no option test 'colour'" in pbem("move", game, "--as", "bob", "--key", key, "--order", "draw=colour=red",
                                             code=2)
    assert "no decision kind 'bogus'" in pbem("move", game, "--as", "bob", "--key", key, "--order", "bogus=pass",
                                              code=2)


def test_verify_and_log(game: Path) -> None:
    submit(game, move(game, "alice", "1"))
    doc = as_json(pbem("verify", game, "--json"), formats.CLI_VERIFY)
    assert doc["ok"] and doc["turns"] == 2
    log = pbem("log", game)
    assert "turn 0: the deal" in log and "turn 1: move by alice" in log and "alice has picked" in log
    turn = game / "turns" / "000001.json"
    turn.write_text(turn.read_text().replace('"alice has picked"', '"alice has won"'))
    doc = as_json(pbem("verify", game, "--json", code=5), formats.CLI_VERIFY)
    assert not doc["ok"] and doc["error"]["path"] == str(turn)
    assert "bad signature" in pbem("log", game, code=3)


def test_commands_on_a_directory_that_is_not_a_game_fail_clearly(tmp_path: Path) -> None:
    assert "no game.toml" in pbem("status", tmp_path, code=3)


def test_demo_plays_the_toy_game_through_the_files(tmp_path: Path) -> None:
    output = pbem("demo", "highcard", "--players", "3", "--dir", tmp_path / "demo", "--seed", "0badc0de" * 8)
    assert "game over:" in output and "verified:" in output
    assert (tmp_path / "demo" / "keys" / "referee.key").exists()
    validate_directory(tmp_path / "demo" / "game")


def test_every_command_and_option_has_help() -> None:
    group = get_command(app)
    assert isinstance(group, TyperGroup)
    assert len(group.commands) >= 9
    for name, command in group.commands.items():
        assert command.help, f"pbem {name} has no help"
        for param in command.params:
            assert getattr(param, "help", None), f"pbem {name} {param.name} has no help"


def test_an_openssh_ed25519_key_can_play(tmp_path: Path, game: Path) -> None:
    """A player may use an existing OpenSSH ed25519 key; `age -d -i` opens their view with it."""
    ssh_keygen, age = shutil.which("ssh-keygen"), shutil.which("age")
    if ssh_keygen is None or age is None:
        pytest.fail("ssh-keygen and age are needed (apt-get install openssh-client age); .ci/run installs them")
    ssh_key = tmp_path / "id_ed25519"
    subprocess.run([ssh_keygen, "-q", "-t", "ed25519", "-N", "", "-C", "carol@laptop", "-f", str(ssh_key)], check=True)
    keys = keys_of(game)
    pbem("new", tmp_path / "g", "--game", "highcard", "--player", f"alice={keys / 'alice.pub'}",
         "--player", f"carol={ssh_key}.pub", "--referee-key", keys / "referee.key")
    g = tmp_path / "g"
    doc = as_json(pbem("view", g, "--as", "carol", "--key", ssh_key, "--json"), formats.CLI_VIEW)
    assert doc["awaited"]
    out = tmp_path / "carol-move.json"
    pbem("move", g, "--as", "carol", "--key", ssh_key, "--choose", doc["options"][0]["id"], "--out", out)
    submit(g, out)
    opened = subprocess.run([age, "-d", "-i", str(ssh_key), str(g / "views" / "carol" / "latest.age")],
                            capture_output=True, check=True)
    assert json.loads(opened.stdout)["private"]["my_pick"] == int(doc["options"][0]["id"].removeprefix("card-"))
    assert as_json(pbem("verify", g, "--json"), formats.CLI_VERIFY)["ok"]


def test_the_demo_plays_the_first_game_that_imports_by_default() -> None:
    from pbem.engine.registry import GAMES
    from pbem.referee import default_game

    installed = [n for n in GAMES if hasattr(importlib.import_module(GAMES[n]), "GAME")]
    assert default_game() == (installed[0] if installed else "highcard")


def test_an_unknown_format_version_is_refused_by_name(game: Path) -> None:
    toml = game / "game.toml"
    original = toml.read_text()
    toml.write_text(original.replace('format = "pbem-game/1"', 'format = "pbem-game/2"'))
    assert "unknown format version 'pbem-game/2': this pbem reads 'pbem-game/1'" in pbem("status", game, code=3)
    toml.write_text(original)
    turn = game / "turns" / "000000.json"
    turn.write_text(turn.read_text().replace('"pbem-turn/3"', '"pbem-turn/2"'))
    assert "unknown format version 'pbem-turn/2': this pbem reads 'pbem-turn/3'" in pbem("status", game, code=3)


def test_games_lists_the_known_games() -> None:
    assert "highcard: 2-4 players; scenarios: standard, long" in pbem("games")


def test_version_option_prints_the_package_version() -> None:
    from typer.testing import CliRunner

    from pbem import __version__
    from pbem.cli.main import app

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"pbem {__version__}"

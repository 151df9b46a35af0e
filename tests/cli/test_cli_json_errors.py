"""``--json`` on every failure: a ``pbem-cli-error/1`` document on stdout, the same exit code as without it.

Each test runs a failing command twice, with and without ``--json``: the codes
agree, the JSON form prints exactly one document (valid against
``schemas/cli-error.schema.json``) and nothing else, and the plain form says
the same thing on stderr.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_referee import TEST_SEED, snapshot  # registers the toy game
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.referee import formats
from pbem.referee.lock import locked

runner = CliRunner()


def run(*args) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def json_error(*args, code: int, reason: str) -> dict:
    """Run the command with and without --json; return the JSON error, checked."""
    plain_code, plain_out, plain_err = run(*args)
    assert plain_code == code, (plain_out, plain_err)
    assert plain_err.startswith("pbem:")
    json_code, out, err = run(*args, "--json")
    assert json_code == code, (out, err)
    assert err == ""
    doc = json.loads(out)
    assert formats.format_problem(doc, formats.CLI_ERROR) is None, formats.format_problem(doc, formats.CLI_ERROR)
    assert doc["code"] == code and doc["reason"] == reason
    return doc


@pytest.fixture
def game(tmp_path: Path) -> Path:
    keys = tmp_path / "keys"
    for name in ("referee", "alice", "bob"):
        assert run("keygen", name, "--out", keys)[0] == 0
    code, _out, err = run("new", tmp_path / "game", "--game", "highcard", "--player", f"alice={keys / 'alice.pub'}",
                         "--player", f"bob={keys / 'bob.pub'}", "--referee-key", keys / "referee.key",
                         "--seed", TEST_SEED.hex())
    assert code == 0, err
    return tmp_path / "game"


def keys_of(game: Path) -> Path:
    return game.parent / "keys"


def a_move(game: Path) -> Path:
    out = game.parent / "alice-move.json"
    code, _, err = run("move", game, "--as", "alice", "--key", keys_of(game) / "alice.key", "--choose", "1",
                       "--out", out)
    assert code == 0, err
    return out


def test_status_of_a_directory_that_is_not_a_game(tmp_path: Path) -> None:
    doc = json_error("status", tmp_path, code=3, reason="bad-game-directory")
    assert "no game.toml" in doc["message"]


def test_verify_of_a_directory_that_is_not_a_game(tmp_path: Path) -> None:
    # verify reports a bad file in its own pbem-cli-verify/1 (exit 5); no game.toml at all is that case too
    code, out, _ = run("verify", tmp_path / "nowhere", "--json")
    doc = json.loads(out)
    assert code == 5 and doc["format"] in (formats.CLI_VERIFY, formats.CLI_ERROR)
    assert formats.format_problem(doc, doc["format"]) is None


def test_view_with_a_key_that_is_not_the_players_is_a_wrong_key(game: Path) -> None:
    other = game.parent / "other"
    assert run("keygen", "alice", "--out", other)[0] == 0  # a second key called alice
    doc = json_error("view", game, "--as", "alice", "--key", other / "alice.key", code=4, reason="wrong-key")
    assert "is not alice's key" in doc["message"]


def test_view_with_an_unreadable_key_file(game: Path) -> None:
    missing = keys_of(game) / "nobody.key"
    doc = json_error("view", game, "--as", "alice", "--key", missing, code=7, reason="key-file")
    assert doc["file"] == str(missing)


def test_view_before_the_deal_is_not_your_decision(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    for name in ("referee", "alice", "bob"):
        run("keygen", name, "--out", keys)
    run("new", tmp_path / "game", "--game", "highcard", "--player", f"alice={keys / 'alice.pub'}",
        "--player", f"bob={keys / 'bob.pub'}", "--referee-key", keys / "referee.key", "--wait-for-joins")
    doc = json_error("view", tmp_path / "game", "--as", "alice", "--key", keys / "alice.key",
                     code=17, reason="not-your-decision")
    assert "not dealt yet" in doc["message"]


def test_submit_with_a_key_that_is_not_the_referees(game: Path) -> None:
    move = a_move(game)
    before = snapshot(game, skip=())
    doc = json_error("submit", game, move, "--referee-key", keys_of(game) / "alice.key", code=4, reason="wrong-key")
    assert doc["file"] == str(move) and "not the referee key" in doc["message"]
    assert snapshot(game, skip=()) == before


def test_submit_to_a_damaged_directory(game: Path) -> None:
    move = a_move(game)
    turn = game / "turns" / "000000.json"
    turn.write_text(turn.read_text().replace('"turn": 0', '"turn": 7'))
    doc = json_error("submit", game, move, "--referee-key", keys_of(game) / "referee.key",
                     code=3, reason="bad-game-directory")
    assert str(turn) in doc["message"]


def test_submit_while_another_referee_holds_the_lock(game: Path) -> None:
    move = a_move(game)
    before = snapshot(game, skip=())
    with locked(game / ".lock"):
        doc = json_error("submit", game, move, "--referee-key", keys_of(game) / "referee.key", "--wait", "0",
                         code=20, reason="lock-busy")
    assert doc["file"] == str(move) and "another referee" in doc["message"]
    assert snapshot(game, skip=()) == before


def test_submit_of_a_move_file_that_cannot_be_read(game: Path) -> None:
    missing = game.parent / "no-such-move.json"
    doc = json_error("submit", game, missing, "--referee-key", keys_of(game) / "referee.key",
                     code=1, reason="io-error")
    assert doc["file"] == str(missing)


def test_submit_without_the_referee_key_is_a_usage_error(game: Path) -> None:
    move = a_move(game)
    code, out, err = run("submit", game, move, "--json")
    assert code == 2 and err == ""
    doc = json.loads(out)
    assert formats.format_problem(doc, formats.CLI_ERROR) is None
    assert doc["reason"] == "usage" and "--referee-key" in doc["message"]
    assert run("submit", game, move)[0] == 2  # and the same code without --json


def test_a_move_refusal_stays_in_the_submit_document(game: Path) -> None:
    # a refused move is not a failure of the command: it is reported per file in pbem-cli-submit/1
    bad = game.parent / "bad.json"
    bad.write_text("{")
    code, out, _ = run("submit", game, bad, "--referee-key", keys_of(game) / "referee.key", "--json")
    doc = json.loads(out)
    assert code == 10 and doc["format"] == formats.CLI_SUBMIT and doc["results"][0]["reason"] == "unreadable"

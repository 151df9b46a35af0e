"""A ``--seed`` test game says so wherever it is shown, and its seed is 32 bytes.

A test game publishes its seed in ``game.toml``: anybody can read every
secret. ``status``, ``view``, ``log`` and ``verify`` say so (text, and a
``test_seed`` field in ``--json``), so that nobody plays one for real by
mistake; and ``--seed`` takes exactly 32 bytes (64 hex digits), like the
seed ``pbem new`` draws itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_referee import TEST_SEED, make_keys
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.referee import formats, new_game
from pbem.referee.errors import SetupError

runner = CliRunner()


def pbem(*args, code: int = 0):
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result


def new(tmp_path: Path, *seed: str, code: int = 0):
    keys = tmp_path / "keys"
    if not keys.exists():
        for name in ("referee", "alice", "bob"):
            pbem("keygen", name, "--out", keys)
    game = tmp_path / ("game-" + (seed[1][:6] if seed else "secret"))
    pbem("new", game, "--game", "highcard", "--player", f"alice={keys / 'alice.pub'}", "--player",
         f"bob={keys / 'bob.pub'}", "--referee-key", keys / "referee.key", *seed, code=code)
    return game, keys


def outputs(game: Path, keys: Path) -> dict[str, str]:
    view = ["view", game, "--as", "alice", "--key", keys / "alice.key"]
    return {"status": pbem("status", game).output, "view": pbem(*view).output, "log": pbem("log", game).output,
            "verify": pbem("verify", game).output}


def json_outputs(game: Path, keys: Path) -> dict[str, dict]:
    found = {
        "status": json.loads(pbem("status", game, "--json").output),
        "view": json.loads(pbem("view", game, "--as", "alice", "--key", keys / "alice.key", "--json").output),
        "verify": json.loads(pbem("verify", game, "--json").output),
    }
    for doc in found.values():
        assert formats.format_problem(doc, doc["format"]) is None, formats.format_problem(doc, doc["format"])
    return found


def test_a_test_game_says_so_in_status_view_log_and_verify(tmp_path: Path) -> None:
    game, keys = new(tmp_path, "--seed", TEST_SEED.hex())
    for command, text in outputs(game, keys).items():
        assert "TEST GAME" in text, command
    assert all(doc["test_seed"] is True for doc in json_outputs(game, keys).values())


def test_a_game_with_a_secret_seed_is_not_marked(tmp_path: Path) -> None:
    game, keys = new(tmp_path)
    for command, text in outputs(game, keys).items():
        assert "TEST GAME" not in text, command
    assert all(doc["test_seed"] is False for doc in json_outputs(game, keys).values())


@pytest.mark.parametrize("seed", ["00112233445566778899aabbccddeeff", "ab", "00" * 33, "zz" * 32])
def test_a_seed_that_is_not_64_hex_digits_is_a_usage_error(tmp_path: Path, seed: str) -> None:
    result = pbem("new", tmp_path / "game", "--game", "highcard", "--player", "alice=x", "--referee-key", "x",
                  "--seed", seed, code=2)
    assert "64 hex digits" in result.output and not (tmp_path / "game").exists()
    assert "64 hex digits" in pbem("demo", "highcard", "--dir", tmp_path / "demo", "--seed", seed, code=2).output


def test_the_library_refuses_a_seed_of_another_length(tmp_path: Path) -> None:
    keys, _ = make_keys(tmp_path / "keys", ["referee", "alice", "bob"])
    with pytest.raises(SetupError, match="32 bytes"):
        new_game(tmp_path / "game", "highcard", [(p, keys[p].public) for p in ("alice", "bob")], keys["referee"],
                 seed=b"\x01" * 16)

"""Helpers for the tests that run ``pbem`` commands through Typer's CliRunner."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from helpers_referee import TEST_SEED  # registers the toy game
from pbem.cli.main import app

runner = CliRunner()


def pbem(*args: object, code: int = 0, env: dict[str, str] | None = None) -> str:
    """Run ``pbem ARGS``; check its exit code; its output (stdout and stderr)."""
    result = runner.invoke(app, [str(a) for a in args], env=env)
    assert result.exit_code == code, (result.output, result.exception)
    return result.output


def new_cli_game(tmp_path: Path, *options: object) -> tuple[Path, str]:
    """Keys for referee, alice and bob in ``tmp_path/keys``; a toy test game in ``tmp_path/game`` made by
    ``pbem new`` with ``options`` besides. Returns the game directory and what ``pbem new`` printed."""
    keys = tmp_path / "keys"
    for name in ("referee", "alice", "bob"):
        pbem("keygen", name, "--out", keys)
    out = pbem("new", tmp_path / "game", "--game", "highcard", "--player", f"alice={keys / 'alice.pub'}",
               "--player", f"bob={keys / 'bob.pub'}", "--referee-key", keys / "referee.key", "--seed", TEST_SEED.hex(),
               *options)
    return tmp_path / "game", out

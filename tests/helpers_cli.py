"""Helpers for the command-line tests: run ``pbem`` in-process, make the keys and a toy game."""

from __future__ import annotations

from pathlib import Path

from helpers_referee import TEST_SEED  # registers the toy game
from typer.testing import CliRunner

from pbem.cli.main import app

runner = CliRunner()


def pbem(*args: object, code: int = 0, env: dict[str, str] | None = None) -> str:
    """Run ``pbem ARGS`` through Typer's runner (with ``env`` added to the environment); check the exit
    code; return what it printed (stdout and stderr)."""
    result = runner.invoke(app, [str(a) for a in args], env=env)
    assert result.exit_code == code, (result.output, result.exception)
    return result.output


def keygen(where: Path, names: tuple[str, ...] = ("referee", "alice", "bob")) -> Path:
    """``pbem keygen`` for each name into ``where``; returns ``where``."""
    for name in names:
        pbem("keygen", name, "--out", where)
    return where


def new_game(directory: Path, keys: Path, game: str = "highcard", *extra: object, code: int = 0,
             seed: bool = True) -> str:
    """``pbem new`` with alice and bob (a ``--seed`` test game unless ``seed=False``); returns the output."""
    test_seed = ("--seed", TEST_SEED.hex()) if seed else ()
    return pbem("new", directory, "--game", game, "--player", f"alice={keys / 'alice.pub'}",
                "--player", f"bob={keys / 'bob.pub'}", "--referee-key", keys / "referee.key", *test_seed, *extra,
                code=code)

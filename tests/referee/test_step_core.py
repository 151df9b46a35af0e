"""The step core (:mod:`pbem.referee.core`) touches no file: the shell reads and writes, the core decides.

The core imports none of the modules that know the game directory or read and write its files, its own code
names no file function, and a whole step through it (the move read, its choices applied, the next turn made)
opens, lists and writes nothing. What it asks of the record (an abandoned game, a fresh base) it asks of the
:class:`~pbem.referee.core.Chain` it is given.
"""

from __future__ import annotations

import ast
import builtins
import io
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from helpers_imports import PACKAGE, import_graph, imported_by
from helpers_referee import make_table

from pbem.crypto.canonical import sha256_ref
from pbem.referee import core, submit
from pbem.referee.errors import GameOverMove, StaleMove
from pbem.referee.pipeline import open_game

#: the referee's modules that know the game directory's layout, or read or write its files (and the shell);
#: every other module of the referee that does builds on these
GAME_DIRECTORY_MODULES = ("pbem.referee.layout", "pbem.referee.storage", "pbem.referee.records",
                          "pbem.referee.lock", "pbem.referee.gamefile", "pbem.referee.pipeline",
                          "pbem.referee.turns", "pbem.referee.reveal")
#: names whose use in the core's own code would reach a file
FILE_NAMES = {"open", "os", "io", "pathlib", "Path", "shutil", "tempfile", "read_file", "write_file"}
#: the functions every file access goes through: each is made to fail while the core runs
FILE_FUNCTIONS = [(builtins, "open"), (io, "open"), (os, "open"), (os, "stat"), (os, "lstat"), (os, "scandir"),
                  (os, "listdir"), (os, "replace"), (os, "rename"), (os, "unlink"), (os, "mkdir"), (os, "fsync")]

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def test_the_core_imports_no_module_of_the_game_directory() -> None:
    imported = imported_by(import_graph(PACKAGE), "pbem.referee.core")
    assert not [name for name in GAME_DIRECTORY_MODULES if name in imported]


def test_the_cores_own_code_names_no_file_function() -> None:
    tree = ast.parse((PACKAGE / "referee" / "core.py").read_text(encoding="utf-8"))
    named = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)
                for alias in node.names} | {node.module.split(".")[0] for node in ast.walk(tree)
                                            if isinstance(node, ast.ImportFrom) and node.module}
    assert not (named | imported) & FILE_NAMES


class Facts(core.Chain):
    """A chain that answers from facts the caller found beforehand."""

    def __init__(self, abandoned: bool = False, fresh: bool = True) -> None:
        self._abandoned, self._fresh = abandoned, fresh

    def abandoned(self) -> bool:
        return self._abandoned

    def check_fresh(self, move: core.MoveFile, since: int) -> None:
        if not self._fresh:
            raise StaleMove("not fresh")


def no_file_access(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on every file function fails, and says so in the list returned."""
    touched: list[str] = []
    for module, name in FILE_FUNCTIONS:
        def refuse(*args: Any, _name: str = f"{module.__name__}.{name}", **kwargs: Any) -> Any:
            touched.append(_name)
            raise AssertionError(f"the core called {_name}")

        monkeypatch.setattr(module, name, refuse)
    return touched


@pytest.mark.parametrize("deadlines", [[], ["1h"]], ids=["without deadlines", "with deadlines"])
def test_a_step_through_the_core_opens_lists_and_writes_no_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deadlines: list[str]) -> None:
    table = make_table(tmp_path, players=("alice", "bob", "carol"), deadlines=deadlines, now=T0)
    moment = T0 + timedelta(minutes=5)
    submit(table.dir, table.move("alice", table.view("alice").decision.options[0].id), table.referee, now=moment)
    data = table.move("bob", table.view("bob").decision.options[0].id)
    ctx = open_game(table.dir, table.referee)  # the shell's part: reading and checking the game directory
    step_clock = ctx.step_clock(moment)
    file_hash = sha256_ref(data)
    touched = no_file_access(monkeypatch)
    try:
        move = core.checked_move(data, core.parse_move(data), file_hash)
        played = core.play_move(ctx.game, ctx.gamefile, ctx.position, ctx.since_before, move, Facts())
        turn = core.next_turn(ctx.game, ctx.gamefile, played, ctx.current.hash, move.hash, move.player, ctx.static,
                              move_file=move.file_hash, clock=step_clock)
    except AssertionError:
        pass  # what it touched is in the list
    finally:
        monkeypatch.undo()
    assert touched == []
    assert turn["turn"] == 2 and turn["mover"] == "bob" and turn["move_file"] == file_hash
    assert ("time" in turn) == bool(deadlines)


def test_the_core_asks_the_chain_whether_the_game_was_abandoned_and_whether_the_base_is_fresh(
        tmp_path: Path) -> None:
    table = make_table(tmp_path)
    data = table.move("alice", table.view("alice").decision.options[0].id)
    ctx = open_game(table.dir, table.referee)
    move = core.checked_move(data, core.parse_move(data), sha256_ref(data))
    with pytest.raises(GameOverMove, match="abandoned"):
        core.play_move(ctx.game, ctx.gamefile, ctx.position, ctx.since_before, move, Facts(abandoned=True))
    with pytest.raises(StaleMove, match="not fresh"):
        core.play_move(ctx.game, ctx.gamefile, ctx.position, ctx.since_before, move, Facts(fresh=False))

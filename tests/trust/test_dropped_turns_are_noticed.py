"""Dropping the newest turns, or rewriting them, does not go unnoticed by a player.

The hash chain proves nothing was changed inside it, but a shorter chain
verifies just as well: whoever hosts the game directory can drop the newest
turns (and the moves that made them) and ``verify`` passes. Only someone who
remembers a later turn can tell. ``pbem view`` keeps, per game and player,
the latest turn it showed and that turn's hash, in a small file on the
player's machine (``--state-dir`` / ``PBEM_STATE_DIR``, by default
``$XDG_STATE_HOME/pbem`` or ``~/.local/state/pbem``), and warns loudly — on
stderr and in ``--json`` (``history_warning``) — when the current chain no
longer holds that turn with that hash.
"""

from __future__ import annotations

import json
import shutil
import stat
from pathlib import Path

import pytest
from helpers_referee import make_table, snapshot
from helpers_trust import hostile_game_toml, play
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.referee import Refusal, formats, submit, verify

runner = CliRunner()


def view(table, player: str, state: Path, *extra: str):
    return runner.invoke(app, ["view", str(table.dir), "--as", player, "--key", str(table.key_files[player]),
                               "--state-dir", str(state), *extra])


def drop_newest_turns(table, keep: int) -> None:
    """What a hostile referee does: delete every turn after ``keep`` and the moves that made them.

    Its next run rewrites the views from the turn that is now the latest
    (here a refused file triggers that run).
    """
    for path in [*(table.dir / "turns").iterdir(), *(table.dir / "moves").iterdir()]:
        if int(path.name[:6]) > keep:
            path.unlink()
    with pytest.raises(Refusal):
        submit(table.dir, b"{}", table.referee)


def test_view_warns_loudly_when_the_turns_it_showed_were_dropped(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    state = tmp_path / "state"
    play(table, steps=3)
    seen = view(table, "alice", state)
    assert seen.exit_code == 0 and "WARNING" not in seen.stderr
    drop_newest_turns(table, keep=1)
    assert verify(table.dir).turns == 2  # the shorter chain verifies
    warned = view(table, "alice", state)
    assert warned.exit_code == 0
    assert "WARNING" in warned.stderr and "turn 3" in warned.stderr and "dropped" in warned.stderr
    doc = json.loads(view(table, "alice", state, "--json").stdout)
    assert formats.format_problem(doc, formats.CLI_VIEW) is None
    assert doc["history_warning"]["turn"] == 3 and "dropped" in doc["history_warning"]["message"]


def test_view_warns_when_a_turn_it_showed_was_rewritten(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    state = tmp_path / "state"
    play(table, steps=1)
    fork = tmp_path / "fork"
    shutil.copytree(table.dir, fork)
    play(table, steps=2, seed="one way")
    assert view(table, "bob", state).exit_code == 0
    table.dir, original = fork, table.dir
    play(table, steps=2, seed="another way")
    assert (fork / "turns" / "000003.json").read_bytes() != (original / "turns" / "000003.json").read_bytes()
    warned = view(table, "bob", state, "--json")
    assert "rewritten" in json.loads(warned.stdout)["history_warning"]["message"]


def test_the_record_moves_on_with_the_game_and_is_private(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    state = tmp_path / "state"
    assert json.loads(view(table, "alice", state, "--json").stdout)["history_warning"] is None
    play(table, steps=2)
    assert json.loads(view(table, "alice", state, "--json").stdout)["history_warning"] is None
    records = [p for p in state.rglob("*") if p.is_file()]
    assert len(records) == 1 and stat.S_IMODE(records[0].stat().st_mode) == 0o600
    record = json.loads(records[0].read_text())
    assert record["turn"] == 2 and record["player"] == "alice"
    before = snapshot(table.dir, skip=())
    view(table, "alice", state)
    assert snapshot(table.dir, skip=()) == before  # the record lives with the player, never in the game


def test_the_state_directory_comes_from_the_environment(tmp_path: Path, monkeypatch) -> None:
    table = make_table(tmp_path)
    monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path / "from-env"))
    result = runner.invoke(app, ["view", str(table.dir), "--as", "alice", "--key", str(table.key_files["alice"])])
    assert result.exit_code == 0 and list((tmp_path / "from-env").rglob("*.json"))
    monkeypatch.delenv("PBEM_STATE_DIR")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert runner.invoke(app, ["view", str(table.dir), "--as", "alice", "--key",
                               str(table.key_files["alice"])]).exit_code == 0
    assert list((tmp_path / "xdg" / "pbem").rglob("*.json"))


def test_a_game_id_that_is_a_path_never_puts_the_record_outside_the_state_directory(tmp_path: Path) -> None:
    """The record's file is named after the game id, which game.toml gives: a hostile game directory
    must not have `pbem view` write (or make folders) anywhere else on the player's machine."""
    table = make_table(tmp_path / "t")
    hostile_game_toml(table, game_id="../../../escaped")
    state = tmp_path / "a" / "state"
    result = view(table, "alice", state)
    assert not list(tmp_path.glob("**/escaped*")), result.output
    assert result.exit_code == 3 and "game_id" in result.output, (result.exit_code, result.output)

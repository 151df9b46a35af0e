"""The record of the turns a player was shown keeps its meaning in a copy with gaps.

A copy fed by mail lacks the turns of a mail that did not arrive, so the
chain from the turn shown now back to one shown before may cross a gap.
``pbem view`` then neither warns (a gap is no sign of tampering) nor forgets
the turn shown before: it says it cannot check it yet, and checks it once
the copy holds the turns between; a history rewritten or dropped across the
gap is caught then, or at once when the copy's own files show it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from helpers_referee import Table, make_table
from helpers_trust import play
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.referee import formats

runner = CliRunner()


def unpack(table, copy: Path, *numbers: int, source: Path | None = None) -> None:
    """File turns of ``source`` (default: the table's directory) into ``copy`` as pbem mail unpack does."""
    source = source or table.dir
    files = [source / "game.toml", *(source / "turns" / f"{n:06d}.json" for n in numbers)]
    result = runner.invoke(app, ["mail", "unpack", *map(str, files), "--into", str(copy)])
    assert result.exit_code == 0, result.output


def view(table, copy: Path, state: Path, player: str = "alice") -> dict:
    result = runner.invoke(app, ["view", str(copy), "--as", player, "--key", str(table.key_files[player]),
                                 "--state-dir", str(state), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert formats.format_problem(doc, formats.CLI_VIEW) is None
    return doc


def view_text(table, copy: Path, state: Path, player: str = "alice"):
    return runner.invoke(app, ["view", str(copy), "--as", player, "--key", str(table.key_files[player]),
                               "--state-dir", str(state)])


def test_a_gap_is_no_warning_and_the_turn_shown_before_it_is_checked_once_the_gap_is_filled(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    play(table, steps=6)
    copy, state = tmp_path / "copy", tmp_path / "state"
    unpack(table, copy, 0, 1, 2)
    assert view(table, copy, state)["history_unchecked"] == []
    unpack(table, copy, 5, 6)  # the mail with turns 3 and 4 did not arrive
    seen = view(table, copy, state)
    assert seen["turn"] == 6 and seen["history_warning"] is None
    assert [(u["turn"], u["missing"]) for u in seen["history_unchecked"]] == [(2, [3, 4])]
    assert seen["copy"]["missing_turns"] == [[3, 4]]
    text = view_text(table, copy, state)
    assert "cannot be checked against this one yet: your copy lacks turns 3-4" in " ".join(text.stderr.split())
    unpack(table, copy, 3, 4)  # the referee's answer to a request
    seen = view(table, copy, state)
    assert seen["history_warning"] is None and seen["history_unchecked"] == []


def two_histories(tmp_path: Path, steps: int) -> tuple[Table, Path]:
    """A game that forks after turn 2: the table goes on one way for 4 steps, the fork (a directory the same
    referee signed) another way for ``steps``."""
    table = make_table(tmp_path)
    play(table, steps=2)
    fork = tmp_path / "fork"
    shutil.copytree(table.dir, fork)
    play(table, steps=4, seed="one way")
    play(Table(dir=fork, keys=table.keys, key_files=table.key_files), steps=steps, seed="another way")
    return table, fork


def test_a_gap_filled_with_another_history_is_caught(tmp_path: Path) -> None:
    table, fork = two_histories(tmp_path, steps=4)
    assert (fork / "turns" / "000003.json").read_bytes() != (table.dir / "turns" / "000003.json").read_bytes()
    copy, state = tmp_path / "copy", tmp_path / "state"
    unpack(table, copy, 0, 1, 2, 3)
    view(table, copy, state)
    unpack(table, copy, 6)
    assert view(table, copy, state)["history_unchecked"][0]["turn"] == 3
    # pbem mail unpack refuses turns that do not chain to the ones next to them, so only someone who
    # writes the copy's files can fill the gap with the other history
    for number in (4, 5):
        shutil.copy(fork / "turns" / f"{number:06d}.json", copy / "turns" / f"{number:06d}.json")
    warned = view_text(table, copy, state)
    # the turn shown before is named, and the copy, whose chain is broken, is refused as damaged
    assert "WARNING: you were shown turn 3" in warned.stderr and "rewritten" in warned.stderr
    assert warned.exit_code == 3


def test_a_turn_shown_before_a_gap_and_replaced_is_caught_at_once(tmp_path: Path) -> None:
    table, fork = two_histories(tmp_path, steps=1)
    copy, state = tmp_path / "copy", tmp_path / "state"
    unpack(table, copy, 0, 1, 2, 3)
    view(table, copy, state)
    unpack(table, copy, 6)
    view(table, copy, state)
    shutil.copy(fork / "turns" / "000003.json", copy / "turns" / "000003.json")
    warned = view(table, copy, state)
    assert warned["history_warning"]["turn"] == 3 and "another hash" in warned["history_warning"]["message"]


def test_the_latest_turn_shown_dropped_from_a_copy_is_caught(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    play(table, steps=4)
    copy, state = tmp_path / "copy", tmp_path / "state"
    unpack(table, copy, 0, 1, 4)
    view(table, copy, state)
    (copy / "turns" / "000004.json").unlink()
    warned = view(table, copy, state)
    assert warned["history_warning"]["turn"] == 4 and "dropped" in warned["history_warning"]["message"]


def test_in_the_referees_own_directory_a_turn_missing_is_a_warning_not_a_gap(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    play(table, steps=2)
    state = tmp_path / "state"
    view(table, table.dir, state)
    play(table, steps=2)
    (table.dir / "turns" / "000003.json").unlink()
    warned = view_text(table, table.dir, state)
    assert "WARNING: you were shown turn 2" in warned.stderr and "000003.json: missing" in warned.stderr
    assert "cannot be checked" not in warned.stderr and warned.exit_code == 3


def test_a_record_written_by_an_older_pbem_is_read_and_moved_on(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    state = tmp_path / "state"
    first = view(table, table.dir, state)
    [record] = (state / "seen").iterdir()
    old = {"format": "pbem-seen/1", "game_id": first["game_id"], "player": "alice", "turn": 0,
           "turn_hash": json.loads(record.read_text())["turn_hash"]}
    record.write_text(json.dumps(old))
    play(table, steps=2)
    assert view(table, table.dir, state)["history_warning"] is None
    assert json.loads(record.read_text())["format"] == formats.SEEN and json.loads(record.read_text())["turn"] == 2

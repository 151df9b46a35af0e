"""A step that dies half-way leaves a directory the next step repairs.

The turn file's rename is the commit point: before it, the step did not
happen (its move file is removed); after it, the step happened (stale views
are rewritten from the turn).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_referee import Table, make_table, snapshot, validate_directory

import pbem.referee.turns as turns
from pbem.referee import status, submit, verify
from pbem.referee.errors import VerificationFailed


class Crash(Exception):
    pass


def crash_when(monkeypatch: pytest.MonkeyPatch, predicate) -> None:
    real = turns.write_file

    def failing(gamedir, path: Path, data: bytes, *args, **kwargs) -> None:
        if predicate(path):
            raise Crash(str(path))
        real(gamedir, path, data, *args, **kwargs)

    monkeypatch.setattr(turns, "write_file", failing)


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return make_table(tmp_path)


def first_card(table: Table, player: str) -> bytes:
    return table.move(player, f"card-{table.view(player).private['hand'][0]}")


def test_a_crash_before_the_turn_is_written_leaves_the_game_at_the_old_turn(table: Table, monkeypatch) -> None:
    data = first_card(table, "alice")
    crash_when(monkeypatch, lambda p: p.parent.name == "turns")
    with pytest.raises(Crash):
        submit(table.dir, data, table.referee)
    monkeypatch.undo()
    assert status(table.dir).turn == 0
    assert (table.dir / "moves" / "000001-alice.json").exists()
    with pytest.raises(VerificationFailed, match="a move file with no turn"):
        verify(table.dir)
    step = submit(table.dir, data, table.referee)  # the same move, sent again, now applies
    assert step.turn == 1 and step.repaired == [str(table.dir / "moves" / "000001-alice.json")]
    verify(table.dir)
    validate_directory(table.dir, table.keys)


def test_a_crash_after_the_turn_is_written_keeps_the_step_and_repairs_the_views(table: Table, monkeypatch) -> None:
    data = first_card(table, "alice")
    crash_when(monkeypatch, lambda p: "views" in p.parts and p.parent.name == "bob")
    with pytest.raises(Crash):
        submit(table.dir, data, table.referee)
    monkeypatch.undo()
    assert status(table.dir).turn == 1 and table.view("bob").decision is not None
    with pytest.raises(VerificationFailed) as caught:
        verify(table.dir)
    assert "views/bob" in (caught.value.path or "")
    before = snapshot(table.dir)
    step = submit(table.dir, first_card(table, "bob"), table.referee)
    assert step.turn == 2 and str(table.dir / "views" / "bob" / "latest.json") in step.repaired
    assert snapshot(table.dir) != before
    verify(table.dir)
    validate_directory(table.dir, table.keys)


def test_resending_a_move_whose_step_committed_says_already_applied(table: Table, monkeypatch) -> None:
    data = first_card(table, "alice")
    crash_when(monkeypatch, lambda p: "views" in p.parts)
    with pytest.raises(Crash):
        submit(table.dir, data, table.referee)
    monkeypatch.undo()
    from pbem.referee.errors import AlreadyApplied

    with pytest.raises(AlreadyApplied):
        submit(table.dir, data, table.referee)
    verify(table.dir)  # the views were repaired on the way

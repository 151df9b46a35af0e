"""``verify`` names every file in ``moves/``, ``timeouts/`` and ``seats/`` that is no part of the record.

Each file in those folders produced one turn: a move file, a timeout record
or a seat record named ``NNNNNN-PLAYER.json`` after the turn it produced.
Turn 0 is the deal, which no file produced. So a file there that is not so
named, a folder, or a file naming turn 0 or a turn the chain does not hold
belongs to no step: someone put it there (a push to a shared branch, a
copy), and a copy holding it does not verify. Every such file is named, not
only the first, so that one look shows what to remove.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers_referee import Table, make_table

from pbem.referee import submit, verify
from pbem.referee.errors import VerificationFailed


@pytest.fixture
def played(tmp_path: Path) -> Table:
    """A toy game two moves in."""
    table = make_table(tmp_path)
    for _ in range(2):
        awaited = table.view("alice").turn.doc["awaiting"][0]["player"]
        submit(table.dir, table.move(awaited, table.view(awaited).decision.options[0].id), table.referee)
    assert verify(table.dir).turns == 3
    return table


def failure(table: Table) -> VerificationFailed:
    with pytest.raises(VerificationFailed) as caught:
        verify(table.dir)
    return caught.value


def a_move_file(table: Table) -> Path:
    return min((table.dir / "moves").glob("*.json"))


@pytest.mark.parametrize("folder", ["moves", "timeouts", "seats"])
def test_a_file_naming_turn_0_is_no_part_of_the_record(played: Table, folder: str) -> None:
    """Turn 0 is the deal: no move, timeout or seat record produced it."""
    stray = played.dir / folder / "000000-alice.json"
    stray.parent.mkdir(exist_ok=True)
    shutil.copyfile(a_move_file(played), stray)
    error = failure(played)
    assert error.path == str(stray)
    assert "no part of the record" in str(error) and "turn 0 is the deal" in str(error)


@pytest.mark.parametrize("name", ["notes.txt", "000001-alice.json.orig", "1-alice.json", "000001-Alice.json",
                                  "000001-alice.JSON", ".hidden.json"])
def test_a_file_not_named_after_the_turn_it_produced_is_no_part_of_the_record(played: Table, name: str) -> None:
    stray = played.dir / "moves" / name
    shutil.copyfile(a_move_file(played), stray)
    error = failure(played)
    assert error.path == str(stray)
    assert "no part of the record" in str(error)


def test_a_folder_among_the_move_files_is_no_part_of_the_record(played: Table) -> None:
    stray = played.dir / "moves" / "000001-alice.json.d"
    stray.mkdir()
    assert failure(played).path == str(stray)


def test_every_stray_file_is_named_at_once(played: Table) -> None:
    strays = [played.dir / "moves" / "000000-bob.json", played.dir / "moves" / "README",
              played.dir / "timeouts" / "000000-alice.json", played.dir / "seats" / "junk.json",
              played.dir / "moves" / "000007-alice.json"]
    for stray in strays:
        stray.parent.mkdir(exist_ok=True)
        shutil.copyfile(a_move_file(played), stray)
    message = str(failure(played))
    for stray in strays:
        assert str(stray) in message, (stray, message)
    assert "a move file with no turn 7" in message


def test_the_record_alone_verifies_again_once_the_strays_are_gone(played: Table) -> None:
    stray = played.dir / "timeouts" / "000000-bob.json"
    stray.parent.mkdir()
    shutil.copyfile(a_move_file(played), stray)
    failure(played)
    stray.unlink()
    assert verify(played.dir).turns == 3

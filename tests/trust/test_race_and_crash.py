"""Faults: rival referee processes on one game, and a referee killed between two writes of a step."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers_referee import holds_open, make_table
from helpers_trust import temp_files, toy_game_env

from pbem.engine import Rng
from pbem.referee import make_move, read_view, status, submit, verify
from pbem.referee.errors import AlreadyApplied
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.records import read_turn

HERE = Path(__file__).resolve().parent
#: files one toy-game step renames into place: move, turn, then json + age view per player
WRITES_PER_STEP = 6


def test_four_referee_processes_at_once_apply_exactly_one_move(tmp_path: Path) -> None:
    """Four rival moves of alice for the same decision, one referee process each, released together."""
    table = make_table(tmp_path)
    view = read_view(table.dir, "alice", table.keys["alice"])
    files = []
    for i in range(4):
        card = view.private["hand"][i % 2]
        path = tmp_path / f"rival-{i}.json"
        path.write_bytes(make_move(view, table.keys["alice"], [f"card-{card}"]))
        files.append(path)
    lock = (table.dir / ".lock").resolve()
    fd = os.open(lock, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        runs = [
            subprocess.Popen([sys.executable, "-m", "pbem", "submit", str(table.dir), str(path), "--referee-key",
                              str(table.key_files["referee"]), "--wait", "120"],
                             env=toy_game_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for path in files
        ]
        while not all(holds_open(run.pid, lock) for run in runs):
            assert all(run.poll() is None for run in runs), "a referee exited before reaching the lock"
    finally:
        os.close(fd)
    codes = sorted(run.wait() for run in runs)
    assert codes == [0, 16, 16, 16], [run.communicate()[1] for run in runs]
    assert len(list((table.dir / "moves").iterdir())) == 1 and status(table.dir).turn == 1
    assert not temp_files(table.dir)
    verify(table.dir, replay=True)


@pytest.mark.parametrize("when", ["before", "after"])
@pytest.mark.parametrize("write", range(1, WRITES_PER_STEP + 1))
def test_a_referee_killed_between_writes_leaves_the_old_turn_or_the_new_one(tmp_path: Path, write: int,
                                                                             when: str) -> None:
    table = make_table(tmp_path)
    view = read_view(table.dir, "alice", table.keys["alice"])
    assert view.decision is not None
    stream = Rng.from_seed("crash")
    move = tmp_path / "move.json"
    move.write_bytes(make_move(view, table.keys["alice"], [view.decision.options[0].id],
                               rng=lambda n: stream.token(n, "seal")))
    args = ["submit", str(table.dir), str(move), "--referee-key", str(table.key_files["referee"])]
    crashed = subprocess.run([sys.executable, str(HERE / "crashing_referee.py"), str(write), when, *args],
                             env=toy_game_env(), capture_output=True)
    assert crashed.returncode == 137, crashed.stderr.decode()

    # the game is at turn 0 or turn 1, each turn whole and signed: never in between
    now = status(table.dir).turn
    committed = write > 2 or (write == 2 and when == "after")
    assert now == (1 if committed else 0)
    gamefile = GameFile.read(table.dir / "game.toml")
    for number in GameDir.at(table.dir).turn_numbers():
        read_turn(GameDir.at(table.dir), gamefile, number)

    # the next referee run repairs what the crash left (temp files, a move with no turn, old views)
    if committed:
        with pytest.raises(AlreadyApplied):
            submit(table.dir, move.read_bytes(), table.referee)
    else:
        assert submit(table.dir, move.read_bytes(), table.referee).turn == 1
    assert not temp_files(table.dir)
    assert status(table.dir).turn == 1
    report = verify(table.dir, replay=True)
    assert report.turns == 2 and report.replayed

"""Two referees at once on one game directory: one applies, the other waits and refuses cleanly."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

from helpers_referee import holds_open, make_table

from pbem.referee import verify

TESTS = Path(__file__).resolve().parents[1]


def test_two_referee_processes_apply_exactly_one_of_two_rival_moves(tmp_path: Path) -> None:
    """alice sends two different picks for the same decision; two referee processes get one each.

    The test holds the lock until both processes are waiting on it, so both
    really run at once; without the lock both would read turn 0 and apply.
    """
    table = make_table(tmp_path)
    first, second = table.view("alice").private["hand"]
    files = []
    for card in (first, second):
        path = tmp_path / f"move-{card}.json"
        path.write_bytes(table.move("alice", f"card-{card}"))
        files.append(path)
    pythonpath = os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PBEM_GAMES": "toygame", "PYTHONPATH": pythonpath}
    lock = (table.dir / ".lock").resolve()
    fd = os.open(lock, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        runs = [
            subprocess.Popen(
                [sys.executable, "-m", "pbem", "submit", str(table.dir), str(path),
                 "--referee-key", str(table.key_files["referee"]), "--wait", "120"],
                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            )
            for path in files
        ]
        while not all(holds_open(run.pid, lock) for run in runs):
            assert all(run.poll() is None for run in runs), "a referee exited before reaching the lock"
    finally:
        os.close(fd)
    codes = sorted(run.wait() for run in runs)
    outputs = [run.communicate()[1].decode() for run in runs]
    assert codes == [0, 16], outputs  # one applied; the other is then stale against the new turn
    assert verify(table.dir).turns == 2
    assert len(list((table.dir / "moves").glob("*.json"))) == 1

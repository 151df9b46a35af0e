"""The real command line, in a real process: keygen, new, view, move, submit, status, verify, log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_a_game_through_the_real_command_line(tmp_path: Path) -> None:
    env = {**os.environ, "PBEM_GAMES": "toygame",
           "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}

    def pbem(*args: object, code: int = 0) -> str:
        done = subprocess.run([sys.executable, "-m", "pbem", *map(str, args)], env=env, cwd=tmp_path,
                              capture_output=True, text=True)
        assert done.returncode == code, done.stderr
        return done.stdout + done.stderr

    keys, game = tmp_path / "keys", tmp_path / "game"
    for name in ("referee", "alice", "bob"):
        assert "fingerprint: pbem:" in pbem("keygen", name, "--out", keys)
    pbem("new", game, "--game", "highcard", "--player", f"alice={keys / 'alice.pub'}",
         "--player", f"bob={keys / 'bob.pub'}", "--referee-key", keys / "referee.key")
    assert "your decision: play" in pbem("view", game, "--as", "alice", "--key", keys / "alice.key")
    for player in ("alice", "bob"):
        out = pbem("move", game, "--as", player, "--key", keys / f"{player}.key", "--choose", "1")
        move_file = tmp_path / out.split("move file written: ")[1].split(" ")[0]
        assert "applied" in pbem("submit", game, move_file, "--referee-key", keys / "referee.key")
    status = json.loads(pbem("status", game, "--json"))
    assert status["turn"] == 2 and status["awaiting"] == ["alice"]
    assert json.loads(pbem("verify", game, "--json"))["ok"]
    assert "turn 2: move by bob" in pbem("log", game)
    assert "already applied" in pbem("submit", game, move_file, "--referee-key", keys / "referee.key", code=19)

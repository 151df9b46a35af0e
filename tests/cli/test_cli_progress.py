"""``pbem demo`` and ``pbem verify --replay`` show their progress on a terminal, and only there.

A turn counter on stderr, rewritten in place, when stderr is a terminal;
nothing on stderr otherwise; stdout the same either way.
"""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
SEED = "ab" * 32


def run(args: list[str], cwd: Path, terminal: bool) -> tuple[str, str]:
    """Run pbem; return its stdout and its stderr (read from a terminal when ``terminal``)."""
    env = {**os.environ, "PBEM_GAMES": "toygame",
           "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "pbem", *args]
    if not terminal:
        done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout, done.stderr
    leader, follower = pty.openpty()
    process = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=follower)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        seen += chunk
    stdout = process.stdout.read().decode() if process.stdout else ""
    assert process.wait() == 0, seen
    os.close(leader)
    return stdout, seen.decode()


def first_words(text: str) -> list[str]:
    """The first word of each line of a demo's stdout (the rest differs between two games)."""
    return [line.split()[0] for line in text.splitlines()]


def test_demo_shows_a_turn_counter_on_a_terminal_and_the_same_stdout_elsewhere(tmp_path: Path) -> None:
    """Two demo games differ (each makes new keys, so new join nonces): their stdout has the same lines."""
    shown, counter = run(["demo", "highcard", "--dir", "first", "--seed", SEED], tmp_path, terminal=True)
    plain, quiet = run(["demo", "highcard", "--dir", "second", "--seed", SEED], tmp_path, terminal=False)
    assert "turn 1: " in counter and "replayed turn" in counter and "\r" in counter
    assert quiet == ""
    assert first_words(shown) == first_words(plain) and len(plain.splitlines()) == 7
    assert "\r" not in shown and "chose" not in shown


def test_verify_replay_shows_the_turns_replayed_on_a_terminal_only(tmp_path: Path) -> None:
    run(["demo", "highcard", "--dir", "d", "--seed", SEED], tmp_path, terminal=False)
    shown, counter = run(["verify", "d/game", "--replay"], tmp_path, terminal=True)
    plain, quiet = run(["verify", "d/game", "--replay"], tmp_path, terminal=False)
    assert "replayed turn 1 of" in counter and quiet == ""
    assert shown == plain and "replayed from the revealed seed" in plain

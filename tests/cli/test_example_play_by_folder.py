"""``examples/play-by-folder.sh``, which README names as the way to see a move cycle, runs as written.

The script calls ``pbem`` and ``python3`` from ``PATH``; here ``pbem`` is a
small script first on ``PATH`` that runs this interpreter's pbem (``python -m
pbem``), so that the example is run against the tree under test, not a pbem
installed elsewhere.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "play-by-folder.sh"


@pytest.mark.parametrize("game", ["nightfall", "nightlancer"])
def test_the_play_by_folder_example_plays_two_moves_and_verifies_the_game(tmp_path: Path, game: str) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "pbem"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pbem "$@"\n')
    shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "TMPDIR": str(tmp_path)}
    done = subprocess.run(["bash", str(EXAMPLE), game], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "bob's move applied: turn 2" in done.stdout
    assert re.search(r"^game [0-9a-f]{16}: OK \(3 turns, 2 moves, \d+ files checked\)$", done.stdout, re.MULTILINE)
    # the game directory it names is the one it played, under the temporary folder it was given
    where = Path(re.findall(r"^game directory: (.+)$", done.stdout, re.MULTILINE)[-1])
    assert where.is_relative_to(tmp_path) and (where / "turns").is_dir()
    assert f'game = "{game}"' in (where / "game.toml").read_text()

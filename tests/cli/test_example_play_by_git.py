"""``examples/play-by-git.md`` runs as written: every ``sh`` block, in order, from the one working folder."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "play-by-git.md"


def blocks() -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```$", EXAMPLE.read_text(encoding="utf-8"), re.S | re.M)


@pytest.mark.skipif(not os.environ.get("CI") and (shutil.which("git") is None or shutil.which("age") is None or shutil.which("pbem") is None),
                    reason="the walkthrough needs git, age and the pbem command on PATH")
def test_the_play_by_git_walkthrough_runs_as_written(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    env.pop("PBEM_GAMES", None)
    outputs = []
    for block in blocks():
        run = subprocess.run(["bash", "-e", "-c", block], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert run.returncode == 0, (block, run.stdout, run.stderr)
        outputs.append(run.stdout)
    text = "\n".join(outputs)
    assert "turn 0" in text and '"kind": "pick"' in text
    assert "already-applied 19" in text  # the move sent twice
    assert re.search(r"game [0-9a-f]{16}: OK \(3 turns, 2 moves", text)  # verify: turns 0-2, both picks
    assert not list((tmp_path / "referee" / "inbox").glob("*.json"))

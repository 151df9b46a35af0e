"""``examples/play-by-git.md`` runs as written: every ``sh`` block, in order, from the one working folder.

The walkthrough's ``table.git`` stands for the git host, its hook for the
host's permissions; its referee runs ``pbem git serve`` in a folder of its
own; each player has their own clone, fed by ``git clone`` and ``git pull``
alone. Each person has their own home (no git configuration but what the
walkthrough sets) and pbem state, as on their own machines. Then the attacks
the walkthrough's reader could try against what it tells them to do: the
referee key is in no object of the shared repository, and the way it tells
bob to read his view with ``age`` does not show him a view of someone
else's making.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.crypto import age
from pbem.crypto.keys import load_private_key

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "play-by-git.md"


def blocks() -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```$", EXAMPLE.read_text(encoding="utf-8"), re.DOTALL | re.MULTILINE)


def environment(tmp_path: Path) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if not name.startswith(("GIT_", "PBEM_"))}
    env.update(HOME=str(tmp_path / "home"), GIT_CONFIG_NOSYSTEM="1", PBEM_STATE_DIR=str(tmp_path / "pbem-state"),
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.org",
               PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    return env


def run_walkthrough(tmp_path: Path) -> list[str]:
    env = environment(tmp_path)
    outputs = []
    for block in blocks():
        run = subprocess.run(["bash", "-e", "-c", block], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert run.returncode == 0, (block, run.stdout, run.stderr)
        outputs.append(run.stdout + run.stderr)
    return outputs


@pytest.fixture(scope="module")
def walked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    if shutil.which("git") is None or shutil.which("age") is None:
        pytest.fail("the walkthrough needs git and age (.ci/run installs them)")
    where = tmp_path_factory.mktemp("walkthrough")
    return where, run_walkthrough(where)


def test_the_play_by_git_walkthrough_runs_as_written(walked: tuple[Path, list[str]]) -> None:
    where, outputs = walked
    text = "\n".join(outputs)
    assert "joining, awaiting alice (join-commit), bob (join-commit)" in text  # the first run published the game
    assert "bob's join file (commit): APPLIED: the join rounds await alice (join-reveal), bob (join-reveal)" in text
    assert "turn 0, awaiting alice (pick), bob (pick)" in text  # the last nonce dealt
    assert '"id": "pick:' in text  # bob read his view with age, after verify
    assert "alice's move answering turn 0: APPLIED: turn 1 written" in text
    assert "bob's move answering turn 0: APPLIED: turn 2 written" in text
    assert "nothing sent: inbox/alice of origin holds move.json as they are already" in text
    assert "again.json: alice's move answering turn 0: already in the game" in text
    assert "the host refused it" in text and "refused: alice may not write refs/heads/inbox/bob" in text
    assert re.search(r"game [0-9a-f]{16}: OK \(3 turns, 2 moves", text)
    # the referee's game directory is its own, and no clone: the players' pushes never reached it as files
    assert not (where / "referee" / ".git").exists()
    assert (where / "referee" / "games" / "first" / "head.json").is_file()
    assert stat.S_IMODE((where / "secrets" / "bob" / "bob.identity").stat().st_mode) == 0o600


def test_the_referee_key_reaches_no_object_of_the_shared_repository(walked: tuple[Path, list[str]]) -> None:
    where, _ = walked
    objects = subprocess.run(["git", "--git-dir", str(where / "table.git"), "cat-file", "--batch-all-objects",
                              "--batch", "--unordered"], capture_output=True, check=True).stdout
    key = (where / "secrets" / "referee" / "referee.key").read_text()
    for needle in re.findall(r'"(?:ed25519|x25519)": "([^"]+)"', key):
        assert needle.encode() not in objects


def test_the_way_the_walkthrough_has_bob_read_his_view_with_age_shows_no_forged_view(
        walked: tuple[Path, list[str]], tmp_path: Path) -> None:
    """Someone (a misconfigured host letting a player push the game branch) replaced bob's sealed view with one
    of their own making, sealed to bob's key, and bob pulled it. The block of the walkthrough that reads the
    view with ``age`` must not show it to him: it checks the file before it decrypts it."""
    where, _ = walked
    table = tmp_path / "table"
    shutil.copytree(where, table, symlinks=True)
    bob = load_private_key(table / "secrets" / "bob" / "bob.key")
    forged = age.encrypt(b'{"id": "pick:FORGED", "note": "pick the sniper"}', [bob.public.recipient], armor=True)
    (table / "bob" / "game" / "views" / "bob" / "latest.age").write_bytes(forged)
    block = next(b for b in blocks() if "age -d" in b)
    reading = "\n".join(line for line in block.splitlines() if "age -d" in line or line.startswith(("cd ", "(umask")))
    run = subprocess.run(["bash", "-e", "-c", reading], cwd=table, env=environment(table), capture_output=True,
                         text=True)
    assert "FORGED" not in run.stdout
    assert run.returncode != 0 and "views/bob/latest.age" in run.stderr, (run.stdout, run.stderr)

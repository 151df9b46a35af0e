"""``examples/play-by-git.md`` runs as written: every ``sh`` block, in order, from the one working folder.

Where the walkthrough says ``# the CI job runs here``, the test runs the CI
job's own steps instead, read from the workflow file the walkthrough wrote
into the repository (``.github/workflows/referee.yml``): pbem installed by
the job's ``pip install`` command from the git repository under test (its
committed HEAD), into a fresh virtual environment (at the first CI run; the
environment then persists, as a runner's cache would), and the referee's
key written from the "secret" by the job's own commands.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import venv
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "play-by-git.md"
CI_MARK = "# the CI job runs here"


def blocks() -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```$", EXAMPLE.read_text(encoding="utf-8"), re.DOTALL | re.MULTILINE)


def workflow_steps(text: str) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The job's ``env`` and its steps (``uses`` or ``run`` with the step's ``env``), from the workflow file.

    A reader for the small part of YAML the workflow uses: block mappings, a
    list of steps, ``run: |`` block scalars and one-line flow mappings.
    """
    lines = text.splitlines()
    job_env: dict[str, str] = {}
    first = lines.index("    env:")
    for line in lines[first + 1:]:
        if not line.startswith("      "):
            break
        if not line.strip().startswith("#"):
            key, _, value = line.strip().partition(": ")
            job_env[key] = value
    steps: list[dict[str, Any]] = []
    for line in lines[lines.index("    steps:") + 1:]:
        if line.startswith("      - "):
            key, _, value = line[8:].partition(": ")
            steps.append({key: value, "env": {}, "lines": []})
        elif line.startswith("        env: "):
            steps[-1]["env"] = dict(re.findall(r"(\w+): \"\$\{\{ secrets\.(\w+) \}\}\"", line))
        elif line.startswith("          "):
            steps[-1]["lines"].append(line[10:])
    for step in steps:
        script = step.pop("lines")
        if step.get("run") == "|":
            step["run"] = "\n".join(script) + "\n"
    return job_env, steps


def ci_job(tmp_path: Path, env: dict[str, str]) -> Path:
    """A script that runs the workflow's steps in the referee's clone, as the CI runner would."""
    job_env, steps = workflow_steps((tmp_path / "referee" / ".github" / "workflows" / "referee.yml").read_text())
    assert set(job_env) == {"PBEM_REPOSITORY", "PBEM_VERSION"}
    assert steps[0] == {"uses": "actions/checkout@v4", "env": {}}  # the referee's clone is the checkout
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        pytest.fail(f"the play-by-git test installs pbem from its git repository; {REPO} is none: {head.stderr}")
    runner = tmp_path / "runner"
    (runner / "temp").mkdir(parents=True)
    # a runner's python knows no pbem: a fresh environment, without the system's packages
    venv.create(runner / "venv", with_pip=True)
    secrets = {"PBEM_REFEREE_KEY": (tmp_path / "secrets" / "referee" / "referee.key").read_text()}
    job = ["set -e", f"cd {tmp_path / 'referee'}",
           f"export PATH={runner / 'venv' / 'bin'}:$PATH RUNNER_TEMP={runner / 'temp'}",
           f"export PBEM_REPOSITORY=file://{REPO} PBEM_VERSION={head.stdout.strip()}"]
    for number, step in enumerate(steps[1:], start=1):
        script = runner / f"step-{number}.sh"
        if "pip install" in str(step["run"]):
            # the environment persists between the walkthrough's CI runs, as a runner's cache
            # would: the install runs at the first, and is a no-op after
            script.write_text(str(step["run"]) + "\n")
            job.append(f"[ -e {runner / 'installed'} ] || {{ bash -e {script} && touch {runner / 'installed'}; }}")
            continue
        script.write_text(str(step["run"]) + "\n")
        for name, secret in step["env"].items():
            (runner / f"{name}.secret").write_text(secrets[secret])
            job.append(f'export {name}="$(cat {runner / (name + ".secret")})"')
        job.append(f"bash -e {script}")  # GitHub runs each `run` with `bash -e`
    path = runner / "job.sh"
    path.write_text("\n".join(job) + "\n")
    return path


@pytest.mark.skipif(not os.environ.get("CI") and (shutil.which("git") is None or shutil.which("age") is None or shutil.which("pbem") is None),
                    reason="the walkthrough needs git, age and the pbem command on PATH")
def test_the_play_by_git_walkthrough_runs_as_written_with_the_ci_jobs_own_steps(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    env.pop("PBEM_GAMES", None)
    outputs = []
    job: Path | None = None
    ci_runs = 0
    for block in blocks():
        if CI_MARK in block:
            job = job or ci_job(tmp_path, env)
            assert block.count(CI_MARK) == 1, block  # the job runs in the referee's clone
            ci_runs += 1
            block = "\n".join(f"bash -e {job}" if CI_MARK in line else line for line in block.splitlines())
        run = subprocess.run(["bash", "-e", "-c", block], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert run.returncode == 0, (block, run.stdout, run.stderr)
        outputs.append(run.stdout)
    text = "\n".join(outputs)
    assert ci_runs == 4  # both join rounds, the two picks, the move sent twice
    assert "turn 0" in text and '"id": "pick:' in text
    assert "already-applied 19" in text  # the move sent twice
    assert re.search(r"game [0-9a-f]{16}: OK \(3 turns, 2 moves", text)  # verify: turns 0-2, both picks
    assert not list((tmp_path / "referee" / "inbox").glob("*.json"))
    # the CI installed pbem from the repository, into its own environment
    installed = subprocess.run([str(tmp_path / "runner" / "venv" / "bin" / "python"), "-c",
                                "import pbem; print(pbem.__file__)"], capture_output=True, text=True, cwd=tmp_path)
    assert str(tmp_path / "runner" / "venv") in installed.stdout, installed
    # identity files stay readable by their owner alone
    for secret in (tmp_path / "runner" / "temp" / "referee.key", tmp_path / "secrets" / "bob" / "bob.identity"):
        assert stat.S_IMODE(secret.stat().st_mode) == 0o600, secret


def referee_step_script() -> str:
    """The script the walkthrough's CI job runs (referee-step.sh), as the walkthrough writes it."""
    found = re.search(r"cat > referee-step.sh <<'EOF'\n(.*?)^EOF$", EXAMPLE.read_text(encoding="utf-8"),
                      re.DOTALL | re.MULTILINE)
    assert found is not None, "the walkthrough writes no referee-step.sh"
    return found[1]


def test_the_referee_step_takes_only_plain_files_with_plain_names_from_the_inbox(tmp_path: Path) -> None:
    """Players push into inbox/: a name with a space (split in two by the shell: every run fails, the
    game stalls), one with a glob character, or a link to a file of the CI runner (the referee key: pbem
    would read it, and its notice publish the file's hash) must not reach `pbem submit`; a plain file does."""
    if shutil.which("git") is None:
        pytest.skip("needs git")
    clone, remote = tmp_path / "clone", tmp_path / "remote.git"
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(tmp_path), "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True, env=env)
    subprocess.run(["git", "clone", "-q", str(remote), str(clone)], check=True, env=env, capture_output=True)
    (clone / "game").mkdir()
    (clone / "game" / "game.toml").write_text("")
    (clone / "inbox").mkdir()
    for name in ("move-alice.json", "a b.json", "*.json"):
        (clone / "inbox" / name).write_text("{}")
    secret = tmp_path / "runner-secret.key"
    secret.write_text("secret")
    (clone / "inbox" / "key.json").symlink_to(secret)
    (clone / "referee-step.sh").write_text(referee_step_script())
    stub = tmp_path / "bin" / "pbem"
    stub.parent.mkdir()
    stub.write_text(f"#!/bin/sh\n[ \"$1\" = submit ] && for a in \"$@\"; do echo \"$a\"; done > {tmp_path / 'args'}\n"
                    "echo 'turn 1'\n")
    stub.chmod(0o755)
    subprocess.run(["git", "add", "-A"], cwd=clone, check=True, env=env)
    subprocess.run(["git", "commit", "-q", "-m", "pushed"], cwd=clone, check=True, env=env)
    subprocess.run(["git", "push", "-q", "origin", "HEAD:main"], cwd=clone, check=True, env=env, capture_output=True)
    run = subprocess.run(["sh", "referee-step.sh"], cwd=clone, capture_output=True, text=True,
                         env={**env, "PATH": f"{stub.parent}:{env['PATH']}", "PBEM_REFEREE_KEY": str(tmp_path / "k")})
    assert run.returncode == 0, (run.stdout, run.stderr)
    args = (tmp_path / "args").read_text().splitlines()
    assert args[:3] == ["submit", "game", "inbox/move-alice.json"] and args[3] == "--referee-key", args

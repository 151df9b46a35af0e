"""``examples/git/github-referee.yml``, the referee on GitHub Actions: what it runs, with what, and that it plays.

Its shape is what docs/git.md says keeps the key safe: only a schedule and a
manual dispatch trigger it (both run the default branch's workflow), the job
runs only on the default branch and in the environment that holds the key,
nothing of the repository is checked out, pbem comes from one pinned
commit, and the key is written only where the cache never reaches. Then its
steps run, as a runner would, against a host with a pull request per player
(``refs/pull/N/head``, which GitHub writes from the player's fork): the
first run takes the game from the game branch the owner published, the
next ones go on from the state the cache kept.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers_git import GitTable, environment, first_choice, move, set_table

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = REPO / "examples" / "git" / "github-referee.yml"


def workflow() -> dict[Any, Any]:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def job() -> dict[str, Any]:
    jobs = workflow()["jobs"]
    assert list(jobs) == ["referee"]
    return jobs["referee"]


def test_only_the_default_branchs_workflow_runs_and_only_on_a_schedule_or_by_hand() -> None:
    triggers = workflow()[True]  # YAML 1.1 reads the key `on` as true
    assert set(triggers) == {"schedule", "workflow_dispatch"}
    assert job()["if"] == "github.ref == 'refs/heads/main'"
    assert workflow()["permissions"] == {} and job()["permissions"] == {"contents": "write"}
    assert workflow()["concurrency"] == {"group": "referee", "cancel-in-progress": False}


def test_the_key_is_an_environment_secret_and_reaches_only_the_step_that_runs_the_referee() -> None:
    assert job()["environment"] == "referee"
    text = WORKFLOW.read_text(encoding="utf-8")
    assert text.count("secrets.") == 1 and "${{ secrets.PBEM_REFEREE_KEY }}" in text
    serve = next(step for step in job()["steps"] if "pbem git serve" in step.get("run", ""))
    assert serve["env"]["PBEM_REFEREE_KEY"] == "${{ secrets.PBEM_REFEREE_KEY }}"
    assert '> "$RUNNER_TEMP/referee.key"' in serve["run"] and 'key = "$RUNNER_TEMP/referee.key"' in serve["run"]


def test_nothing_of_the_repository_is_checked_out_and_pbem_comes_from_a_pinned_commit() -> None:
    steps = job()["steps"]
    assert {step["uses"] for step in steps if "uses" in step} == {"actions/cache/restore@v4", "actions/cache/save@v4"}
    install = steps[0]["run"]
    assert install == 'python -m pip install --quiet "git+${PBEM_REPOSITORY}@${PBEM_COMMIT}"'
    assert re.fullmatch(r"[0-9a-f]{40}", job()["env"]["PBEM_COMMIT"])
    for step in steps:
        if "uses" in step:
            assert step["with"]["path"] == "referee"  # the cache keeps the state, never the key or the token


def runner_env(tmp: Path, host_repo: Path, run: int) -> tuple[dict[str, str], Path]:
    """A fresh runner for one run: its home, temporary folder and workspace; the job's environment."""
    root = tmp / f"run-{run}"
    workspace = root / "workspace"
    (root / "temp").mkdir(parents=True)
    workspace.mkdir()
    env = environment(root / "home", "referee")
    env.update({name: str(value) for name, value in job()["env"].items()})
    # the runner reaches the host for github.com
    env.update(PBEM_REMOTE=str(host_repo), RUNNER_TEMP=str(root / "temp"), GITHUB_WORKSPACE=str(workspace),
               GITHUB_REPOSITORY="friends/table")
    return env, workspace


def run_job(tmp: Path, table: GitTable, run: int) -> subprocess.CompletedProcess[str]:
    """The job's steps, as a runner runs them: ``run`` with bash -e, the cache by its own rules (the latest
    entry of the default branch restored, a new one saved); the install is pbem as this test has it."""
    env, workspace = runner_env(tmp, table.host.repo, run)
    cache = tmp / "cache"
    secret = table.key_files["referee"].read_text()
    done = None
    for step in job()["steps"][1:]:
        if step.get("uses") == "actions/cache/restore@v4":
            entries = sorted(cache.glob("pbem-referee-*")) if cache.exists() else []
            if entries:
                shutil.copytree(entries[-1], workspace / "referee", symlinks=True)
            continue
        if step.get("uses") == "actions/cache/save@v4":
            shutil.copytree(workspace / "referee", cache / f"pbem-referee-{run:04d}-1", symlinks=True)
            continue
        step_env = {**env, "PBEM_REFEREE_KEY": secret, "TOKEN": "token-of-this-run"}
        assert set(step["env"]) == {"PBEM_REFEREE_KEY", "TOKEN"}
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], env=step_env,
                              cwd=workspace, capture_output=True, text=True)
    assert done is not None
    return done


def open_pull_request(table: GitTable, name: str, number: int, tmp: Path) -> None:
    """The player pushes their move to their fork and opens a pull request: GitHub writes refs/pull/N/head."""
    person = table.players[name]
    fork = tmp / f"{name}-fork.git"
    if not fork.exists():
        subprocess.run(["git", "init", "-q", "--bare", str(fork)], check=True)
    person.pull()
    (person.clone / "move.json").write_bytes(move(table, person, first_choice(table, person)))
    person.pbem("git", "send", "move.json", "--remote", fork, "--inbox", "pbem")
    subprocess.run(["git", "--git-dir", str(table.host.repo), "fetch", "-q", str(fork),
                    f"+refs/heads/pbem:refs/pull/{number}/head"], check=True)


def test_the_workflow_referees_the_players_pull_requests_run_after_run(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.fail("needs git")
    table = set_table(tmp_path / "table")  # the owner set the game up and published the game branch
    first = run_job(tmp_path, table, 1)
    assert first.returncode == 0, first.stderr
    # the first run found no state: it took the game from the game branch, and the cache keeps it
    assert (tmp_path / "cache" / "pbem-referee-0001-1" / "games" / "first" / "head.json").is_file()
    open_pull_request(table, "alice", 1, tmp_path)
    second = run_job(tmp_path, table, 2)
    assert second.returncode == 0, second.stderr
    assert "pull/1/head" in table.referee.answer() and "APPLIED: turn 1 written" in table.referee.answer()
    open_pull_request(table, "bob", 2, tmp_path)
    third = run_job(tmp_path, table, 3)
    assert third.returncode == 0, third.stderr
    assert "pull/2/head" in table.referee.answer() and "APPLIED: turn 2 written" in table.referee.answer()
    secret = table.key_files["referee"].read_text()
    needles = re.findall(r'"(?:ed25519|x25519)": "([^"]+)"', secret)
    assert not any(needle.encode() in table.host.objects() for needle in needles)
    for path in (tmp_path / "cache").rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert not any(needle.encode() in data for needle in needles), path
            assert b"token-of-this-run" not in data, path

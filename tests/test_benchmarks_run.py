"""Each benchmark script runs to its end in its smallest form: what the suite can afford of them.

The scripts are not timed here (speed is measured by running them, never
asserted in a test); this only keeps them working as the library changes
under them, each printing the machine's speed (``benchmarks/machine.py``)
before its figures. One script broke so, unseen, for a round: the Nightlancer
balance report called a function whose arguments had changed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: each script with the arguments of its smallest run
SMALLEST = {
    "bench_cli.py": ["--runs", "1", "--turns", "2"],
    "bench_history.py": ["--moves", "3", "--steps", "1"],
    "bench_nightlancer.py": ["1"],
    "bench_referee.py": ["--games", "1", "--turns", "3"],
    "bench_replay_memory.py": ["--lengths", "2", "4", "--runs", "1"],
    "bench_round_trips.py": ["--games", "1"],
    "bench_selfplay.py": ["--games", "1", "--rounds", "1"],
    "bench_step.py": ["--games", "1", "--steps", "2"],
    "bench_verify.py": ["--players", "2", "--runs", "1", "--calls", "1"],
    "count_step.py": ["--steps", "1"],
    "mail_counts.py": ["--turns", "2", "--before", "HEAD"],
    "mail_sizes.py": ["--games", "1", "--turns", "3"],
    "soak.py": ["1", "nightlancer"],
    "turn_sizes.py": ["--games", "1", "--turns", "3"],
    "machine.py": [],
}
#: modules the scripts share, which are no script of their own
SHARED = {"rotation.py"}
#: the balance report too, with two games: the first game never values an Item, which the second does
RUNS = [*SMALLEST.items(), ("bench_nightlancer.py", ["--balance", "2"])]


def test_every_benchmark_script_has_a_smallest_run() -> None:
    assert sorted(SMALLEST) == sorted(path.name for path in (ROOT / "benchmarks").glob("*.py")
                                      if path.name not in SHARED)


@pytest.mark.parametrize("name, args", RUNS, ids=[" ".join([name, *args]) for name, args in RUNS])
def test_a_benchmark_script_runs_to_its_end_after_the_machines_speed(name: str, args: list[str],
                                                                       tmp_path: Path) -> None:
    """Each figure is read against the machine's speed when it was taken: the fixed workload's reading, first."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path)}
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / name), *args], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("machine speed: ten million additions in "), done.stdout[:200]
    assert name == "machine.py" or done.stdout.strip().count("\n"), "it printed no figure"


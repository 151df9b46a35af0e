"""The machine's speed, and the clocks and order every benchmark measures with.

    python benchmarks/machine.py

The machine a benchmark runs on is shared (two cores, other people's tests),
and its speed drifts within minutes. A figure means little without a
reading of how fast the machine was when it was taken, and a comparison
means nothing if one side always ran at a quieter moment or always first.
So every script in ``benchmarks/``:

* prints first the **machine's speed**: the CPU time of a fixed workload,
  ten million additions in a Python loop (:func:`print_speed`), the same in
  every script, so that a figure can be read against it;
* times what it compares **alternately**, in rounds (:func:`alternated`:
  A B, then B A, then A B...), never all of one and then all of the other,
  so that a change of load touches every side alike and none is always
  first;
* reports **CPU time beside wall time** (:func:`timed` in the process,
  :func:`run_child` for a whole process): a process waiting for a core or
  for the disk spends wall time and no CPU, so the two apart say whether a
  figure is the work's or the machine's.

Run alone, this prints the reading and nothing else.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple, TypeVar

T = TypeVar("T")

#: the fixed workload: how many additions the speed reading times
ADDITIONS = 10_000_000


class Times(NamedTuple):
    """Seconds of wall time and of CPU time (user and system) of one measurement."""

    wall: float
    cpu: float


def additions() -> int:
    """The fixed workload: ten million additions in a Python loop (the interpreter's speed, no I/O)."""
    total = 0
    for number in range(ADDITIONS):
        total += number
    return total


def timed(run: Callable[[], T]) -> tuple[T, Times]:
    """What ``run()`` returns, and its wall and CPU time in this process."""
    start, used = time.perf_counter(), time.process_time()
    value = run()
    return value, Times(time.perf_counter() - start, time.process_time() - used)


def speed() -> Times:
    """The wall and CPU time of :func:`additions`."""
    return timed(additions)[1]


def print_speed() -> Times:
    """Measure the machine's speed and print it (every benchmark's first line); the reading."""
    reading = speed()
    print(f"machine speed: ten million additions in {reading.cpu:.2f} s of CPU ({reading.wall:.2f} s wall)",
          flush=True)
    return reading


class Child(NamedTuple):
    """A whole process, run to its end: its exit code, clocks, peak memory and output."""

    returncode: int
    times: Times
    #: its peak resident set size, in KiB (``ru_maxrss`` of that process alone)
    peak_kib: int
    stdout: str
    stderr: str


def run_child(command: Sequence[str], env: Mapping[str, str] | None = None, cwd: str | Path | None = None) -> Child:
    """Run ``command`` to its end; its wall time, its CPU time and its peak RSS, of that process alone.

    The process is reaped with ``wait4``, which gives its own resource use:
    ``RUSAGE_CHILDREN`` would give the largest peak of every child so far.
    Its output goes to temporary files, so that no pipe fills while it runs.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(list(command), stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                   env=dict(env) if env is not None else None, cwd=cwd)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Child(process.returncode, Times(wall, usage.ru_utime + usage.ru_stime), usage.ru_maxrss,
                     out.read().decode(errors="replace"), err.read().decode(errors="replace"))


def alternated(items: Sequence[T], rounds: int) -> Iterator[T]:
    """``items`` ``rounds`` times over, each round in the reverse order of the round before (A B, B A, A B...)."""
    for index in range(rounds):
        yield from (items if index % 2 == 0 else list(reversed(items)))


def median(times: Sequence[Times]) -> Times:
    """The median wall time and the median CPU time of ``times``."""
    return Times(statistics.median(t.wall for t in times), statistics.median(t.cpu for t in times))


def spread(values: Sequence[float]) -> str:
    """The least and the greatest of ``values``, as ``low-high`` with three significant figures."""
    low, high = min(values), max(values)
    return f"{low:.3g}" if f"{low:.3g}" == f"{high:.3g}" else f"{low:.3g}-{high:.3g}"


if __name__ == "__main__":
    print_speed()

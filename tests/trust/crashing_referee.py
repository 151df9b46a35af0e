"""Run ``pbem`` in a process that dies (``os._exit``) at the N-th file rename of its step.

Usage: ``python crashing_referee.py N before|after pbem-arguments...``

``before``: the N-th write's temporary file is complete but not yet renamed
into place; ``after``: the N-th rename has happened. Either way the process
ends at once, as a killed referee would: no cleanup, no ``finally`` blocks.
Used by ``test_race_and_crash.py``.
"""

from __future__ import annotations

import os
import sys

CRASH_EXIT = 137


def main() -> None:
    crash_at, when, args = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    real_replace = os.replace
    count = 0

    def replace(src, dst, *a, **k):
        nonlocal count
        count += 1
        if count == crash_at and when == "before":
            os._exit(CRASH_EXIT)
        real_replace(src, dst, *a, **k)
        if count == crash_at and when == "after":
            os._exit(CRASH_EXIT)

    os.replace = replace
    from pbem.cli.main import app

    app(args=args, prog_name="pbem")


if __name__ == "__main__":
    main()

"""A progress line on stderr for long commands (``pbem demo``, ``pbem verify --replay``).

Shown only when stderr is a terminal, and rewritten in place: a script that
reads pbem's output, or a log file, gets nothing from it, and stdout is the
same either way.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from pbem.cli.output import terminal_safe


@contextmanager
def progress_line(stream: TextIO | None = None) -> Iterator[Callable[[str], None] | None]:
    """Yield a function that shows a line of progress, or ``None`` when ``stream`` (stderr) is not a terminal.

    The line is cleared when the block ends, whatever ends it.
    """
    stream = stream if stream is not None else sys.stderr
    if not stream.isatty():
        yield None
        return
    width = 0

    def show(text: str) -> None:
        nonlocal width
        text = terminal_safe(text)  # its own carriage returns alone move the cursor
        stream.write("\r" + text.ljust(width))
        stream.flush()
        width = max(width, len(text))

    try:
        yield show
    finally:
        if width:
            stream.write("\r" + " " * width + "\r")
            stream.flush()

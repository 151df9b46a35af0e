"""The rounds of a referee's loop: ``pbem mail serve`` and ``pbem git serve``, ``--once`` or ``--poll``."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import typer

from pbem.cli.output import say

Report = TypeVar("Report")

#: said by a loop that exits 24: why a game waits, and what the host can do
CLOCK_BEHIND = ("pbem: the referee's clock is behind a game's latest recorded time (a turn stamped with a "
                "--now ahead of the real clock?): that game waits until the clock reaches it; "
                "the other games are served")


def serve_rounds(serve: Callable[[], Report], code_of: Callable[[Report], int], unreachable: type[Exception],
                 poll: float | None, guard: Callable[[Callable[[], Any]], Any]) -> None:
    """``poll`` ``None`` (``--once``): one round, then exit with the code ``code_of`` its report gives.
    Else a round every ``poll`` seconds until stopped (:func:`poll_rounds`): a server that cannot be reached
    (``unreachable``) in one round is said and tried again at the next; any other error ends the loop
    through ``guard``, which turns errors into a message and an exit code."""
    if poll is None:
        raise typer.Exit(code_of(guard(serve)))

    def one_round() -> Report | None:
        try:
            return serve()
        except unreachable as error:
            say(f"pbem: {error} (trying again in {poll:g} s)", err=True)
            return None

    def round_reported() -> None:
        report = guard(one_round)
        if report is not None:
            code_of(report)

    poll_rounds(round_reported, poll)


def poll_rounds(one_round: Callable[[], object], every: float) -> None:
    """Run ``one_round`` every ``every`` seconds until SIGINT or SIGTERM (``systemctl stop``).

    Either signal ends the loop between two rounds: a round is never cut short.
    """
    stop = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        while not stop.is_set():
            one_round()
            stop.wait(every)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)

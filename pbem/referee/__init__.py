"""The referee: read a game directory, check a move, apply it, write the next turn.

The library never prints and never exits; :mod:`pbem.cli` does. Entry points:

* :func:`new_game` — create a game directory and deal turn 0;
* :func:`submit` — one pipeline step for one move file;
* :func:`read_view`, :func:`make_move` — the player's side;
* :func:`make_join` — a player's signed join file (games that wait for joins);
* :func:`reveal` — publish the seed (``reveal.json``);
* :func:`tick` — answer decisions past their deadline, report reminders due;
* :func:`take_over` — hand a seat to a new key;
* :func:`status`, :func:`public_log`, :func:`verify` (``replay=True`` rebuilds
  every turn from the revealed seed) — for anyone;
* :func:`run_demo` — bots play a game through the files.
"""

from typing import TYPE_CHECKING

from pbem.lazy import lazy_package

#: each public name and the module that defines it, imported when first used,
#: so that a command imports only the modules it needs
_WHERE = {
    "DemoReport": "demo", "default_game": "demo", "run_demo": "demo",
    "REFUSALS": "errors", "Refusal": "errors", "RefereeError": "errors",
    "make_join": "joins",
    "Step": "pipeline", "submit": "pipeline",
    "PlayerView": "player", "make_move": "player", "read_view": "player",
    "LogEntry": "public", "Status": "public", "public_log": "public", "status": "public",
    "reveal": "reveal",
    "new_game": "setup",
    "Takeover": "takeover", "take_over": "takeover",
    "TickReport": "tick", "tick": "tick",
    "VerifyReport": "verify", "verify": "verify",
}

if TYPE_CHECKING:  # pragma: no cover
    from pbem.referee.demo import DemoReport, default_game, run_demo
    from pbem.referee.errors import REFUSALS, RefereeError, Refusal
    from pbem.referee.joins import make_join
    from pbem.referee.pipeline import Step, submit
    from pbem.referee.player import PlayerView, make_move, read_view
    from pbem.referee.public import LogEntry, Status, public_log, status
    from pbem.referee.reveal import reveal
    from pbem.referee.setup import new_game
    from pbem.referee.takeover import Takeover, take_over
    from pbem.referee.tick import TickReport, tick
    from pbem.referee.verify import VerifyReport, verify


lazy_package(__name__, _WHERE)

__all__ = [
    "REFUSALS",
    "DemoReport",
    "LogEntry",
    "PlayerView",
    "RefereeError",
    "Refusal",
    "Status",
    "Step",
    "Takeover",
    "TickReport",
    "VerifyReport",
    "default_game",
    "make_join",
    "make_move",
    "new_game",
    "public_log",
    "read_view",
    "reveal",
    "run_demo",
    "status",
    "submit",
    "take_over",
    "tick",
    "verify",
]

"""What happened since a player's last move: the "since your last decision" part of a view.

A turn file tells the events of its own step only (a turn holds no
history), so between two decisions of a player several turns may pass —
the opponents' moves, standing orders — and the latest turn alone does not
say what the opponents did. This module reads them back, newest first, from
the current turn to the turn the player's own last move produced (or the
deal):

* each turn is read as anyone reads it — signature checked, and checked to
  be the turn the next one names as ``previous``, so that the story told is
  the chain that ends in the current turn;
* the public events come from each turn's public part;
* the player's private events come from **their own** sealed section of
  each turn, opened with their key: the only section a player's key opens.
  No other player's section is read, nor the referee's;
* a seat handed to a new key (``pbem takeover``) is read back only to the
  turn of the takeover: the seat's sections before it are sealed to the
  previous key;
* a step the referee made in place of a move (a timeout, a takeover) is
  told as the turn describes it (``referee_step``);
* a player's copy fed by mail may lack turns (a mail that did not
  arrive): the walk stops at the first one it lacks, and the answer names
  the turns missing there (``missing``), which ``pbem mail request`` asks
  the referee for.

The work is bounded: at most ``limit`` turns are read (:data:`SINCE_TURNS`
by default, whatever the gap); when the bound stops the walk first, the
answer says so (``complete`` is false) and ``pbem log`` holds the rest of
the public record.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

from pbem.crypto.keys import PrivateKey
from pbem.referee.errors import GameDirError
from pbem.referee.layout import GameDir
from pbem.referee.player import PlayerView, open_section
from pbem.referee.public import event_lines
from pbem.referee.records import Record, read_turn

#: the most turns read back for one view: a long gap (a player whose standing orders answer for
#: them for many turns) costs no more than this many turn files and sealed sections
SINCE_TURNS = 64


class StepEvents(NamedTuple):
    """One turn's events as one player may know them."""

    turn: int
    #: the player whose move produced this turn; ``None`` for the deal
    mover: str | None
    #: the public events of the step (the turn's public part)
    events: list[str]
    #: the player's own private events of the step (their sealed section of that turn)
    private_events: list[str]
    #: a step the referee made in place of a move (a timeout, a takeover), as the turn describes it
    referee_step: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "mover": self.mover, "events": list(self.events),
                "private_events": list(self.private_events), "referee_step": self.referee_step}


class SinceLastMove(NamedTuple):
    """The turns since ``player``'s last move, oldest first, ending with the current turn."""

    player: str
    #: the turn the player's last move produced (the first of ``steps``), or ``None`` when the
    #: turns read hold no move of theirs (they have not moved yet, or the bound came first)
    last_move: int | None
    #: the walk reached the player's last move, the deal, or the turn from which the player's key holds
    #: the seat; false when :data:`SINCE_TURNS` stopped it, or a turn the copy lacks
    complete: bool
    steps: list[StepEvents]
    #: the turn of the takeover that handed the seat to the player's key, when the walk stopped there
    #: (the seat's sections before it are sealed to the previous key); else ``None``
    seat_taken: int | None = None
    #: the turns the copy lacks where the walk stopped (both ends included), when a gap stopped it
    missing: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"last_move": self.last_move, "complete": self.complete, "seat_taken": self.seat_taken,
                "missing": list(self.missing) if self.missing is not None else None,
                "turns": [step.to_json() for step in self.steps]}


def since_last_move(directory: str | Path, view: PlayerView, key: PrivateKey,
                    limit: int = SINCE_TURNS, partial: bool = False) -> SinceLastMove:
    """The events, public and the player's own, from the turn of ``view.player``'s last move to ``view``'s turn.

    ``view`` is the player's opened current turn (:func:`~pbem.referee.player.read_view`) and ``key`` their key.
    Reads at most ``limit`` turns; an earlier turn that is not the one its successor names is a
    damaged directory (:class:`GameDirError`). In a player's copy (``partial``) the walk stops at a turn
    the copy lacks; elsewhere that is a damaged directory too.
    """
    if limit < 1:
        raise ValueError(f"the number of turns to read back must be positive, not {limit}")
    gamedir = GameDir.at(directory)
    player, gamefile = view.player, view.gamefile
    # the first turn whose section of this seat the player's key opens (0, or the latest takeover)
    first = max((handover.turn for handover in gamefile.handovers_of(player)), default=0)
    steps = [_step(view.turn, view.doc)]
    current = view.turn
    missing: tuple[int, int] | None = None
    while current.doc["mover"] != player and current.doc["turn"] > first and len(steps) < limit:
        number = current.doc["turn"] - 1
        if partial and not os.path.lexists(gamedir.turn(number)):
            low = number
            while low > first and not os.path.lexists(gamedir.turn(low - 1)):
                low -= 1
            missing = (low, number)
            break
        earlier = read_turn(gamedir, gamefile, number)
        if earlier.hash != current.doc["previous"]:
            raise GameDirError(f"{earlier.path}: is not the turn that turn {number + 1} follows "
                               "(the turns were rewritten; see pbem verify)")
        steps.append(_step(earlier, open_section(gamefile, earlier, player, key)))
        current = earlier
    moved = current.doc["mover"] == player
    taken = not moved and first > 0 and current.doc["turn"] == first
    return SinceLastMove(player=player, last_move=current.doc["turn"] if moved else None,
                         complete=moved or taken or current.doc["turn"] == 0, steps=steps[::-1],
                         seat_taken=first if taken else None, missing=missing)


def _step(turn: Record, section: dict[str, Any]) -> StepEvents:
    return StepEvents(turn=turn.doc["turn"], mover=turn.doc["mover"], events=event_lines(turn.doc["public"]),
                      private_events=event_lines(section["private"]), referee_step=turn.doc.get("referee_step"))

"""Looking back over a finished game: every turn as one seat saw it, or as a spectator, from the archive alone.

Once the seed is public (the final turn carries it, or ``reveal.json``),
anyone can rebuild every turn of a game (:class:`pbem.referee.replay.Replay`,
what ``pbem verify --replay`` runs), and with it every seat's sealed section
of every turn: the very document that seat's key opened during the game,
which the replay checks against the sealed one. No key is needed, and no
other file than the archive's.

A seat's turn is what ``pbem view`` showed that seat when the turn was the
latest: the public part of the turn, the seat's own section (hand, picks,
private events, decision and options, standing orders) and "since your last
move", told from the seat's own sections of the turns since, as
:func:`pbem.referee.since.since_last_move` tells it. A spectator's turn is
the public part alone, as ``pbem log`` tells it.

Before the seed is public, a look back would show what a seat may not yet
know (the other seats' hands): it is refused (:class:`NotRevealed`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from pbem.referee.errors import NotRevealed, UsageError
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.player import PlayerView
from pbem.referee.public import event_lines
from pbem.referee.records import Record, current_turn
from pbem.referee.replay import Replay, checked_turn
from pbem.referee.since import SINCE_TURNS, SinceLastMove, StepEvents

#: the name that asks for the public part alone, as anyone watching the table saw it
SPECTATOR = "spectator"


class LookedBack(NamedTuple):
    """One turn of a finished game as one seat saw it (``view`` and ``since``), or as a spectator (both ``None``)."""

    number: int
    #: the turn file, checked and rebuilt by the replay
    turn: Record
    #: the game's set-up, with the seats handed over by this turn in force
    gamefile: GameFile
    #: the seat's view of the turn, its section as the replay rebuilt it (``None`` for a spectator)
    view: PlayerView | None
    #: what happened since the seat's last move, from the seat's own sections (``None`` for a spectator)
    since: SinceLastMove | None

    @property
    def events(self) -> list[str]:
        """The public events of this turn's step."""
        return event_lines(self.turn.doc["public"])


def published_seed(gamedir: GameDir, gamefile: GameFile) -> bytes:
    """The seed, once the game made it public: the final turn's, or ``reveal.json``'s; else :class:`NotRevealed`.

    A test game's seed is in ``game.toml`` from the start, but its turns are
    looked back over only once it ends or is revealed, like any game's: a
    look back is of a game that is over.
    """
    from pbem.referee.reveal import read_reveal

    if gamedir.turn_numbers():
        published = current_turn(gamedir, gamefile).doc["seed"]
        if published is not None:
            return bytes.fromhex(published)
    revealed = read_reveal(gamedir, gamefile)
    if revealed is None:
        raise NotRevealed(
            f"game {gamefile.game_id} is running and its seed is secret: a seat's turns are shown only once the "
            "game is over (its final turn publishes the seed) or the referee ran `pbem reveal`"
        )
    return bytes.fromhex(revealed["seed"])


def look_back(directory: str | Path, seat: str, start: int = 0) -> Iterator[LookedBack]:
    """Every turn from ``start`` on of a finished (or revealed) game, as ``seat`` saw it, or a spectator.

    Each turn is rebuilt and checked as ``pbem verify --replay`` checks it
    (a turn that differs from the rebuilt one is a
    :class:`~pbem.referee.errors.VerificationFailed`); the turns before
    ``start`` are replayed too, since each turn follows from the ones before.
    """
    gamedir = GameDir.at(directory)
    gamedir.refuse_all_symlinks()
    gamefile = GameFile.read(gamedir.game_toml)
    if seat != SPECTATOR and seat not in gamefile.player_names:
        raise UsageError(f"{seat!r} is not seated in game {gamefile.game_id} (players: "
                         f"{', '.join(gamefile.player_names)}; or {SPECTATOR} for the public part alone)")
    seed = published_seed(gamedir, gamefile)
    numbers = gamedir.turn_numbers()
    if not numbers:
        raise UsageError(f"game {gamefile.game_id} was never dealt: it has no turn to look back over")
    if not 0 <= start <= numbers[-1]:
        raise UsageError(f"the game has turns 0 to {numbers[-1]}, not {start}")
    replay = Replay(gamedir, gamefile, seed, numbers[-1])
    steps = {turn: (player, path) for turn, player, path in gamedir.step_files()}
    recent: deque[StepEvents] = deque(maxlen=SINCE_TURNS)
    for number in numbers:
        found = checked_turn(gamedir, gamefile, number)
        replay.turn(found, steps.get(number))
        if seat == SPECTATOR:
            if number >= start:
                yield LookedBack(number, found, replay.gamefile, None, None)
            continue
        section = replay.sections[seat]
        recent.append(StepEvents(turn=number, mover=found.doc["mover"], events=event_lines(found.doc["public"]),
                                 private_events=event_lines(section["private"]),
                                 referee_step=found.doc.get("referee_step")))
        if number >= start:
            view = PlayerView(gamefile=replay.gamefile, turn=found, doc=section)
            yield LookedBack(number, found, replay.gamefile, view, _since(recent, seat, replay.gamefile))


def _since(recent: deque[StepEvents], player: str, gamefile: GameFile) -> SinceLastMove:
    """What :func:`pbem.referee.since.since_last_move` tells ``player`` at the latest of ``recent``: the turns
    back to their own last move, the deal, or the turn their key took the seat, at most :data:`SINCE_TURNS`."""
    first = max((handover.turn for handover in gamefile.handovers_of(player)), default=0)
    index = len(recent) - 1
    steps = [recent[index]]
    current = recent[index]
    while current.mover != player and current.turn > first and len(steps) < SINCE_TURNS:
        index -= 1
        current = recent[index]
        steps.append(current)
    moved = current.mover == player
    taken = not moved and first > 0 and current.turn == first
    return SinceLastMove(player=player, last_move=current.turn if moved else None,
                         complete=moved or taken or current.turn == 0, steps=steps[::-1],
                         seat_taken=first if taken else None)


"""What the referee's mails carry for a player's copy: the turns it lacks, the referee's head, the files to read them.

A player's copy is built only from the mails that player received
(:mod:`pbem.referee.copies`), any of which may be lost, come twice or come
late; so every mail to a player carries what a copy needs to stand on its
own:

* ``game.toml`` and the card file it names, if any (``cards-NAME``), so
  that any one mail can start a copy;
* the referee's head (``head.json``, its anchor's: :mod:`pbem.referee.head`),
  so that a copy knows the latest turn the referee had written and when,
  and a copy that is behind says so;
* the seat records in force (``seat-NNNNNN-PLAYER.json``), so that the
  holder of a seat handed over reads it from any mail;
* turn files (``NNNNNN.json``): in a turn mail, every turn since the last
  one mailed to that player (for the first mail to a player or to the new
  holder of a seat, every turn from the deal); in the answer to a stale
  move, the turns after the one the move answered; in the answer to a
  request (``pbem mail request``), the turns the copy lacks and every later
  one. At most :data:`TURN_BYTES` of turn files go in one mail, the newest
  first (the current turn always): the mail names the turns left out,
  which a request asks for;
* the player's sealed view of the current turn (``NAME-NNNNNN.age``, the
  player's section of the turn file, which ``age -d`` opens alone).

Everything here is public but the sealed view, which opens with the
player's key only; a mail to a spectator carries no view.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from pbem.crypto.canonical import parse_json_strict
from pbem.mail.compose import CARDS_PREFIX, SEAT_PREFIX, Outcome
from pbem.mail.extract import PbemFile
from pbem.mail.served import ServedGame
from pbem.referee import status
from pbem.referee.copies import TurnRange, ranges_of, turns_text
from pbem.referee.gamefile import GameFile
from pbem.referee.head import HEAD_FILE, Anchors, Head
from pbem.referee.layout import GameDir, read_file
from pbem.referee.records import RECORD_MAX_BYTES, current_turn
from pbem.referee.rollback import rollback_numbers

if TYPE_CHECKING:  # the key is loaded by the command line and handed on as it is
    from pbem.crypto.keys import PrivateKey

#: the bytes of turn files one mail carries at most: a turn file of 4-player Nightlancer is at most
#: about 31 KB, so some 34 of the largest turns (1.4 MB of mail once in base64), and more of the common ones
TURN_BYTES = 1 << 20


class Carried(NamedTuple):
    """The files a mail carries for a copy, by attachment name, and which turns they hold."""

    files: dict[str, bytes]
    #: the turn files attached, in order
    turns: tuple[int, ...]
    #: turns asked for but left out (the bound of a mail), oldest first
    left_out: tuple[TurnRange, ...]

    def turns_line(self) -> str:
        """``Turns 3-7 are attached`` and what was left out, for a mail's body ('' when no turn is attached)."""
        if not self.turns:
            return ""
        said = f"Attached: {turns_text(ranges_of(self.turns))} of the game (pbem mail unpack files them into your copy)."
        if self.left_out:
            said += (f" Not attached, to keep this mail small: {turns_text(self.left_out)}; your copy works "
                     "without them, and pbem mail request asks the referee for them.")
        return said


def referee_head(directory: str | Path, gamefile: GameFile, key: PrivateKey, anchors: Anchors,
                 now: datetime | None = None) -> Head | None:
    """The game's head as the referee's anchor holds it, brought up to the directory's latest turn; ``None``
    before the deal.

    A turn written without the anchor (a step run by hand, the deal of
    ``pbem new``) is taken when it chains to the anchored one; a directory
    that lost the anchored turn is refused (:class:`~pbem.referee.errors.HistoryLost`):
    the referee mails nothing from it.
    """
    gamedir = GameDir.at(directory)
    if not gamedir.has_turns():
        return None
    latest = current_turn(gamedir, gamefile, gapless=True)
    anchors.check(gamedir, gamefile, latest)
    return anchors.advance(gamefile, latest, key, now)


def wanted_turns(ranges: list[TurnRange], current: int) -> list[int]:
    """The turn numbers of ``ranges`` up to ``current`` and ``current`` itself, newest first, each once."""
    numbers = {current}
    for first, last in ranges:
        numbers.update(range(max(first, 0), min(last, current) + 1))
    return sorted(numbers, reverse=True)


def carried(directory: str | Path, gamefile: GameFile, current: int, seat_names: list[tuple[int, str]],
            wanted: list[TurnRange], head: Head | None, player: str | None = None,
            budget: int = TURN_BYTES) -> Carried:
    """The files of a mail for a copy: ``game.toml``, the card file, the head, the seat records ``seat_names``
    (``(turn, player)`` of each in force), the turns of ``wanted`` within ``budget`` (newest first, ``current``
    always) and, for ``player``, their sealed view of turn ``current``."""
    gamedir = GameDir.at(directory)
    files: dict[str, bytes] = {"game.toml": read_file(gamedir.game_toml)}
    if gamefile.cards is not None:
        name = gamefile.cards["file"]
        files[f"{CARDS_PREFIX}{name}"] = read_file(gamedir.cards / name)
    if head is not None:
        files[HEAD_FILE] = head.data
    for produced, holder in seat_names:
        path = gamedir.seat(produced, holder)
        files[f"{SEAT_PREFIX}{path.name}"] = read_file(path)
    files.update(rollback_files(gamedir))
    taken: dict[int, bytes] = {}
    spent = 0
    numbers = wanted_turns(wanted, current)
    for number in numbers:
        data = read_file(gamedir.turn(number))
        if taken and spent + len(data) > budget:
            break
        taken[number] = data
        spent += len(data)
    left_out = ranges_of(sorted(set(numbers) - set(taken)))
    for number in sorted(taken):
        files[gamedir.turn(number).name] = taken[number]
    if player is not None:
        sealed = parse_json_strict(taken[current], max_bytes=RECORD_MAX_BYTES)["sealed"]
        files[f"{player}-{current:06d}.age"] = sealed[player].encode("ascii")
    return Carried(files=files, turns=tuple(sorted(taken)), left_out=tuple(left_out))


def stale_turns(game: ServedGame, file: PbemFile, outcome: Outcome, key: PrivateKey, anchors: Anchors,
                now: datetime | None = None) -> None:
    """Have the answer to a stale move carry what its player's copy lacks: the turns after the one it answered.

    The move was signed with the seat's key (staleness is judged after the
    signature), so its player held the turn it answered; the answer tells
    them what to unpack.
    """
    current = status(game.dir)
    player, base = file.player, file.turn
    if player is None or not isinstance(base, int) or player not in current.gamefile.player_names \
            or current.dealing or not 0 <= base < current.turn:
        return
    head = referee_head(game.dir, game.gamefile, key, anchors, now)
    seats = [(handover.turn, handover.player) for handover in current.gamefile.handovers]
    files = carried(game.dir, game.gamefile, current.turn, seats, [(base + 1, current.turn)], head, player)
    outcome.attachments.update(files.files)
    outcome.message += (f" Your copy of the game is behind: the game is at turn {current.turn}. This mail "
                        f"carries what your copy lacks; save it and run pbem mail unpack, then pbem view. "
                        f"{files.turns_line()}")


def rollback_files(gamedir: GameDir) -> dict[str, bytes]:
    """Every rollback's record and consents, as a mail for a copy carries them (``rollback-NNNNNN.json``,
    ``rollback-NNNNNN-PLAYER.json``): what ``pbem mail unpack`` needs to file a rollback in the copy. None
    for a game without rollbacks (one ``lstat``)."""
    files: dict[str, bytes] = {}
    for number in rollback_numbers(gamedir):
        folder = gamedir.rollback(number)
        files[f"rollback-{number:06d}.json"] = read_file(folder / "rollback.json")
        consents = folder / "consents"
        for name in sorted(os.listdir(consents)) if consents.is_dir() else []:
            files[f"rollback-{number:06d}-{name}"] = read_file(consents / name)
    return files

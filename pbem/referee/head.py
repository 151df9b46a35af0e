"""The referee's signed head, and its append-only anchor.

The hash chain proves that nothing changed inside it, but a shorter chain
verifies as well as a long one: whoever can write a game's files (a shared
folder, a git branch, a mailbox) can drop the newest turns, and a player who
drops the turn that drew their card takes the move back. Two records close
that gap:

* The **head** (``pbem-head/1``, ``head.json``): the latest turn the referee
  wrote, that turn's hash and the referee's clock when it wrote it, signed
  by the referee. It is small, so it travels with every turn mail and every
  commit of a game branch: a copy that holds a head names a turn it must
  hold too, and ``pbem verify`` reports a copy that lost it
  (:func:`compare`). A head is no turn: it adds no fact of the game, only
  "the game had reached this turn at this time".
* The **anchor**: the head the referee keeps of every game it steps, in its
  own state directory (``STATE/anchors/GAME_ID.json``), where no player
  writes. Before a step the referee checks that the game directory still
  holds that turn, with that hash, and that every later turn chains to it
  (:meth:`Anchors.check`, else :class:`~pbem.referee.errors.HistoryLost`,
  nothing changed), unless a rollback with every seat's consent abandoned it
  (:mod:`pbem.referee.rollback`); after the step it anchors the new turn
  (:meth:`Anchors.advance`). The transports' referee loops (mail, git) always
  anchor; ``pbem submit``, ``tick`` and ``takeover`` do with
  ``--state-dir``.

A referee that loses its state directory loses its anchors and accepts the
game directory as it finds it (the players' own records of the turns they
were shown, :mod:`pbem.referee.seen`, still catch a dropped turn they saw).
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from pbem.crypto.keys import PrivateKey
from pbem.crypto.signing import sign_document
from pbem.durable import atomic_write
from pbem.referee import clock, formats
from pbem.referee.errors import GameDirError, HistoryLost, StateFileError
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir, read_file
from pbem.referee.records import ChainBreak, Record, parse_record, walk_back
from pbem.referee.storage import dump_json

#: a head is a few hundred bytes; anything much larger is not one
HEAD_MAX_BYTES = 4096
#: the name of the head in a game directory or a player's copy
HEAD_FILE = "head.json"


class Head(NamedTuple):
    """A head, read and checked: the referee's signature, this game and its ``game.toml``."""

    turn: int
    turn_hash: str
    time: str
    #: the file's bytes, as the referee wrote them (to attach or commit as they are)
    data: bytes

    def describe(self) -> str:
        return f"turn {self.turn}, written {self.time}"


def head_doc(gamefile: GameFile, turn: int, turn_hash: str, time: str) -> dict[str, Any]:
    """The unsigned head naming turn ``turn`` (hash ``turn_hash``), written at ``time`` (canonical UTC)."""
    return {"format": formats.HEAD, "game_id": gamefile.game_id, "game": gamefile.hash(), "turn": turn,
            "turn_hash": turn_hash, "time": time}


def sign_head(gamefile: GameFile, turn: Record, referee_key: PrivateKey, now: datetime | None = None) -> Head:
    """The head naming ``turn`` (a turn of ``gamefile``'s game), signed now (``now``: the referee's clock).

    In a game with deadlines the turn records when it was written, and the
    head says the same; otherwise the head gives the referee's clock.
    """
    time = turn.doc.get("time") or clock.format_time(clock.referee_now(now))
    doc = sign_document(head_doc(gamefile, turn.doc["turn"], turn.hash, time), referee_key)
    return Head(turn=turn.doc["turn"], turn_hash=turn.hash, time=time, data=dump_json(doc))


def parse_head(data: bytes, gamefile: GameFile, where: str | Path) -> Head:
    """A head's bytes, checked: strict JSON, its schema, the referee's signature, this game and game.toml.

    Raises :class:`~pbem.referee.errors.GameDirError` naming ``where``.
    """
    path = Path(where)
    if len(data) > HEAD_MAX_BYTES:
        raise GameDirError(f"{path}: not a head: {len(data)} bytes, a head is at most {HEAD_MAX_BYTES}", path)
    record = parse_record(data, path, formats.HEAD, gamefile.referee)
    doc = record.doc
    if doc["game_id"] != gamefile.game_id or doc["game"] != gamefile.hash():
        raise GameDirError(f"{path}: the head of another game (or of another game.toml)", path)
    return Head(turn=doc["turn"], turn_hash=doc["turn_hash"], time=doc["time"], data=data)


def head_path(gamedir: GameDir) -> Path:
    return gamedir.root / HEAD_FILE


def read_head(gamedir: GameDir, gamefile: GameFile) -> Head | None:
    """The head in ``gamedir`` (``head.json``), checked; ``None`` when there is none."""
    path = head_path(gamedir)
    try:
        data = read_file(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise GameDirError(f"{path}: cannot be read: {error.strerror or error}", path) from None
    return parse_head(data, gamefile, path)


def write_head(gamedir: GameDir, head: Head) -> None:
    """Put ``head`` into ``gamedir`` (atomically), as a transport does with each turn it carries."""
    atomic_write(head_path(gamedir), head.data, temp_dir=gamedir.root)


def missing_from_chain(gamedir: GameDir, gamefile: GameFile, latest: Record, turn: int,
                       turn_hash: str) -> str | None:
    """Why the chain that ends in ``latest`` does not hold turn ``turn`` with hash ``turn_hash`` (or ``None``).

    Walks back from ``latest`` (:func:`~pbem.referee.records.walk_back`); a
    copy that lacks a turn between the two says so.
    """
    if turn > latest.doc["turn"]:
        return (f"the game now ends at turn {latest.doc['turn']}: turns {latest.doc['turn'] + 1} to {turn} "
                "were dropped")
    found = walk_back(gamedir, gamefile, latest, turn)
    if isinstance(found, ChainBreak):
        if found.error is not None:
            return f"the chain back to turn {turn} is broken at turn {found.number}: {found.error}"
        return f"turn {found.number} is not the one turn {found.number + 1} follows: the turns were rewritten"
    if found.hash != turn_hash:
        return f"turn {turn} has another hash now ({found.hash}): the turns were rewritten"
    return None


def compare(gamedir: GameDir, gamefile: GameFile, head: Head, latest: Record) -> str | None:
    """What is wrong with a directory whose latest turn is ``latest``, given the referee's ``head`` (or ``None``).

    The directory must hold the head's turn, with the head's hash, and
    every turn after it must chain to it.
    """
    why = missing_from_chain(gamedir, gamefile, latest, head.turn, head.turn_hash)
    if why is None:
        return None
    return (f"the referee's head ({head.describe()}, {head.turn_hash}) names a turn this directory does not "
            f"hold: {why}")


class Anchors:
    """The referee's anchors: the head of every game it stepped, in its state directory.

    ``STATE/anchors/GAME_ID.json`` (mode 0600, its folder 0700), one head
    each, replaced atomically after every step that wrote a turn.
    """

    def __init__(self, state_dir: str | Path) -> None:
        self.state_dir = Path(state_dir)

    def path(self, gamefile: GameFile) -> Path:
        return self.state_dir / "anchors" / f"{gamefile.game_id}.json"

    def read(self, gamefile: GameFile) -> Head | None:
        """The anchored head of ``gamefile``'s game, or ``None`` when this referee never stepped it."""
        path = self.path(gamefile)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise StateFileError(f"{path}: cannot read the referee's anchor: {error.strerror or error}") from None
        try:
            return parse_head(data, gamefile, path)
        except GameDirError as error:
            raise StateFileError(f"{path}: the referee's anchor is unreadable ({error}); it is the referee's "
                                 "own record, which only the referee writes: find out who changed it") from None

    def check(self, gamedir: GameDir, gamefile: GameFile, latest: Record | None) -> None:
        """Refuse (:class:`~pbem.referee.errors.HistoryLost`) a directory that lost the anchored turn.

        ``latest`` is the directory's latest turn (``None``: it has none).
        """
        anchored = self.read(gamefile)
        if anchored is None:
            return
        why: str | None = (f"it holds no turn at all, and the referee wrote turn {anchored.turn}" if latest is None
                           else missing_from_chain(gamedir, gamefile, latest, anchored.turn, anchored.turn_hash))
        if why is not None and latest is not None and os.path.lexists(gamedir.abandoned):
            # a turn abandoned by a rollback with every seat's consent is not lost: the chain goes on from the
            # turn the rollback returned to (a game without rollbacks never reads them)
            from pbem.referee.rollback import rolled_back

            not_rolled_back = rolled_back(gamedir, gamefile, latest, anchored.turn, anchored.turn_hash)
            why = None if not_rolled_back is None else f"{why}, {not_rolled_back}"
        if why is not None:
            raise HistoryLost(
                f"game {gamefile.game_id}: the referee wrote turn {anchored.turn} ({anchored.turn_hash}) at "
                f"{anchored.time}, and the game directory {gamedir.root} no longer holds it: {why}. Nothing "
                f"was done. Restore the directory from the referee's last commit or mail, or from a player's "
                f"copy (the anchor: {self.path(gamefile)})",
                self.path(gamefile),
            )

    def advance(self, gamefile: GameFile, latest: Record, referee_key: PrivateKey,
                now: datetime | None = None) -> Head:
        """Anchor ``latest``, the turn a step has just written (unless it is anchored already); its head."""
        anchored = self.read(gamefile)
        if anchored is not None and anchored.turn == latest.doc["turn"] and anchored.turn_hash == latest.hash:
            return anchored
        head = sign_head(gamefile, latest, referee_key, now)
        path = self.path(gamefile)
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            atomic_write(path, head.data, mode=0o600)
        except OSError as error:
            raise StateFileError(f"{path}: cannot write the referee's anchor: {error}") from None
        return head

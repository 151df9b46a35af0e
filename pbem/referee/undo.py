"""``pbem undo``: a seat signs its consent to a rollback; the referee applies one that every seat consented to.

The records and their checks are in :mod:`pbem.referee.rollback`. Here:

* :func:`sign_consent`: a player's consent to return the game to turn N,
  naming the latest turn of their game directory as the head it abandons,
  signed with their key (a file they send like a move);
* :func:`apply_rollback`: under the game's lock, the referee checks the
  consents (one per seat, each signed by the key that holds the seat, each
  naming this game, the same turn of the chain and the current head) and
  then moves the turns after N, with their moves, timeout records and
  notices, into ``abandoned/NNNNNN/`` beside the consents and its signed
  record; the views are rewritten for turn N, and the head and the anchor
  name turn N. Refused, with nothing changed (:class:`UndoRefused`): a
  missing seat, a forged consent, one of another game, turn or head, a turn
  not in the chain, a finished or revealed game, a rollback across a seat
  handed over.

Crash safety: what a rollback abandons is gathered in
``abandoned/.in-progress/`` (the record first, then the turns from the
newest down, so the live chain is always whole), which takes its number
by a rename at the end. Until then no step is taken (:func:`refuse_if_cut_short`),
and running ``pbem undo apply`` again completes it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pbem.crypto.keys import PrivateKey
from pbem.crypto.signing import sign_document
from pbem.durable import atomic_write, fsync_dir
from pbem.referee import formats, rollback, seats
from pbem.referee.errors import GameDirError, KeyMismatch, UndoRefused
from pbem.referee.gamefile import GameFile, check_referee_key
from pbem.referee.layout import GameDir
from pbem.referee.lock import DEFAULT_WAIT, locked
from pbem.referee.records import Record, current_turn, read_game_file, read_record, read_turn
from pbem.referee.reveal import read_reveal
from pbem.referee.storage import dump_json

if TYPE_CHECKING:  # pragma: no cover
    from pbem.referee.head import Anchors


class Applied(NamedTuple):
    """A rollback applied: its number and folder, the turn returned to and the head abandoned."""

    number: int
    folder: Path
    to: int
    head: int
    #: an earlier run of ``apply`` was cut short, and this one completed it (the consents given were not read)
    completed: bool = False


def sign_consent(directory: str | Path, key: PrivateKey, to: int, player: str | None = None) -> tuple[str, bytes]:
    """``player``'s signed consent (its player and bytes) to return the game in ``directory`` to turn ``to``.

    The head it abandons is the latest turn of ``directory``: a consent is
    for that head only, so one signed before the game moved on is refused.
    ``player`` defaults to the seat ``key`` holds.
    """
    gamedir = GameDir.at(directory)
    gamedir.refuse_symlinks()
    gamefile = read_game_file(gamedir)
    if not gamedir.has_turns():
        raise UndoRefused(f"game {gamefile.game_id} is not dealt yet: there is no turn to return to")
    head = current_turn(gamedir, gamefile)
    seated = seats.in_force(gamedir, gamefile, head.doc)
    if player is None:
        player = next((name for name, public in seated.seat_keys if public.fingerprint == key.public.fingerprint), None)
        if player is None:
            raise KeyMismatch(f"this key ({key.public.fingerprint}) holds no seat of game {gamefile.game_id}")
    seat_key = seated.player_key(player)
    if seat_key is None:
        raise KeyMismatch(f"{player!r} is not seated in game {gamefile.game_id} (players: "
                          f"{', '.join(gamefile.player_names)})")
    if seat_key.fingerprint != key.public.fingerprint:
        raise KeyMismatch(f"this key ({key.public.fingerprint}) is not {player}'s key in game {gamefile.game_id} "
                          f"({seat_key.fingerprint})")
    target = _turn_to_return_to(gamedir, gamefile, head, to)
    doc = rollback.consent_doc(gamefile, player, target, head)
    return player, dump_json(sign_document(doc, key))


def _turn_to_return_to(gamedir: GameDir, gamefile: GameFile, head: Record, to: int) -> Record:
    """Turn ``to`` of the chain that ends in ``head``, which must be an earlier turn; else :class:`UndoRefused`."""
    if head.doc["result"] is not None:
        raise UndoRefused(f"game {gamefile.game_id} is over (turn {head.doc['turn']} published the seed): a "
                          "finished game is never rolled back")
    if read_reveal(gamedir, gamefile) is not None:
        raise UndoRefused(f"game {gamefile.game_id} was abandoned and its seed revealed: it is never rolled back")
    if not 0 <= to < head.doc["turn"]:
        raise UndoRefused(f"turn {to} is not an earlier turn of the game, which is at turn {head.doc['turn']}: "
                          f"a rollback returns to one of turns 0 to {head.doc['turn'] - 1}")
    try:
        target = read_turn(gamedir, gamefile, to)
    except GameDirError as error:
        raise UndoRefused(f"turn {to} cannot be returned to: {error}") from None
    problem = rollback.chain_problem(gamedir, gamefile, head, to, target.hash)
    if problem is not None:
        raise UndoRefused(f"turn {to} is not in the chain that ends in turn {head.doc['turn']}: {problem}")
    return target


def apply_rollback(directory: str | Path, consents: Sequence[tuple[str | Path, bytes]], referee_key: PrivateKey,
                   anchors: Anchors | None = None, wait: float = DEFAULT_WAIT,
                   now: datetime | None = None) -> Applied:
    """Roll the game back as every seat's consent (``(where, bytes)`` each) asks; see the module docstring."""
    gamedir = GameDir.at(directory)
    with locked(gamedir.lock, wait):
        gamefile = read_game_file(gamedir)
        check_referee_key(gamefile, referee_key)
        if os.path.lexists(gamedir.rollback_in_progress):
            return _complete(gamedir, gamefile, referee_key, anchors, now)
        if not gamedir.has_turns():
            raise UndoRefused(f"game {gamefile.game_id} is not dealt yet: there is no turn to return to")
        head = current_turn(gamedir, gamefile, gapless=True)
        if anchors is not None:
            anchors.check(gamedir, gamefile, head)
        seated = seats.in_force(gamedir, gamefile, head.doc)
        if not consents:
            raise UndoRefused("a rollback needs the consent of every seat, and none was given")
        docs: dict[str, dict[str, Any]] = {}
        datas: dict[str, bytes] = {}
        first: dict[str, Any] | None = None
        for where, data in consents:
            try:
                doc = rollback.check_consent(seated, data, where, first["to"] if first else None, rollback.point(head))
            except GameDirError as error:
                raise UndoRefused(str(error)) from None
            if doc["player"] in docs:
                raise UndoRefused(f"{where}: a second consent of {doc['player']}; one per seat")
            first = first or doc
            docs[doc["player"]], datas[doc["player"]] = doc, data
        assert first is not None
        target = _turn_to_return_to(gamedir, gamefile, head, first["to"]["turn"])
        if rollback.point(target) != first["to"]:
            raise UndoRefused(f"the consents return to turn {first['to']['turn']} with hash {first['to']['hash']}, "
                              f"and the chain's turn {target.doc['turn']} has hash {target.hash}: a turn that is "
                              "not in the chain")
        try:
            rollback.check_every_seat(seated, docs, "the consents given")
        except GameDirError as error:
            raise UndoRefused(str(error)) from None
        numbers = range(target.doc["turn"] + 1, head.doc["turn"] + 1)
        handed = [n for n, _, _ in gamedir.seat_files() if n in numbers]
        if handed:
            raise UndoRefused(f"turn {handed[0]} handed a seat to a new key (pbem takeover): a rollback to before it "
                              "would give the seat back to the key it was taken from, and is never made")
        number = len(rollback.rollback_numbers(gamedir)) + 1
        record = sign_document(rollback.rollback_doc(gamefile, number, first["to"], rollback.point(head), datas),
                               referee_key)
        partial = GameDir.at(gamedir.rollback_in_progress)
        for player, data in datas.items():
            atomic_write(partial.root / "consents" / f"{player}.json", data)
        atomic_write(partial.root / "rollback.json", dump_json(record))
        return _complete(gamedir, gamefile, referee_key, anchors, now, fresh=True)


def _complete(gamedir: GameDir, gamefile: GameFile, referee_key: PrivateKey, anchors: Anchors | None,
              now: datetime | None, fresh: bool = False) -> Applied:
    """Move what the rollback in progress abandons into its folder, give it its number, and bring the views,
    the head and the anchor to the turn returned to."""
    from pbem.referee.head import head_path, sign_head, write_head
    from pbem.referee.pipeline import open_game, repair_views

    partial = GameDir.at(gamedir.rollback_in_progress)
    record = read_record(partial.root / "rollback.json", formats.ROLLBACK, gamefile.referee, by_referee=True)
    doc = record.doc
    to, head = doc["to"]["turn"], doc["head"]["turn"]
    folders = ("turns", "moves", "timeouts", "rejected")
    listed = {folder: _by_turn(getattr(gamedir, folder), to) for folder in folders}
    for number in range(head, to, -1):  # the newest first: what stays is always a whole chain
        for folder in folders:
            for name in listed[folder].get(number, []):
                (partial.root / folder).mkdir(parents=True, exist_ok=True)
                os.replace(getattr(gamedir, folder) / name, partial.root / folder / name)
    for kept in (partial.root / f for f in folders):
        if kept.is_dir():
            fsync_dir(kept)
    final = gamedir.rollback(doc["number"])
    os.replace(partial.root, final)
    fsync_dir(gamedir.abandoned)
    ctx = open_game(gamedir, referee_key, gamefile)
    repair_views(ctx)
    if os.path.lexists(head_path(gamedir)):
        write_head(gamedir, sign_head(gamefile, ctx.current, referee_key, now))
    if anchors is not None:
        anchors.advance(gamefile, ctx.current, referee_key, now)
    return Applied(number=doc["number"], folder=final, to=to, head=head, completed=not fresh)


def _by_turn(folder: Path, after: int) -> dict[int, list[str]]:
    """The files of ``folder`` of each turn after ``after`` (``NNNNNN.json``, ``NNNNNN-WHO.json``), by turn."""
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return {}
    found: dict[int, list[str]] = {}
    for name in sorted(names):
        digits = name[:6]
        if digits.isdigit() and name[6:7] in (".", "-") and int(digits) > after:
            found.setdefault(int(digits), []).append(name)
    return found


class Gathered(NamedTuple):
    """A consent kept by a transport's loop: whose, the seats still to consent, and the rollback once all had."""

    player: str
    to: int
    head: int
    missing: list[str]
    applied: Applied | None


def gather_consent(directory: str | Path, data: bytes, where: str | Path, kept: Path, referee_key: PrivateKey,
                   anchors: Anchors | None = None, wait: float = DEFAULT_WAIT,
                   now: datetime | None = None) -> Gathered:
    """Keep one consent a transport received (in ``kept``, the loop's folder of this game's consents, where no
    player writes) and roll the game back once every seat's is kept for the current head.

    The consent is checked as :func:`apply_rollback` checks it (else
    :class:`UndoRefused`, nothing kept); a seat's newer consent replaces its
    older one, and consents for a head the game has left are dropped. Once
    the rollback is applied the folder is emptied.
    """
    gamedir = GameDir.at(directory)
    gamefile = read_game_file(gamedir)
    if not gamedir.has_turns():
        raise UndoRefused(f"game {gamefile.game_id} is not dealt yet: there is no turn to return to")
    head = current_turn(gamedir, gamefile, gapless=True)
    seated = seats.in_force(gamedir, gamefile, head.doc)
    try:
        doc = rollback.check_consent(seated, data, where, head=rollback.point(head))
    except GameDirError as error:
        raise UndoRefused(str(error)) from None
    atomic_write(kept / f"{doc['player']}.json", data, mode=0o600)
    held: dict[str, bytes] = {}
    for name in sorted(os.listdir(kept)):
        path = kept / name
        found = path.read_bytes()
        try:
            other = rollback.check_consent(seated, found, path, doc["to"], rollback.point(head))
        except GameDirError:
            path.unlink(missing_ok=True)  # for another head or turn: the game moved on, or the seat changed its mind
            continue
        held[other["player"]] = found
    missing = [p for p in gamefile.player_names if p not in held]
    if missing:
        return Gathered(doc["player"], doc["to"]["turn"], head.doc["turn"], missing, None)
    applied = apply_rollback(directory, [(kept / f"{p}.json", found) for p, found in held.items()], referee_key,
                             anchors=anchors, wait=wait, now=now)
    for name in os.listdir(kept):
        (kept / name).unlink(missing_ok=True)
    return Gathered(doc["player"], applied.to, applied.head, [], applied)

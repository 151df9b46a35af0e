"""Undo by consent: what a rollback keeps in the archive, and how anyone checks it.

A referee may return a game to an earlier turn only with the signed consent
of every seat (``pbem-undo-consent/1``, :func:`consent_doc`): each names the
game, the turn to return to by number and hash, and the head it abandons, and
is signed with the key that holds the seat. Nothing is deleted: the rollback
numbered K (1 for a game's first) moves the turns after the one returned to,
with the moves, timeout records and notices that came with them, into
``abandoned/NNNNNN/`` (its own ``turns/``, ``moves/``, ``timeouts/``,
``rejected/``), beside every seat's consent (``consents/PLAYER.json``,
verbatim) and the referee's signed record of it (``rollback.json``,
``pbem-rollback/1``: the turn returned to, the head abandoned, each consent
by the SHA-256 of its bytes).

**The next turn names the rollback.** The turn written after a rollback,
whatever step writes it, carries ``rollback: {number, record}`` (the record's
hash), so the chain says where it was cut. In any chain (the live one, or
one a later rollback abandoned) the turn that follows turn T names the
latest rollback that returned to T before it was written, and a turn that
follows no rollback names none (:class:`Rollbacks.expected`): a referee that
leaves the mention out, or puts in one that is not so, fails ``pbem verify``.

**Draws are kept.** The rolled-back game keeps its seed and every step's
generator (``step_rng(seed, entropy, N)`` depends on the step's number
only): every deck is in the order it had at the turn returned to, and a step
draws what the same step drew before. A rollback takes back choices, never
luck; each consent says so (``"draws": "kept"``).

Checked (:func:`check_rollback`): the record is the referee's, of this game,
numbered as its folder; there is one consent per seat, each signed by the key
in force for that seat, naming this game, that turn and that head, and its
bytes are those the record names; the abandoned turns are the referee's,
numbered from the turn after the one returned to up to the head, each
chaining to the one before from the turn returned to, and the last is the
head; each came with its step's file. A rollback across a seat handed to a
new key is refused (the seat would go back to the old key), so the keys of
the seats are the same at both ends.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, NamedTuple

from pbem.crypto.canonical import sha256_ref
from pbem.crypto.errors import SignatureError
from pbem.crypto.signing import verify_document
from pbem.referee import formats, seats
from pbem.referee.errors import GameDirError, UndoRefused
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import TURN_DIGITS, GameDir, read_file
from pbem.referee.records import ChainBreak, Record, parse_record, read_record, read_turn, walk_back

#: a rollback folder's name: its number
_ROLLBACK_DIR = re.compile(rf"^\d{{{TURN_DIGITS}}}$")
#: a consent is a few hundred bytes
CONSENT_MAX_BYTES = 4096
#: what every consent says of the draws after the rollback (``draws``)
DRAWS_KEPT = "kept"


def consent_doc(gamefile: GameFile, player: str, to: Record, head: Record) -> dict[str, Any]:
    """The unsigned consent of ``player`` to return ``gamefile``'s game to turn ``to``, abandoning ``head``."""
    return {"format": formats.UNDO_CONSENT, "game_id": gamefile.game_id, "game": gamefile.hash(),
            "player": player, "to": point(to), "head": point(head), "draws": DRAWS_KEPT}


def point(turn: Record) -> dict[str, Any]:
    """A turn as a consent or a rollback names it: its number and hash."""
    return {"turn": turn.doc["turn"], "hash": turn.hash}


def rollback_doc(gamefile: GameFile, number: int, to: dict[str, Any], head: dict[str, Any],
                 consents: dict[str, bytes]) -> dict[str, Any]:
    """The referee's unsigned record of rollback ``number``, naming each consent by the SHA-256 of its bytes."""
    return {"format": formats.ROLLBACK, "game_id": gamefile.game_id, "game": gamefile.hash(), "number": number,
            "to": dict(to), "head": dict(head),
            "consents": {player: sha256_ref(data) for player, data in sorted(consents.items())}}


def member(record: Record) -> dict[str, Any]:
    """The ``rollback`` member of the turn that follows a rollback: its number and its record's hash."""
    return {"number": record.doc["number"], "record": record.hash}


def check_consent(gamefile: GameFile, data: bytes, where: str | Path, to: dict[str, Any] | None = None,
                  head: dict[str, Any] | None = None) -> dict[str, Any]:
    """One consent's bytes, checked: its schema, a seat of this game signed it with the key that holds the seat
    (``gamefile``: the seats in force), and it names this game (and ``to`` and ``head``, when given).

    Raises :class:`GameDirError` saying what is wrong, naming ``where``.
    """
    path = Path(where)
    if len(data) > CONSENT_MAX_BYTES:
        raise GameDirError(f"{path}: not a consent: {len(data)} bytes, a consent is at most {CONSENT_MAX_BYTES}",
                           path)
    doc = parse_record(data, path, formats.UNDO_CONSENT).doc
    player = doc["player"]
    if doc["game_id"] != gamefile.game_id or doc["game"] != gamefile.hash():
        raise GameDirError(f"{path}: {player}'s consent is to roll back another game ({doc['game_id']}), not "
                           f"game {gamefile.game_id}", path)
    key = gamefile.player_key(player)
    if key is None:
        raise GameDirError(f"{path}: {player!r} is not seated in game {gamefile.game_id}", path)
    try:
        verify_document(doc, key)
    except SignatureError:
        raise GameDirError(f"{path}: {player}'s consent is not signed by the key that holds {player}'s seat "
                           f"({key.fingerprint}): forged, or signed with another key", path) from None
    if to is not None and doc["to"] != to:
        raise GameDirError(f"{path}: {player}'s consent returns to turn {doc['to']['turn']} ({doc['to']['hash']}), "
                           f"not to turn {to['turn']} ({to['hash']})", path)
    if head is not None and doc["head"] != head:
        raise GameDirError(f"{path}: {player}'s consent abandons turn {doc['head']['turn']} "
                           f"({doc['head']['hash']}), but the head is turn {head['turn']} ({head['hash']}): a "
                           "consent for another head (the game moved on since it was signed, or it was used before)",
                           path)
    return doc


def check_every_seat(gamefile: GameFile, consents: dict[str, Any], where: str | Path) -> None:
    """Every seat of the game, and no other, is among ``consents`` (by player), else :class:`GameDirError`."""
    missing = [p for p in gamefile.player_names if p not in consents]
    if missing:
        raise GameDirError(f"{where}: a rollback needs the consent of every seat, and {', '.join(missing)} "
                           f"{'has' if len(missing) == 1 else 'have'} not given one (seats: "
                           f"{', '.join(gamefile.player_names)})", Path(where))


class Rollback(NamedTuple):
    """A rollback's folder and its record, signed by the referee (read by :func:`read_rollbacks`)."""

    number: int
    folder: GameDir
    record: Record

    @property
    def to(self) -> dict[str, Any]:
        return self.record.doc["to"]

    @property
    def head(self) -> dict[str, Any]:
        return self.record.doc["head"]

    def turn_numbers(self) -> range:
        """The numbers of the turns it abandoned."""
        return range(self.to["turn"] + 1, self.head["turn"] + 1)


def read_record_of(gamedir: GameDir, gamefile: GameFile, folder: Path, number: int | None) -> Record:
    """The ``rollback.json`` of ``folder``: the referee's, of this game (and numbered ``number``, when given)."""
    record = read_record(folder / "rollback.json", formats.ROLLBACK, gamefile.referee, by_referee=True)
    doc = record.doc
    if doc["game_id"] != gamefile.game_id or doc["game"] != gamefile.hash():
        raise GameDirError(f"{record.path}: the record of another game's rollback", record.path)
    if number is not None and doc["number"] != number:
        raise GameDirError(f"{record.path}: names itself rollback {doc['number']}, in the folder of rollback "
                           f"{number}", record.path)
    if doc["to"]["turn"] >= doc["head"]["turn"]:
        raise GameDirError(f"{record.path}: returns to turn {doc['to']['turn']}, which is not before its head, "
                           f"turn {doc['head']['turn']}", record.path)
    return record


def rollback_numbers(gamedir: GameDir) -> list[int]:
    """The numbers of the rollback folders present, in order (none: no ``abandoned/``)."""
    try:
        names = os.listdir(gamedir.abandoned)
    except FileNotFoundError:
        return []
    except NotADirectoryError:
        raise GameDirError(f"{gamedir.abandoned}: is not a folder", gamedir.abandoned) from None
    return sorted(int(name) for name in names if _ROLLBACK_DIR.match(name))


def read_rollbacks(gamedir: GameDir, gamefile: GameFile) -> list[Rollback]:
    """Every rollback of the game, in order, each record checked (numbered 1, 2, ... without a gap)."""
    numbers = rollback_numbers(gamedir)
    if numbers != list(range(1, len(numbers) + 1)):
        missing = next(n for n in range(1, len(numbers) + 2) if n not in numbers)
        raise GameDirError(f"{gamedir.rollback(missing)}: rollback {missing} is missing (rollbacks present: "
                           f"{', '.join(map(str, numbers))})", gamedir.rollback(missing))
    return [Rollback(n, GameDir.at(gamedir.rollback(n)), read_record_of(gamedir, gamefile, gamedir.rollback(n), n))
            for n in numbers]


def pending(gamedir: GameDir, gamefile: GameFile, current: Record) -> dict[str, Any] | None:
    """The ``rollback`` member of the turn a step writes after ``current``: the latest rollback's, when it
    returned to ``current`` (the game has not moved since), else ``None``. A step finds the newest rollback
    folder by name, never listing ``abandoned/`` (a game without rollbacks: one ``lstat``)."""
    latest = 0
    while os.path.lexists(gamedir.rollback(latest + 1)):  # by name: a step lists no folder that grows
        latest += 1
    if not latest:
        return None
    record = read_record_of(gamedir, gamefile, gamedir.rollback(latest), latest)
    return member(record) if record.doc["to"] == point(current) else None


class Rollbacks:
    """The rollbacks of a game by the turn each returned to: what the turn that follows a turn must name."""

    def __init__(self, rollbacks: list[Rollback]) -> None:
        self.all = rollbacks
        self._by_to: dict[str, list[Rollback]] = {}
        for rollback in rollbacks:
            self._by_to.setdefault(rollback.to["hash"], []).append(rollback)

    def expected(self, previous: str | None, before: int | None = None) -> dict[str, Any] | None:
        """The ``rollback`` member of a turn that follows the turn of hash ``previous``, in the chain that
        rollback ``before`` abandoned (``None``: the live chain): the latest rollback before it that returned
        to that turn, which the turn was written after (a rollback to it would have abandoned a turn written
        before), or ``None`` when none did."""
        found = [r for r in self._by_to.get(previous or "", []) if before is None or r.number < before]
        return member(found[-1].record) if found else None


def chain_problem(gamedir: GameDir, gamefile: GameFile, latest: Record, turn: int, turn_hash: str) -> str | None:
    """Why the chain ending in ``latest`` does not hold turn ``turn`` with hash ``turn_hash`` (``None``: it does)."""
    if turn > latest.doc["turn"]:
        return f"the game ends at turn {latest.doc['turn']}, before turn {turn}"
    found = walk_back(gamedir, gamefile, latest, turn)
    if isinstance(found, ChainBreak):
        if found.error is not None:
            return f"the chain back to turn {turn} is broken at turn {found.number}: {found.error}"
        return f"turn {found.number} is not the one turn {found.number + 1} follows"
    if found.hash != turn_hash:
        return f"turn {turn} of the chain has another hash ({found.hash})"
    return None


def check_rollback(gamedir: GameDir, gamefile: GameFile, rollback: Rollback, index: Rollbacks | None = None,
                   known: dict[str, int] | None = None, partial: bool = False) -> int:
    """Check one rollback's consents and the turns it abandoned (see the module's docstring); return the files
    checked. ``gamefile``: the game's ``game.toml``. With ``index``, each abandoned turn's ``rollback`` member is
    checked too; ``known`` is given the hash and number of each abandoned turn. ``partial``: a player's copy fed
    by mail, which holds the abandoned turns it was mailed (any of them) and no move. Raises
    :class:`GameDirError` naming the first file that is wrong."""
    folder, doc = rollback.folder, rollback.record.doc
    numbers = list(rollback.turn_numbers())
    found = folder.turn_numbers()
    if (not set(found) <= set(numbers)) if partial else found != numbers:
        raise GameDirError(f"{folder.turns}: rollback {rollback.number} abandoned turns {numbers[0]} to "
                           f"{numbers[-1]}, and its folder holds {_listed(found)}", folder.turns)
    turns = [read_turn(folder, gamefile, n) for n in found]
    previous: str | None = doc["to"]["hash"]
    expect = numbers[0]  # the number of the turn that ``previous`` is the hash of the turn before
    for turn in turns:
        if turn.doc["turn"] != expect:
            previous = None  # a copy lacks the turn before: the link across the gap is not checked here
        if previous is not None and turn.doc["previous"] != previous:
            raise GameDirError(f"{turn.path}: does not follow the turn before it in the abandoned branch (it names "
                               f"{turn.doc['previous']}, not {previous}): the branch does not chain from turn "
                               f"{doc['to']['turn']}", turn.path)
        expected = (index.expected(turn.doc["previous"], before=rollback.number) if index is not None
                    else turn.doc.get("rollback"))
        if turn.doc.get("rollback") != expected:
            raise GameDirError(f"{turn.path}: names the rollback {turn.doc.get('rollback')}, and the rollback it "
                               f"follows is {expected}", turn.path)
        if known is not None:
            known[turn.hash] = turn.doc["turn"]
        previous, expect = turn.hash, turn.doc["turn"] + 1
    if turns and found[-1] == numbers[-1] and turns[-1].hash != doc["head"]["hash"]:
        raise GameDirError(f"{turns[-1].path}: is not the head the rollback names ({doc['head']['hash']})",
                           turns[-1].path)
    steps = {n: path for n, _, path in folder.step_files()}
    for turn in [] if partial else turns:
        path = steps.pop(turn.doc["turn"], None)
        if path is None or sha256_ref(read_file(path)) != turn.doc["move_file"]:
            raise GameDirError(f"{folder.turns}: the file that produced abandoned turn {turn.doc['turn']} is not "
                               "kept with it (or is not the one it names)", path or folder.moves)
    if steps:
        stray = next(iter(steps.values()))
        raise GameDirError(f"{stray}: produced no turn of the abandoned branch", stray)
    if folder.seat_files():
        raise GameDirError(f"{folder.seats}: a rollback across a seat handed over is never made", folder.seats)
    seated = seats.in_force(gamedir, gamefile, turns[-1].doc, partial) if turns else gamefile
    consents: dict[str, Any] = {}
    directory = folder.root / "consents"
    names = sorted(os.listdir(directory)) if directory.is_dir() else []
    for name in names:
        path = directory / name
        data = read_file(path)
        consent = check_consent(seated, data, path, doc["to"], doc["head"])
        if name != f"{consent['player']}.json" or consent["player"] in consents:
            raise GameDirError(f"{path}: is {consent['player']}'s consent, under another name", path)
        if doc["consents"].get(consent["player"]) != sha256_ref(data):
            raise GameDirError(f"{path}: is not the consent the rollback's record names for {consent['player']}",
                               path)
        consents[consent["player"]] = consent
    check_every_seat(seated, consents, directory)
    if set(doc["consents"]) != set(consents):
        raise GameDirError(f"{rollback.record.path}: names consents of {', '.join(sorted(doc['consents']))}, and "
                           f"its folder holds those of {', '.join(sorted(consents))}", rollback.record.path)
    return 1 + len(turns) * 2 + len(consents)


def _listed(numbers: list[int]) -> str:
    return f"turns {numbers[0]} to {numbers[-1]}" if numbers else "no turn"


def abandoned_point(rollbacks: list[Rollback], gamefile: GameFile, turn: int, turn_hash: str,
                    after: int = 0) -> Rollback | None:
    """The first rollback after number ``after`` whose abandoned branch holds turn ``turn`` with ``turn_hash``."""
    for rollback in rollbacks:
        if rollback.number <= after or turn not in rollback.turn_numbers():
            continue
        if rollback.head["turn"] == turn and rollback.head["hash"] == turn_hash:
            return rollback
        try:
            if read_turn(rollback.folder, gamefile, turn).hash == turn_hash:
                return rollback
        except GameDirError:
            continue
    return None


def rolled_back(gamedir: GameDir, gamefile: GameFile, latest: Record, turn: int, turn_hash: str,
                partial: bool = False) -> str | None:
    """Whether turn ``turn`` (hash ``turn_hash``), which the chain ending in ``latest`` no longer holds, was
    abandoned by rollbacks, each with every seat's consent, that lead back to a turn the chain holds: ``None``
    if so, else why not (the anchor's question, :meth:`pbem.referee.head.Anchors.check`)."""
    try:
        rollbacks = read_rollbacks(gamedir, gamefile)
    except GameDirError as error:
        return f"and the rollbacks cannot be read: {error}"
    after = 0
    while True:
        rollback = abandoned_point(rollbacks, gamefile, turn, turn_hash, after)
        if rollback is None:
            return "and no rollback by consent abandoned it"
        try:
            check_rollback(gamedir, gamefile, rollback, partial=partial)
        except GameDirError as error:
            return f"and rollback {rollback.number}, which abandoned it, does not hold: {error}"
        turn, turn_hash, after = rollback.to["turn"], rollback.to["hash"], rollback.number
        if chain_problem(gamedir, gamefile, latest, turn, turn_hash) is None:
            return None
        if partial and not os.path.lexists(gamedir.turn(turn)) and latest.doc["turn"] >= turn:
            return None  # a copy that lacks the turn returned to: the link is checked once it holds it


def refuse_if_cut_short(gamedir: GameDir) -> None:
    """No step is taken while a rollback is cut short (its turns half moved): :class:`UndoRefused`."""
    if os.path.lexists(gamedir.rollback_in_progress):
        raise UndoRefused(f"{gamedir.rollback_in_progress}: a rollback was cut short; run `pbem undo apply "
                          f"{gamedir.root} --referee-key KEY` again to complete it before any step")

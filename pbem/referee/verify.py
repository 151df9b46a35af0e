"""``pbem verify``: check a game directory without any private key.

Always checked, stopping at the first bad file (which the report names):

* the game directory holds no symbolic link (pbem writes none; whoever can
  write where a game directory lives can put one there, to have a referee or
  a player read or write outside the game);
* ``game.toml`` is a ``pbem-game/1`` document written exactly as pbem writes
  it; for a test game (seed published) its commitment, game id and game
  recipient follow from the seed; a ``--cards`` file kept in ``cards/`` has
  the SHA-256 that ``game.toml`` names;
* a game that waits for joins: ``pending.json`` is signed by the referee, and
  every join file is a ``pbem-join/3`` of this game by its seated player,
  signed by that player, answering this ``game.toml``, of the round its name
  says; every nonce matches its player's commitment, and none is there
  while a commitment is missing; once dealt, turn 0 names the SHA-256 of
  the bytes of both join files of every player;
* the turn files are numbered 0, 1, 2... with no gap; each is a
  ``pbem-turn/3`` document of this game, byte for byte as pbem writes it,
  names the hash of ``game.toml``, is signed by the referee key of
  ``game.toml``, and names the hash of the turn before it (``null`` for turn 0);
* each turn after 0 names the hash of the move that produced it and the
  SHA-256 of its bytes, and ``moves/NNNNNN-PLAYER.json`` is that move: a
  ``pbem-move/1`` document of this game by the seated player, signed by the
  key that held the seat then, answering an earlier turn; or, for a turn
  the referee produced (``referee_step``), its signed timeout record (the
  decision was open with that deadline, and the referee acted at or after
  it) or seat record (naming the key that held the seat, which later moves
  are then checked against); nothing else is in ``moves/``, ``timeouts/``
  or ``seats/``: a file there that produced no turn of the chain (another
  name, a folder, turn 0, a turn not in the chain) is no part of the record,
  and every such file is named;
* in a game with deadlines every turn records the referee's clock, and the
  recorded times never go backwards; a game without records none;
* a seed published in a turn or in ``reveal.json`` matches the commitment;
  ``reveal.json`` is signed and names the latest turn;
* each player's ``views/`` files hold the player's section of the latest
  turn, signed by the referee; each rejection notice is signed by the referee;
* the referee's head (``head.json``, which a transport writes), when there is
  one, is signed by the referee, of this game, and names a turn of the chain
  with that turn's hash: a directory that lost the latest turn the referee
  wrote fails here (:mod:`pbem.referee.head`).

With ``replay=True`` and the seed known (published in the final turn, in
``reveal.json``, or a test seed), :mod:`pbem.referee.replay` also rebuilds
every turn from ``game.toml``, the seed, the joins and the moves alone and
compares them byte for byte. Before the seed is revealed, a replay is not
possible: the report says that only signatures and the hash chain were checked.

The replay goes along with the checks, turn by turn, so that neither keeps
the game's turns and moves (a long game's replay takes the memory of a
short one's), and reports what a replay after every check would: any check
above that fails is named before a difference the replay found, which is
held until the checks are done; and the seed the replay started with
(peeked at in the latest turn or ``reveal.json`` before they are checked)
must be the seed the checks find, else the game is replayed again with it.

**A player's copy** fed by mail (``copy.json``, :mod:`pbem.referee.copies`)
holds what its mails carried: some of the turns, the seat records, the
card file, the join files of the invitations and the referee's head, but no
move file, no view, no timeout record and no ``pending.json``. Every file it
holds is checked as above (each turn: the referee's signature, its layout,
this game and ``game.toml``, the turn before it when the copy holds that
one, the times, the seat records it names, the seed it publishes; the
head: a turn the copy holds must have the hash the head names); what it
cannot hold is listed in the report as not checked (:class:`CopyReport`),
never taken as checked: the turns it lacks and the links of the chain
across them, the files that produced each turn, ``pending.json``, a head
that names a turn the copy does not hold (newer turns, or the latest one
dropped), and the replay. A copy can never pass for the whole record:
``verify`` says what it is.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pbem.crypto.canonical import parse_json_strict, sha256_ref
from pbem.crypto.errors import CryptoError, SignatureError
from pbem.crypto.signing import verify_document
from pbem.referee import copies, formats, keying, sealing, seats, timeouts
from pbem.referee.copies import TurnRange, turns_text
from pbem.referee.core import MOVE_MAX_BYTES
from pbem.referee.deadlines import recorded_time_problem
from pbem.referee.deal import cards_path
from pbem.referee.errors import GameDirError, RefereeError, VerificationFailed
from pbem.referee.gamefile import GameFile, Handover
from pbem.referee.head import Head, compare, head_path, read_head
from pbem.referee.joins import COMMIT, REVEAL, Joins, check_join, joined
from pbem.referee.layout import GameDir, step_file_name
from pbem.referee.pipeline import UNKNOWN_SENDER
from pbem.referee.records import Record, check_layout, read_record
from pbem.referee.replay import CheckedMove, Replay, checked_turn, move_file, replay_game
from pbem.referee.rollback import Rollbacks, check_rollback, read_rollbacks

#: the note of a verification that could not replay the game
NO_REPLAY_NOTE = (
    "the seed is not revealed yet (the game is running): checked signatures and the hash chain only; "
    "the full replay is possible once the game ends or the referee runs `pbem reveal`"
)


@dataclass(frozen=True)
class VerifyReport:
    """What ``verify`` checked."""

    game_id: str | None
    turns: int
    moves: int
    files: int
    #: whether every turn was rebuilt from the revealed seed and compared byte for byte
    replayed: bool = False
    #: what was not checked, and why
    note: str | None = None
    #: a ``--seed`` test game: its seed is published in game.toml
    test_seed: bool = False
    #: a player's copy (``copy.json``): what it holds and what could not be checked in it
    copy: CopyReport | None = None


@dataclass(frozen=True)
class CopyReport:
    """What ``verify`` found of a player's copy: the turns it holds and lacks, its head, what it could not check."""

    latest: int | None
    missing: tuple[TurnRange, ...]
    head: Head | None
    #: each thing a copy cannot hold, that was therefore not checked, in a sentence
    not_checked: tuple[str, ...]

    @property
    def behind(self) -> bool:
        return self.head is not None and (self.latest is None or self.head.turn > self.latest)

    def to_json(self) -> dict[str, object]:
        head = self.head
        return {"latest_turn": self.latest, "missing_turns": [list(r) for r in self.missing],
                "head": None if head is None else {"turn": head.turn, "turn_hash": head.turn_hash, "time": head.time},
                "behind": self.behind, "not_checked": list(self.not_checked)}


def _fail(message: str, path: Path | str) -> VerificationFailed:
    return VerificationFailed(message, str(path))


def _same_layout(record: Record) -> None:
    """A file pbem wrote must be exactly the bytes pbem writes for its document."""
    try:
        check_layout(record)
    except GameDirError as error:
        raise VerificationFailed(str(error), str(record.path)) from error


def _referee_record(path: Path, fmt: str, gamefile: GameFile) -> Record:
    """A file the referee signed, read and checked to be exactly the bytes pbem writes."""
    try:
        record = read_record(path, fmt, gamefile.referee, layout=True)
    except GameDirError as error:
        raise VerificationFailed(str(error), str(path)) from error
    _same_layout(record)
    return record


def verify(directory: str | Path, replay: bool = False, progress: Callable[[str], None] | None = None) -> VerifyReport:
    """Check every signature and the hash chain; raise :class:`VerificationFailed` at the first bad file.

    With ``replay``, also rebuild every turn from the revealed seed (see the
    module docstring); ``progress`` is told each turn replayed.
    """
    gamedir = GameDir.at(directory)
    try:
        gamedir.refuse_all_symlinks()
    except GameDirError as error:
        raise VerificationFailed(str(error), error.path) from error
    try:
        gamefile = GameFile.read(gamedir.game_toml)
    except GameDirError as error:
        raise VerificationFailed(str(error), str(gamedir.game_toml)) from error
    if gamedir.game_toml.read_bytes() != gamefile.to_toml():
        raise _fail(f"{gamedir.game_toml}: is not byte for byte what pbem wrote", gamedir.game_toml)
    if gamefile.cards is not None:
        try:
            cards_path(gamedir, gamefile)
        except GameDirError as error:
            raise VerificationFailed(str(error), str(gamedir.cards / gamefile.cards["file"])) from error
    _check_test_seed(gamefile, gamedir)
    try:
        marked = copies.is_marked(gamedir, gamefile)
    except GameDirError as error:
        raise VerificationFailed(str(error), str(copies.copy_path(gamedir))) from error
    if marked:
        return _check_copy(gamedir, gamefile, replay)
    replaying = _Replaying(gamedir, gamefile, progress) if replay else None
    try:
        report, seed = _check_records(gamedir, gamefile, replaying)
    except VerificationFailed:
        # A game.toml changed after the referee signed its records fails one of them; which file to
        # blame is looked into then, so that a sound directory's records are not read twice.
        _check_game_toml_is_the_signed_one(gamedir, gamefile)
        raise
    if replaying is None:
        return report
    if seed is None:
        return VerifyReport(**{**report.__dict__, "note": NO_REPLAY_NOTE})
    replaying.finish(seed)
    return VerifyReport(**{**report.__dict__, "replayed": True})


class _Replaying:
    """The replay as ``verify`` runs it: along with the checks, turn by turn, its first difference held.

    It starts with the seed as the directory shows it before any check
    (:func:`_peeked_seed`); :meth:`finish` is told the seed the checks found.
    """

    def __init__(self, gamedir: GameDir, gamefile: GameFile, progress: Callable[[str], None] | None) -> None:
        self.gamedir, self.gamefile, self.progress = gamedir, gamefile, progress
        self.seed: bytes | None = None
        self.replay: Replay | None = None
        #: the replay's first difference, raised once every check has passed
        self.failure: VerificationFailed | None = None

    def start(self, numbers: list[int]) -> None:
        """Before the first turn is checked: start the replay with the peeked seed, if there is one."""
        self.seed = _peeked_seed(self.gamedir, self.gamefile, numbers)
        if self.seed is None:
            return
        try:
            self.replay = Replay(self.gamedir, self.gamefile, self.seed, numbers[-1] if numbers else None,
                                 self.progress)
        except VerificationFailed as failure:
            self.failure = failure

    def turn(self, turn: Record, step: tuple[str, Path] | None, move: CheckedMove | None) -> None:
        """Turn ``turn`` has passed its checks: replay it (after an earlier difference, nothing is)."""
        if self.replay is None or self.failure is not None or not self.replay.dealt:
            return
        try:
            self.replay.turn(turn, step, move)
        except VerificationFailed as failure:
            self.failure = failure

    def finish(self, seed: bytes) -> None:
        """Every check has passed and found ``seed``: raise the replay's first difference, if it found one.

        A replay that started with another seed (or with none) is done again
        with this one, from the files.
        """
        if seed != self.seed:
            replay_game(self.gamedir, self.gamefile, seed, progress=self.progress)
        elif self.failure is not None:
            raise self.failure


def _peeked_seed(gamedir: GameDir, gamefile: GameFile, numbers: list[int]) -> bytes | None:
    """The seed as the directory shows it, before any check: the test seed, the latest turn's or ``reveal.json``'s.

    The checks find the seed from the same places, checked; what is read
    here is only where the replay starts (:meth:`_Replaying.finish`).
    """
    if gamefile.test_seed is not None:
        return gamefile.test_seed
    places = ([gamedir.turn(numbers[-1])] if numbers else []) + [gamedir.reveal]
    for path in places:
        try:
            doc = parse_json_strict(path.read_bytes())
            seed = bytes.fromhex(doc["seed"])
        except (OSError, CryptoError, TypeError, KeyError, ValueError):
            continue
        if seed:
            return seed
    return None


def _check_records(gamedir: GameDir, gamefile: GameFile, replaying: _Replaying | None
                   ) -> tuple[VerifyReport, bytes | None]:
    """Every file but ``game.toml``, checked in order, each turn handed to ``replaying`` once checked; the
    report and the seed."""
    files = 1
    joins = _check_joins(gamedir, gamefile)
    files += (len(joins.commits) + len(joins.reveals) + 1) if joins is not None else 0

    numbers = gamedir.turn_numbers()
    if not numbers and not gamefile.waits_for_joins:
        raise _fail(f"{gamedir.turns}: no turn files", gamedir.turns)
    if numbers != list(range(len(numbers))):
        missing = next(n for n in range(len(numbers) + 1) if n not in numbers)
        raise _fail(f"turn {missing} is missing from the chain", gamedir.turn(missing))
    steps = _step_files(gamedir, len(numbers) - 1)
    seated = gamefile  # with the seat records in force at each turn, as the loop goes on
    previous: Record | None = None
    published: bytes | None = None
    moves: dict[int, CheckedMove] = {}  # the move of the turn being checked, for the replay to apply
    rollbacks = _read_rollbacks(gamedir, gamefile)
    known: dict[str, int] = {}  # a game with rollbacks: every turn's hash, live or abandoned, and its number
    if replaying is not None:
        replaying.start(numbers)
    for number in numbers:
        turn = checked_turn(gamedir, gamefile, number)
        files += 1
        expected_previous = previous.hash if previous is not None else None
        if turn.doc["previous"] != expected_previous:
            raise _fail(
                f"{turn.path}: names {turn.doc['previous']} as the previous turn, "
                f"but the previous turn's hash is {expected_previous}",
                turn.path,
            )
        named = rollbacks.expected(expected_previous) if rollbacks is not None else None
        if turn.doc.get("rollback") != named:
            raise _fail(f"{turn.path}: names the rollback {turn.doc.get('rollback')}, but the rollback by consent "
                        f"that returned the game to the turn before it is {named}", turn.path)
        if rollbacks is not None:
            known[turn.hash] = number
        problem = recorded_time_problem(gamefile.deadlines is not None, turn.doc, previous.doc if previous is not None else None)
        if problem:
            raise _fail(f"{turn.path}: {problem}", turn.path)
        _check_turn_joins(gamedir, gamefile, turn, joins)
        step = steps.pop(number, None)
        seated = _check_step(gamedir, seated, turn, previous, step, moves if replaying is not None else None)
        in_force = [{"player": h.player, "turn": h.turn} for h in seated.handovers]
        if turn.doc.get("seats", []) != in_force:
            raise _fail(f"{turn.path}: names the seat records {turn.doc.get('seats', [])} as in force, but the seat "
                        f"records of the turns up to it are {in_force}", turn.path)
        published = _check_published_seed(gamefile, turn, last=number == numbers[-1]) or published
        if number:
            files += 1
        if replaying is not None:
            replaying.turn(turn, step, moves.pop(number, None))
        previous = turn
    if rollbacks is not None:
        files += _check_rollbacks(gamedir, gamefile, rollbacks, known)
    if previous is not None:
        files += _check_views(gamedir, gamefile, previous)
    files += _check_head(gamedir, gamefile, previous)
    files += _check_rejections(gamedir, gamefile)
    revealed = _check_reveal(gamedir, gamefile, previous)
    files += 1 if revealed is not None else 0

    report = VerifyReport(game_id=gamefile.game_id, turns=len(numbers), moves=max(len(numbers) - 1, 0), files=files,
                          test_seed=gamefile.test_seed is not None)
    return report, gamefile.test_seed or published or revealed


def _read_rollbacks(gamedir: GameDir, gamefile: GameFile) -> Rollbacks | None:
    """The game's rollbacks by consent, their records checked; ``None`` for a game without ``abandoned/``."""
    if not os.path.lexists(gamedir.abandoned):
        return None
    try:
        return Rollbacks(read_rollbacks(gamedir, gamefile))
    except GameDirError as error:
        raise VerificationFailed(str(error), error.path) from error


def _check_rollbacks(gamedir: GameDir, gamefile: GameFile, rollbacks: Rollbacks, known: dict[str, int]) -> int:
    """Every rollback: every seat's consent, and the branch it abandoned, chained from a turn of some chain
    (:func:`pbem.referee.rollback.check_rollback`); the files checked."""
    if os.path.lexists(gamedir.rollback_in_progress):
        raise _fail(f"{gamedir.rollback_in_progress}: a rollback was cut short (pbem undo apply completes it)",
                    gamedir.rollback_in_progress)
    files = 0
    for rollback in rollbacks.all:
        try:
            files += check_rollback(gamedir, gamefile, rollback, rollbacks, known)
        except GameDirError as error:
            raise VerificationFailed(f"rollback {rollback.number}: {error}", error.path) from error
    for rollback in rollbacks.all:
        to = rollback.to
        if known.get(to["hash"]) != to["turn"]:
            raise _fail(f"{rollback.record.path}: returns to turn {to['turn']} ({to['hash']}), which is in no chain "
                        "of the game (neither the live one nor an abandoned one)", rollback.record.path)
    return files


def _check_head(gamedir: GameDir, gamefile: GameFile, latest: Record | None) -> int:
    """The referee's head (``head.json``), when the directory holds one: signed by the referee, of this game, and
    naming a turn of the chain with its hash (a directory that lost the latest turn the referee wrote says so)."""
    try:
        head = read_head(gamedir, gamefile)
    except GameDirError as error:
        raise VerificationFailed(str(error), str(head_path(gamedir))) from error
    if head is None:
        return 0
    why = (f"the referee's head ({head.describe()}) names a turn, and the directory holds none" if latest is None
           else compare(gamedir, gamefile, head, latest))
    if why is not None:
        raise _fail(f"{head_path(gamedir)}: {why}", head_path(gamedir))
    return 1


def _check_game_toml_is_the_signed_one(gamedir: GameDir, gamefile: GameFile) -> None:
    """Blame ``game.toml`` itself when the referee's signed records disagree with it.

    Every signed record names the hash of ``game.toml``. If records signed by
    the referee key of ``game.toml`` exist and none of them names its hash, or
    if none of several records verifies with that key (the key in
    ``game.toml`` was changed), ``game.toml`` is the file that changed;
    otherwise an odd record is named when it is checked.
    """
    anchors = [gamedir.pending, *(gamedir.turn(n) for n in gamedir.turn_numbers()), gamedir.reveal]
    matching = other = failed = 0
    for path in anchors:
        try:
            doc = parse_json_strict(path.read_bytes(), max_bytes=64 << 20)
        except (OSError, CryptoError):
            continue
        if not isinstance(doc, dict) or "signature" not in doc:
            continue
        try:
            verify_document(doc, gamefile.referee)
        except SignatureError:
            failed += 1
            continue
        if doc.get("game") == gamefile.hash():
            matching += 1
        else:
            other += 1
    if (other and not matching) or (failed >= 2 and not matching and not other):
        raise _fail(f"{gamedir.game_toml}: is a different game.toml from the one the referee signed its records for",
                    gamedir.game_toml)


def _check_test_seed(gamefile: GameFile, gamedir: GameDir) -> None:
    seed = gamefile.test_seed
    if seed is None:
        return
    where = str(gamedir.game_toml)
    if keying.commitment(seed) != gamefile.commitment:
        raise VerificationFailed(f"{where}: the published test seed does not match the commitment", where)
    if keying.game_id(seed) != gamefile.game_id:
        raise VerificationFailed(f"{where}: the game id does not follow from the published test seed", where)
    if sealing.game_recipient(seed) != gamefile.game_recipient:
        raise VerificationFailed(f"{where}: the game recipient does not follow from the published test seed", where)


def _check_joins(gamedir: GameDir, gamefile: GameFile) -> Joins | None:
    """``pending.json`` and the join files of both rounds; returns them (``None`` for a game that did not wait)."""
    found = gamedir.join_files()
    if not gamefile.waits_for_joins:
        if found:
            path = next(iter(found.values()))
            raise _fail(f"{path}: a join file in a game that did not wait for joins", path)
        if gamedir.pending.exists():
            raise _fail(f"{gamedir.pending}: a pending seed in a game that did not wait for joins", gamedir.pending)
        return None
    pending = _referee_record(gamedir.pending, formats.PENDING, gamefile)
    if pending.doc["game_id"] != gamefile.game_id or pending.doc["game"] != gamefile.hash():
        raise _fail(f"{gamedir.pending}: belongs to another game", gamedir.pending)
    for (player, _round), path in found.items():
        if gamefile.player_key(player) is None:
            raise _fail(f"{path}: {player} is not seated in this game", path)
    try:
        joins = joined(gamedir, gamefile)
    except GameDirError as error:
        raise VerificationFailed(str(error), error.path) from error
    if joins.reveals and joins.round(gamefile) == COMMIT:
        path = gamedir.join(next(iter(joins.reveals)), REVEAL)
        raise _fail(f"{path}: a nonce was taken before every player had committed "
                    f"(no commitment of {', '.join(joins.waiting(gamefile))})", path)
    return joins


def _check_turn_joins(gamedir: GameDir, gamefile: GameFile, turn: Record, joins: Joins | None) -> None:
    recorded = turn.doc["joins"]
    if turn.doc["turn"] != 0 or joins is None:
        if recorded is not None:
            raise _fail(f"{turn.path}: names join files, but only the deal of a game that waits for joins does", turn.path)
        return
    if recorded is None or set(recorded) != set(gamefile.player_names):
        raise _fail(f"{turn.path}: the deal does not name every player's join files", turn.path)
    for player in gamefile.player_names:
        for round_name, kept in ((COMMIT, joins.commits), (REVEAL, joins.reveals)):
            path = gamedir.join(player, round_name)
            if player not in kept:
                raise _fail(f"{path}: missing, but turn 0 was dealt with it", path)
            if sha256_ref(kept[player][1]) != recorded[player][round_name]:
                raise _fail(f"{path}: is not the join file that turn 0 was dealt with", path)


def _check_published_seed(gamefile: GameFile, turn: Record, last: bool) -> bytes | None:
    text = turn.doc["seed"]
    if text is None:
        return None
    seed = bytes.fromhex(text)
    if not last:
        raise _fail(f"{turn.path}: publishes the seed, but the game went on after it", turn.path)
    if keying.commitment(seed) != gamefile.commitment:
        raise _fail(f"{turn.path}: the published seed does not match the commitment in game.toml", turn.path)
    return seed


def _check_reveal(gamedir: GameDir, gamefile: GameFile, latest: Record | None) -> bytes | None:
    if not gamedir.reveal.exists():
        return None
    path = gamedir.reveal
    record = _referee_record(path, formats.REVEAL, gamefile)
    doc = record.doc
    if doc["game_id"] != gamefile.game_id or doc["game"] != gamefile.hash():
        raise _fail(f"{path}: belongs to another game", path)
    seed = bytes.fromhex(doc["seed"])
    if keying.commitment(seed) != gamefile.commitment:
        raise _fail(f"{path}: the revealed seed does not match the commitment in game.toml", path)
    number = latest.doc["turn"] if latest is not None else None
    latest_hash = latest.hash if latest is not None else None
    if doc["turn"] != number or doc["turn_hash"] != latest_hash:
        raise _fail(f"{path}: names turn {doc['turn']}, but the latest turn is {number} (moves after the reveal?)", path)
    return seed


#: the most stray files one message names
STRAYS_NAMED = 20


def _step_files(gamedir: GameDir, latest: int) -> dict[int, tuple[str, Path]]:
    """turn -> (player, path) of the file that produced it: a move, a timeout record or a seat record.

    Each file of ``moves/``, ``timeouts/`` and ``seats/`` is named
    ``NNNNNN-PLAYER.json`` after the turn it produced, 1 to ``latest`` (turn
    0 is the deal, which no file produced). Anything else there (another
    name, a folder, a file naming turn 0 or a turn the chain does not hold)
    is no part of the record: someone else put it there, and every such file
    is named at once, so that one look shows what to remove. Each folder is
    listed once.
    """
    found: dict[int, tuple[str, Path]] = {}
    strays: list[tuple[Path, str]] = []
    seconds: list[tuple[Path, int, Path]] = []
    for folder in (gamedir.moves, gamedir.timeouts, gamedir.seats):
        try:
            listing = os.scandir(folder)
        except (FileNotFoundError, NotADirectoryError):
            continue
        with listing:
            entries = sorted(listing, key=lambda entry: entry.name)
        for entry in entries:
            path = Path(entry.path)
            named = step_file_name(entry.name)
            if not entry.is_file(follow_symlinks=False):
                strays.append((path, "a folder (or another entry that is not a file)"))
            elif named is None:
                strays.append((path, "not named NNNNNN-PLAYER.json after the turn it produced"))
            elif named[0] == 0:
                strays.append((path, "turn 0 is the deal, which no file produced"))
            elif named[0] > latest:
                strays.append((path, f"a {_what(gamedir, path)} with no turn {named[0]}"))
            elif named[0] in found:
                seconds.append((path, named[0], found[named[0]][1]))
            else:
                found[named[0]] = (named[1], path)
    if len(strays) == 1:
        path, why = strays[0]
        raise _fail(f"{path}: no part of the record ({why}): remove it", path)
    if strays:
        strays.sort()
        listed = "; ".join(f"{path}: {why}" for path, why in strays[:STRAYS_NAMED])
        more = f"; and {len(strays) - STRAYS_NAMED} more" if len(strays) > STRAYS_NAMED else ""
        raise _fail(f"{len(strays)} files are no part of the record (remove them): {listed}{more}", strays[0][0])
    if seconds:
        path, number, first = min(seconds)
        raise _fail(f"{path}: a second file that produced turn {number} (besides {first})", path)
    return found


def _what(gamedir: GameDir, path: Path) -> str:
    return {gamedir.timeouts: "timeout record", gamedir.seats: "seat record"}.get(path.parent, "move file")


def _check_step(gamedir: GameDir, gamefile: GameFile, turn: Record, previous: Record | None,
                found: tuple[str, Path] | None, moves: dict[int, CheckedMove] | None = None) -> GameFile:
    """The file that produced ``turn``; returns ``gamefile`` with the seat records in force after it.

    A move file, once checked, goes into ``moves`` (if given) under the turn it produced.
    """
    act = turn.doc.get("referee_step")
    if act is None:
        move = _check_move(gamedir, gamefile, turn, found)
        if move is not None and moves is not None:
            moves[turn.doc["turn"]] = move
        return gamefile
    number = turn.doc["turn"]
    folder = gamedir.timeouts if act["kind"] == "timeout" else gamedir.seats
    path = folder / f"{number:06d}-{act['player']}.json"
    if number == 0 or previous is None or turn.doc["mover"] is not None:
        raise _fail(f"{turn.path}: a step of the referee ({act['kind']}) names a mover, or is the deal", turn.path)
    if found is None or found[1] != path:
        raise _fail(f"{path}: the {act['kind']} record that produced turn {number} is missing", path)
    handover = _check_step_record(path, gamefile, turn, previous)
    return gamefile.with_handover(handover) if handover is not None else gamefile


def _check_step_record(path: Path, gamefile: GameFile, turn: Record, previous: Record | None) -> Handover | None:
    """The referee's record that produced ``turn`` in place of a move (``referee_step``): a timeout record,
    checked against the turn before it (``previous``, which it needs), or a seat record, against that turn's hash
    when given; the handover a seat record makes. ``gamefile``: the seat records in force before the turn."""
    act, number = turn.doc["referee_step"], turn.doc["turn"]
    handover = None
    try:
        if act["kind"] == "timeout":
            assert previous is not None
            record = timeouts.read_timeout_record(path, gamefile, number, act["player"], previous, turn.doc)
        else:
            record, handover = seats.read_seat_record(path, gamefile, number, act["player"],
                                                      previous.hash if previous is not None else None)
            if act != seats.act_of(record.doc) or record.doc.get("time") != turn.doc.get("time"):
                raise GameDirError(f"{path}: turn {number} does not describe this takeover (referee_step, time)")
    except GameDirError as error:
        raise VerificationFailed(str(error), str(path)) from error
    _same_layout(record)
    if record.hash != turn.doc["move"] or sha256_ref(record.data or b"") != turn.doc["move_file"]:
        raise _fail(f"{path}: is not the record that turn {number} names (its hash, or its bytes)", path)
    return handover


def _check_move(gamedir: GameDir, gamefile: GameFile, turn: Record, found: tuple[str, Path] | None
                ) -> CheckedMove | None:
    """The move file that produced ``turn``, checked, and the key that signed it (``None`` for the deal)."""
    number, move_hash, mover = turn.doc["turn"], turn.doc["move"], turn.doc["mover"]
    if number == 0:
        if move_hash is not None or mover is not None or turn.doc["move_file"] is not None:
            raise _fail(f"{turn.path}: turn 0 is the deal and has no move", turn.path)
        return None
    if move_hash is None or mover is None or turn.doc["move_file"] is None:
        raise _fail(f"{turn.path}: names no move that produced it", turn.path)
    if found is None:
        path = gamedir.move(number, mover)
        raise _fail(f"{path}: the move that produced turn {number} is missing", path)
    player, path = found
    if path.parent != gamedir.moves:
        raise _fail(f"{path}: turn {number} names a move by {mover}, not a {_what(gamedir, path)}", path)
    if player != mover:
        raise _fail(f"{path}: turn {number} was produced by {mover}'s move, not {player}'s", path)
    if path.stat().st_size > MOVE_MAX_BYTES:
        raise _fail(f"{path}: larger than a move may be", path)
    try:
        move = read_record(path, formats.MOVE)
    except GameDirError as error:
        raise VerificationFailed(str(error), str(path)) from error
    if move.hash != move_hash:
        raise _fail(f"{path}: its hash is not the one turn {number} names", path)
    file_hash = sha256_ref(move.data or b"")  # once: the replay's move_file is this very hash
    if file_hash != turn.doc["move_file"]:
        raise _fail(f"{path}: its bytes are not those the referee received (turn {number} names their SHA-256)", path)
    doc = move.doc
    if doc["game_id"] != gamefile.game_id or doc["player"] != mover or doc["turn"] >= number:
        raise _fail(f"{path}: names another game, player or a later turn", path)
    key = gamefile.player_key(mover)
    if key is None:
        raise _fail(f"{path}: {mover} is not seated in this game", path)
    try:
        verify_document(doc, key, move.signed)  # the canonical form its hash was computed from
    except SignatureError as error:
        raise _fail(f"{path}: bad signature: {error}", path) from error
    return CheckedMove(move, move_file(move, file_hash), key)


def _check_views(gamedir: GameDir, gamefile: GameFile, latest: Record) -> int:
    checked = 0
    for player in gamefile.player_names:
        path = gamedir.view_json(player)
        record = _referee_record(path, formats.VIEW, gamefile)
        wrapper = record.doc
        sealed = latest.doc["sealed"][player]
        if (
            wrapper["game_id"] != gamefile.game_id
            or wrapper["player"] != player
            or wrapper["turn"] != latest.doc["turn"]
            or wrapper["turn_hash"] != latest.hash
            or wrapper["sealed"] != sealed
        ):
            raise _fail(f"{path}: is not {player}'s view of the latest turn", path)
        age_path = gamedir.view_age(player)
        try:
            if age_path.read_bytes() != sealed.encode("ascii"):
                raise _fail(f"{age_path}: differs from {player}'s section of the latest turn", age_path)
        except FileNotFoundError:
            raise _fail(f"{age_path}: missing", age_path) from None
        checked += 2
    return checked


def _check_rejections(gamedir: GameDir, gamefile: GameFile) -> int:
    if not gamedir.rejected.is_dir():
        return 0
    checked = 0
    for path in sorted(gamedir.rejected.glob("*.json")):
        record = _referee_record(path, formats.REJECTION, gamefile)
        if record.doc["game_id"] != gamefile.game_id:
            raise _fail(f"{path}: a notice of another game", path)
        # the name says whose file was refused at which turn: a notice copied to another slot lies
        slot = gamedir.rejection(record.doc["turn"], record.doc["sender"] or UNKNOWN_SENDER)
        if path.name != slot.name:
            raise _fail(f"{path}: is the notice of {slot.name} (its turn and sender), under another name", path)
        checked += 1
    return checked


# --- a player's copy ------------------------------------------------------------------------------

#: what a copy fed by mail never holds, and so what ``verify`` never checks in one
COPY_REPLAY_NOTE = ("a copy fed by mail holds no move file, so the game cannot be replayed from it: replay the "
                    "referee's directory, which the referee publishes after the game")


def _check_copy(gamedir: GameDir, gamefile: GameFile, replay: bool) -> VerifyReport:
    """Check every file a player's copy holds; list what it cannot hold as not checked (see the module docstring)."""
    files = 1 + (1 if gamefile.cards is not None else 0)
    try:
        holdings = copies.survey(gamedir, gamefile)
    except GameDirError as error:
        raise VerificationFailed(str(error), str(head_path(gamedir))) from error
    not_checked: list[str] = []
    joins = _check_copy_joins(gamedir, gamefile, not_checked)
    files += sum(len(kept) for kept in joins.values())
    numbers = holdings.numbers
    if not numbers and not gamefile.waits_for_joins:
        raise _fail(f"{gamedir.turns}: no turn files", gamedir.turns)
    steps = _step_files(gamedir, numbers[-1] if numbers else 0)
    produced_unseen: dict[str, list[int]] = {}
    previous: Record | None = None  # the latest turn checked so far (not always the one just before)
    rollbacks = _read_rollbacks(gamedir, gamefile)
    for number in numbers:
        turn = checked_turn(gamedir, gamefile, number)
        files += 1
        named = rollbacks.expected(turn.doc["previous"]) if rollbacks is not None else None
        if turn.doc.get("rollback") != named:
            raise _fail(f"{turn.path}: names the rollback {turn.doc.get('rollback')}, but the rollback by consent "
                        f"that returned the game to the turn before it is {named}", turn.path)
        adjacent = previous is not None and previous.doc["turn"] == number - 1
        if number == 0 and turn.doc["previous"] is not None:
            raise _fail(f"{turn.path}: turn 0 names a previous turn", turn.path)
        if adjacent and turn.doc["previous"] != previous.hash:  # type: ignore[union-attr]
            raise _fail(f"{turn.path}: names {turn.doc['previous']} as the previous turn, but the previous turn's "
                        f"hash is {previous.hash}", turn.path)  # type: ignore[union-attr]
        problem = recorded_time_problem(gamefile.deadlines is not None, turn.doc,
                                        previous.doc if previous is not None else None)
        if problem:
            raise _fail(f"{turn.path}: {problem}", turn.path)
        if number == 0:
            _check_copy_deal(gamedir, gamefile, turn, joins, not_checked)
        else:
            what = _check_copy_step(gamedir, gamefile, turn, previous if adjacent else None, steps.pop(number, None))
            if what is not None:
                produced_unseen.setdefault(what, []).append(number)
            else:
                files += 1
        try:
            seats.in_force(gamedir, gamefile, turn.doc, partial=True)
        except GameDirError as error:
            raise VerificationFailed(str(error), error.path) from error
        if turn.doc["seed"] is not None:
            if number != numbers[-1]:
                raise _fail(f"{turn.path}: publishes the seed, but the game went on after it", turn.path)
            _check_published_seed(gamefile, turn, last=True)
        previous = turn
    # what is left produced a turn the copy lacks: a seat record, which the turns held name and in_force checked
    files += len(gamedir.seat_files())
    for rollback in rollbacks.all if rollbacks is not None else []:
        try:
            files += check_rollback(gamedir, gamefile, rollback, rollbacks, partial=True)
        except GameDirError as error:
            raise VerificationFailed(f"rollback {rollback.number}: {error}", error.path) from error
    if holdings.missing:
        not_checked.append(f"{turns_text(holdings.missing)}: not in this copy (pbem mail request asks the referee for "
                           "them), nor the links of the chain across them")
    for what, produced in produced_unseen.items():
        not_checked.append(f"the {what} that produced {turns_text(copies.ranges_of(produced))}: a copy fed by mail "
                           "holds none (the referee's directory does)")
    files += _check_copy_head(gamedir, gamefile, holdings, not_checked)
    files += _check_kept_heads(gamedir, gamefile, holdings)
    if gamedir.views.is_dir() and previous is not None:
        files += _check_views(gamedir, gamefile, previous)
    files += _check_rejections(gamedir, gamefile)
    revealed = _check_reveal(gamedir, gamefile, previous) if previous is not None and not holdings.behind else None
    files += 1 if revealed is not None else 0
    note = COPY_REPLAY_NOTE if replay else None
    if replay:
        not_checked.append("the replay: " + COPY_REPLAY_NOTE)
    copy = CopyReport(latest=holdings.latest, missing=tuple(holdings.missing), head=holdings.head,
                      not_checked=tuple(not_checked))
    return VerifyReport(game_id=gamefile.game_id, turns=len(numbers), moves=0, files=files, note=note,
                        test_seed=gamefile.test_seed is not None, copy=copy)


def _check_copy_joins(gamedir: GameDir, gamefile: GameFile, not_checked: list[str]) -> dict[str, dict[str, bytes]]:
    """The join files a copy holds (an invitation carries them), each checked; ``{round: {player: bytes}}``."""
    found = gamedir.join_files()
    if not gamefile.waits_for_joins:
        if found:
            path = next(iter(found.values()))
            raise _fail(f"{path}: a join file in a game that did not wait for joins", path)
        return {}
    not_checked.append("pending.json: the referee's sealed seed before the deal, which only the referee's directory "
                       "holds")
    kept: dict[str, dict[str, bytes]] = {COMMIT: {}, REVEAL: {}}
    for (player, round_name), path in found.items():
        data = path.read_bytes()
        try:
            doc = check_join(gamefile, data)
        except RefereeError as error:
            raise _fail(f"{path}: {error}", path) from error
        if doc["player"] != player or doc["round"] != round_name:
            raise _fail(f"{path}: is the join file of {doc['player']} ({doc['round']}), under another name", path)
        kept[round_name][player] = data
    return kept


def _check_copy_deal(gamedir: GameDir, gamefile: GameFile, turn: Record, joins: dict[str, dict[str, bytes]],
                     not_checked: list[str]) -> None:
    """Turn 0 of a copy: the deal, with no move; the join files it names that the copy holds, compared."""
    if turn.doc["move"] is not None or turn.doc["mover"] is not None or turn.doc["move_file"] is not None:
        raise _fail(f"{turn.path}: turn 0 is the deal and has no move", turn.path)
    recorded = turn.doc["joins"]
    if not gamefile.waits_for_joins:
        if recorded is not None:
            raise _fail(f"{turn.path}: names join files, but only the deal of a game that waits for joins does",
                        turn.path)
        return
    if recorded is None or set(recorded) != set(gamefile.player_names):
        raise _fail(f"{turn.path}: the deal does not name every player's join files", turn.path)
    absent = []
    for player in gamefile.player_names:
        for round_name in (COMMIT, REVEAL):
            data = joins.get(round_name, {}).get(player)
            if data is None:
                absent.append(f"{player}.{round_name}")
            elif sha256_ref(data) != recorded[player][round_name]:
                path = gamedir.join(player, round_name)
                raise _fail(f"{path}: is not the join file that turn 0 was dealt with", path)
    if absent:
        not_checked.append(f"the join files the deal names that this copy does not hold ({', '.join(absent)}): "
                           "the invitations carry the commitments, the referee's directory all of them")


def _check_copy_step(gamedir: GameDir, gamefile: GameFile, turn: Record, previous: Record | None,
                     found: tuple[str, Path] | None) -> str | None:
    """The file that produced a turn of a copy, checked when the copy holds it (a seat record, which every mail
    carries; a move or timeout record a player put there), else what kind of file it is, which goes unchecked.
    ``previous`` is the turn before, when the copy holds it."""
    act = turn.doc.get("referee_step")
    number = turn.doc["turn"]
    seated = _seated_before(gamedir, gamefile, turn)
    if act is None:
        if found is None:
            if turn.doc["move"] is None or turn.doc["mover"] is None or turn.doc["move_file"] is None:
                raise _fail(f"{turn.path}: names no move that produced it", turn.path)
            return "moves"
        _check_move(gamedir, seated, turn, found)
        return None
    if turn.doc["mover"] is not None:
        raise _fail(f"{turn.path}: a step of the referee ({act['kind']}) names a mover", turn.path)
    timeout = act["kind"] == "timeout"
    if timeout and (found is None or previous is None):  # a timeout record is checked against the turn before
        return "timeout records"
    path = gamedir.timeout(number, act["player"]) if timeout else gamedir.seat(number, act["player"])
    if found is None or found[1] != path:
        raise _fail(f"{path}: the {act['kind']} record that produced turn {number} is missing", path)
    _check_step_record(path, seated, turn, previous)
    return None


def _seated_before(gamedir: GameDir, gamefile: GameFile, turn: Record) -> GameFile:
    """``game.toml`` with the seat records in force before ``turn``: those it names but its own, each checked."""
    number, seated = turn.doc["turn"], gamefile
    try:
        for entry in turn.doc.get("seats", []):
            if entry["turn"] != number:
                _record, handover = seats.read_seat_record(gamedir.seat(entry["turn"], entry["player"]), seated,
                                                           entry["turn"], entry["player"])
                seated = seated.with_handover(handover)
    except GameDirError as error:
        raise VerificationFailed(str(error), error.path) from error
    return seated


def _check_kept_heads(gamedir: GameDir, gamefile: GameFile, holdings: copies.Holdings) -> int:
    """Every head a copy kept (``heads/``): signed by the referee, of this game, named after its turn, and naming
    a turn the copy holds with that turn's hash (one the copy lacks is a turn not checked, listed already)."""
    kept = copies.kept_heads(gamedir)
    for number in kept:
        path = copies.kept_head_path(gamedir, number)
        try:
            head = copies.read_kept_head(gamedir, gamefile, number)
        except GameDirError as error:
            raise VerificationFailed(str(error), str(path)) from error
        if head is not None and holdings.has(number) and checked_turn(gamedir, gamefile, number).hash != head.turn_hash:
            raise _fail(f"{path}: the referee's head of turn {number} names another hash than the turn this copy "
                        "holds: the referee signed two histories", path)
    return len(kept)


def _check_copy_head(gamedir: GameDir, gamefile: GameFile, holdings: copies.Holdings, not_checked: list[str]) -> int:
    """The head a copy holds: the turn it names, when the copy holds it, has its hash; else it goes unchecked."""
    head = holdings.head
    if head is None:
        not_checked.append("the referee's head: this copy holds none (every mail from the referee carries one), so "
                           "nothing here says how far the game has gone")
        return 0
    path = head_path(gamedir)
    if holdings.has(head.turn):
        held = checked_turn(gamedir, gamefile, head.turn)
        if held.hash != head.turn_hash:
            raise _fail(f"{path}: the referee's head ({head.describe()}, {head.turn_hash}) names a turn this copy "
                        f"holds with another hash ({held.hash}): the referee signed two histories", path)
        return 1
    if holdings.behind:
        not_checked.append(f"turn {head.turn}, the latest the referee had written ({head.time}, its head): this copy "
                           f"holds turns up to {holdings.latest}; the newer ones did not arrive, or were dropped: "
                           "pbem mail request asks the referee for them")
    else:
        not_checked.append(f"turn {head.turn}, which the referee's head names ({head.time}): it is among the turns "
                           "this copy lacks")
    return 1

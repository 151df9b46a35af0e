"""``pbem verify --replay``: rebuild a whole game from its archive and the revealed seed.

Inputs, and nothing else: ``game.toml`` (and the card file it names, kept in
``cards/``), the seed (published in the final turn, in ``reveal.json``, or a
test seed), the join files, the move files, the referee's timeout and seat
records, and, in a game with deadlines, the time each turn records (the
referee's clock is an input like a move; it may never go backwards). From
them the replay

1. checks that the seed matches the commitment and yields the game id and
   the game identity of ``game.toml``;
2. rebuilds ``pending.json`` (a game that waited for joins) and turn 0 with
   ``step_rng(seed, nonces in seat order, 0)``;
3. for each move file in order: opens its sealed choices with the game
   identity, checks it as the referee must have (signature, freshness,
   awaited player, legal choices) and applies it with the referee's own code;
   a timeout record is checked (after its deadline) and answered with the
   game's default action, drawn again from the step's generator; a seat
   record hands its seat to the new key, whose sections are sealed to it;
4. rebuilds every turn file: the public part, every sealed section, the
   commitments and every hash. Sealing is deterministic (its random bytes
   come from the seed's streams, and the padding is fixed), so each section
   is checked without sealing it again: opened as its sealer
   (:func:`pbem.referee.sealing.seals`: header, stanzas and nonce rebuilt
   from the stream and compared byte for byte, the payload authenticated
   with the stream's file key) and its plaintext compared with the rebuilt
   one, padded; the referee's section is compressed, and one that another
   zlib build compressed differently is accepted if it inflates to exactly
   the rebuilt document and is padded as the rule says. Ed25519 signatures
   are deterministic too, but the replay has no referee key: the turn file
   has been checked (:func:`checked_turn`: the referee's signature over its
   canonical form, the bytes pbem writes for it), and the rebuilt document
   must have the same canonical form (:func:`compare_turn`), so the file is
   byte for byte the rebuilt document with a signature that verifies.

It stops at the first turn that differs and names its file and what differs
(``public``, ``sealed.bob``, ``commitments``...).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from pbem.crypto.canonical import canonical_json, document_hash, is_plain, parse_json_strict, sha256_ref
from pbem.crypto.errors import CryptoError, SignatureError
from pbem.crypto.keys import PublicKey
from pbem.crypto.signing import SIGNATURE_FIELD, signed_bytes, verify_document
from pbem.engine.errors import EngineError
from pbem.engine.registry import find_game
from pbem.referee import commitments, formats, keying, sealing, seats, timeouts
from pbem.referee.core import (
    REFEREE_SECTION,
    Chain,
    MoveFile,
    Played,
    Position,
    StaticMembers,
    admit_sender,
    deal,
    hand_over,
    next_turn,
    play_move,
    refusing_failures,
    section_forms,
    time_out,
)
from pbem.referee.deadlines import StepClock, previous_deadlines, recorded_time_problem
from pbem.referee.deal import load_setup, static_of
from pbem.referee.errors import GameDirError, Refusal, StaleMove, VerificationFailed
from pbem.referee.gamefile import GameFile
from pbem.referee.joins import joined, pending_doc
from pbem.referee.layout import GameDir
from pbem.referee.records import Record, check_layout, read_record, read_turn
from pbem.referee.rollback import Rollbacks, read_rollbacks
from pbem.referee.storage import dump_json


class CheckedMove(NamedTuple):
    """A move file ``pbem verify`` has read, as the step core takes it, and the key its signature verified with."""

    record: Record
    move: MoveFile
    key: PublicKey


def move_file(record: Record, file_hash: str | None = None) -> MoveFile:
    """The :class:`MoveFile` of a move file read as :func:`~pbem.referee.records.read_record` reads it
    (``file_hash``: the SHA-256 of its bytes, if the caller has it)."""
    data = record.data if record.data is not None else record.path.read_bytes()
    signed = record.signed if record.signed is not None else signed_bytes(record.doc)
    return MoveFile(data=data, doc=record.doc, signed=signed, hash=record.hash,
                    file_hash=file_hash if file_hash is not None else sha256_ref(data))


def _fail(message: str, path: Path) -> VerificationFailed:
    return VerificationFailed(message, str(path))


def first_difference(rebuilt: Any, found: Any, where: str = "") -> str:
    """The first member (dotted path) at which two documents differ."""
    if isinstance(rebuilt, dict) and isinstance(found, dict):
        for key in sorted(set(rebuilt) | set(found)):
            if key == "signature":
                continue
            if rebuilt.get(key, ...) != found.get(key, ...):
                return first_difference(rebuilt.get(key), found.get(key), f"{where}.{key}" if where else key)
        return where or "(layout)"
    if isinstance(rebuilt, list) and isinstance(found, list) and len(rebuilt) == len(found):
        for index, (a, b) in enumerate(zip(rebuilt, found, strict=True)):
            if a != b:
                return first_difference(a, b, f"{where}[{index}]")
    return where or "(top)"


def compare_signed(unsigned: dict[str, Any], path: Path, gamefile: GameFile, what: str) -> str:
    """Check that the file at ``path`` is ``unsigned`` signed by the referee, byte for byte; return its hash."""
    try:
        data = path.read_bytes()
        found = parse_json_strict(data, max_bytes=64 << 20)
    except (OSError, CryptoError) as error:
        raise _fail(f"{path}: unreadable: {error}", path) from error
    if not isinstance(found, dict) or "signature" not in found:
        raise _fail(f"{path}: not a signed document", path)
    if not _signed_as_found(unsigned, Record(path, found, "", data), gamefile):
        raise _fail(
            f"{path}: {what} differs from the replay, first at `{first_difference(unsigned, found)}`", path
        )
    return document_hash(unsigned)


def compare_turn(unsigned: dict[str, Any], found: Record, what: str) -> str:
    """Check that the turn file ``found`` is ``unsigned`` signed by the referee, byte for byte; return its hash.

    ``found`` was read as :func:`checked_turn` reads it: its referee
    signature verifies over its canonical form, whose hash it carries, and
    the file is exactly the bytes pbem writes for its document. When the
    rebuilt document has the same canonical form (the same hash) and the
    found one is plain JSON (no float, no integer beyond ±(2**53-1)), whose
    canonical form tells every value apart, the two are equal value for
    value and type for type: the signature verifies over the rebuilt one,
    and the file is byte for byte what pbem writes for it with that
    signature. That is the comparison, without writing the file again
    (:func:`same_canonical_form`). A found document that is not plain is
    not one the referee wrote (:func:`~pbem.referee.records.check_layout`
    refuses it before), so it differs.
    """
    plain = found.plain if found.plain is not None else is_plain(found.doc)
    if not (plain and same_canonical_form(unsigned, found.doc, plain=True)):
        raise _fail(
            f"{found.path}: {what} differs from the replay, first at `{first_difference(unsigned, found.doc)}`",
            found.path,
        )
    return found.hash


def same_canonical_form(unsigned: dict[str, Any], found: dict[str, Any], plain: bool = False) -> bool:
    """Whether ``unsigned`` has the canonical form of ``found`` without its ``signature`` (``plain``:
    ``found`` is, :func:`~pbem.crypto.canonical.is_plain`).

    The canonical form of an object is its members' names and canonical
    forms, in the order of the names, so two objects with the same names
    have the same canonical form exactly when each member has; and so they
    have when the members known to have it are left out of both. A member
    that is the very object the found document holds, or an object of the
    very objects it holds (the replay takes a sealed section that it has
    checked from the turn file as it is), is: the turn's sealed sections,
    most of its bytes, are not written again.
    """
    if unsigned.keys() != found.keys() - {SIGNATURE_FIELD}:
        return False
    rebuilt: dict[str, Any] = {}
    kept: dict[str, Any] = {}
    for name, value in unsigned.items():
        other = found[name]
        if value is other or (type(value) is dict and type(other) is dict and value.keys() == other.keys()
                              and all(member is other[key] for key, member in value.items())):
            continue
        rebuilt[name], kept[name] = value, other
    return canonical_json(rebuilt) == canonical_json(kept, plain or None)


def _signed_as_found(unsigned: dict[str, Any], found: Record, gamefile: GameFile) -> bool:
    """Whether the file of ``found`` is byte for byte ``unsigned`` with its signature, which verifies over it."""
    candidate = {**unsigned, "signature": found.doc["signature"]}
    try:
        verify_document(candidate, gamefile.referee)
    except SignatureError:
        return False
    return dump_json(candidate) == (found.data if found.data is not None else found.path.read_bytes())


def checked_turn(gamedir: GameDir, gamefile: GameFile, number: int) -> Record:
    """Turn ``number``, signed by the referee of ``game.toml`` and exactly the bytes pbem writes for it."""
    try:
        return check_layout(read_turn(gamedir, gamefile, number, layout=True))
    except GameDirError as error:
        raise VerificationFailed(str(error), str(gamedir.turn(number))) from error


def roundtrip(section: bytes, static: StaticMembers, plain: bool = False) -> Position:
    """The position as the next step reads it back from the referee's section (static members restored).

    ``section`` is the section's canonical JSON, which the replay has just
    sealed or found sealed in the turn file: sealing holds it to the bounds
    every reader opens, so the standard library's reader gives what the
    referee's strict one gives. ``plain``: the document it is the canonical
    form of was found plain (:func:`section_forms`), so what it reads back
    is plain too and of the referee's format, which
    :meth:`Position.from_section` would walk it again to find.
    """
    return Position.from_section(json.loads(section), "replay", static, checked=plain)


class Replay:
    """A replay fed one turn at a time, which keeps only what the next step needs.

    Made with the seed, it checks what comes before the first turn (the seed
    against ``game.toml``, the pending seed and the joins of a game that
    waited for them, the deal); then :meth:`turn` rebuilds each turn in
    order from the file that produced it and compares it with the turn file,
    raising :class:`VerificationFailed` at the first difference. Between two
    turns it holds the position, the open decisions, the previous turn and
    the hashes of the turns a move may still answer (from the oldest open
    decision's on): what a game of any length needs, so that memory does not
    grow with the game's history.
    """

    def __init__(self, gamedir: GameDir, gamefile: GameFile, seed: bytes, last: int | None = None,
                 progress: Callable[[str], None] | None = None) -> None:
        """``last``: the number of the latest turn (for ``progress``, which is told each turn replayed)."""
        where = gamedir.game_toml
        if keying.commitment(seed) != gamefile.commitment:
            raise _fail(f"{where}: the revealed seed does not match the commitment", where)
        if keying.game_id(seed) != gamefile.game_id or sealing.game_recipient(seed) != gamefile.game_recipient:
            raise _fail(f"{where}: the game id or game recipient does not follow from the revealed seed", where)
        try:
            game = find_game(gamefile.game)
        except (EngineError, ImportError, AttributeError) as error:
            raise _fail(f"{where}: cannot load game {gamefile.game!r} to replay it: {error}", where) from error
        self.gamedir, self.gamefile, self.seed, self.game = gamedir, gamefile, seed, game
        self.last, self.progress = last, progress
        #: whether the game was dealt: a game still waiting for joins has nothing more to rebuild
        self.dealt = True
        entropy: list[bytes] = []
        self.join_record: dict[str, dict[str, str]] | None = None
        if gamefile.waits_for_joins:
            compare_signed(pending_doc(gamefile, seed), gamedir.pending, gamefile, "the pending seed")
            try:
                joins = joined(gamedir, gamefile)
            except GameDirError as error:
                raise VerificationFailed(str(error), error.path) from error
            if joins.round(gamefile) is not None:
                self.dealt = False
                return
            entropy = joins.entropy(gamefile)
            self.join_record = joins.record(gamefile)
        try:
            setup = load_setup(game, gamedir, gamefile)
            self.static = static_of(game, setup)
            self.played = deal(game, gamefile, setup, seed, entropy)
        except (GameDirError, EngineError) as error:
            raise _fail(f"{where}: the deal cannot be replayed: {error}", where) from error
        self.position = self.played.position
        #: the game's rollbacks by consent, whose turns that follow them the replay names as the steps did
        self.rollbacks: Rollbacks | None = None
        if os.path.lexists(gamedir.abandoned):
            try:
                self.rollbacks = Rollbacks(read_rollbacks(gamedir, gamefile))
            except GameDirError as error:
                raise VerificationFailed(str(error), error.path) from error
        self.hashes = RecentHashes()
        self.awaiting: list[dict[str, Any]] = []
        self.previous: Record | None = None
        #: the turns replayed so far
        self.replayed = 0
        #: the documents of the latest turn's sealed sections, by name (a player, ``referee``), as rebuilt
        self.sections: dict[str, dict[str, Any]] = {}

    def turn(self, found: Record, step: tuple[str, Path] | None, checked: CheckedMove | None = None,
             openings: dict[str, Any] | None = None) -> None:
        """Rebuild the next turn and compare it with ``found``, the turn file as :func:`checked_turn` reads it.

        ``step`` is the player and path of the file that produced it (``None``
        for the deal, or when no file did); ``checked``, the move file as
        ``pbem verify`` has read it, if it has. With ``openings``, put the
        openings of the turn's commitments there
        (:func:`pbem.referee.commitments.openings`) and its hash under
        ``turn_hash``; the replay stops with that turn.
        """
        game, gamedir, number = self.game, self.gamedir, self.replayed
        move_hash = mover = file_hash = act = None
        played = self.played
        step_clock = _step_clock(self.gamefile, found.doc, self.previous, self.awaiting, found.path)
        if number:
            if step is None:
                raise _fail(f"{found.path}: the move that produced it is missing", found.path)
            player, path = step
            previous = self.previous
            assert previous is not None
            if path.parent == gamedir.moves:
                played, move_hash, mover, file_hash = _replay_move(
                    game, self.gamefile, self.position, self.awaiting, self.hashes, number, path, self.seed, checked
                )
            elif path.parent == gamedir.timeouts:
                played, move_hash, file_hash, act = _replay_timeout(
                    game, self.gamefile, self.position, previous, found.doc, number, player, path
                )
            else:
                self.gamefile, played, move_hash, file_hash, act = _replay_takeover(
                    game, self.gamefile, self.position, previous, number, player, path
                )
        static = self.static
        forms = section_forms(game, self.gamefile, played.position, static, played.awaiting)
        unsigned = next_turn(
            game, self.gamefile, played, self.hashes.latest(), move_hash, mover, static,
            move_file=file_hash, joins=self.join_record if number == 0 else None, clock=step_clock, act=act,
            recorded=found.doc.get("sealed"), forms=forms,
        )
        named = self.rollbacks.expected(self.hashes.latest()) if self.rollbacks is not None and number else None
        if named is not None:
            unsigned["rollback"] = named
        self.hashes.append(compare_turn(unsigned, found, f"turn {number}"))
        self.previous, self.replayed = found, number + 1
        self.sections = forms.docs
        if openings is not None:
            openings.update(commitments.openings(game, self.seed, number, move_hash, forms.docs, played.position.state))
            openings["turn_hash"] = self.hashes.latest()
            return
        self.awaiting = unsigned["awaiting"]
        # a move answers a turn no older than its player's open decision: the hashes before the oldest go
        self.hashes.forget_before(min((a["since"] for a in self.awaiting), default=number))
        self.position = roundtrip(forms.canonical[REFEREE_SECTION], static, forms.plain[REFEREE_SECTION])
        if self.progress is not None:
            self.progress(f"replayed turn {number} of {self.last if self.last is not None else number}")


class RecentHashes:
    """The hashes of the turns a move may still answer, by turn number: the latest ones, from a turn on."""

    __slots__ = ("first", "hashes")

    def __init__(self) -> None:
        self.first = 0
        self.hashes: list[str] = []

    def append(self, turn_hash: str) -> None:
        self.hashes.append(turn_hash)

    def latest(self) -> str | None:
        return self.hashes[-1] if self.hashes else None

    def current(self) -> int:
        """The number of the latest turn."""
        return self.first + len(self.hashes) - 1

    def of(self, turn: int) -> str | None:
        """The hash of turn ``turn``, if it is still kept."""
        return self.hashes[turn - self.first] if self.first <= turn <= self.current() else None

    def forget_before(self, turn: int) -> None:
        """Forget the hashes of the turns before ``turn`` (the latest one's is kept: the next turn names it)."""
        drop = min(turn, self.current()) - self.first
        if drop > 0:
            del self.hashes[:drop]
            self.first += drop


def replay_game(gamedir: GameDir, gamefile: GameFile, seed: bytes, stop_at: int | None = None,
                openings: dict[str, Any] | None = None, progress: Callable[[str], None] | None = None) -> int:
    """Rebuild every turn from the files; raise :class:`VerificationFailed` at the first difference. Returns the
    turns replayed.

    With ``stop_at``, stop after that turn and put the openings of its
    commitments (:func:`pbem.referee.commitments.openings`) into ``openings``.
    ``progress`` is told each turn replayed (a line for a person to watch).
    Each turn file is read as :func:`checked_turn` reads it, and dropped
    once replayed (:class:`Replay`).
    """
    numbers = gamedir.turn_numbers()
    replay = Replay(gamedir, gamefile, seed, numbers[-1] if numbers else None, progress)
    if not replay.dealt:
        return 0  # not dealt yet: nothing more to rebuild
    steps = {turn: (player, path) for turn, player, path in gamedir.step_files()}
    for number in numbers:
        found = checked_turn(gamedir, gamefile, number)
        replay.turn(found, steps.get(number), openings=openings if number == stop_at else None)
        if number == stop_at and openings is not None:
            break
    return replay.replayed


def revealed_seed(gamedir: GameDir, gamefile: GameFile) -> bytes | None:
    """The seed, once anyone may know it: a test seed, the final turn's, or ``reveal.json``'s."""
    from pbem.referee.records import current_turn
    from pbem.referee.reveal import read_reveal

    if gamefile.test_seed is not None:
        return gamefile.test_seed
    if gamedir.turn_numbers():
        published = current_turn(gamedir, gamefile).doc["seed"]
        if published is not None:
            return bytes.fromhex(published)
    revealed = read_reveal(gamedir, gamefile)
    return bytes.fromhex(revealed["seed"]) if revealed is not None else None


def prove(directory: str | Path, turn: int) -> dict[str, Any]:
    """Open every commitment of turn ``turn`` after the reveal, replaying the game up to it.

    Returns ``{"turn_hash", "sections": {name: {salt, value, commitment}}, "zones": {...}}``:
    what each hand, deck and sealed section held at that step, with the salt
    that shows it is what the signed turn committed to.
    """
    gamedir = GameDir.at(directory)
    gamedir.refuse_all_symlinks()
    gamefile = GameFile.read(gamedir.game_toml)
    if turn not in gamedir.turn_numbers():
        raise VerificationFailed(f"{gamedir.turn(turn)}: no such turn", str(gamedir.turn(turn)))
    seed = revealed_seed(gamedir, gamefile)
    if seed is None:
        raise VerificationFailed(
            "the seed is not revealed yet: commitments open only after the game ends (or `pbem reveal`)",
            str(gamedir.game_toml),
        )
    openings: dict[str, Any] = {}
    replay_game(gamedir, gamefile, seed, stop_at=turn, openings=openings)
    return openings


def _step_clock(gamefile: GameFile, found: dict[str, Any], previous: Record | None,
                awaiting: list[dict[str, Any]], path: Path) -> StepClock | None:
    """The clock of a replayed step: the time the turn at ``path`` records (checked never to go backwards)."""
    problem = recorded_time_problem(gamefile.deadlines is not None, found, previous.doc if previous else None)
    if problem:
        raise _fail(f"{path}: {problem}", path)
    if gamefile.deadlines is None:
        return None
    return StepClock(found["time"], previous_deadlines(awaiting))


def _replay_timeout(
    game: Any, gamefile: GameFile, position: Position, previous: Record, found: dict[str, Any], number: int,
    player: str, path: Path,
) -> tuple[Played, str, str, dict[str, str]]:
    """Answer the decision a timeout record names with the game's default action, as the referee must have."""
    try:
        record = timeouts.read_timeout_record(path, gamefile, number, player, previous, found)
    except GameDirError as error:
        raise VerificationFailed(str(error), str(path)) from error
    doc = record.doc
    since_before = {a["player"]: a["since"] for a in previous.doc["awaiting"]}
    try:
        played, action = time_out(game, position, since_before, doc["player"], doc["kind"])
    except (GameDirError, EngineError) as error:
        raise _fail(f"{path}: the replay cannot answer this decision: {error}", path) from error
    if action != doc["action"]:
        raise _fail(f"{path}: says the referee's action was {doc['action']}, but the game's default action "
                    f"for this {doc['kind']} decision is {action}", path)
    return played, record.hash, sha256_ref(path.read_bytes()), timeouts.act_of(doc)


def _replay_takeover(
    game: Any, gamefile: GameFile, position: Position, previous: Record, number: int, player: str, path: Path,
) -> tuple[GameFile, Played, str, str, dict[str, str]]:
    """Hand the seat a seat record names to its new key; the state stays as it was."""
    try:
        record, handover = seats.read_seat_record(path, gamefile, number, player, previous.hash)
    except GameDirError as error:
        raise VerificationFailed(str(error), str(path)) from error
    since_before = {a["player"]: a["since"] for a in previous.doc["awaiting"]}
    played = hand_over(game, position, since_before, player)
    return gamefile.with_handover(handover), played, record.hash, sha256_ref(path.read_bytes()), seats.act_of(record.doc)


def _replay_move(
    game: Any, gamefile: GameFile, position: Position, awaiting: list[dict[str, Any]], hashes: RecentHashes,
    number: int, path: Path, seed: bytes, checked: CheckedMove | None = None,
) -> tuple[Played, str, str, str]:
    """Apply the move that produced turn ``number`` (at ``path``; ``checked``, if it was read) as the referee must
    have: with the step core's :func:`~pbem.referee.core.play_move`, which the referee's step runs."""
    if checked is not None and checked.record.path != path:
        checked = None
    try:
        move = checked.move if checked is not None else move_file(read_record(path, formats.MOVE))
    except (OSError, GameDirError) as error:
        raise _fail(f"{path}: {error}", path) from error
    player = move.player
    since_before = {a["player"]: a["since"] for a in awaiting}
    try:
        with refusing_failures(sender=player, move_hash=move.hash):
            admit_sender(gamefile, move.doc, move.hash, "move", verified_by=checked.key if checked is not None else None)
            # the position was read back from its section for this step alone (roundtrip): the core works on it
            played = play_move(game, gamefile, position, since_before, move, _ReplayedChain(hashes))
    except Refusal as refusal:
        raise _fail(
            f"{path}: the referee applied a move it must refuse ({refusal.reason}): {refusal.message}", path
        ) from refusal
    except EngineError as error:
        raise _fail(f"{path}: the engine fails on this move in the replay: {error}", path) from error
    return played, move.hash, player, move.file_hash


class _ReplayedChain(Chain):
    """What the core asks of the record, answered from the turns the replay has rebuilt so far
    (:class:`~pbem.referee.core.Chain`): a move the referee applied was never one of an abandoned game
    (``verify`` checks that no turn follows the reveal)."""

    __slots__ = ("hashes",)

    def __init__(self, hashes: RecentHashes) -> None:
        self.hashes = hashes

    def abandoned(self) -> bool:
        return False

    def check_fresh(self, move: MoveFile, since: int) -> None:
        base_turn, current = move.doc["turn"], self.hashes.current()
        if not since <= base_turn <= current or move.doc["base"] != self.hashes.of(base_turn):
            raise StaleMove(f"the move answers turn {base_turn}, which was not fresh at turn {current}")

"""One referee step: check a move file, apply it, write the next turn.

This is the shell around the step core (:mod:`pbem.referee.core`, which
turns a position and a move into the next position and turn without
touching a file): here the game's lock is taken, ``game.toml``, the current
turn and the referee's section are read and checked, what a crashed step
left is undone (:func:`recover`), the checks that need the record are made
(a move already applied, an older turn's hash, an abandoned game), and the
next turn is signed and written, or a refusal's notice.

The checks run in this order, and the first that fails refuses the move
(see :mod:`pbem.referee.errors` for the exit codes):

1. **parse** — strict JSON, at most 1 MiB, nesting at most 64 deep;
2. **schema** — a ``pbem-move/1`` document (an unknown version says so);
   a move whose hash matches a file in ``moves/`` was **already applied**;
3. **game id** — the move names this game;
4. **known player** — the move's player is seated here;
5. **signature** — by that player's key (then the sealed choices are opened
   with the game identity; a payload that does not open is unreadable, one
   that does not fit its schema, was sealed for another move or names a
   decision kind the game lacks is schema-invalid);
6. **game over** — a finished game takes no move;
7. **stale base** — the move answers turn T with T's hash, and T is not older
   than the turn at which the player's current decision opened;
8. **awaited player** — a decision of this player is open (a move of
   standing orders alone must also answer it at once);
9. **legal choices** — the first choice is an option of the open decision
   (else the whole move is refused); the rest are applied in order while
   each is an option of the player's decision then open, and the first that
   is not ends the move: it and the rest are dropped, which only the mover's
   view says (by position, never naming them);
10. **apply** — the standing orders are updated and carried out, and the
    next turn, the views and the move are written atomically and signed.

A refusal changes nothing but ``rejected/``, where a signed notice says why.
"""

# No ``from __future__ import annotations`` here (docs/performance.md, "Annotations evaluated at import").
# The annotations below name only what is defined above them (those of names imported for type checking
# alone are strings).

import os
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pbem.crypto.canonical import document_hash, parse_json_strict, sha256_ref
from pbem.crypto.errors import CryptoError
from pbem.crypto.keys import PrivateKey
from pbem.crypto.signing import sign_document
from pbem.engine.errors import EngineError
from pbem.engine.protocol import Game
from pbem.engine.registry import find_game
from pbem.referee import clock, formats, rollback, seats
from pbem.referee.core import (
    MOVE_MAX_BYTES,
    Chain,
    MoveFile,
    Position,
    StaticMembers,
    admit_sender,
    checked_move,
    next_turn,
    parse_move,
    play_move,
    refusing_failures,
)
from pbem.referee.deal import static_members
from pbem.referee.errors import (
    AlreadyApplied,
    GameDirError,
    GameOverMove,
    Refusal,
    StaleMove,
    UnexpectedJoin,
    awaiting_text,
)
from pbem.referee.gamefile import GameFile, check_referee_key
from pbem.referee.layout import GameDir, read_file
from pbem.referee.lock import DEFAULT_WAIT, locked
from pbem.referee.public import Status, turn_status
from pbem.referee.records import Record, current_turn, read_game_file, read_record, read_turn
from pbem.referee.reveal import read_reveal
from pbem.referee.storage import atomic_write, dump_json, remove_temp_files, write_file
from pbem.referee.turns import (
    SIGNATURE_TEXT_LENGTH,
    TurnFiles,
    open_position,
    sign_turn,
    view_layout,
    view_wrapper,
    write_turn,
    write_views,
)

if TYPE_CHECKING:  # pragma: no cover
    from pbem.referee.deadlines import StepClock
    from pbem.referee.head import Anchors

#: the most notices ``rejected/`` keeps (one per sender per turn; see :func:`write_notice`)
MAX_NOTICES = 4096
#: the slot in ``rejected/`` of every file without a seated player's good signature
UNKNOWN_SENDER = "_unknown"
#: a notice's message is cut to this length (a message may quote a public file's member)
NOTICE_MESSAGE_MAX = 1000


# Step and StepContext are a NamedTuple and a plain class, not dataclasses, which a one-shot ``pbem submit``
# would define on every run (docs/performance.md, "Records without dataclasses").


class Step(NamedTuple):
    """What one applied move did."""

    turn: int
    player: str
    move_hash: str
    choices: int
    auto_choices: list[dict[str, str]]
    awaiting: list[str]
    result: dict[str, Any] | None
    #: what a crashed step had left behind and this one undid (:func:`recover`, :func:`stale_views`)
    repaired: Sequence[str] = ()
    #: "move", or "join" for a join file (then ``dealt`` says whether it completed the deal)
    kind: str = "move"
    dealt: bool = False
    #: the game's status after the step, from the turn this step wrote (so that
    #: a caller need not read back and re-check the file it has just written)
    status: Status | None = None
    #: the move's choices that were not applied (``{"from": k, "to": n}``, 1-based), or ``None``
    unapplied: dict[str, int] | None = None


class StepContext:
    """What one step works on: the game directory, the game, its current turn and the referee's position."""

    __slots__ = ("current", "game", "gamedir", "gamefile", "leftovers", "position", "referee_key", "static")
    gamedir: GameDir
    #: ``game.toml`` with the seat records in force at the current turn
    gamefile: GameFile
    game: Game
    current: Record
    position: Position
    referee_key: PrivateKey
    #: the static members of the game's states (restored into ``position.state``, kept out of every section)
    static: StaticMembers
    #: the move files, timeout records and seat records of the next turn found when the game was opened:
    #: a crashed step's, which :func:`recover` removes
    leftovers: list[Path]

    def __init__(self, gamedir: GameDir, gamefile: GameFile, game: Game, current: Record, position: Position,
                 referee_key: PrivateKey, static: StaticMembers, leftovers: list[Path] | None = None) -> None:
        self.gamedir = gamedir
        self.gamefile = gamefile
        self.game = game
        self.current = current
        self.position = position
        self.referee_key = referee_key
        self.static = static
        self.leftovers = [] if leftovers is None else leftovers

    @property
    def since_before(self) -> dict[str, int]:
        """When each decision open at the current turn opened."""
        return {a["player"]: a["since"] for a in self.current.doc["awaiting"]}

    def step_clock(self, now: datetime | None) -> "StepClock | None":
        """The clock of the next step in a game with deadlines (``None`` in a game without).

        ``now`` is the referee's clock (:func:`pbem.referee.clock.referee_now`
        reads it when it is ``None``); it may not be earlier than the current
        turn's time (:class:`~pbem.referee.errors.ClockWentBack`).
        """
        if self.gamefile.deadlines is None:
            return None
        from pbem.referee.deadlines import StepClock, previous_deadlines  # a game with deadlines only

        moment = clock.referee_now(now)
        clock.check_forward(self.current.doc.get("time"), moment, f"the time of turn {self.current.doc['turn']}")
        return StepClock(clock.format_time(moment), previous_deadlines(self.current.doc["awaiting"]))


def open_game(directory: str | Path | GameDir, referee_key: PrivateKey, gamefile: GameFile | None = None) -> StepContext:
    """Everything one step needs: ``game.toml`` with the seats in force, the current turn (checked)
    and its referee section.

    ``gamefile`` is the ``game.toml`` the caller has just read in the same
    call, so that it is not parsed and schema-checked twice. The caller
    holds the game's lock (:func:`~pbem.referee.lock.locked`), which has
    refused a symbolic link anywhere but inside the folders that grow with
    the game; here the files the step may write in them are looked at.
    """
    gamedir = GameDir.at(directory)
    rollback.refuse_if_cut_short(gamedir)
    if gamefile is None:
        gamefile = GameFile.read(gamedir.game_toml)
    check_referee_key(gamefile, referee_key)
    try:
        game = find_game(gamefile.game)
    except EngineError as error:
        raise GameDirError(f"{gamedir.game_toml}: {error}") from error
    current = current_turn(gamedir, gamefile, gapless=True)
    gamefile = seats.in_force(gamedir, gamefile, current.doc)
    # the files of the folders that grow with the game this step may write: the next turn, the next move file,
    # timeout record or seat record of each player, this turn's notices (the rest was looked at by the lock,
    # which every caller holds: :func:`~pbem.referee.lock.locked`)
    number = current.doc["turn"]
    gamedir.refuse_symlinks_at(gamedir.turn(number + 1))
    leftovers = gamedir.refuse_symlinks_at(
        *(path for player in gamefile.player_names for path in gamedir.step_records(number + 1, player)))
    gamedir.refuse_symlinks_at(*(gamedir.rejection(number, who) for who in (*gamefile.player_names, UNKNOWN_SENDER)))
    static = static_members(game, gamedir, gamefile)
    position = open_position(current, referee_key, gamefile, static)
    return StepContext(gamedir, gamefile, game, current, position, referee_key, static, leftovers)


def recover(ctx: StepContext, views: bool = True) -> list[str]:
    """Undo what a crashed step left behind; return the paths repaired.

    Temporary files go (a step makes them at the top of the game directory,
    :func:`~pbem.referee.storage.write_file`); a move file, timeout record or
    seat record with no turn (the crash came before the turn's rename, the
    commit point: it is the next turn's) goes; views that are not those of
    the current turn are rewritten from it (:func:`repair_views`). Files are
    looked up by name: nothing here lists ``turns/`` or ``moves/``.
    ``views=False`` leaves the views to the caller: :func:`submit`, whose
    step replaces every view when it writes the next turn and repairs them
    when it writes none.
    """
    # every write of a step, the views' too, makes its temporary file at the top (nothing else writes views/)
    repaired = [str(p) for p in remove_temp_files(ctx.gamedir.root, recursive=False)]
    for orphan in ctx.leftovers:  # found by open_game, which refused a link there
        orphan.unlink(missing_ok=True)
        repaired.append(str(orphan))
    if views:
        repaired += repair_views(ctx)
    return repaired


def repair_views(ctx: StepContext) -> list[str]:
    """Rewrite the views that are not byte for byte those of the current turn; return their paths.

    The views are a function of the current turn: the expected bytes are
    rebuilt (Ed25519 signatures are deterministic) and compared, rather than
    the files parsed and schema-checked only to compare their content.
    """
    number = ctx.current.doc["turn"]
    stale = {}
    for player in ctx.gamefile.player_names:
        sealed = ctx.current.doc["sealed"][player]
        wrapper = view_wrapper(ctx.gamefile, number, ctx.current.hash, player, sealed, ctx.referee_key)
        found = _view_files(ctx.gamedir, player)
        if found != (dump_json(wrapper), sealed.encode("ascii")):
            stale[player] = wrapper
    if stale:
        write_views(ctx.gamedir, stale)
    return [str(ctx.gamedir.view_json(player)) for player in stale]


def stale_views(ctx: StepContext) -> list[str]:
    """The views a step that writes the next turn replaces although they are not the current turn's.

    What :func:`repair_views` finds, compared byte for byte but for the
    value of each view's signature, which is not computed: the step signs
    and writes every view anew whatever this says, so it only reports them
    (:attr:`Step.repaired`). A crash leaves a view of the turn before, whose
    turn, hash and sealed text differ; any other layout differs too.
    """
    number = ctx.current.doc["turn"]
    stale = []
    for player in ctx.gamefile.player_names:
        sealed = ctx.current.doc["sealed"][player]
        before, after = view_layout(ctx.gamefile, number, ctx.current.hash, player, sealed,
                                    ctx.referee_key.fingerprint)
        found = _view_files(ctx.gamedir, player)
        if not (found is not None and found[1] == sealed.encode("ascii")
                and len(found[0]) == len(before) + SIGNATURE_TEXT_LENGTH + len(after)
                and found[0].startswith(before) and found[0].endswith(after)):
            stale.append(str(ctx.gamedir.view_json(player)))
    return stale


def _view_files(gamedir: GameDir, player: str) -> tuple[bytes, bytes] | None:
    """The bytes of ``player``'s ``latest.json`` and ``latest.age``, or ``None`` if one cannot be read."""
    try:  # the lock refused a link anywhere in views/
        return gamedir.view_json(player).read_bytes(), gamedir.view_age(player).read_bytes()
    except OSError:
        return None


def submit(directory: str | Path, data: bytes, referee_key: PrivateKey, wait: float = DEFAULT_WAIT,
           now: datetime | None = None, anchors: "Anchors | None" = None) -> Step:
    """Run the pipeline on one move file's (or join file's) bytes.

    Returns the :class:`Step` applied, or raises a :class:`Refusal` (after
    writing its signed notice to ``rejected/``; not for
    :class:`AlreadyApplied`, which changes nothing at all). While a game
    waits for joins, the file goes to :func:`submit_join`.
    ``now`` is the referee's clock, which a game with deadlines records
    (:mod:`pbem.referee.clock`; ``None``: ``$PBEM_NOW`` or the system clock).

    What a crashed step left behind is undone first (:func:`recover`); the
    views, which the step replaces when it writes the next turn, are only
    compared then (:func:`stale_views`), and repaired when it writes none.

    ``anchors``: the referee's anchors (:mod:`pbem.referee.head`): a game
    directory that lost the turn anchored for this game is refused
    (:class:`~pbem.referee.errors.HistoryLost`, nothing changed), and the
    turn the step writes is anchored.
    """
    gamedir = GameDir.at(directory)
    with locked(gamedir.lock, wait):
        gamefile = read_game_file(gamedir)
        check_referee_key(gamefile, referee_key)
        if gamefile.waits_for_joins:
            # a referee that died while writing a join file left its temporary file
            remove_temp_files(gamedir.joins)
            if not gamedir.has_turns():  # not dealt yet: the joins' module (imported there), which no later step needs
                if anchors is not None:
                    anchors.check(gamedir, gamefile, None)
                if not complete_deal(gamedir, gamefile, referee_key, now):
                    step = submit_join(gamedir, gamefile, data, referee_key, now)
                    if anchors is not None and step.dealt:
                        anchors.advance(gamefile, read_turn(gamedir, gamefile, 0), referee_key, now)
                    return step
        ctx = open_game(gamedir, referee_key, gamefile)
        if anchors is not None:
            hold_anchor(anchors, ctx, now)
        repaired = recover(ctx, views=False)
        file_hash = sha256_ref(data)  # of the bytes as received: the next turn's move_file, or a notice's file
        try:
            step_clock = ctx.step_clock(now)  # before any check: a clock gone back changes nothing, not even rejected/
            stale = stale_views(ctx)
            step, files = _run(ctx, data, file_hash, step_clock)
        except Exception as error:  # nothing of the step is written: the views are the current turn's again
            if isinstance(error, Refusal) and not isinstance(error, AlreadyApplied):
                write_rejection(ctx, file_hash, error)
            repair_views(ctx)
            raise
        write_turn(ctx.gamedir, files, move=(step.player, data))
        if anchors is not None:
            anchors.advance(gamefile, Record(ctx.gamedir.turn(step.turn), files.turn, files.hash), referee_key, now)
        return step._replace(repaired=repaired + stale)


def name_rollback(ctx: StepContext, unsigned: dict[str, Any]) -> dict[str, Any]:
    """The next turn, naming the rollback that returned the game to the current turn, if one did
    (:func:`pbem.referee.rollback.pending`): the chain then says where it was cut."""
    named = rollback.pending(ctx.gamedir, ctx.gamefile, ctx.current)
    if named is not None:
        unsigned["rollback"] = named
    return unsigned


def hold_anchor(anchors: "Anchors", ctx: StepContext, now: datetime | None) -> None:
    """Refuse a game directory that lost the anchored turn; anchor its current turn if the anchor is behind it
    (a turn written by a referee run without ``anchors``, or a deal completed before the step)."""
    anchors.check(ctx.gamedir, ctx.gamefile, ctx.current)
    anchors.advance(ctx.gamefile, ctx.current, ctx.referee_key, now)


def complete_deal(gamedir: GameDir, gamefile: GameFile, referee_key: PrivateKey, now: datetime | None = None) -> bool:
    """Deal if every player has sent their nonce but turn 0 is missing (a step died after the last one)."""
    from pbem.referee.joins import deal, joined, read_pending_seed

    if gamedir.has_turns():
        return False
    joins = joined(gamedir, gamefile)
    if joins.round(gamefile) is not None:
        return False
    seed = read_pending_seed(gamedir, gamefile, referee_key)
    write_turn(gamedir, deal(gamedir, gamefile, seed, joins, referee_key, now))
    return True


def submit_join(gamedir: GameDir, gamefile: GameFile, data: bytes, referee_key: PrivateKey,
                now: datetime | None = None) -> Step:
    """One referee step on a join file, while the game waits for joins (under the lock)."""
    from pbem.referee.joins import COMMIT, admit_join, check_join, deal, joined, read_pending_seed
    from pbem.referee.public import joining_status

    seed = read_pending_seed(gamedir, gamefile, referee_key)
    joins = joined(gamedir, gamefile)
    doc = None
    try:
        with refusing_failures():
            doc = check_join(gamefile, data)
        if read_reveal(gamedir, gamefile) is not None:
            raise GameOverMove(f"game {gamefile.game_id} was abandoned and its seed revealed; no join is taken",
                               player=doc["player"], move_hash=document_hash(doc))
        admit_join(gamefile, joins, doc)
    except AlreadyApplied:
        raise
    except Refusal as refusal:
        if doc is not None:  # check_join admitted the sender: the notice takes their slot
            refusal.sender = doc["player"]
        write_notice(gamedir, gamefile, 0, referee_key, sha256_ref(data), refusal)
        raise
    player, round_name, join_hash = doc["player"], doc["round"], document_hash(doc)
    atomic_write(gamedir.join(player, round_name), data)
    (joins.commits if round_name == COMMIT else joins.reveals)[player] = (doc, data)
    if joins.round(gamefile) is not None:
        return Step(turn=0, player=player, move_hash=join_hash, choices=0, auto_choices=[],
                    awaiting=joins.waiting(gamefile), result=None, kind="join", dealt=False,
                    status=joining_status(gamefile, joins.awaiting(gamefile)))
    files = deal(gamedir, gamefile, seed, joins, referee_key, now)
    write_turn(gamedir, files)
    return Step(turn=0, player=player, move_hash=join_hash, choices=0, auto_choices=[],
                awaiting=[a["player"] for a in files.turn["awaiting"]], result=files.turn["result"],
                kind="join", dealt=True, status=turn_status(gamefile, files.turn))


def _run(ctx: StepContext, data: bytes, file_hash: str, step_clock: "StepClock | None") -> tuple[Step, TurnFiles]:
    """Check the move, let the core apply it, and sign the next turn and its views (:func:`submit` writes them)."""
    gamefile = ctx.gamefile
    with refusing_failures():
        move = _admit(ctx, data, file_hash)
    player = move.player
    with refusing_failures(sender=player, move_hash=move.hash):
        played = play_move(ctx.game, gamefile, ctx.position, ctx.since_before, move, _RecordChain(ctx))
        position = played.position
        unsigned = next_turn(ctx.game, gamefile, played, ctx.current.hash, move.hash, player, ctx.static,
                             move_file=move.file_hash, clock=step_clock)
        files = sign_turn(name_rollback(ctx, unsigned), gamefile, ctx.referee_key)
    return Step(
        turn=position.turn,
        player=player,
        move_hash=move.hash,
        choices=sum(1 for s in position.step if s["by"] == "move"),
        auto_choices=[s for s in position.step if s["by"] in ("order", "standing-order")],
        awaiting=[d.player for d in played.awaiting],
        result=files.turn["result"],
        status=turn_status(gamefile, files.turn),
        unapplied=({"from": position.unapplied["from"], "to": position.unapplied["to"]}
                   if position.unapplied else None),
    ), files


def _admit(ctx: StepContext, data: bytes, file_hash: str) -> MoveFile:
    """Steps 1-5 up to the signature: the move, read once, from a seated player who signed it."""
    doc = parse_move(data)  # 1. parse
    if isinstance(doc, dict) and doc.get("format") == formats.JOIN:
        _refuse_late_join(ctx, doc)
    move = checked_move(data, doc, file_hash)  # 2. schema
    player = move.player
    applied_at = _applied_at(ctx.gamedir, player, doc["turn"], ctx.current.doc["turn"], move.hash)
    if applied_at is not None:
        raise AlreadyApplied(
            f"this move was already applied: it produced turn {applied_at}", player=player, move_hash=move.hash
        )
    # 3.-5. game id, known player, signature
    admit_sender(ctx.gamefile, doc, move.hash, "move", move.signed)
    return move


class _RecordChain(Chain):
    """What the core asks of the record, answered from the game directory (:class:`~pbem.referee.core.Chain`)."""

    __slots__ = ("ctx",)

    def __init__(self, ctx: StepContext) -> None:
        self.ctx = ctx

    def abandoned(self) -> bool:
        return read_reveal(self.ctx.gamedir, self.ctx.gamefile) is not None

    def check_fresh(self, move: MoveFile, since: int) -> None:
        _check_fresh(self.ctx, move, since)


def _refuse_late_join(ctx: StepContext, doc: dict[str, Any]) -> None:
    """A join file sent to a game that was dealt (or never waited for joins)."""
    valid = formats.is_valid(doc, formats.JOIN)
    player = doc["player"] if valid else None  # an invalid file's "player" may be anything, of any length
    join_hash = document_hash(doc) if valid else None
    if join_hash is not None and player is not None:
        kept = ctx.gamedir.join(player, doc["round"]) if player in ctx.gamefile.player_names else None
        if kept is not None and kept.is_file():
            try:
                if document_hash(parse_json_strict(kept.read_bytes())) == join_hash:
                    raise AlreadyApplied(f"{player} has joined with this very file", player=player,
                                         move_hash=join_hash)
            except CryptoError:
                pass
    why = "it was dealt at turn 0" if ctx.gamefile.waits_for_joins else "it did not wait for joins (entropy = referee-only)"
    raise UnexpectedJoin(f"game {ctx.gamefile.game_id} takes no join file: {why}", player=player, move_hash=join_hash)


def _applied_at(gamedir: GameDir, player: str, base: int, current: int, move_hash: str) -> int | None:
    """The turn a move with this hash produced, if it is in ``moves/``.

    A move answering turn ``base`` produced a turn after it and no later than
    the current one, so only those names of ``player``'s move files are
    looked up: none for a move answering the current turn.
    """
    turn = current
    while turn > base:
        try:
            data = read_file(gamedir.move(turn, player))
            if document_hash(parse_json_strict(data, max_bytes=MOVE_MAX_BYTES)) == move_hash:
                return turn
        except (FileNotFoundError, CryptoError):
            pass
        turn -= 1
    return None


def _check_fresh(ctx: StepContext, move: MoveFile, since: int) -> None:
    """Step 7 from the game directory: the move's base is a turn of this chain no older than ``since``."""
    doc, move_hash = move.doc, move.hash
    number, player, base_turn = ctx.current.doc["turn"], doc["player"], doc["turn"]
    if not since <= base_turn <= number:
        awaiting = ctx.current.doc["awaiting"]
        mine = next((a for a in awaiting if a["player"] == player), None)
        timed_out = _timed_out_since(ctx.gamedir, player, base_turn, number)
        if timed_out is not None:
            now = (f"{player}'s {timed_out[1]} decision of turn {base_turn} timed out at turn {timed_out[0]}: the "
                   f"referee answered it with the game's default action after its deadline (the game is at turn "
                   f"{number})")
        elif mine is not None:
            now = (f"the decision {player} must answer now is the {mine['kind']} decision opened at turn "
                   f"{mine['since']} (the game is at turn {number})")
        else:
            now = (f"no decision of {player} is open now (awaited: {awaiting_text(awaiting)}); "
                   f"the game is at turn {number}")
        raise StaleMove(f"the move answers turn {base_turn}, but {now}; view the game again and send a new move",
                        player=player, move_hash=move_hash)
    if base_turn == number:
        base_hash = ctx.current.hash
    else:
        try:
            base_hash = read_turn(ctx.gamedir, ctx.gamefile, base_turn).hash
        except GameDirError:
            base_hash = None
    if doc["base"] != base_hash:
        raise StaleMove(
            f"the move's base hash is not that of turn {base_turn} in this game's chain; "
            "view the game again and send a new move",
            player=player, move_hash=move_hash,
        )


def _timed_out_since(gamedir: GameDir, player: str, base_turn: int, number: int) -> tuple[int, str] | None:
    """The timeout that answered ``player``'s decision open at turn ``base_turn``: (the turn it produced, the kind).

    Only the names it could have are looked up (``timeouts/`` is not
    listed): a timeout record of ``player`` producing a turn after
    ``base_turn``, up to the current one.
    """
    for turn in range(base_turn + 1, number + 1):
        path = gamedir.timeout(turn, player)
        if not os.path.lexists(path):
            continue
        try:
            doc = read_record(path, formats.TIMEOUT).doc
        except GameDirError:
            continue  # the message only (a link is not read through); verify names a bad record
        if doc["since"] <= base_turn:
            return turn, doc["kind"]
    return None


def write_rejection(ctx: StepContext, file_hash: str, refusal: Refusal) -> Path | None:
    """Write the signed notice of a refusal to ``rejected/`` (see :func:`write_notice`)."""
    return write_notice(ctx.gamedir, ctx.gamefile, ctx.current.doc["turn"], ctx.referee_key, file_hash, refusal)


def write_notice(
    gamedir: GameDir, gamefile: GameFile, turn: int, referee_key: PrivateKey, file_hash: str, refusal: Refusal
) -> Path | None:
    """Write the signed notice of a refusal at turn ``turn`` (0 before the deal) to its slot in ``rejected/``;
    ``file_hash`` is the SHA-256 of the refused file's bytes.

    One slot per sender per turn, so that no flood of bad files grows the
    directory: a seated player whose signature the pipeline checked
    (``refusal.sender``) has ``NNNNNN-PLAYER.json``, replaced by their next
    refused file at that turn; every other file shares ``NNNNNN-_unknown.json``
    (no player name starts with ``_``). A stale move only fills an empty slot:
    anyone can drop a file a player signed long ago in the inbox again, and
    its notice must not take the place of the one that tells the player why
    their move at this turn was refused. When ``rejected/`` already holds
    :data:`MAX_NOTICES` notices, a refusal that needs a new slot writes none
    and its message says so. Sets and returns ``refusal.rejection``.
    """
    path = gamedir.rejection(turn, refusal.sender if refusal.sender is not None else UNKNOWN_SENDER)
    if isinstance(refusal, StaleMove) and path.exists():
        refusal.add_note(f"no notice written: the notice of {refusal.sender}'s refused move at this turn is kept")
        return None
    if not path.exists() and _notice_count(gamedir) >= MAX_NOTICES:
        refusal.add_note(f"no notice written: rejected/ is full (it keeps at most {MAX_NOTICES} notices)")
        return None
    notice = sign_document(
        {
            "format": formats.REJECTION,
            "game_id": gamefile.game_id,
            "turn": turn,
            "player": refusal.player,
            "sender": refusal.sender,
            "move": refusal.move_hash,
            "file": file_hash,
            "reason": refusal.reason,
            "exit_code": refusal.exit_code,
            "index": refusal.index,
            "message": refusal.message[:NOTICE_MESSAGE_MAX],
        },
        referee_key,
    )
    write_file(gamedir, path, dump_json(notice))
    refusal.rejection = str(path)
    return path


def _notice_count(gamedir: GameDir) -> int:
    if not gamedir.rejected.is_dir():
        return 0
    with os.scandir(gamedir.rejected) as entries:
        return sum(1 for entry in entries if entry.name.endswith(".json"))

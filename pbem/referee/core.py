"""The step core: a position and a move in; the next position, its events and its sections out.

No file is read or written here, no clock is read and no key is used but
the seed's: every function is a function of its arguments. The referee's
shell around it (:mod:`pbem.referee.pipeline`, with ``tick`` and
``takeover``) takes the lock, reads and checks the game directory, signs
and writes; ``pbem verify --replay`` (:mod:`pbem.referee.replay`) calls
the very same functions on the archive, so that a step and its replay
cannot drift apart.

One step:

* :func:`parse_move` and :func:`checked_move` read a move file's bytes
  once into a :class:`MoveFile`: its document, the canonical form its
  signature covers and both its hashes, which every later check and the
  next turn take from it; :func:`admit_sender` checks its game, seat and
  signature;
* :func:`play_move` opens the move's sealed choices and applies them
  (pipeline steps 5 to 10: :mod:`pbem.referee.pipeline` lists them); what
  only the record can tell (whether the game was abandoned, whether the
  move's base is a fresh turn of this chain) it asks of a :class:`Chain`;
  a timeout (:func:`time_out`) and a takeover (:func:`hand_over`) are the
  referee's steps in a player's place, and the deal (:func:`deal`) the
  first;
* :func:`next_turn` makes the next turn file's document without its
  signature: the public part, every sealed section (its random bytes drawn
  from the seed's streams, so the replay rebuilds each byte), the
  commitments and the hashes that chain it.

Whatever fails inside a step is a refusal, never a traceback
(:func:`refusing_failures`, which the shell and the replay wrap each step in).
"""

# No ``from __future__ import annotations`` here (docs/performance.md, "Annotations evaluated at import").
# The annotations below name only what is defined above them (those of names imported for type checking
# alone are strings).

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from pbem.crypto.canonical import canonical_json, is_plain, parse_json_strict, sha256_ref
from pbem.crypto.errors import CryptoError, SealTooLarge, SignatureError
from pbem.crypto.keys import PublicKey
from pbem.crypto.seal import parse_plaintext
from pbem.crypto.signing import signed_bytes, verify_document
from pbem.engine.errors import EngineError, IllegalMoveError, NotAwaitedError
from pbem.engine.protocol import DEFAULT_ACTIONS, Decision, Game, Result, apply_choice
from pbem.engine.rng import Rng
from pbem.immutable import Value
from pbem.referee import commitments, formats, keying, orders, sealing
from pbem.referee.errors import (
    BadSignatureMove,
    GameDirError,
    GameOverMove,
    IllegalMove,
    NotYourDecisionMove,
    OtherGameMove,
    RefereeFailed,
    Refusal,
    SchemaInvalidMove,
    UnknownPlayerMove,
    UnreadableMove,
    awaiting_text,
)
from pbem.referee.static import StaticMembers, changed_message, working_copy

if TYPE_CHECKING:  # pragma: no cover
    from pbem.referee.deadlines import StepClock
    from pbem.referee.gamefile import GameFile

REFEREE_SECTION = formats.REFEREE_SECTION
#: a move file larger than this is refused unread
MOVE_MAX_BYTES = 1 << 20
#: and so is one nested deeper than this
MOVE_MAX_DEPTH = 64


# The records of the core are plain classes, not dataclasses nor NamedTuples, which a one-shot ``pbem submit``
# would define on every run (docs/performance.md, "Records without dataclasses").


# --- the position ------------------------------------------------------------------------------------


#: the members of a :class:`Position`, in the order its constructor takes them
_POSITION = ("turn", "state", "seed", "entropy", "standing_orders", "step", "unapplied")


class Position(Value):
    """What the referee knows after a step: the content of its sealed section.

    Equal to another of the same members (unhashable: they are lists and dicts).
    """

    __slots__ = _POSITION
    _key = _POSITION
    turn: int
    state: dict[str, Any]
    seed: bytes
    entropy: list[bytes]
    #: player -> {"auto_pass": {kind: mode}}
    standing_orders: dict[str, dict[str, Any]]
    #: the choices applied in the step that produced this turn
    step: list[dict[str, str]]
    #: the choices of that step's move that were not applied, ``{"player", "from", "to"}``
    #: (1-based positions in the move's list), or ``None`` when every choice was
    unapplied: dict[str, Any] | None

    def __init__(self, turn: int, state: dict[str, Any], seed: bytes, entropy: list[bytes] | None = None,
                 standing_orders: dict[str, dict[str, Any]] | None = None, step: list[dict[str, str]] | None = None,
                 unapplied: dict[str, Any] | None = None) -> None:
        self.turn = turn
        self.state = state
        self.seed = seed
        self.entropy = [] if entropy is None else entropy
        self.standing_orders = {} if standing_orders is None else standing_orders
        self.step = [] if step is None else step
        self.unapplied = unapplied

    def to_section(self, game_id: str, static: StaticMembers) -> dict[str, Any]:
        """The referee's section: the state without its ``static`` members (they come back from the set-up)."""
        return {
            "format": formats.REFEREE,
            "game_id": game_id,
            "turn": self.turn,
            "seed": self.seed.hex(),
            "entropy": [e.hex() for e in self.entropy],
            "state": dynamic_state(self.state, static),
            "standing_orders": self.standing_orders,
            "step": self.step,
            "unapplied": self.unapplied,
        }

    @classmethod
    def from_section(cls, doc: Any, where: str, static: StaticMembers, checked: bool = False) -> "Position":
        """The position a referee section holds, its state completed with the ``static`` members.

        The section is the referee's (its turn's signature covers it, or the
        caller built it): it is checked against its schema only if it is not
        plain (:func:`~pbem.referee.formats.signed_format_problem`), and not
        at all if ``checked`` (the caller has just done so).
        """
        problem = None if checked else formats.signed_format_problem(doc, formats.REFEREE)
        if problem:
            raise GameDirError(f"{where}: referee section: {problem}")
        clash = sorted(static.names & set(doc["state"]))
        if clash:
            raise GameDirError(f"{where}: referee section: the state holds its static members {clash}")
        return cls(
            turn=doc["turn"],
            state=dict(sorted({**doc["state"], **static.members()}.items())),
            seed=bytes.fromhex(doc["seed"]),
            entropy=[bytes.fromhex(e) for e in doc["entropy"]],
            standing_orders=doc["standing_orders"],
            step=doc["step"],
            unapplied=doc["unapplied"],
        )


def dynamic_state(state: dict[str, Any], static: StaticMembers) -> dict[str, Any]:
    """``state`` without its static members, after checking that they are still what the set-up makes.

    A game that changed one would lose the change when the section is
    opened again, so that is an error of the game, not a silent loss. A
    state opened by the referee holds the shared read-only members, which
    refuse a change when it is tried (:mod:`pbem.referee.static`): here each
    is found to be still that object; a game's own state (turn 0) is
    compared.
    """
    for name in sorted(static.names):
        if name not in state or not static.matches(name, state[name]):
            raise GameDirError(changed_message(state.get("format", "game"), name))
    return {name: value for name, value in state.items() if name not in static.names}


def is_over(game: Game, state: dict[str, Any]) -> bool:
    """The game has ended (:func:`ended`)."""
    return ended(game.result(state), game.awaiting(state))


def ended(result: Result | None, awaiting: list[Decision]) -> bool:
    """The game has ended: a result, or nobody is awaited."""
    return result is not None or not awaiting


# --- the move, read once ------------------------------------------------------------------------------


#: the members of a :class:`MoveFile`, in the order its constructor takes them
_MOVE_FILE = ("data", "doc", "signed", "hash", "file_hash")


class MoveFile(Value):
    """A move file as the referee received it, parsed and hashed once (:func:`checked_move`).

    Every check of the step and the turn it produces take what they need
    from here: the document, the canonical form its signature covers, the
    move's hash (the turn's ``move``) and the SHA-256 of the bytes as
    received (the turn's ``move_file``, and a rejection notice's ``file``).
    Equal to another of the same members; nothing changes one once made.
    """

    __slots__ = (*_MOVE_FILE, "player")
    _key = _MOVE_FILE
    #: the bytes as received, which ``moves/`` keeps verbatim
    data: bytes
    #: the document, of the move format (:data:`~pbem.referee.formats.MOVE`)
    doc: dict[str, Any]
    #: the canonical form its signature covers (:func:`~pbem.crypto.signing.signed_bytes`)
    signed: bytes
    #: the move's hash: SHA-256 of ``signed``
    hash: str
    #: SHA-256 of ``data``
    file_hash: str
    #: the player the move names
    player: str

    def __init__(self, data: bytes, doc: dict[str, Any], signed: bytes, hash: str, file_hash: str) -> None:
        self.data = data
        self.doc = doc
        self.signed = signed
        self.hash = hash
        self.file_hash = file_hash
        self.player = doc["player"]

    def __repr__(self) -> str:
        return f"MoveFile(doc={self.doc!r}, hash={self.hash!r}, file_hash={self.file_hash!r})"


def parse_move(data: bytes) -> Any:
    """Step 1: the document of a move file's bytes (strict JSON, at most :data:`MOVE_MAX_BYTES`, nested
    at most :data:`MOVE_MAX_DEPTH` deep); :class:`UnreadableMove` if there is none."""
    try:
        return parse_json_strict(data, max_bytes=MOVE_MAX_BYTES, max_depth=MOVE_MAX_DEPTH)
    except CryptoError as error:
        raise UnreadableMove(f"unreadable move file: {error}") from error


def checked_move(data: bytes, doc: Any, file_hash: str) -> MoveFile:
    """Step 2: ``doc``, parsed from ``data`` (whose SHA-256 is ``file_hash``), is a move file
    (:class:`SchemaInvalidMove` if not), read into its :class:`MoveFile`: one canonical form for the
    move's hash and its signature."""
    problem = formats.format_problem(doc, formats.MOVE)
    if problem:
        raise SchemaInvalidMove(f"not a valid move file: {problem}")
    signed = signed_bytes(doc)
    return MoveFile(data=data, doc=doc, signed=signed, hash=sha256_ref(signed), file_hash=file_hash)


# --- the sender, and what fails inside a step --------------------------------------------------------


def admit_sender(gamefile: "GameFile", doc: dict[str, Any], doc_hash: str, what: str,
                 body: bytes | None = None, verified_by: PublicKey | None = None) -> PublicKey:
    """Steps 3-5 for any signed file a player sends (``what``: "move" or "join"): ``doc`` names this game,
    comes from a seated player and carries that player's signature, each failure its own refusal; return the
    sender's key.

    ``body`` is the canonical form the signature covers, if the caller has it (it hashed it).
    ``verified_by`` is a key the caller has verified this very document's signature with
    (``pbem verify`` before its replay): if it is the seated player's key, the signature is not
    verified again.
    """
    player = doc["player"]
    if doc["game_id"] != gamefile.game_id:
        raise OtherGameMove(
            f"the {what} is for game {doc['game_id']}, this is game {gamefile.game_id}",
            player=player, move_hash=doc_hash,
        )
    public_key = gamefile.player_key(player)
    if public_key is None:
        raise UnknownPlayerMove(
            f"{player!r} is not seated in game {gamefile.game_id} (players: {', '.join(gamefile.player_names)})",
            player=player, move_hash=doc_hash,
        )
    if verified_by is not None and verified_by.ed25519 == public_key.ed25519:
        return public_key
    try:
        verify_document(doc, public_key, body)
    except SignatureError as error:
        raise BadSignatureMove(
            _taken_over(gamefile, doc, player) or f"the signature is not {player}'s: {error}",
            player=player, move_hash=doc_hash,
        ) from error
    return public_key


def _taken_over(gamefile: "GameFile", doc: dict[str, Any], player: str) -> str | None:
    """Why a file signed by a key that held ``player``'s seat before a takeover is refused, or ``None``."""
    for handover in reversed(gamefile.handovers_of(player)):
        try:
            verify_document(doc, handover.previous)
        except SignatureError:
            continue
        return (f"signed by {handover.previous.fingerprint}, which held {player}'s seat until the referee handed it "
                f"to {gamefile.player_key(player).fingerprint} at turn {handover.turn} (pbem takeover): "  # type: ignore[union-attr]
                f"the seat was taken over, and files signed by the previous key are refused")
    return None


@contextmanager
def refusing_failures(sender: str | None = None, move_hash: str | None = None) -> Iterator[None]:
    """Whatever fails inside a referee step is a refusal, never a traceback.

    A refusal passes through (marked with its authenticated ``sender``); a
    damaged game directory (:class:`GameDirError`) and a failed read or write
    (:class:`OSError`) stop the step as they are. Anything else, a bug in pbem
    or in the game, or a next turn too large to seal, becomes
    :class:`RefereeFailed`, whose public message names no value from the
    file or the state (an exception's text may quote a hidden card).
    """
    try:
        yield
    except Refusal as refusal:
        if sender is not None:
            refusal.sender = sender
        raise
    except (GameDirError, OSError):
        raise
    except SealTooLarge as error:
        failure = RefereeFailed(
            f"the referee cannot apply this file: in the next turn, {error}; nothing changed",
            player=sender, move_hash=move_hash,
        )
        failure.sender = sender
        raise failure from error
    except Exception as error:
        failure = RefereeFailed(
            f"the referee failed on this file ({type(error).__name__}); nothing changed. This is a bug in pbem "
            "or in the game: report it with the file",
            player=sender, move_hash=move_hash,
        )
        failure.sender = sender
        raise failure from error


def open_choices(game: Game, gamefile: "GameFile", seed: bytes, move: MoveFile) -> dict[str, Any]:
    """Step 5, after the signature: the move's sealed choices, opened with the game identity and checked.

    Checked: the payload's schema; that it was sealed for this very move
    (its game id, player, turn and base are the move's); and that its
    orders name only decision kinds of ``game`` and only what each kind's
    orders may test (:func:`pbem.referee.orders.problems`; the message lists
    the game's kinds and never quotes the payload: it is the player's secret).
    """
    doc, player, move_hash = move.doc, move.player, move.hash
    # No message below quotes the payload, not even a member's name: it is
    # the player's secret, and rejection notices are public.
    try:
        plaintext = sealing.open_with_seed_raw(doc["sealed_choices"], seed)
    except CryptoError as error:  # the age layer names nothing of the plaintext
        raise UnreadableMove(
            f"the sealed choices do not open with this game's identity: {error}", player=player, move_hash=move_hash
        ) from error
    try:
        payload = parse_plaintext(plaintext)
    except CryptoError as error:
        raise UnreadableMove("the sealed choices do not hold a valid JSON document", player=player,
                             move_hash=move_hash) from error
    problem = formats.format_problem(payload, formats.CHOICES, quote=False)
    if problem:
        raise SchemaInvalidMove(f"the sealed choices are not valid: {problem}", player=player, move_hash=move_hash)
    mismatched = [name for name in formats.CHOICES_BINDING if payload[name] != doc[name]]
    if mismatched:
        # names the members only: their values in the payload are the sealer's secret
        raise SchemaInvalidMove(
            f"the sealed choices were sealed for another move: their {', '.join(mismatched)} "
            f"{'is' if len(mismatched) == 1 else 'are'} not this move's",
            player=player, move_hash=move_hash,
        )
    if orders.unknown_kinds(game, payload.get("standing_orders")):
        raise SchemaInvalidMove(
            f"the orders name a decision kind that {gamefile.game} does not have "
            f"(its kinds: {orders.kinds_text(game)})",
            player=player, move_hash=move_hash,
        )
    if orders.problems(game, payload.get("standing_orders")):
        raise SchemaInvalidMove(f"the orders do not fit {gamefile.game}: {orders.UNFIT}", player=player,
                                move_hash=move_hash)
    return payload


# --- a step ----------------------------------------------------------------------------------------------


class Chain:
    """What a step asks of the game's record, which the position does not hold: the shell answers from the
    game directory (:mod:`pbem.referee.pipeline`), the replay from the turns it has rebuilt."""

    __slots__ = ()

    def abandoned(self) -> bool:
        """The game was abandoned and its seed revealed (``pbem reveal --force``): it takes no move."""
        raise NotImplementedError

    def check_fresh(self, move: MoveFile, since: int) -> None:
        """Step 7: the move answers a turn of this chain no older than ``since``, the turn at which its
        player's open decision opened; raises :class:`~pbem.referee.errors.StaleMove` if not."""
        raise NotImplementedError


class Played:
    """What a step did to the game: the next position, when each decision open after it opened, and
    those decisions. The choices applied, and by whom, are ``position.step``."""

    __slots__ = ("awaiting", "position", "since")

    def __init__(self, position: Position, since: dict[str, int], awaiting: list[Decision]) -> None:
        self.position = position
        self.since = since
        self.awaiting = awaiting


def play_move(game: Game, gamefile: "GameFile", position: Position, since_before: dict[str, int], move: MoveFile,
              chain: Chain) -> Played:
    """Steps 5 to 10 of a move whose sender was admitted (its game, seat and signature): the position after
    its choices and the standing orders, on ``position.state`` itself, which the caller opened for this
    step alone (a refused move leaves nothing behind but a state nobody reads).

    ``since_before`` says when each decision open at ``position`` opened.
    """
    payload = open_choices(game, gamefile, position.seed, move)
    # 6. game over (an abandoned game is over too)
    if chain.abandoned():
        raise GameOverMove(
            f"game {gamefile.game_id} was abandoned and its seed revealed; no move is taken",
            player=move.player, move_hash=move.hash,
        )
    return play_choices(game, position, since_before, move.player, payload, move.hash,
                        lambda since: chain.check_fresh(move, since))


def play_choices(game: Game, position: Position, since_before: dict[str, int], player: str, payload: dict[str, Any],
                 move_hash: str, check_fresh: Callable[[int], None]) -> Played:
    """Steps 6 to 10 of :func:`play_move`, once the sealed choices are opened (``payload``):
    ``check_fresh(since)`` is step 7."""
    number = position.turn
    before = game.awaiting(position.state)
    if not before or game.result(position.state) is not None:  # the final turn has published the seed
        raise GameOverMove("the game is over; no move is taken", player=player, move_hash=move_hash)
    # 7. stale base
    check_fresh(since_before.get(player, number))
    # 8. awaited player
    choices: list[str] = payload["choices"]
    decision = next((d for d in before if d.player == player), None)
    if decision is None:
        awaited = [{"player": d.player, "kind": d.kind, "since": since_before.get(d.player, number)} for d in before]
        # the same words whether the move sealed choices or standing orders alone (the notice is public)
        raise NotYourDecisionMove(
            f"no decision of {player} is awaited at turn {number} (awaited: {awaiting_text(awaited)}); "
            f"{orders.NOT_AWAITED}",
            player=player, move_hash=move_hash,
        )
    standing = orders.merge(position.standing_orders, player, payload.get("standing_orders"))
    if not choices and not orders.answers(decision, standing.get(player)):
        raise IllegalMove(orders.ANSWER_NOTHING.format(kind=decision.kind), player=player, move_hash=move_hash)
    # 9. legal choices; 10. standing orders
    new_turn = number + 1
    rng = keying.engine_rng(position.seed, position.entropy, new_turn)
    state = position.state
    game.begin_step(state)
    step: list[dict[str, str]] = []
    state, applied = _apply_choices(game, state, decision, choices, rng, step, move_hash)
    unapplied = {"player": player, "from": applied + 1, "to": len(choices)} if applied < len(choices) else None
    return conclude(game, position, before, since_before, state, standing, rng, step, unapplied)


def _apply_choices(
    game: Game, state: dict[str, Any], decision: Decision, choices: list[str], rng: Rng,
    step: list[dict[str, str]], move_hash: str,
) -> tuple[dict[str, Any], int]:
    """Apply the legal prefix of ``choices``; return the state and how many were applied.

    Each choice goes through :func:`pbem.engine.protocol.apply_choice`, which
    refuses an id that is not an option of the player's decision then open
    (or a player no longer awaited) before the game sees it. The first
    choice answers ``decision``, which the player saw: if it is not an
    option the whole move is refused. A later choice that is not an option
    ends the move there: the choices before it stand, it and the rest are
    dropped, and no message says what they were or why, so that trying a
    choice costs the real move before it (no free look ahead).
    """
    player = decision.player
    for index, choice in enumerate(choices):
        try:
            state = apply_choice(game, state, player, choice, rng)
        except (IllegalMoveError, NotAwaitedError) as error:
            if index:
                return state, index
            # The message never quotes the choice: rejection notices are
            # public, and a choice (a card) is the player's secret.
            # nor how many choices the move held: that too is the sealed payload's
            raise IllegalMove(
                f"the first choice is not an option of {player}'s {decision.kind} decision",
                player=player, move_hash=move_hash, index=0,
            ) from error
        step.append({"player": player, "option": choice, "by": "move"})
    return state, len(choices)


def conclude(
    game: Game, position: Position, before: list[Decision], since_before: dict[str, int], state: dict[str, Any],
    standing: orders.Orders, rng: Rng, step: list[dict[str, str]], unapplied: dict[str, Any] | None = None,
) -> Played:
    """The end of every step that answered a decision (a move, or a timeout): the standing orders
    carried out, then the next position and when each decision open after it opened."""
    new_turn = position.turn + 1
    state = orders.carry_out(game, state, standing, rng, step)
    after = game.awaiting(state)
    since = carry_since(before, since_before, after, {s["player"] for s in step}, new_turn)
    new_position = Position(
        turn=new_turn, state=state, seed=position.seed, entropy=position.entropy,
        standing_orders=standing, step=step, unapplied=unapplied,
    )
    return Played(new_position, since, after)


def same_decision(a: Decision, b: Decision) -> bool:
    return a.kind == b.kind and a.options == b.options


def carry_since(
    before: list[Decision], since_before: dict[str, int], after: list[Decision], acted: set[str], turn: int
) -> dict[str, int]:
    """When each decision open after a step opened.

    A player who did not act in the step and is still awaited with the same
    decision (same kind, same options) keeps the turn number at which it
    opened, so a simultaneous choice sent against that turn is not stale just
    because another player moved meanwhile. Every other decision opens now.
    """
    previous = {d.player: d for d in before}
    since: dict[str, int] = {}
    for decision in after:
        old = previous.get(decision.player)
        if (
            decision.player not in acted
            and old is not None
            and same_decision(old, decision)
            and decision.player in since_before
        ):
            since[decision.player] = since_before[decision.player]
        else:
            since[decision.player] = turn
    return since


def deal(game: Game, gamefile: "GameFile", setup: Any, seed: bytes, entropy: list[bytes]) -> Played:
    """Turn 0: the game set up from ``setup`` for the seats of ``gamefile``, every decision open since 0."""
    state = game.new_state(setup, gamefile.player_names, keying.engine_rng(seed, entropy, 0))
    awaiting = game.awaiting(state)
    return Played(Position(turn=0, state=state, seed=seed, entropy=list(entropy)),
                  {d.player: 0 for d in awaiting}, awaiting)


#: the default action of a kind the game declares nothing for
DEFAULT_ACTION = "pass"
#: the generator stream a bot's choice for an absent player is drawn from
BOT_STREAM = "timeout"


def declared_action(game: Game, kind: str) -> str:
    """What ``game`` declares for a decision of ``kind`` whose deadline passed: ``pass`` or ``bot``."""
    declare = getattr(game, "default_action", None)
    action = declare(kind) if callable(declare) else DEFAULT_ACTION
    if action not in DEFAULT_ACTIONS:
        raise EngineError(f"{game.name}.default_action({kind!r}) is {action!r}, "
                          f"not one of {', '.join(DEFAULT_ACTIONS)}")
    return action


def default_choice(game: Game, decision: Decision, rng: Rng) -> tuple[str, str]:
    """The option the referee chooses for an absent player, and the action that chose it (pass or bot)."""
    if declared_action(game, decision.kind) == "pass" and decision.pass_id is not None \
            and decision.option(decision.pass_id) is not None:
        return decision.pass_id, "pass"
    return rng.choice(decision.options, label=BOT_STREAM).id, "bot"


def time_out(game: Game, position: Position, since_before: dict[str, int], player: str, kind: str,
             ) -> tuple[Played, str]:
    """The referee's step for a ``kind`` decision of ``player`` past its deadline, on a copy of the state:
    answered with the game's default action (:func:`default_choice`), and the
    action it was (``pass`` or ``bot``)."""
    before = game.awaiting(position.state)
    decision = next((d for d in before if d.player == player), None)
    if decision is None or decision.kind != kind:
        raise GameDirError(f"no {kind} decision of {player} is awaited at turn {position.turn}")
    rng = keying.engine_rng(position.seed, position.entropy, position.turn + 1)
    option, action = default_choice(game, decision, rng)
    state = working_copy(position.state)
    game.begin_step(state)  # a step of its own: its events are the timeout's
    state = apply_choice(game, state, player, option, rng)
    step = [{"player": player, "option": option, "by": "timeout"}]
    return conclude(game, position, before, since_before, state, position.standing_orders, rng, step), action


def hand_over(game: Game, position: Position, since_before: dict[str, int], player: str) -> Played:
    """The referee's step for a seat handed to a new key: the same state at the next turn, a step in which
    nothing happens in the game (the game begins it, so the turn repeats none of the last step's events);
    the seat's decision opens anew for its new holder; the seat's orders stay, in its new holder's view."""
    state = working_copy(position.state)
    game.begin_step(state)
    awaiting = game.awaiting(state)
    new_turn = position.turn + 1
    since = carry_since(awaiting, since_before, awaiting, {player}, new_turn)
    new_position = Position(turn=new_turn, state=state, seed=position.seed, entropy=position.entropy,
                            standing_orders=position.standing_orders, step=[], unapplied=None)
    return Played(new_position, since, awaiting)


# --- the next turn -----------------------------------------------------------------------------------


#: the members of a decision that the turn's public ``awaiting`` already gives
PUBLIC_DECISION_MEMBERS = ("player", "kind")


def player_section_doc(
    game: Game, gamefile: "GameFile", position: Position, player: str, decision: Decision | None
) -> dict[str, Any]:
    """A player's section: what the public part of the turn does not say.

    Their private part (the game's :meth:`~pbem.engine.protocol.Game.private`),
    their open decision without what ``awaiting`` says (who, which kind),
    their standing orders and, after a move of theirs that was not applied
    whole, which of its choices were not (``unapplied``: only the mover
    knows how many choices the move held). The public part, the result and
    ``since`` are in the turn file, outside.
    """
    unapplied = position.unapplied if position.unapplied and position.unapplied["player"] == player else None
    return {
        "format": formats.PLAYER_VIEW,
        "game_id": gamefile.game_id,
        "turn": position.turn,
        "player": player,
        "private": game.private(position.state, player),
        "decision": None if decision is None else {
            name: value for name, value in decision.to_json().items() if name not in PUBLIC_DECISION_MEMBERS
        },
        "standing_orders": position.standing_orders.get(player, {}),
        "unapplied": {"from": unapplied["from"], "to": unapplied["to"]} if unapplied else None,
    }


def section_documents(
    game: Game, gamefile: "GameFile", position: Position, static: StaticMembers,
    awaiting: list[Decision] | None = None,
) -> dict[str, dict[str, Any]]:
    """The document of every sealed section of a turn: each player's, and the referee's
    (``awaiting``: the position's open decisions, if the caller has them)."""
    decisions = {d.player: d for d in (game.awaiting(position.state) if awaiting is None else awaiting)}
    docs = {
        player: player_section_doc(game, gamefile, position, player, decisions.get(player))
        for player in gamefile.player_names
    }
    docs[REFEREE_SECTION] = position.to_section(gamefile.game_id, static)
    return docs


class SectionForms:
    """Every sealed section of a turn as a document and as its canonical form, which serves its sealing,
    its commitment (which never covers padding) and the replay's reading the position back; and whether
    each document is plain (:func:`~pbem.crypto.canonical.is_plain`), found once for both."""

    __slots__ = ("canonical", "docs", "plain")

    def __init__(self, docs: dict[str, dict[str, Any]], canonical: dict[str, bytes], plain: dict[str, bool]) -> None:
        self.docs = docs
        self.canonical = canonical
        self.plain = plain


def section_forms(
    game: Game, gamefile: "GameFile", position: Position, static: StaticMembers,
    awaiting: list[Decision] | None = None,
) -> SectionForms:
    """The :class:`SectionForms` of ``position``'s turn (``awaiting``: its open decisions, if the caller has them)."""
    docs = section_documents(game, gamefile, position, static, awaiting)
    plain = {name: is_plain(doc) for name, doc in docs.items()}
    return SectionForms(docs, {name: canonical_json(doc, plain[name]) for name, doc in docs.items()}, plain)


def seal_sections(
    game: Game, gamefile: "GameFile", position: Position, move_hash: str | None, canonical: dict[str, bytes],
    recorded: Any = None, awaiting: list[Decision] | None = None,
) -> dict[str, str]:
    """Every section of a turn sealed, padded to the sizes the game declares for its seat count.

    A player's section is padded to the size for the kind of decision
    awaited from them (public, in ``awaiting``), the referee's to one size,
    each grown by the allowance of the orders it holds (a public count:
    :func:`pbem.referee.orders.allowance`);
    the random bytes come from the seed's streams, so the replay rebuilds
    each byte. ``recorded`` is the replay's: the sections of the turn file
    it checks. A recorded section that is exactly the one sealing writes
    (:func:`pbem.referee.sealing.seals`, which opens it with the seed's
    stream instead of sealing again) is taken as it is; any other is sealed
    anew, so that the comparison of the turns names it.
    """
    seed, number = position.seed, position.turn
    sizes = game.sealed_sizes(len(gamefile.players))
    kinds = {d.player: d.kind for d in (game.awaiting(position.state) if awaiting is None else awaiting)}
    # to the key that holds the seat now (a seat handed over is sealed to its new key)
    held = position.standing_orders
    rules = [(player, [public_key.recipient], sizes.player_section(kinds.get(player)) + orders.allowance(held.get(player)),
              False)
             for player, public_key in gamefile.seat_keys]
    rules.append((REFEREE_SECTION, [gamefile.referee.recipient, gamefile.game_recipient],
                  sizes.referee + sum(orders.allowance(o) for o in held.values()), True))
    found = recorded if isinstance(recorded, dict) else {}
    sealed = {}
    for name, recipients, size, compressed in rules:
        if name in found and sealing.seals(found[name], canonical[name], recipients,
                                           keying.seal_stream(seed, number, move_hash, name), size, compressed):
            sealed[name] = found[name]
            continue
        seal = sealing.seal_compressed if compressed else sealing.seal_canonical
        sealed[name] = seal(canonical[name], recipients, keying.seal_stream(seed, number, move_hash, name), size)
    return sealed


def next_turn(
    game: Game,
    gamefile: "GameFile",
    played: Played,
    previous_hash: str | None,
    move_hash: str | None,
    mover: str | None,
    static: StaticMembers,
    move_file: str | None = None,
    joins: dict[str, dict[str, str]] | None = None,
    clock: "StepClock | None" = None,
    act: dict[str, Any] | None = None,
    recorded: Any = None,
    forms: SectionForms | None = None,
) -> dict[str, Any]:
    """The turn ``played`` reached, as the referee signs it (without the signature).

    Everything here is a function of the game directory's inputs and the
    seed: the sealing draws its randomness from the seed's streams, so
    ``pbem verify --replay`` rebuilds this document exactly. ``move_file`` is
    the SHA-256 of the move file's bytes as received (so that not one byte of
    the kept move can change unnoticed), ``joins`` the same for each join
    file (turn 0 of a game that waited for joins). When the game is over the
    seed is published in the turn (``seed``), so anyone can replay the game.

    In a game with deadlines, ``clock`` gives the step's time, recorded as
    ``time``, and each awaited decision gets its ``deadline``; a game without
    deadlines records neither, so its turns are what they always were.
    ``act`` describes a step the referee made in place of a move (a timeout
    or a takeover, ``referee_step``); ``move`` and ``move_file`` then name
    the referee's signed record of it. Once a seat has been handed over,
    every turn names the seat records in force (``seats``, from
    ``gamefile``'s handovers), so that a reader finds them by name; a game
    without takeovers records none. Once a player has orders, every turn
    names the kinds each player has orders for (``orders``), and a turn
    whose step orders answered names those decisions (``by_order``): which
    players' and of which kinds, never the options. ``recorded`` (the replay's) is the
    ``sealed`` member of the turn file being checked (:func:`seal_sections`);
    ``forms``, the sections' :func:`section_forms` if the caller has them.
    """
    position, since, decisions = played.position, played.since, played.awaiting
    seed, number = position.seed, position.turn
    if forms is None:
        forms = section_forms(game, gamefile, position, static, decisions)
    sealed = seal_sections(game, gamefile, position, move_hash, forms.canonical, recorded, decisions)
    result = game.result(position.state)
    awaiting = [{"player": d.player, "kind": d.kind, "since": since[d.player]} for d in decisions]
    extra: dict[str, Any] = {}
    if clock is not None:
        from pbem.referee.deadlines import set_deadlines  # a game with deadlines only

        rules = gamefile.deadline_rules
        assert rules is not None, "a step clock in a game without deadlines"
        set_deadlines(rules, awaiting, number, clock.time, clock.previous)
        extra["time"] = clock.time
    if act is not None:
        extra["referee_step"] = act
    if gamefile.handovers:
        extra["seats"] = [{"player": h.player, "turn": h.turn} for h in gamefile.handovers]
    # a game without orders records neither, so its turns are what they always were
    held = orders.public_orders(position.standing_orders)
    if held:
        extra["orders"] = held
    answered = orders.by_order(position.step)
    if answered:
        extra["by_order"] = answered
    return {
        **extra,
        "format": formats.TURN,
        "game_id": gamefile.game_id,
        "game": gamefile.hash(),
        "turn": number,
        "previous": previous_hash,
        "move": move_hash,
        "move_file": move_file,
        "mover": mover,
        "joins": joins,
        "public": game.public(position.state),
        "awaiting": awaiting,
        "result": result.to_json() if result is not None else None,
        "commitments": commitments.turn_commitments(game, seed, number, move_hash, forms.docs, position.state,
                                                    forms.canonical),
        "seed": seed.hex() if ended(result, decisions) else None,
        "sealed": sealed,
    }

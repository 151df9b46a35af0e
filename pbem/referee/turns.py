"""Writing one turn: the public record, the sealed sections, the views.

A turn file holds the game's public part, whose decisions are awaited (player,
kind and since when), the result, the hashes that chain it to the previous
turn and to the move that produced it, and one sealed section per player
(what only they know, their options) plus one for the referee (the state
without its static members, the seed, the standing orders, the choices of
this step). Nothing public is repeated inside a sealed section, and every
section is padded to a size fixed by public facts (the game's
:meth:`~pbem.engine.protocol.Game.sealed_sizes`), so the length of a turn
file says nothing hidden. It holds no history, so its size depends on the
state alone.
"""

# No ``from __future__ import annotations`` here (docs/performance.md, "Annotations evaluated at import").
# The annotations below name only what is defined above them (those of names imported for type checking
# alone are strings).

import base64
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pbem.crypto.canonical import canonical_json, is_plain, sha256_ref
from pbem.crypto.keys import PrivateKey
from pbem.crypto.signing import ALGORITHM, SIGNATURE_FIELD, sign_document
from pbem.engine.protocol import Decision, Game, Result
from pbem.immutable import Value
from pbem.referee import commitments, formats, keying, sealing
from pbem.referee.errors import GameDirError
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.records import Record
from pbem.referee.static import StaticMembers, changed_message
from pbem.referee.storage import dump_json, write_file

if TYPE_CHECKING:  # pragma: no cover
    from pbem.referee.deadlines import StepClock

REFEREE_SECTION = formats.REFEREE_SECTION


# The classes of a step are plain classes and NamedTuples rather than dataclasses, which a one-shot
# ``pbem submit`` would define on every run (docs/performance.md, "Records without dataclasses").


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


def _open_referee_section(turn: Record, referee_key: PrivateKey, gamefile: GameFile) -> dict[str, Any]:
    # The turn's signature covers the sealed text, so these are the very bytes the referee sealed: the
    # canonical JSON of a document it built, not a rewrite of one (``1.0`` for ``1``, which
    # :func:`~pbem.referee.formats.signed_format_problem` walks the document to catch). So it is read without
    # the strict reader's checks, which it passes by construction, and only its format is checked; walking
    # the whole state again was a tenth of a step.
    doc = sealing.open_with_key(turn.doc["sealed"][REFEREE_SECTION], referee_key, f"{turn.path} (referee section)",
                                compressed=True, signed=True)
    if not isinstance(doc, dict) or doc.get("format") != formats.REFEREE:
        raise GameDirError(f"{turn.path}: referee section: not a {formats.REFEREE!r} document")
    if doc["turn"] != turn.doc["turn"] or doc["game_id"] != gamefile.game_id:
        raise GameDirError(f"{turn.path}: the referee section belongs to another turn or game")
    if keying.commitment(bytes.fromhex(doc["seed"])) != gamefile.commitment:
        raise GameDirError(f"{turn.path}: the referee section's seed does not match the commitment in game.toml")
    return doc


def open_position(turn: Record, referee_key: PrivateKey, gamefile: GameFile, static: StaticMembers) -> Position:
    """Open the referee's section of a turn with the referee's private key; ``static`` completes the state."""
    return Position.from_section(_open_referee_section(turn, referee_key, gamefile), str(turn.path), static,
                                 checked=True)


def open_seed(turn: Record, referee_key: PrivateKey, gamefile: GameFile) -> bytes:
    """The seed in the referee's section of a turn (checked against the commitment), without rebuilding the state."""
    return bytes.fromhex(_open_referee_section(turn, referee_key, gamefile)["seed"])


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


#: the members of a decision that the turn's public ``awaiting`` already gives
PUBLIC_DECISION_MEMBERS = ("player", "kind")


def player_section_doc(
    game: Game, gamefile: GameFile, position: Position, player: str, decision: Decision | None
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


class TurnFiles(NamedTuple):
    """A turn ready to be written: the signed turn and each player's signed view wrapper."""

    turn: dict[str, Any]
    hash: str
    views: dict[str, dict[str, Any]]


def is_over(game: Game, state: dict[str, Any]) -> bool:
    """The game has ended (:func:`ended`)."""
    return ended(game.result(state), game.awaiting(state))


def ended(result: Result | None, awaiting: list[Decision]) -> bool:
    """The game has ended: a result, or nobody is awaited."""
    return result is not None or not awaiting


def section_documents(
    game: Game, gamefile: GameFile, position: Position, static: StaticMembers,
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


def section_forms(
    game: Game, gamefile: GameFile, position: Position, static: StaticMembers,
    awaiting: list[Decision] | None = None,
) -> tuple[dict[str, dict[str, Any]], dict[str, bytes], dict[str, bool]]:
    """Every section's document and its canonical form, which serves its sealing and its commitment
    (which never covers padding) and the replay's reading the position back; and whether each
    document is plain (:func:`~pbem.crypto.canonical.is_plain`), found once for both."""
    docs = section_documents(game, gamefile, position, static, awaiting)
    plain = {name: is_plain(doc) for name, doc in docs.items()}
    return docs, {name: canonical_json(doc, plain[name]) for name, doc in docs.items()}, plain


def seal_sections(
    game: Game, gamefile: GameFile, position: Position, move_hash: str | None, canonical: dict[str, bytes],
    recorded: Any = None, awaiting: list[Decision] | None = None,
) -> dict[str, str]:
    """Every section of a turn sealed, padded to the sizes the game declares for its seat count.

    A player's section is padded to the size for the kind of decision
    awaited from them (public, in ``awaiting``), the referee's to one size;
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
    rules = [(player, [public_key.recipient], sizes.player_section(kinds.get(player)), False)
             for player, public_key in gamefile.seat_keys]
    rules.append((REFEREE_SECTION, [gamefile.referee.recipient, gamefile.game_recipient], sizes.referee, True))
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


def assemble_turn(
    game: Game,
    gamefile: GameFile,
    position: Position,
    previous_hash: str | None,
    move_hash: str | None,
    mover: str | None,
    since: dict[str, int],
    static: StaticMembers,
    move_file: str | None = None,
    joins: dict[str, dict[str, str]] | None = None,
    clock: "StepClock | None" = None,
    act: dict[str, Any] | None = None,
    recorded: Any = None,
    forms: tuple[dict[str, dict[str, Any]], dict[str, bytes], dict[str, bool]] | None = None,
) -> dict[str, Any]:
    """Turn ``position.turn`` as the referee signs it (without the signature).

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
    without takeovers records none. ``recorded`` (the replay's) is the
    ``sealed`` member of the turn file being checked (:func:`seal_sections`);
    ``forms``, the sections' :func:`section_forms` if the caller has them.
    """
    seed, number = position.seed, position.turn
    decisions = game.awaiting(position.state)  # asked once, for the sections, the sealing and the public part
    plain, canonical, _ = forms if forms is not None else section_forms(game, gamefile, position, static, decisions)
    sealed = seal_sections(game, gamefile, position, move_hash, canonical, recorded, decisions)
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
        "commitments": commitments.turn_commitments(game, seed, number, move_hash, plain, position.state, canonical),
        "seed": seed.hex() if ended(result, decisions) else None,
        "sealed": sealed,
    }


def build_turn(
    game: Game,
    gamefile: GameFile,
    position: Position,
    previous: Record | None,
    move_hash: str | None,
    mover: str | None,
    since: dict[str, int],
    referee_key: PrivateKey,
    static: StaticMembers,
    move_file: str | None = None,
    joins: dict[str, dict[str, str]] | None = None,
    clock: "StepClock | None" = None,
    act: dict[str, Any] | None = None,
) -> TurnFiles:
    """Seal, assemble and sign turn ``position.turn`` and the views of it (see :func:`assemble_turn`)."""
    unsigned = assemble_turn(
        game, gamefile, position, previous.hash if previous is not None else None, move_hash, mover, since,
        static, move_file=move_file, joins=joins, clock=clock, act=act,
    )
    turn, turn_hash = sign_and_hash(unsigned, referee_key)
    number = position.turn
    views = {
        player: view_wrapper(gamefile, number, turn_hash, player, turn["sealed"][player], referee_key)
        for player in gamefile.player_names
    }
    return TurnFiles(turn=turn, hash=turn_hash, views=views)


class NotPlainTurn(ValueError):
    """A turn holding a float or an integer beyond ±(2**53-1) (from the game's public part or result).

    The referee writes only plain documents (:func:`~pbem.crypto.canonical.is_plain`): a float has the
    canonical form of an integer when it is one (``1.0`` and ``1`` are both ``1``), so the signature of
    a file would not tell the two apart, and plain ``verify`` finds a changed byte only because a file
    the referee wrote holds none. Inside a step this is a bug of the game, refused as ``referee-failed``.
    """


def sign_and_hash(doc: dict[str, Any], key: PrivateKey) -> tuple[dict[str, Any], str]:
    """``sign_document(doc, key)`` and its ``document_hash``, from one canonical form.

    Both cover the canonical JSON of the document without ``signature``, so
    a large turn is serialised once rather than twice. A turn that is not
    plain is refused (:class:`NotPlainTurn`).
    """
    signed = {name: value for name, value in doc.items() if name != SIGNATURE_FIELD}
    if not is_plain(signed):
        raise NotPlainTurn(f"turn {doc.get('turn')} holds a float or an integer beyond ±(2**53-1)")
    body = canonical_json(signed, True)
    signed[SIGNATURE_FIELD] = {
        "alg": ALGORITHM,
        "signer": key.fingerprint,
        "value": base64.b64encode(key.sign(body)).decode(),
    }
    return signed, sha256_ref(body)


def view_doc(gamefile: GameFile, number: int, turn_hash: str, player: str, sealed: str) -> dict[str, Any]:
    """A player's view wrapper without its signature."""
    return {
        "format": formats.VIEW,
        "game_id": gamefile.game_id,
        "player": player,
        "turn": number,
        "turn_hash": turn_hash,
        "sealed": sealed,
    }


def view_wrapper(
    gamefile: GameFile, number: int, turn_hash: str, player: str, sealed: str, referee_key: PrivateKey
) -> dict[str, Any]:
    return sign_document(view_doc(gamefile, number, turn_hash, player, sealed), referee_key)


#: the length of a signature's value in a signed document (the base64 of 64 bytes of Ed25519)
SIGNATURE_TEXT_LENGTH = 88
_SIGNATURE_SLOT = "signature-value-slot"


def view_layout(gamefile: GameFile, number: int, turn_hash: str, player: str, sealed: str,
                signer: str) -> tuple[bytes, bytes]:
    """The bytes of a player's view file before and after the value of its signature by ``signer``
    (a fingerprint): the file is these around :data:`SIGNATURE_TEXT_LENGTH` characters."""
    doc = view_doc(gamefile, number, turn_hash, player, sealed)
    doc[SIGNATURE_FIELD] = {"alg": ALGORITHM, "signer": signer, "value": _SIGNATURE_SLOT}
    before, _, after = dump_json(doc).partition(_SIGNATURE_SLOT.encode("ascii"))
    return before, after


def write_views(gamedir: GameDir, views: dict[str, dict[str, Any]]) -> None:
    """Write each player's view files atomically, without waiting for the disk.

    A view is a copy of the player's section of the current turn: after a
    crash, the next step compares every view with the turn and rewrites the
    ones that differ (:func:`pbem.referee.pipeline.recover`).
    """
    for player, wrapper in views.items():
        write_file(gamedir, gamedir.view_json(player), dump_json(wrapper), sync=False)
        write_file(gamedir, gamedir.view_age(player), wrapper["sealed"].encode("ascii"), sync=False)


def write_turn(
    gamedir: GameDir, files: TurnFiles, move: tuple[str, bytes] | None = None,
    record: tuple[Path, bytes] | None = None,
) -> None:
    """Write a step to disk in crash-safe order.

    The move file (or the referee's ``record`` that stands in for one: a
    timeout or a seat record, at its path) first, then the turn file (its
    rename is the commit point), each flushed to disk with its folder, then
    the views. A crash before the turn's rename leaves a move file or record
    with no turn, which the next step removes; a crash after it leaves old
    views, which the next step rewrites from the turn.
    """
    number = files.turn["turn"]
    if move is not None:
        player, data = move
        write_file(gamedir, gamedir.move(number, player), data)
    if record is not None:
        write_file(gamedir, *record)
    write_file(gamedir, gamedir.turn(number), dump_json(files.turn))
    write_views(gamedir, files.views)

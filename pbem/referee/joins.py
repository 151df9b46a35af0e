"""Players' entropy: join files in two rounds, and the deal once every player is in.

A game created with ``pbem new --wait-for-joins`` commits to its secret seed
in ``game.toml`` (``rng.commitment``, ``rng.entropy = "player-joins"``) and
deals nothing yet. The seed waits in ``pending.json``, sealed to the referee
and the game identity. Then every seated player sends two join files
(``pbem join`` writes the one the game is waiting for; ``pbem submit``
takes them like move files and keeps each verbatim):

1. **commit** (``joins/PLAYER.commit.json``): ``pbem-join/3`` with
   ``commitment = sha256:`` + SHA-256 of the player's 32-byte nonce;
2. **reveal** (``joins/PLAYER.reveal.json``), taken only once every seated
   player's commitment is in: the ``nonce`` itself, which must match the
   commitment, and ``commitments``, every seated player's commitment the
   player saw before sending it, which must be those the game holds. The last reveal deals turn 0 with ``step_rng(seed, [nonce of
   each player in seat order], 0)``, and every later step's generator is
   keyed by the same list.

Both files name the hash of the ``game.toml`` they answer and are signed by
the player. The nonce is HKDF-SHA256 of the player's private key with the
label ``pbem-join-nonce`` 0x00 and that hash (:func:`join_nonce`): the player
keeps no state, and a join sent again is the very same file.

Why two rounds: the referee knows the seed. Were the nonces sent at once, the
last player to join, told the seed, could try nonces until the deal suited
them, and a referee could "lose" a join and ask for another. Committed
first, no nonce can be chosen after anyone else's is seen; derived from the
key, a join asked for again changes nothing. Naming the commitments it
answers, a nonce cannot be taken after a commitment its sender never saw: a
referee that showed a player a copy of the game where the last player had
committed, to learn their nonce and let the last player commit to another
one, cannot use it. What is left is abort: a player
who never reveals stalls the deal (the referee can only ``reveal --force``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem.crypto.canonical import document_hash, parse_json_strict, sha256_ref
from pbem.crypto.errors import CryptoError
from pbem.crypto.keys import PrivateKey
from pbem.crypto.signing import sign_document
from pbem.engine.errors import EngineError
from pbem.engine.registry import find_game
from pbem.referee import formats, keying, sealing
from pbem.referee.core import admit_sender
from pbem.referee.deadlines import deal_clock
from pbem.referee.errors import (
    AlreadyApplied,
    GameDirError,
    KeyMismatch,
    NotYourDecisionMove,
    OtherGameMove,
    Refusal,
    SchemaInvalidMove,
    StateFileError,
    UnexpectedJoin,
    UnreadableMove,
)
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.records import read_record
from pbem.referee.storage import atomic_write, dump_json
from pbem.referee.turns import REFEREE_SECTION, TurnFiles, sign_turn

NONCE_BYTES = 32
COMMIT, REVEAL = "commit", "reveal"
#: the decision kind ``status`` gives a player whom a round waits for
ROUND_KINDS = {COMMIT: "join-commit", REVEAL: "join-reveal"}
#: the domain label of the nonce derived from a player's key
NONCE_LABEL = b"pbem-join-nonce"
#: join files are small; anything larger is refused unread
JOIN_MAX_BYTES = 64 << 10
#: the sealing stream of pending.json is that of "turn -1", which no turn uses
PENDING_TURN = -1
#: the padded size of the sealed seed in pending.json (its document takes about 130 bytes)
SEED_SECTION_SIZE = 256


# --- the referee's sealed seed, while the game waits ------------------------------


def pending_doc(gamefile: GameFile, seed: bytes) -> dict[str, Any]:
    """``pending.json`` without its signature (reproducible from the seed)."""
    secret = {"format": formats.SEED, "game_id": gamefile.game_id, "seed": seed.hex()}
    return {
        "format": formats.PENDING,
        "game_id": gamefile.game_id,
        "game": gamefile.hash(),
        "sealed": sealing.seal_json(
            secret,
            [gamefile.referee.recipient, gamefile.game_recipient],
            keying.seal_stream(seed, PENDING_TURN, None, REFEREE_SECTION),
            SEED_SECTION_SIZE,
        ),
    }


def write_pending(gamedir: GameDir, gamefile: GameFile, seed: bytes, referee_key: PrivateKey) -> None:
    atomic_write(gamedir.pending, dump_json(sign_document(pending_doc(gamefile, seed), referee_key)))


def read_pending_seed(gamedir: GameDir, gamefile: GameFile, referee_key: PrivateKey) -> bytes:
    """The seed kept in ``pending.json``, opened with the referee's key and checked against the commitment.

    ``pending.json`` must name the hash of this very ``game.toml``: every join
    and the deal go through here, so a ``game.toml`` changed since ``pbem new``
    (a seat key swapped) is never dealt on.
    """
    record = read_record(gamedir.pending, formats.PENDING, gamefile.referee, by_referee=True)
    if record.doc["game_id"] != gamefile.game_id or record.doc["game"] != gamefile.hash():
        # a seat key or any other setting of game.toml changed after `pbem new`:
        # dealing on it would seat whoever holds the new key
        raise GameDirError(
            f"{gamedir.pending}: was written for another game.toml than {gamedir.game_toml} "
            f"({record.doc['game']}, not {gamefile.hash()}); game.toml changed after `pbem new`, nothing is dealt"
        )
    secret = sealing.open_with_key(record.doc["sealed"], referee_key, f"{gamedir.pending} (sealed seed)")
    problem = formats.format_problem(secret, formats.SEED)
    if problem or secret["game_id"] != gamefile.game_id:
        raise GameDirError(f"{gamedir.pending}: the sealed seed is not this game's: {problem or 'other game id'}")
    seed = bytes.fromhex(secret["seed"])
    if keying.commitment(seed) != gamefile.commitment:
        raise GameDirError(f"{gamedir.pending}: the sealed seed does not match the commitment in game.toml")
    return seed


# --- the nonce and its commitment -----------------------------------------------


def join_nonce(key: PrivateKey, gamefile: GameFile) -> bytes:
    """The player's nonce for this game: HKDF of their private key, labelled with the ``game.toml`` hash.

    Only the key's holder can compute it, it differs for every game, and it
    is the same every time, so that a join sent again is the same file.
    """
    return key.derive_secret(NONCE_LABEL + b"\x00" + gamefile.hash().encode("ascii"), NONCE_BYTES)


def nonce_commitment(nonce: bytes) -> str:
    """``sha256:`` + hex SHA-256 of the nonce: what the commit round sends."""
    return sha256_ref(nonce)


# --- the join files kept so far -----------------------------------------------------


@dataclass(frozen=True)
class Joins:
    """The seated players' join files, each checked: ``player -> (document, file bytes)`` per round."""

    commits: dict[str, tuple[dict[str, Any], bytes]]
    reveals: dict[str, tuple[dict[str, Any], bytes]]

    def round(self, gamefile: GameFile) -> str | None:
        """The round the game waits for: ``commit`` until every player has committed, then ``reveal``; ``None`` once all is in."""
        if any(p not in self.commits for p in gamefile.player_names):
            return COMMIT
        if any(p not in self.reveals for p in gamefile.player_names):
            return REVEAL
        return None

    def waiting(self, gamefile: GameFile) -> list[str]:
        """The players the current round waits for, in seat order."""
        current = self.round(gamefile)
        if current is None:
            return []
        kept = self.commits if current == COMMIT else self.reveals
        return [p for p in gamefile.player_names if p not in kept]

    def awaiting(self, gamefile: GameFile) -> list[tuple[str, str]]:
        """``(player, kind)`` for each player the current round waits for (``join-commit`` or ``join-reveal``)."""
        current = self.round(gamefile)
        return [(p, ROUND_KINDS[current]) for p in self.waiting(gamefile)] if current is not None else []

    def entropy(self, gamefile: GameFile) -> list[bytes]:
        """The players' nonces in seat order: the entropy of every step's generator."""
        return [bytes.fromhex(self.reveals[p][0]["nonce"]) for p in gamefile.player_names]

    def commitments(self) -> dict[str, str]:
        """``{player: commitment}`` of every commitment kept: what a nonce sent now answers."""
        return {player: doc["commitment"] for player, (doc, _) in self.commits.items()}

    def record(self, gamefile: GameFile) -> dict[str, dict[str, str]]:
        """What turn 0 names: ``{player: {commit, reveal}}``, the SHA-256 of each join file's bytes."""
        return {p: {COMMIT: sha256_ref(self.commits[p][1]), REVEAL: sha256_ref(self.reveals[p][1])}
                for p in gamefile.player_names}


def check_join(gamefile: GameFile, data: bytes) -> dict[str, Any]:
    """The checks of a join file, in pipeline order; raises the refusal."""
    try:
        doc = parse_json_strict(data, max_bytes=JOIN_MAX_BYTES, max_depth=16)
    except CryptoError as error:
        raise UnreadableMove(f"unreadable join file: {error}") from error
    if isinstance(doc, dict) and doc.get("format") == formats.MOVE:
        raise NotYourDecisionMove(
            f"game {gamefile.game_id} waits for every player's join files; no move is taken before the deal"
        )
    problem = formats.format_problem(doc, formats.JOIN)
    if problem:
        raise SchemaInvalidMove(f"not a valid join file: {problem}")
    player, join_hash = doc["player"], document_hash(doc)
    admit_sender(gamefile, doc, join_hash, "join")
    if doc["game"] != gamefile.hash():
        raise OtherGameMove(f"the join answers another game.toml than game {gamefile.game_id}'s",
                            player=player, move_hash=join_hash)
    return doc


def read_join(path: Path, gamefile: GameFile, player: str, round_name: str) -> tuple[dict[str, Any], bytes]:
    """A kept join file, checked: format, game, player, round, signature. Returns the document and its bytes."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise GameDirError(f"{path}: missing", path=path) from None
    try:
        doc = check_join(gamefile, data)
    except Refusal as refusal:
        raise GameDirError(f"{path}: {refusal.message}", path=path) from refusal
    if doc["player"] != player or doc["round"] != round_name:
        raise GameDirError(f"{path}: is {doc['player']}'s {doc['round']} file, not {player}'s {round_name}",
                           path=path)
    return doc, data


def joined(gamedir: GameDir, gamefile: GameFile) -> Joins:
    """The seated players' join files, each checked, and every nonce against its commitment."""
    files = gamedir.join_files()
    kept: dict[str, dict[str, tuple[dict[str, Any], bytes]]] = {COMMIT: {}, REVEAL: {}}
    for player in gamefile.player_names:
        for round_name in (COMMIT, REVEAL):
            path = files.get((player, round_name))
            if path is not None:
                kept[round_name][player] = read_join(path, gamefile, player, round_name)
    for player, (doc, _) in kept[REVEAL].items():
        path = gamedir.join(player, REVEAL)
        if player not in kept[COMMIT]:
            raise GameDirError(f"{path}: a nonce without {player}'s commitment", path=path)
        if nonce_commitment(bytes.fromhex(doc["nonce"])) != kept[COMMIT][player][0]["commitment"]:
            raise GameDirError(f"{path}: the nonce does not match {player}'s commitment", path=path)
    joins = Joins(commits=kept[COMMIT], reveals=kept[REVEAL])
    for player, (doc, _) in joins.reveals.items():
        why = other_commitments(doc, joins)
        if why is not None:
            path = gamedir.join(player, REVEAL)
            raise GameDirError(f"{path}: the nonce was sent after other commitments than the game holds: {why}",
                               path=path)
    return joins


def other_commitments(reveal: dict[str, Any], joins: Joins) -> str | None:
    """Why the commitments a nonce names are not those kept (``None`` when they are).

    A nonce answers the commitments its sender saw: taken after another one
    (a commitment made once the nonce was known), it would let that player
    choose theirs after seeing it. Commitments are public; the message names them.
    """
    named, kept = reveal["commitments"], joins.commitments()
    for player in sorted(set(named) | set(kept)):
        if named.get(player) != kept.get(player):
            if player not in kept:
                return f"it names a commitment of {player}, who has none"
            if player not in named:
                return f"it names no commitment of {player}"
            return f"it names {player}'s commitment {named[player]}, not {kept[player]}"
    return None


# --- the player's side ------------------------------------------------------------


def join_document(gamefile: GameFile, player: str, round_name: str, nonce: bytes,
                  commitments: dict[str, str] | None = None) -> dict[str, Any]:
    """A join file's document (unsigned): the commitment to ``nonce``, or ``nonce`` itself and
    ``commitments``, every seated player's commitment it answers (:meth:`Joins.commitments`)."""
    doc: dict[str, Any] = {"format": formats.JOIN, "game_id": gamefile.game_id, "game": gamefile.hash(),
                           "player": player, "round": round_name}
    if round_name == COMMIT:
        doc["commitment"] = nonce_commitment(nonce)
    else:
        if commitments is None:
            raise ValueError("a reveal names the commitments it answers")
        doc["nonce"] = nonce.hex()
        doc["commitments"] = dict(commitments)
    return doc


def make_join(directory: str | Path, player: str, key: PrivateKey, nonce: bytes | None = None,
              state_dir: Path | None = None) -> bytes:
    """The signed join file ``player`` sends now: the commitment, or, once every player has committed, the nonce.

    The round is read from the game directory (``game.toml`` and the join
    files in ``joins/``). ``nonce`` replaces the one derived from the key
    (:func:`join_nonce`), for tests; nobody else could tell the difference.
    With ``state_dir`` (``pbem join``: the player's state directory), the
    nonce is sent after one set of commitments only (:func:`remember_reveal`).
    """
    gamedir = GameDir.at(directory)
    gamedir.refuse_symlinks()
    gamefile = GameFile.read(gamedir.game_toml)
    seat = gamefile.player_key(player)
    if seat is None:
        raise KeyMismatch(
            f"{player!r} is not seated in game {gamefile.game_id} (players: {', '.join(gamefile.player_names)})"
        )
    if seat.fingerprint != key.public.fingerprint:
        raise KeyMismatch(f"this key ({key.public.fingerprint}) is not {player}'s key in game {gamefile.game_id}")
    if not gamefile.waits_for_joins:
        raise UnexpectedJoin(f"game {gamefile.game_id} does not wait for joins (entropy = referee-only)")
    if gamedir.has_turns():
        raise UnexpectedJoin(f"game {gamefile.game_id} was dealt already; joins are closed")
    joins = joined(gamedir, gamefile)
    chosen = nonce if nonce is not None else join_nonce(key, gamefile)
    if player not in joins.commits:
        return dump_json(sign_document(join_document(gamefile, player, COMMIT, chosen), key))
    if joins.round(gamefile) == COMMIT:
        raise UnexpectedJoin(
            f"{player} has committed; the nonces are sent once every seated player has committed "
            f"(waiting for {', '.join(joins.waiting(gamefile))}): run pbem join again then"
        )
    if player in joins.reveals:
        raise UnexpectedJoin(f"{player} has sent their nonce; the deal waits for {', '.join(joins.waiting(gamefile))}")
    if nonce_commitment(chosen) != joins.commits[player][0]["commitment"]:
        raise KeyMismatch(f"this nonce does not match the commitment {player} sent "
                          f"({gamedir.join(player, COMMIT)}): was it made with another key?")
    if state_dir is not None:
        remember_reveal(state_dir, gamefile, player, joins.commitments())
    return dump_json(sign_document(join_document(gamefile, player, REVEAL, chosen, joins.commitments()), key))


def reveal_record_path(state_dir: Path, gamefile: GameFile, player: str) -> Path:
    """``STATE/joins/GAME_ID-GAMEHASH-PLAYER.json``: per ``game.toml`` (a test game's id follows from its seed)."""
    return Path(state_dir) / "joins" / f"{gamefile.game_id}-{gamefile.hash().removeprefix('sha256:')}-{player}.json"


def remember_reveal(state_dir: Path, gamefile: GameFile, player: str, commitments: dict[str, str]) -> None:
    """Record, on the player's machine, the commitments ``player``'s nonce is sent after; refuse other ones.

    The nonce is the same on every run (a join sent again is the same file),
    and a reveal names the commitments it answers. So a referee that asked
    the player to join again while showing another commitment of the last
    player (one of several made in advance, each chosen before the nonce was
    known) would get a second reveal, and one more deal to choose from. The
    record (``pbem-join-record/1``, :func:`reveal_record_path`, mode
    0600) lets ``pbem join`` send the nonce after one set of commitments only.
    """
    from pbem.durable import atomic_write as write_private  # the file mode, like the record of the turns seen

    path = reveal_record_path(state_dir, gamefile, player)
    doc = {"format": formats.JOIN_RECORD, "game_id": gamefile.game_id, "player": player, "game": gamefile.hash(),
           "commitments": dict(commitments)}
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        data = None
    except OSError as error:
        raise StateFileError(f"{path}: cannot read the record of your nonce: {error.strerror}") from None
    if data is not None:
        try:
            kept = parse_json_strict(data, max_bytes=4096)
        except CryptoError as error:
            raise StateFileError(f"{path}: the record of your nonce is unreadable ({error})") from None
        problem = formats.format_problem(kept, formats.JOIN_RECORD)
        if problem:
            raise StateFileError(f"{path}: the record of your nonce is not valid ({problem})")
        if kept == doc:
            return
        changed = ", ".join(f"{p}'s {kept['commitments'].get(p)} is now {commitments.get(p)}"
                            for p in sorted(set(kept["commitments"]) | set(commitments))
                            if kept["commitments"].get(p) != commitments.get(p)) or "another game.toml"
        raise GameDirError(
            f"{gamefile.game_id}: you sent your nonce after other commitments than this game directory shows "
            f"({changed}): you were shown two different games. Do not send it again; keep both copies "
            f"and show them to the other players (your record: {path})"
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        write_private(path, dump_json(doc), mode=0o600)
    except OSError as error:
        raise StateFileError(f"{path}: cannot write the record of your nonce: {error}") from None


# --- the referee's side -------------------------------------------------------------


def deal(gamedir: GameDir, gamefile: GameFile, seed: bytes, joins: Joins, referee_key: PrivateKey,
         now: datetime | None = None) -> TurnFiles:
    """Turn 0 of a game whose players have all sent their nonces (not written); ``now``: the referee's clock."""
    from pbem.referee import core
    from pbem.referee.deal import load_setup, static_of

    try:
        game = find_game(gamefile.game)
    except EngineError as error:
        raise GameDirError(f"{gamedir.game_toml}: {error}") from error
    setup = load_setup(game, gamedir, gamefile)
    static = static_of(game, setup)
    played = core.deal(game, gamefile, setup, seed, joins.entropy(gamefile))
    unsigned = core.next_turn(game, gamefile, played, None, None, None, static,
                              joins=joins.record(gamefile), clock=deal_clock(gamefile.deadline_rules, now))
    return sign_turn(unsigned, gamefile, referee_key)


def admit_join(gamefile: GameFile, joins: Joins, doc: dict[str, Any]) -> None:
    """The join rules, after the file's own checks: one file per player and round; nonces after every commitment."""
    player, round_name, join_hash = doc["player"], doc["round"], document_hash(doc)
    kept = (joins.commits if round_name == COMMIT else joins.reveals).get(player)
    if kept is not None:
        if document_hash(kept[0]) == join_hash:
            raise AlreadyApplied(f"{player} has sent this very {round_name} file", player=player, move_hash=join_hash)
        what = "committed already, with another commitment" if round_name == COMMIT else "sent their nonce already"
        raise UnexpectedJoin(f"{player} has {what}", player=player, move_hash=join_hash)
    if round_name == REVEAL:
        if joins.round(gamefile) == COMMIT:
            raise UnexpectedJoin(
                f"a nonce is taken only once every seated player has committed "
                f"(waiting for {', '.join(joins.waiting(gamefile))})", player=player, move_hash=join_hash)
        if nonce_commitment(bytes.fromhex(doc["nonce"])) != joins.commits[player][0]["commitment"]:
            raise UnexpectedJoin(f"the nonce does not match {player}'s commitment", player=player,
                                 move_hash=join_hash)
        why = other_commitments(doc, joins)
        if why is not None:
            raise UnexpectedJoin(f"the nonce was sent after other commitments than the game holds ({why}): "
                                 "run pbem join again on the game as it is", player=player, move_hash=join_hash)

"""``pbem verify``: check a game directory without any private key.

Checked, in this order, stopping at the first bad file (which the report
names):

* ``game.toml`` is a ``pbem-game/1`` document; for a test game (seed
  published) its commitment, game id and game recipient follow from the seed;
* the turn files are numbered 0, 1, 2... with no gap; each is a
  ``pbem-turn/1`` document of this game, names the hash of ``game.toml``, is
  signed by the referee key of ``game.toml``, and names the hash of the turn
  before it (``null`` for turn 0);
* each turn after 0 names the hash of the move that produced it, and
  ``moves/NNNNNN-PLAYER.json`` is that move: a ``pbem-move/1`` document of
  this game by the seated player, signed by that player, answering an
  earlier turn; no move file lies without its turn;
* each player's ``views/`` files hold the player's section of the latest
  turn, signed by the referee;
* each rejection notice is a ``pbem-rejection/1`` document signed by the referee.

Replaying every move from the archive needs the seed, which is published
when the game ends (the trust issue).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pbem.crypto.errors import SignatureError
from pbem.crypto.signing import verify_document
from pbem.referee import formats, keying, sealing
from pbem.referee.errors import GameDirError, VerificationFailed
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.records import Record, read_record, read_turn
from pbem.referee.pipeline import MOVE_MAX_BYTES


@dataclass(frozen=True)
class VerifyReport:
    """What ``verify`` checked."""

    game_id: str | None
    turns: int
    moves: int
    files: int


def verify(directory: str | Path) -> VerifyReport:
    """Check every signature and the hash chain; raise :class:`VerificationFailed` at the first bad file."""
    gamedir = GameDir.at(directory)
    try:
        gamefile = GameFile.read(gamedir.game_toml)
    except GameDirError as error:
        raise VerificationFailed(str(error), str(gamedir.game_toml)) from error
    _check_test_seed(gamefile, gamedir)
    files = 1

    numbers = gamedir.turn_numbers()
    if not numbers:
        raise VerificationFailed(f"{gamedir.turns}: no turn files", str(gamedir.turns))
    if numbers != list(range(len(numbers))):
        missing = next(n for n in range(len(numbers) + 1) if n not in numbers)
        raise VerificationFailed(f"turn {missing} is missing from the chain", str(gamedir.turn(missing)))
    moves = {turn: (player, path) for turn, player, path in gamedir.move_files()}
    previous: Record | None = None
    for number in numbers:
        try:
            turn = read_turn(gamedir, gamefile, number)
        except GameDirError as error:
            raise VerificationFailed(str(error), str(gamedir.turn(number))) from error
        files += 1
        expected_previous = previous.hash if previous is not None else None
        if turn.doc["previous"] != expected_previous:
            raise VerificationFailed(
                f"{turn.path}: names {turn.doc['previous']} as the previous turn, "
                f"but the previous turn's hash is {expected_previous}",
                str(turn.path),
            )
        _check_move(gamedir, gamefile, turn, moves.pop(number, None))
        if number:
            files += 1
        previous = turn
    if moves:
        turn, (player, path) = min(moves.items())
        raise VerificationFailed(f"{path}: a move file with no turn {turn}", str(path))
    assert previous is not None
    files += _check_views(gamedir, gamefile, previous)
    files += _check_rejections(gamedir, gamefile)
    return VerifyReport(game_id=gamefile.game_id, turns=len(numbers), moves=len(numbers) - 1, files=files)


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


def _check_move(gamedir: GameDir, gamefile: GameFile, turn: Record, found: tuple[str, Path] | None) -> None:
    number, move_hash, mover = turn.doc["turn"], turn.doc["move"], turn.doc["mover"]
    if number == 0:
        if move_hash is not None or mover is not None:
            raise VerificationFailed(f"{turn.path}: turn 0 is the deal and has no move", str(turn.path))
        return
    if move_hash is None or mover is None:
        raise VerificationFailed(f"{turn.path}: names no move that produced it", str(turn.path))
    if found is None:
        path = gamedir.move(number, mover)
        raise VerificationFailed(f"{path}: the move that produced turn {number} is missing", str(path))
    player, path = found
    if player != mover:
        raise VerificationFailed(f"{path}: turn {number} was produced by {mover}'s move, not {player}'s", str(path))
    try:
        move = read_record(path, formats.MOVE)
    except GameDirError as error:
        raise VerificationFailed(str(error), str(path)) from error
    if path.stat().st_size > MOVE_MAX_BYTES:
        raise VerificationFailed(f"{path}: larger than a move may be", str(path))
    if move.hash != move_hash:
        raise VerificationFailed(f"{path}: its hash is not the one turn {number} names", str(path))
    doc = move.doc
    if doc["game_id"] != gamefile.game_id or doc["player"] != mover or doc["turn"] >= number:
        raise VerificationFailed(f"{path}: names another game, player or a later turn", str(path))
    key = gamefile.player_key(mover)
    if key is None:
        raise VerificationFailed(f"{path}: {mover} is not seated in this game", str(path))
    try:
        verify_document(doc, key)
    except SignatureError as error:
        raise VerificationFailed(f"{path}: bad signature: {error}", str(path)) from error


def _check_views(gamedir: GameDir, gamefile: GameFile, latest: Record) -> int:
    checked = 0
    for player in gamefile.player_names:
        path = gamedir.view_json(player)
        try:
            wrapper = read_record(path, formats.VIEW, gamefile.referee).doc
        except GameDirError as error:
            raise VerificationFailed(str(error), str(path)) from error
        sealed = latest.doc["sealed"][player]
        if (
            wrapper["game_id"] != gamefile.game_id
            or wrapper["player"] != player
            or wrapper["turn"] != latest.doc["turn"]
            or wrapper["turn_hash"] != latest.hash
            or wrapper["sealed"] != sealed
        ):
            raise VerificationFailed(f"{path}: is not {player}'s view of the latest turn", str(path))
        age_path = gamedir.view_age(player)
        try:
            if age_path.read_bytes() != sealed.encode("ascii"):
                raise VerificationFailed(f"{age_path}: differs from {player}'s section of the latest turn", str(age_path))
        except FileNotFoundError:
            raise VerificationFailed(f"{age_path}: missing", str(age_path)) from None
        checked += 2
    return checked


def _check_rejections(gamedir: GameDir, gamefile: GameFile) -> int:
    if not gamedir.rejected.is_dir():
        return 0
    checked = 0
    for path in sorted(gamedir.rejected.glob("*.json")):
        try:
            notice = read_record(path, formats.REJECTION, gamefile.referee).doc
        except GameDirError as error:
            raise VerificationFailed(str(error), str(path)) from error
        if notice["game_id"] != gamefile.game_id:
            raise VerificationFailed(f"{path}: a notice of another game", str(path))
        checked += 1
    return checked


"""The player's side of play by e-mail: unpack a turn mail, mail a move or join file.

A turn mail carries ``game.toml``, the turn file and the player's sealed
view. :func:`unpack` files them into the player's own copy of the game
directory (``game.toml`` and ``turns/``), which is all ``pbem view``,
``pbem move`` and ``pbem join`` read. It trusts the first ``game.toml`` it
is given (it names the referee's key) and from then on refuses another one,
and it writes a turn file only after checking the referee's signature on
it, that it belongs to this game, and, when the previous turn is in the
copy, that it chains to it. A referee who signed two different turn files
with the same number is named.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from pbem.mail import compose
from pbem.mail.errors import MailFileError
from pbem.referee import formats
from pbem.referee.errors import GameDirError
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.records import check_turn, parse_record, read_turn
from pbem.referee.storage import atomic_write


@dataclass
class Unpacked:
    """What :func:`unpack` filed."""

    directory: Path
    game_id: str
    game_toml_written: bool = False
    turns_written: list[int] = field(default_factory=list)
    latest: int | None = None


def unpack(sources: list[Path], into: Path) -> Unpacked:
    """File the game's files found in ``sources`` (mails, or saved attachments) into the copy ``into``."""
    games: list[bytes] = []
    turns: list[tuple[str, bytes]] = []
    for source in sources:
        try:
            data = source.read_bytes()
        except OSError as error:
            raise MailFileError(f"{source}: {error.strerror or error}") from error
        _collect(source.name, data, games, turns)
    gamedir = GameDir.at(into)
    gamefile, written = _settle_game_toml(gamedir, games, sources)
    result = Unpacked(directory=into, game_id=gamefile.game_id, game_toml_written=written)
    for name, data in sorted(turns, key=lambda item: item[0]):
        number = _file_turn(gamedir, gamefile, name, data)
        if number is not None:
            result.turns_written.append(number)
    numbers = gamedir.turn_numbers()
    result.latest = numbers[-1] if numbers else None
    return result


def _collect(name: str, data: bytes, games: list[bytes], turns: list[tuple[str, bytes]]) -> None:
    kind = _kind(data)
    if kind == "game":
        games.append(data)
    elif kind == "turn":
        turns.append((name, data))
    elif kind is None and not name.endswith((".json", ".toml", ".age")):
        message = message_from_bytes(data, policy=policy.default)
        for part in message.walk():
            filename = part.get_filename()
            payload = part.get_payload(decode=True) if not part.is_multipart() else None
            if filename and isinstance(payload, bytes):
                _collect(filename, payload, games, turns)


def _kind(data: bytes) -> str | None:
    """'game' for a game.toml, 'turn' for a turn file, None for anything else."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    try:
        doc = json.loads(text)
        if isinstance(doc, dict) and doc.get("format") == formats.TURN:
            return "turn"
        return None
    except ValueError:
        pass
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    return "game" if doc.get("format") == formats.GAME else None


def _settle_game_toml(gamedir: GameDir, found: list[bytes], sources: list[Path]) -> tuple[GameFile, bool]:
    """The copy's game.toml: the one already there (every one found must equal it), or the one found."""
    parsed = [_game_file(data) for data in found]
    if gamedir.game_toml.exists():
        mine = GameFile.read(gamedir.game_toml)
        for other in parsed:
            if other.hash() != mine.hash():
                raise MailFileError(
                    f"the game.toml in the mail is not the one in {gamedir.game_toml} (game {other.game_id}, "
                    f"yours is {mine.game_id}): unpack it into another folder; if it is the same game, "
                    f"the referee changed its set-up, which it must not"
                )
        return mine, False
    if not parsed:
        raise MailFileError(
            f"no game.toml in {', '.join(str(s) for s in sources)}, and {gamedir.root} has none yet: "
            f"unpack a mail from the referee (every turn mail carries game.toml)"
        )
    first = parsed[0]
    if any(p.hash() != first.hash() for p in parsed[1:]):
        raise MailFileError("the files hold two different game.toml files; unpack them one game at a time")
    atomic_write(gamedir.game_toml, found[0])
    return first, True


def _game_file(data: bytes) -> GameFile:
    try:
        return GameFile.from_doc(tomllib.loads(data.decode("utf-8")), "game.toml in the mail")
    except GameDirError as error:
        raise MailFileError(str(error)) from error


def _file_turn(gamedir: GameDir, gamefile: GameFile, name: str, data: bytes) -> int | None:
    """Check one turn file and write it into the copy; its number when it was new."""
    try:
        record = parse_record(data, Path(name), formats.TURN, gamefile.referee)
        number = record.doc["turn"]
        check_turn(record, gamefile, number)
    except GameDirError as error:
        raise MailFileError(f"{name}: not a turn file of game {gamefile.game_id} signed by its referee: {error}") \
            from error
    target = gamedir.turn(number)
    if target.exists():
        kept = read_turn(gamedir, gamefile, number)
        if kept.hash != record.hash:
            raise MailFileError(
                f"{name}: the referee signed two different turn files numbered {number} "
                f"(this one and {target}): keep both and show them to the other players"
            )
        return None
    if number > 0 and gamedir.turn(number - 1).exists():
        previous = read_turn(gamedir, gamefile, number - 1)
        if record.doc["previous"] != previous.hash:
            raise MailFileError(
                f"{name}: turn {number} does not chain to turn {number - 1} in {gamedir.root} "
                f"(it names {record.doc['previous']}, the turn's hash is {previous.hash})"
            )
    atomic_write(target, data)
    return number


def file_mail(data: bytes, filename: str, to: str, sender: str | None = None) -> EmailMessage:
    """The mail that carries a move or join file (as ``pbem move`` or ``pbem join`` wrote it) to the referee."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise MailFileError(f"{filename}: not a JSON file: {error}") from error
    fmt = doc.get("format") if isinstance(doc, dict) else None
    if fmt not in (formats.MOVE, formats.JOIN):
        raise MailFileError(f"{filename}: not a move or join file (format {fmt!r})")
    player, game_id = str(doc.get("player")), str(doc.get("game_id"))
    what = f"{player}'s join file" if fmt == formats.JOIN else f"{player}'s move for turn {doc.get('turn')}"
    return compose.file_mail(data, filename, to, sender, what, game_id)

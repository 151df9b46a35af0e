"""The player's side of play by e-mail: unpack a turn mail, mail a move or join file.

A turn mail carries ``game.toml``, the turn file and the player's sealed
view (and the seat records of a game whose seats were handed over); an
invitation to join carries ``game.toml`` and the join files kept so far.
:func:`unpack` files them into the player's own copy of the game directory
(``game.toml``, ``joins/``, ``seats/`` and ``turns/``), which is all ``pbem
view``, ``pbem move`` and ``pbem join`` read; a join file only when its
player's signature and the game check, a seat record when the referee's
signature and the game do. It trusts the first ``game.toml`` it
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
from email.message import EmailMessage
from pathlib import Path

from pbem.mail import compose
from pbem.mail.errors import MailFileError
from pbem.mail.incoming import UnreadableMail, read_mail
from pbem.referee import formats
from pbem.referee.errors import GameDirError, Refusal
from pbem.referee.gamefile import GameFile
from pbem.referee.joins import check_join
from pbem.referee.layout import GameDir
from pbem.referee.records import Record, check_turn, parse_record, read_turn
from pbem.referee.storage import atomic_write


@dataclass
class Unpacked:
    """What :func:`unpack` filed."""

    directory: Path
    game_id: str
    game_toml_written: bool = False
    turns_written: list[int] = field(default_factory=list)
    #: join files filed, as ``PLAYER.ROUND.json``
    joins_written: list[str] = field(default_factory=list)
    latest: int | None = None


def unpack(sources: list[Path], into: Path) -> Unpacked:
    """File the game's files found in ``sources`` (mails, or saved attachments) into the copy ``into``.

    Every file is checked before anything is written: a refusal leaves the copy as it was.
    """
    found: dict[str, list[tuple[str, bytes]]] = {"game": [], "turn": [], "join": [], "seat": []}
    for source in sources:
        try:
            data = source.read_bytes()
        except OSError as error:
            raise MailFileError(f"{source}: {error.strerror or error}") from error
        _collect(source.name, data, found)
    gamedir = GameDir.at(into)
    gamefile, new_toml = _settle_game_toml(gamedir, [data for _, data in found["game"]], sources)
    joins = {path: data for name, data in found["join"] if (path := _check_join(gamedir, gamefile, name, data))}
    seat_records = {path: data for name, data in found["seat"] if (path := _check_seat(gamedir, gamefile, name, data))}
    turns = _check_turns(gamedir, gamefile, found["turn"])
    if new_toml is not None:
        atomic_write(gamedir.game_toml, new_toml)
    for path, data in [*joins.items(), *seat_records.items(), *((gamedir.turn(n), data) for n, data in turns.items())]:
        atomic_write(path, data)
    numbers = gamedir.turn_numbers()
    return Unpacked(directory=into, game_id=gamefile.game_id, game_toml_written=new_toml is not None,
                    turns_written=sorted(turns), joins_written=[p.name for p in joins],
                    latest=numbers[-1] if numbers else None)


def _collect(name: str, data: bytes, found: dict[str, list[tuple[str, bytes]]]) -> None:
    kind = _kind(data)
    if kind is not None:
        found[kind].append((name, data))
    elif not name.endswith((".json", ".toml", ".age")):
        try:
            message = read_mail(data)  # a mail anybody may have sent: parsed within bounds
        except UnreadableMail as error:
            raise MailFileError(f"{name}: {error}") from None
        for part in message.walk():
            filename = part.get_filename()
            payload = part.get_payload(decode=True) if not part.is_multipart() else None
            if filename and isinstance(payload, bytes):
                _collect(filename, payload, found)


def _kind(data: bytes) -> str | None:
    """'game' for a game.toml, 'turn' for a turn file, 'join' for a join file, None for anything else."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    try:
        doc = json.loads(text)
        kinds = {formats.TURN: "turn", formats.JOIN: "join", formats.SEAT: "seat"}
        return kinds.get(doc["format"]) if isinstance(doc, dict) and isinstance(doc.get("format"), str) else None
    except (ValueError, RecursionError):  # nested deeper than the reader goes: no game file either
        pass
    try:
        doc = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return None
    return "game" if doc.get("format") == formats.GAME else None


def _settle_game_toml(gamedir: GameDir, found: list[bytes], sources: list[Path]) -> tuple[GameFile, bytes | None]:
    """The copy's game.toml: the one already there (every one found must equal it), or the one found (to write)."""
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
        return mine, None
    if not parsed:
        raise MailFileError(
            f"no game.toml in {', '.join(str(s) for s in sources)}, and {gamedir.root} has none yet: "
            f"unpack a mail from the referee (every turn mail carries game.toml)"
        )
    first = parsed[0]
    if any(p.hash() != first.hash() for p in parsed[1:]):
        raise MailFileError("the files hold two different game.toml files; unpack them one game at a time")
    return first, found[0]


def _game_file(data: bytes) -> GameFile:
    try:
        return GameFile.from_doc(tomllib.loads(data.decode("utf-8")), "game.toml in the mail")
    except GameDirError as error:
        raise MailFileError(str(error)) from error


def _check_turns(gamedir: GameDir, gamefile: GameFile, found: list[tuple[str, bytes]]) -> dict[int, bytes]:
    """The new turn files among ``found``, each checked: the referee's signature, this game, the chain."""
    new: dict[int, tuple[str, bytes, Record]] = {}
    for name, data in found:
        try:
            record = parse_record(data, Path(name), formats.TURN, gamefile.referee, by_referee=True)
            number = record.doc["turn"]
            check_turn(record, gamefile, number)
        except GameDirError as error:
            raise MailFileError(f"{name}: not a turn file of game {gamefile.game_id} signed by its referee: "
                                f"{error}") from error
        kept = read_turn(gamedir, gamefile, number) if gamedir.turn(number).exists() else None
        other = kept or (new[number][2] if number in new else None)
        if other is not None and other.hash != record.hash:
            raise MailFileError(
                f"{name}: the referee signed two different turn files numbered {number} "
                f"(this one and {other.path}): keep both and show them to the other players"
            )
        if kept is None:
            new[number] = (name, data, record)
    for number, (name, _, record) in new.items():
        previous = new[number - 1][2] if number - 1 in new else (
            read_turn(gamedir, gamefile, number - 1) if number > 0 and gamedir.turn(number - 1).exists() else None)
        if previous is not None and record.doc["previous"] != previous.hash:
            raise MailFileError(
                f"{name}: turn {number} does not chain to turn {number - 1} "
                f"(it names {record.doc['previous']}, the turn's hash is {previous.hash})"
            )
    return {number: data for number, (_, data, _) in sorted(new.items())}


def _check_join(gamedir: GameDir, gamefile: GameFile, name: str, data: bytes) -> Path | None:
    """Check a join file the referee kept (a later join round is written against them); where it goes, if new."""
    try:
        doc = check_join(gamefile, data)
    except Refusal as refusal:
        raise MailFileError(f"{name}: not a join file of game {gamefile.game_id}: {refusal.message}") from refusal
    target = gamedir.join(doc["player"], doc["round"])
    if target.exists():
        if target.read_bytes() != data:
            raise MailFileError(f"{name}: {doc['player']}'s {doc['round']} file differs from {target}")
        return None
    return target


def _check_seat(gamedir: GameDir, gamefile: GameFile, name: str, data: bytes) -> Path | None:
    """Check a seat record (a seat handed to a new key): the referee's signature and this game; where it goes, if new."""
    try:
        record = parse_record(data, Path(name), formats.SEAT, gamefile.referee)
    except GameDirError as error:
        raise MailFileError(f"{name}: not a seat record signed by the referee of game {gamefile.game_id}: "
                            f"{error}") from error
    doc = record.doc
    if doc["game_id"] != gamefile.game_id or doc["game"] != gamefile.hash():
        raise MailFileError(f"{name}: a seat record of another game")
    target = gamedir.seat(doc["turn"] + 1, doc["player"])
    if target.exists():
        if target.read_bytes() != data:
            raise MailFileError(f"{name}: the referee signed two different seat records for {target.name}")
        return None
    return target


def file_mail(data: bytes, filename: str, to: str, sender: str | None = None) -> EmailMessage:
    """The mail that carries a move or join file (as ``pbem move`` or ``pbem join`` wrote it) to the referee."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise MailFileError(f"{filename}: not a JSON file: {error}") from error
    except RecursionError:  # nested deeper than the JSON reader goes: no move file
        raise MailFileError(f"{filename}: not a JSON file: nested too deep") from None
    fmt = doc.get("format") if isinstance(doc, dict) else None
    if fmt not in (formats.MOVE, formats.JOIN):
        raise MailFileError(f"{filename}: not a move or join file (format {fmt!r})")
    player, game_id = str(doc.get("player")), str(doc.get("game_id"))
    what = f"{player}'s join file" if fmt == formats.JOIN else f"{player}'s move for turn {doc.get('turn')}"
    return compose.file_mail(data, filename, to, sender, what, game_id)

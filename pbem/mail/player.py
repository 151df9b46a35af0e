"""The player's side of play by e-mail: unpack the referee's mails into a copy, mail a move, join or request.

A turn mail carries ``game.toml`` (and the card file it names), the
referee's head, the seat records in force, the turns since the last one
mailed to the player and the player's sealed view (:mod:`pbem.mail.catchup`);
an invitation to join carries ``game.toml`` and the join files kept so
far; an answer carries the head, and the answer to a stale move the turns
the copy lacks. :func:`unpack` files them into the player's own copy of
the game directory (``game.toml``, ``cards/``, ``joins/``, ``seats/``,
``turns/``, ``head.json`` and ``copy.json``, which marks it as a copy fed by
mail: :mod:`pbem.referee.copies`), which is all ``pbem view``, ``pbem
move``, ``pbem join``, ``status``, ``log`` and ``verify`` read. Mails may
come in any order, twice, or not at all: each file is filed once, and a
copy with gaps works.

Nothing is filed unchecked. It trusts the first ``game.toml`` it is given
(it names the referee's key) and from then on refuses another one; the card
file only with the SHA-256 ``game.toml`` names; a join file when its
player's signature and the game check, a seat record when the referee's
signature and the game do; a turn file after checking the referee's
signature on it, that it belongs to this game, and that it chains to the
turns next to it that the copy holds (the one before and the one after);
a head when the referee signed it for this game, and only the newest one is
kept. A referee who signed two different turn files with the same number,
or a head naming a turn the copy holds with another hash, is named: that
is evidence to show the other players.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

from pbem.crypto.canonical import sha256_ref
from pbem.mail import compose
from pbem.mail.compose import CARDS_PREFIX
from pbem.mail.errors import MailFileError
from pbem.mail.incoming import UnreadableMail, read_mail
from pbem.referee import copies, formats, rollback, seats
from pbem.referee.copies import TurnRange
from pbem.referee.errors import GameDirError, Refusal
from pbem.referee.gamefile import GameFile
from pbem.referee.head import HEAD_FILE, Head, head_path, parse_head, read_head, write_head
from pbem.referee.joins import check_join
from pbem.referee.layout import GameDir
from pbem.referee.records import Record, check_turn, parse_record, read_turn
from pbem.referee.storage import atomic_write


@dataclass
class Unpacked:
    """What :func:`unpack` filed, and how the copy stands after it."""

    directory: Path
    game_id: str
    game_toml_written: bool = False
    turns_written: list[int] = field(default_factory=list)
    #: join files filed, as ``PLAYER.ROUND.json``
    joins_written: list[str] = field(default_factory=list)
    latest: int | None = None
    #: the referee's head the copy holds now, if any, and whether this unpack filed it
    head: Head | None = None
    head_written: bool = False
    #: the turns the copy lacks before its latest one
    missing: list[TurnRange] = field(default_factory=list)
    #: the rollbacks by consent filed: ``(number, turn returned to)`` each
    rollbacks_filed: list[tuple[int, int]] = field(default_factory=list)

    @property
    def behind(self) -> bool:
        """The head names a later turn than the copy holds."""
        return self.head is not None and (self.latest is None or self.head.turn > self.latest)


def unpack(sources: list[Path], into: Path) -> Unpacked:
    """File the game's files found in ``sources`` (mails, or saved attachments) into the copy ``into``.

    Every file is checked before anything is written: a refusal leaves the copy as it was.
    """
    found: dict[str, list[tuple[str, bytes]]] = {"game": [], "turn": [], "join": [], "seat": [], "head": [],
                                                 "cards": [], "rollback": [], "consent": []}
    for source in sources:
        try:
            data = source.read_bytes()
        except OSError as error:
            raise MailFileError(f"{source}: {error.strerror or error}") from error
        _collect(source.name, data, found)
    gamedir = GameDir.at(into)
    gamefile, new_toml = _settle_game_toml(gamedir, [data for _, data in found["game"]], sources)
    try:
        gamedir.refuse_symlinks()
        rolled = _file_rollbacks(gamedir, gamefile, found["rollback"], found["consent"]) if new_toml is None else []
        cards = _check_cards(gamedir, gamefile, found["cards"])
        joins = {path: data for name, data in found["join"] if (path := _check_join(gamedir, gamefile, name, data))}
        seat_records = {path: data for name, data in found["seat"]
                        if (path := _check_seat(gamedir, gamefile, name, data))}
        turns = _check_turns(gamedir, gamefile, found["turn"])
        head, new_head, every_head = _check_heads(gamedir, gamefile, found["head"], turns)
    except GameDirError as error:
        raise MailFileError(f"{into}: {error}") from error
    if new_toml is not None:
        atomic_write(gamedir.game_toml, new_toml)
    for path, data in [*cards.items(), *joins.items(), *seat_records.items(),
                       *((gamedir.turn(n), data) for n, data in turns.items())]:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, data)
    for kept in every_head:
        target = copies.kept_head_path(gamedir, kept.turn)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(target, kept.data)
    if new_head:
        assert head is not None
        write_head(gamedir, head)
    copies.mark(gamedir, gamefile)
    numbers = gamedir.turn_numbers()
    return Unpacked(directory=into, game_id=gamefile.game_id, game_toml_written=new_toml is not None,
                    turns_written=sorted(turns), joins_written=[p.name for p in joins], rollbacks_filed=rolled,
                    latest=numbers[-1] if numbers else None, head=head, head_written=new_head,
                    missing=copies.gaps(numbers))


def _collect(name: str, data: bytes, found: dict[str, list[tuple[str, bytes]]]) -> None:
    if name.startswith(CARDS_PREFIX):  # the card file game.toml names (checked against its SHA-256)
        found["cards"].append((name.removeprefix(CARDS_PREFIX), data))
        return
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
        kinds = {formats.TURN: "turn", formats.JOIN: "join", formats.SEAT: "seat", formats.HEAD: "head",
                 formats.ROLLBACK: "rollback", formats.UNDO_CONSENT: "consent"}
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


def _file_rollbacks(gamedir: GameDir, gamefile: GameFile, records: list[tuple[str, bytes]],
                    consents: list[tuple[str, bytes]]) -> list[tuple[int, int]]:
    """File in the copy each rollback by consent a mail carries that the copy has not filed yet; its number and
    the turn it returned to, each.

    A rollback is filed only whole: its record signed by the game's referee,
    numbered next after the copy's last, and one consent of every seat, each
    signed by the key that holds the seat, naming the record's turn and head,
    with the bytes the record names. The copy's turns after the turn returned
    to (and the heads naming them) then go to ``abandoned/NNNNNN/``, as in
    the referee's directory; a copy that holds the turn returned to with
    another hash has two histories, and is refused.
    """
    filed: list[tuple[int, int]] = []
    parsed = []
    for name, data in records:
        try:
            record = parse_record(data, Path(name), formats.ROLLBACK, gamefile.referee, by_referee=True)
        except GameDirError as error:
            raise MailFileError(f"{name}: not a rollback's record signed by the game's referee: {error}") from error
        if record.doc["game_id"] != gamefile.game_id or record.doc["game"] != gamefile.hash():
            raise MailFileError(f"{name}: the record of another game's rollback")
        parsed.append((record.doc["number"], name, data, record))
    for number, name, data, record in sorted(parsed, key=lambda found: found[0]):
        have = rollback.rollback_numbers(gamedir)
        if number in have:
            continue
        if number != len(have) + 1:
            raise MailFileError(f"{name}: rollback {number}, and the copy's last is {len(have)}: unpack the mails "
                                "in order (the earlier rollback's mail carries its record)")
        doc = record.doc
        to, head = doc["to"], doc["head"]
        held = [n for n in gamedir.turn_numbers() if n <= head["turn"]]
        latest = read_turn(gamedir, gamefile, held[-1]) if held else None
        seated = seats.in_force(gamedir, gamefile, latest.doc, partial=True) if latest is not None else gamefile
        given: dict[str, bytes] = {}
        for where, consent in consents:
            try:
                checked = rollback.check_consent(seated, consent, where, to, head)
            except GameDirError:
                continue  # another rollback's consent (a mail carries every rollback's)
            if doc["consents"].get(checked["player"]) == sha256_ref(consent):
                given[checked["player"]] = consent
        try:
            rollback.check_every_seat(seated, given, name)
        except GameDirError as error:
            raise MailFileError(f"{name}: {error}: the rollback is not filed") from error
        if os.path.lexists(gamedir.turn(to["turn"])) and read_turn(gamedir, gamefile, to["turn"]).hash != to["hash"]:
            raise MailFileError(f"{name}: returns to turn {to['turn']} with hash {to['hash']}, and this copy holds "
                                "another turn of that number: the referee signed two histories; keep both and "
                                "show them to the other players")
        folder = GameDir.at(gamedir.rollback_in_progress)
        for player, consent in given.items():
            atomic_write(folder.root / "consents" / f"{player}.json", consent)
        atomic_write(folder.root / "rollback.json", data)
        for n in [n for n in gamedir.turn_numbers() if n > to["turn"]]:
            folder.turns.mkdir(parents=True, exist_ok=True)
            os.replace(gamedir.turn(n), folder.turn(n))
        for n in [n for n in copies.kept_heads(gamedir) if n > to["turn"]]:
            target = copies.kept_head_path(folder, n)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(copies.kept_head_path(gamedir, n), target)
        current = read_head(gamedir, gamefile)
        if current is not None and current.turn > to["turn"]:
            os.replace(head_path(gamedir), folder.root / HEAD_FILE)
        os.replace(folder.root, gamedir.rollback(number))
        filed.append((number, to["turn"]))
    return filed


def _abandoned(gamedir: GameDir, number: int, turn_hash: str) -> bool:
    """Whether the copy keeps turn ``number`` with ``turn_hash`` among the turns a rollback abandoned."""
    for rolled in rollback.rollback_numbers(gamedir):
        path = GameDir.at(gamedir.rollback(rolled)).turn(number)
        if path.exists():
            try:
                if parse_record(path.read_bytes(), path, formats.TURN).hash == turn_hash:
                    return True
            except GameDirError:
                continue
    return False


def _check_turns(gamedir: GameDir, gamefile: GameFile, found: list[tuple[str, bytes]]) -> dict[int, bytes]:
    """The new turn files among ``found``, each checked: the referee's signature, this game, the chain (a turn a
    rollback abandoned, from an older mail, is left where the rollback put it)."""
    new: dict[int, tuple[str, bytes, Record]] = {}
    rolled_back = os.path.lexists(gamedir.abandoned)
    for name, data in found:
        try:
            record = parse_record(data, Path(name), formats.TURN, gamefile.referee, by_referee=True)
            number = record.doc["turn"]
            check_turn(record, gamefile, number)
        except GameDirError as error:
            raise MailFileError(f"{name}: not a turn file of game {gamefile.game_id} signed by its referee: "
                                f"{error}") from error
        if rolled_back and _abandoned(gamedir, number, record.hash):
            continue
        kept = read_turn(gamedir, gamefile, number) if gamedir.turn(number).exists() else None
        other = kept or (new[number][2] if number in new else None)
        if other is not None and other.hash != record.hash:
            raise MailFileError(
                f"{name}: the referee signed two different turn files numbered {number} "
                f"(this one and {other.path}): keep both and show them to the other players"
            )
        if kept is None:
            new[number] = (name, data, record)
    def held(number: int) -> Record | None:
        if number in new:
            return new[number][2]
        return read_turn(gamedir, gamefile, number) if number >= 0 and gamedir.turn(number).exists() else None

    for number, (name, _, record) in new.items():
        previous, following = held(number - 1), held(number + 1)
        if previous is not None and record.doc["previous"] != previous.hash:
            raise MailFileError(
                f"{name}: turn {number} does not chain to turn {number - 1} "
                f"(it names {record.doc['previous']}, the turn's hash is {previous.hash})"
            )
        if following is not None and following.doc["previous"] != record.hash:
            raise MailFileError(
                f"{name}: turn {number + 1} does not follow this turn {number} "
                f"(it names {following.doc['previous']}, this turn's hash is {record.hash}): the referee signed "
                "two histories; keep both and show them to the other players"
            )
    return {number: data for number, (_, data, _) in sorted(new.items())}


def _check_heads(gamedir: GameDir, gamefile: GameFile, found: list[tuple[str, bytes]],
                 turns: dict[int, bytes]) -> tuple[Head | None, bool, list[Head]]:
    """The newest of the heads found and the one the copy holds; whether it is new (to write); the heads found.

    Every head is checked: signed by the game's referee, of this game; two
    heads naming one turn with two hashes (among those found, the newest
    the copy holds and the one it kept of that turn), or a head naming a
    turn the copy holds (or is filing) with another hash, are the referee's
    word against itself, refused and named.
    """
    heads: list[tuple[str, Head]] = []
    kept = read_head(gamedir, gamefile)
    if kept is not None:
        heads.append((str(gamedir.root / HEAD_FILE), kept))
    found_heads: list[Head] = []
    for name, data in found:
        try:
            head = parse_head(data, gamefile, name)
        except GameDirError as error:
            raise MailFileError(f"{name}: not a head signed by the referee of game {gamefile.game_id}: {error}") from error
        heads.append((name, head))
        found_heads.append(head)
        earlier = copies.read_kept_head(gamedir, gamefile, head.turn)
        if earlier is not None:
            heads.append((str(copies.kept_head_path(gamedir, head.turn)), earlier))
    by_turn: dict[int, tuple[str, Head]] = {}
    for name, head in heads:
        other = by_turn.setdefault(head.turn, (name, head))
        if other[1].turn_hash != head.turn_hash:
            raise MailFileError(f"{name}: the referee's head names turn {head.turn} with another hash than "
                                f"{other[0]} does: the referee signed two histories; keep both and show them to "
                                "the other players")
        number = head.turn
        held = None
        if number in turns:
            held = parse_record(turns[number], Path(f"{number:06d}.json"), formats.TURN, gamefile.referee,
                                by_referee=True)
        elif gamedir.turn(number).exists():
            held = read_turn(gamedir, gamefile, number)
        if held is not None and held.hash != head.turn_hash:
            raise MailFileError(f"{name}: the referee's head names turn {number} with another hash than the turn "
                                f"{number} of your copy: the referee signed two histories; keep both and show them "
                                "to the other players")
    if not heads:
        return None, False, []
    newest = max(heads, key=lambda item: (item[1].turn, item[1].time))[1]
    return newest, kept is None or newest.data != kept.data, found_heads


def _check_cards(gamedir: GameDir, gamefile: GameFile, found: list[tuple[str, bytes]]) -> dict[Path, bytes]:
    """The card file ``game.toml`` names, where it goes, if it was found and the copy lacks it."""
    filed: dict[Path, bytes] = {}
    for name, data in found:
        if gamefile.cards is None or name != gamefile.cards["file"] or Path(name).name != name:
            raise MailFileError(f"cards-{name}: not the card file game.toml names")
        if sha256_ref(data) != gamefile.cards["sha256"]:
            raise MailFileError(f"cards-{name}: its SHA-256 is not the one game.toml names")
        target = gamedir.cards / name
        if not target.exists():
            filed[target] = data
    return filed


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
    """The mail that carries a move, join, request or consent file (as ``pbem move``, ``pbem join``, ``pbem mail
    request`` or ``pbem undo consent`` wrote it) to the referee."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise MailFileError(f"{filename}: not a JSON file: {error}") from error
    except RecursionError:  # nested deeper than the JSON reader goes: no move file
        raise MailFileError(f"{filename}: not a JSON file: nested too deep") from None
    fmt = doc.get("format") if isinstance(doc, dict) else None
    if fmt not in (formats.MOVE, formats.JOIN, formats.REQUEST, formats.UNDO_CONSENT):
        raise MailFileError(f"{filename}: not a move, join, request or consent file (format {fmt!r})")
    player, game_id = str(doc.get("player")), str(doc.get("game_id"))
    what = (f"{player}'s join file" if fmt == formats.JOIN else f"{player}'s request for turns"
            if fmt == formats.REQUEST else f"{player}'s consent to a rollback" if fmt == formats.UNDO_CONSENT
            else f"{player}'s move for turn {doc.get('turn')}")
    return compose.file_mail(data, filename, to, sender, what, game_id)

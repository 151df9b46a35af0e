"""A player's copy of a game: the turns it holds, the turns it lacks, and the referee's latest word on it.

A copy fed by mail (``pbem mail unpack``) holds what its player received:
``game.toml``, the turns the mails carried — any subset of the game's
turns, in whatever order they came —, the seat records, the card file
``game.toml`` names, the join files of the invitations, and the newest
**head** (:mod:`pbem.referee.head`): the latest turn the referee had
written when it sent the newest mail the copy received, and when; every
head it received is kept too (``heads/NNNNNN.json``, by the turn it names),
so that the copy knows when the referee wrote each turn a mail brought as
its latest, from the referee's own signed word. It holds
no move file, no view file and no ``pending.json``: those live in the
referee's directory only. ``copy.json`` (``pbem-copy/1``), which unpack
writes, says that the directory is such a copy: ``verify`` then takes what
a copy cannot hold as not checked, and says so, and checks everything it
holds as it checks the referee's directory.

What a copy lacks is of two kinds:

* **gaps**: turns before its latest that no mail it received carried (a
  lost mail); ``pbem mail request`` asks the referee for them;
* **newer turns**: the referee may have written turns since the latest
  one the copy holds, which is always possible (a copy is as of its last
  mail). When the head names a later turn than the copy holds, the copy is
  **behind**, and knows by how much.

Every command that reads a copy works from the turns it holds: the latest
one is the position it shows (:func:`~pbem.referee.records.current_turn`
lists ``turns/``), and every turn it reads is checked against the
referee's signature as always.
"""

# No ``from __future__ import annotations`` here (docs/performance.md, "Annotations evaluated at import").

from pathlib import Path
from typing import Any, NamedTuple

from pbem.crypto.canonical import parse_json_strict
from pbem.crypto.errors import CryptoError
from pbem.durable import atomic_write
from pbem.referee import formats
from pbem.referee.errors import GameDirError
from pbem.referee.gamefile import GameFile
from pbem.referee.head import Head, parse_head, read_head
from pbem.referee.layout import GameDir, read_file
from pbem.referee.records import Record
from pbem.referee.storage import dump_json

#: the name of a copy's own record in its directory
COPY_FILE = "copy.json"
#: what fed a copy (the only transport that makes partial copies: a git clone holds the whole branch)
FED_BY_MAIL = "mail"

#: a range of turn numbers, both ends included
TurnRange = tuple[int, int]


def copy_path(gamedir: GameDir) -> Path:
    return gamedir.root / COPY_FILE


def heads_dir(gamedir: GameDir) -> Path:
    """``heads/``: every head a copy received, as ``NNNNNN.json`` by the turn it names."""
    return gamedir.root / "heads"


def kept_head_path(gamedir: GameDir, turn: int) -> Path:
    return heads_dir(gamedir) / f"{turn:06d}.json"


def _read_if_there(path: Path) -> bytes | None:
    """The bytes of a file of the copy (never through a link), or ``None`` when it has none."""
    try:
        return read_file(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise GameDirError(f"{path}: cannot be read: {error.strerror or error}", path) from None


def read_kept_head(gamedir: GameDir, gamefile: GameFile, turn: int) -> Head | None:
    """The head naming ``turn`` that the copy kept, checked (``None`` when it kept none)."""
    path = kept_head_path(gamedir, turn)
    data = _read_if_there(path)
    if data is None:
        return None
    head = parse_head(data, gamefile, path)
    if head.turn != turn:
        raise GameDirError(f"{path}: a head of turn {head.turn}, under the name of turn {turn}", path)
    return head


def kept_heads(gamedir: GameDir) -> list[int]:
    """The turns of the heads a copy kept (a listing: for ``verify``)."""
    folder = heads_dir(gamedir)
    if not folder.is_dir():
        return []
    return sorted(int(p.name[:6]) for p in folder.iterdir() if len(p.name) == 11 and p.name.endswith(".json")
                  and p.name[:6].isdigit())


def copy_doc(gamefile: GameFile) -> dict[str, Any]:
    """The record that marks a directory as a copy of ``gamefile``'s game fed by mail."""
    return {"format": formats.COPY, "game_id": gamefile.game_id, "fed_by": FED_BY_MAIL}


def is_marked(gamedir: GameDir, gamefile: GameFile) -> bool:
    """Whether ``gamedir`` holds ``copy.json``, checked to be a copy record of this game (else :class:`GameDirError`)."""
    path = copy_path(gamedir)
    data = _read_if_there(path)
    if data is None:
        return False
    try:
        doc = parse_json_strict(data, max_bytes=4096)
    except CryptoError as error:
        raise GameDirError(f"{path}: not a copy record: {error}", path) from None
    problem = formats.format_problem(doc, formats.COPY)
    if problem:
        raise GameDirError(f"{path}: {problem}", path)
    if doc["game_id"] != gamefile.game_id:
        raise GameDirError(f"{path}: the record of a copy of game {doc['game_id']}, not {gamefile.game_id}", path)
    return True


def mark(gamedir: GameDir, gamefile: GameFile) -> bool:
    """Mark ``gamedir`` as a copy of ``gamefile``'s game fed by mail; whether the record was written now."""
    if is_marked(gamedir, gamefile):
        return False
    atomic_write(copy_path(gamedir), dump_json(copy_doc(gamefile)), temp_dir=gamedir.root)
    return True


def gaps(numbers: list[int] | tuple[int, ...]) -> list[TurnRange]:
    """The ranges of turn numbers missing before the last of ``numbers`` (sorted, from turn 0)."""
    found: list[TurnRange] = []
    expected = 0
    for number in numbers:
        if number > expected:
            found.append((expected, number - 1))
        expected = number + 1
    return found


def ranges_of(numbers: list[int] | tuple[int, ...]) -> list[TurnRange]:
    """Sorted turn numbers as ranges of consecutive ones: ``[3, 4, 5, 9]`` is ``[(3, 5), (9, 9)]``."""
    found: list[TurnRange] = []
    for number in numbers:
        if found and found[-1][1] == number - 1:
            found[-1] = (found[-1][0], number)
        else:
            found.append((number, number))
    return found


def ranges_text(ranges: list[TurnRange] | tuple[TurnRange, ...]) -> str:
    """``4-6, 9``: turn ranges as a reader reads them."""
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in ranges)


def turns_text(ranges: list[TurnRange] | tuple[TurnRange, ...]) -> str:
    """``turn 9``, ``turns 4-6`` or ``turns 4-6, 9``."""
    one = len(ranges) == 1 and ranges[0][0] == ranges[0][1]
    return f"turn{'' if one else 's'} {ranges_text(ranges)}"


class Holdings(NamedTuple):
    """What a game directory holds of its game's turns, and the referee's head it holds, if any."""

    #: the numbers of the turn files present, in order
    numbers: tuple[int, ...]
    head: Head | None
    #: the directory is a player's copy (``copy.json``)
    marked: bool

    @property
    def latest(self) -> int | None:
        return self.numbers[-1] if self.numbers else None

    @property
    def missing(self) -> list[TurnRange]:
        """The gaps: turns before the latest held that are not in the directory."""
        return gaps(self.numbers)

    @property
    def behind(self) -> bool:
        """The head names a later turn than the directory holds: newer turns exist."""
        return self.head is not None and (self.latest is None or self.head.turn > self.latest)

    @property
    def transported(self) -> bool:
        """A copy that a transport made (marked, or holding a head): newer turns may exist elsewhere."""
        return self.marked or self.head is not None

    def has(self, number: int) -> bool:
        return number in self.numbers


def survey(gamedir: GameDir, gamefile: GameFile) -> Holdings:
    """What ``gamedir`` holds: its turn numbers (a listing), its head (checked) and whether it is a marked copy."""
    return Holdings(numbers=tuple(gamedir.turn_numbers()), head=read_head(gamedir, gamefile),
                    marked=is_marked(gamedir, gamefile))


class CopyStatus(NamedTuple):
    """How a copy stands against the game: its latest turn and when the referee wrote it, what it lacks."""

    holdings: Holdings
    #: the latest turn held (read and checked by the caller)
    latest: Record
    #: when the referee wrote it: the turn's own time (a game with deadlines) or the head's, when the head names it
    written: str | None

    @property
    def missing(self) -> list[TurnRange]:
        return self.holdings.missing

    @property
    def behind(self) -> bool:
        return self.holdings.behind

    def sentences(self) -> list[str]:
        """What ``pbem view`` and ``pbem status`` say of the copy (empty for the referee's own directory)."""
        holdings, number = self.holdings, self.latest.doc["turn"]
        said: list[str] = []
        if holdings.transported:
            when = f", written by the referee at {self.written}" if self.written else ""
            head = holdings.head
            if head is not None and self.behind:
                said.append(f"Your copy is behind: its latest turn is {number}{when}, and the referee's head (in a "
                            f"later mail) says it had written turn {head.turn} at {head.time}. Unpack the mails "
                            "that carry the newer turns, or ask the referee for them: pbem mail request.")
            elif self.latest.doc["result"] is not None:
                said.append(f"Your copy's latest turn is {number}{when}: the game ended there.")
            else:
                said.append(f"Your copy's latest turn is {number}{when}. Newer turns may exist: the referee mails "
                            "them as they come (pbem mail request asks for them).")
        if self.missing:
            said.append(f"Your copy lacks {turns_text(self.missing)} (a mail that did not arrive): pbem mail "
                        "request asks the referee for the turns your copy lacks.")
        return said

    def to_json(self) -> dict[str, Any]:
        head = self.holdings.head
        return {
            "latest_turn": self.latest.doc["turn"],
            "written": self.written,
            "head": None if head is None else {"turn": head.turn, "turn_hash": head.turn_hash, "time": head.time},
            "behind": self.behind,
            "missing_turns": [list(r) for r in self.missing],
            "note": " ".join(self.sentences()) or None,
        }


def copy_status(gamedir: GameDir, gamefile: GameFile, holdings: Holdings, latest: Record) -> CopyStatus:
    """The status of a directory whose latest turn, read and checked, is ``latest``.

    When the referee wrote it: the turn's own time (a game with deadlines),
    else the time of the head that names it with its hash, the newest or one
    the copy kept.
    """
    written = latest.doc.get("time")
    if written is None:
        number, head = latest.doc["turn"], holdings.head
        if head is None or head.turn != number:
            head = read_kept_head(gamedir, gamefile, number)
        if head is not None and head.turn == number and head.turn_hash == latest.hash:
            written = head.time
    return CopyStatus(holdings=holdings, latest=latest, written=written)


def standing_of(gamedir: GameDir, gamefile: GameFile, latest: Record) -> CopyStatus | None:
    """How a directory whose latest turn (read and checked) is ``latest`` stands against the game, when it is a
    copy a transport made (marked, or holding a head); ``None`` for the referee's own directory, whose turns
    are then not listed (a reader of the referee's directory costs what it did)."""
    marked, head = is_marked(gamedir, gamefile), read_head(gamedir, gamefile)
    if not marked and head is None:
        return None
    holdings = Holdings(numbers=tuple(gamedir.turn_numbers()), head=head, marked=marked)
    return copy_status(gamedir, gamefile, holdings, latest)


def standing(directory: str | Path) -> CopyStatus | None:
    """:func:`standing_of` a directory, for ``pbem status`` and ``pbem log``, which need no key: its latest
    turn is read and checked against the referee's signature."""
    from pbem.referee.records import current_turn, read_game_file  # not for a view, which has read its turn

    gamedir = GameDir.at(directory)
    gamefile = read_game_file(gamedir)
    if not gamedir.has_turns():
        return None
    return standing_of(gamedir, gamefile, current_turn(gamedir, gamefile))

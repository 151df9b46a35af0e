"""Where each file of a game directory lives.

::

    game.toml                      set-up, seats, keys, RNG commitment
    turns/NNNNNN.json              one signed turn file per step (000000 is the deal)
    moves/NNNNNN-PLAYER.json       the move that produced turn NNNNNN, verbatim
    timeouts/NNNNNN-PLAYER.json    the referee's signed timeout record that produced turn NNNNNN (deadlines)
    seats/NNNNNN-PLAYER.json       the referee's signed seat record: PLAYER's seat held by a new key from turn NNNNNN
    views/PLAYER/latest.json       the player's latest view, sealed to them (signed wrapper)
    views/PLAYER/latest.age        the same sealed view as a plain age file
    rejected/NNNNNN-WHO.json       signed rejection notices: one per sender per turn (WHO: a player, or _unknown)
    joins/PLAYER.commit.json       signed join files of a game that waits for joins, verbatim:
    joins/PLAYER.reveal.json       the commitment to the player's nonce, then the nonce
    cards/NAME                     a copy of the ``--cards`` file, when one was used
    pending.json                   the referee's sealed seed while the game waits for joins
    reveal.json                    the seed, published by ``pbem reveal`` (signed)
    abandoned/NNNNNN/              a rollback by consent: rollback.json (the referee's record), consents/PLAYER.json
                                   (every seat's), and the turns, moves and notices it abandoned, in their folders
    head.json                      the referee's signed head: the latest turn it wrote and when (written by a
                                   transport: a commit of the game branch, a player's copy fed by mail)
    copy.json                      a player's copy fed by mail: it marks the directory as one, which may lack
                                   turns and holds no moves (``pbem.referee.copies``)
    heads/NNNNNN.json              a player's copy: every head its mails carried, by the turn it names
    .lock                          the per-directory lock
    .tmp-NAME.RANDOM               a write in progress (or left by a crash): the referee writes each
                                   file of a step here first, then renames it into place

A step finds its files by name, never by listing ``turns/``, ``moves/``,
``rejected/``, ``timeouts/`` or ``seats/``, so that its cost does not grow
with the game's history: ``turns/`` holds turns 0 to N without a gap
(``pbem verify`` checks it), and the current turn is found by probing names
(:meth:`GameDir.latest_turn`); the current turn names the seat records in
force (``seats``).
"""

from __future__ import annotations

import errno
import os
import re
import stat
from functools import cached_property
from pathlib import Path

from pbem.immutable import Immutable
from pbem.referee.errors import GameDirError

TURN_DIGITS = 6
_TURN_FILE = re.compile(r"^(\d{6})\.json$")
# compiled when first used (re keeps them), by the few commands that list joins or moves
_JOIN_FILE = r"^([a-z0-9][a-z0-9_-]{0,31})\.(commit|reveal)\.json$"
_MOVE_FILE = r"^(\d{6})-([a-z0-9][a-z0-9_-]{0,31})\.json$"


def step_file_name(name: str) -> tuple[int, str] | None:
    """The turn and player a file named ``NNNNNN-PLAYER.json`` produced (``None`` for any other name)."""
    m = re.match(_MOVE_FILE, name)
    return (int(m.group(1)), m.group(2)) if m else None


def _numbered_files(directory: Path) -> list[tuple[int, str, Path]]:
    """``(turn, player, path)`` of every ``NNNNNN-PLAYER.json`` in ``directory``, in turn order."""
    if not directory.is_dir():
        return []
    found = []
    for path in directory.iterdir():
        m = re.match(_MOVE_FILE, path.name)
        if m:
            found.append((int(m.group(1)), m.group(2), path))
    return sorted(found)


class GameDir(Immutable):
    """The paths of one game directory (nothing here touches the disk but listing).

    Immutable, and equal to another of the same root. A plain class: a
    frozen dataclass costs more to define, when every command imports this
    module, than a command spends using it (docs/performance.md, "Records without dataclasses").
    """

    root: Path
    _key = ("root",)

    def __init__(self, root: Path) -> None:
        self._set(root=root)

    @classmethod
    def at(cls, path: str | Path | GameDir) -> GameDir:
        """The game directory at ``path`` (``path`` itself if it is one: its paths are built once)."""
        return path if isinstance(path, GameDir) else cls(Path(path))

    @cached_property
    def game_toml(self) -> Path:
        return self.root / "game.toml"

    @cached_property
    def turns(self) -> Path:
        return self.root / "turns"

    @cached_property
    def moves(self) -> Path:
        return self.root / "moves"

    @cached_property
    def views(self) -> Path:
        return self.root / "views"

    @cached_property
    def timeouts(self) -> Path:
        return self.root / "timeouts"

    @cached_property
    def seats(self) -> Path:
        return self.root / "seats"

    @cached_property
    def rejected(self) -> Path:
        return self.root / "rejected"

    @cached_property
    def abandoned(self) -> Path:
        """The rollbacks by consent, one folder each (``NNNNNN/``), with the turns each abandoned."""
        return self.root / "abandoned"

    def rollback(self, number: int) -> Path:
        """The folder of rollback ``number`` (1 for the game's first)."""
        return self.abandoned / f"{number:0{TURN_DIGITS}d}"

    @cached_property
    def rollback_in_progress(self) -> Path:
        """Where a rollback gathers what it abandons before it takes its number (renamed into place at the end)."""
        return self.abandoned / ".in-progress"

    @cached_property
    def joins(self) -> Path:
        return self.root / "joins"

    @cached_property
    def cards(self) -> Path:
        return self.root / "cards"

    @cached_property
    def pending(self) -> Path:
        return self.root / "pending.json"

    @cached_property
    def reveal(self) -> Path:
        return self.root / "reveal.json"

    def join(self, player: str, round_name: str) -> Path:
        """The join file of ``player`` for round ``commit`` or ``reveal``."""
        return self.joins / f"{player}.{round_name}.json"

    @cached_property
    def lock(self) -> Path:
        return self.root / ".lock"

    @cached_property
    def _named(self) -> dict[tuple[str, str], Path]:
        """The paths of files built so far, by folder and name: a step asks for each several times."""
        return {}

    def _file(self, folder: str, name: str) -> Path:
        try:
            return self._named[folder, name]
        except KeyError:
            path = self._named[folder, name] = getattr(self, folder) / name
            return path

    def turn(self, number: int) -> Path:
        return self._file("turns", f"{number:0{TURN_DIGITS}d}.json")

    def move(self, number: int, player: str) -> Path:
        return self._file("moves", f"{number:0{TURN_DIGITS}d}-{player}.json")

    def timeout(self, number: int, player: str) -> Path:
        return self._file("timeouts", f"{number:0{TURN_DIGITS}d}-{player}.json")

    def seat(self, number: int, player: str) -> Path:
        return self._file("seats", f"{number:0{TURN_DIGITS}d}-{player}.json")

    def view_json(self, player: str) -> Path:
        return self._file("views", f"{player}/latest.json")

    def view_age(self, player: str) -> Path:
        return self._file("views", f"{player}/latest.age")

    def rejection(self, number: int, who: str) -> Path:
        return self._file("rejected", f"{number:0{TURN_DIGITS}d}-{who}.json")

    def symlinks(self, everywhere: bool = True) -> list[Path]:
        """Every symbolic link in the game directory, at any depth (none are followed), and every
        other file that is neither a regular file nor a folder (a FIFO would block its reader for ever).

        With ``everywhere=False``, the inside of the folders that grow with the
        game (:meth:`growing`) is left out (the folders themselves are looked at).
        Each folder is listed once (:func:`os.scandir`, whose entries say what
        they are without a ``stat``), on names as strings.
        """
        skipped = frozenset() if everywhere else frozenset(folder.name for folder in self.growing())
        found: list[str] = []
        pending = [(os.fspath(self.root), True)]
        while pending:
            folder, top = pending.pop()
            try:
                listing = os.scandir(folder)
            except FileNotFoundError:
                continue
            with listing:
                for entry in listing:
                    if entry.is_dir(follow_symlinks=False):
                        if not (top and entry.name in skipped):
                            pending.append((entry.path, False))
                    elif not entry.is_file(follow_symlinks=False):  # a link, or a FIFO, socket or device
                        found.append(entry.path)
        return sorted(Path(link) for link in found)

    def growing(self) -> tuple[Path, ...]:
        """The folders that grow with the game: a file per turn, move, refusal, timeout or takeover.

        A step never lists them (its cost must not grow with the game's
        history): it finds what it needs in them by name.
        """
        return (self.turns, self.moves, self.rejected, self.timeouts, self.seats, self.abandoned)

    def refuse_all_symlinks(self) -> None:
        """Raise :class:`GameDirError` naming the first symbolic link anywhere in the game directory.

        pbem writes no link, and a link put there by a player (a shared folder)
        would have the referee write or read outside the game: a ``views/bob``
        pointing elsewhere, a turn file linked to a private file. Commands
        that read every file (``verify``, ``log``) look everywhere; a step
        and the other commands look where they read and write
        (:meth:`refuse_symlinks`).
        """
        refuse_link(next(iter(self.symlinks()), None))

    def refuse_symlinks(self, *paths: Path) -> None:
        """Raise :class:`GameDirError` naming a symbolic link where pbem reads or writes.

        Looked at: everything in the game directory but the inside of the
        folders that grow with the game (``turns/``, ``moves/``,
        ``rejected/``, ``timeouts/``, ``seats/``: in them, the ``paths`` this
        command opens or writes; each file read from them is checked again as
        it is opened, see :func:`read_file`). So a link is refused before anything is read or
        written, and the cost does not grow with the game's history;
        ``verify`` looks everywhere (:meth:`refuse_all_symlinks`).
        """
        refuse_link(next(iter(self.symlinks(everywhere=False)), None))
        self.refuse_symlinks_at(*paths)

    def refuse_symlinks_at(self, *paths: Path) -> list[Path]:
        """Raise :class:`GameDirError` naming the first of ``paths`` that is a symbolic link or a special
        file (FIFO, socket, device); return those that are present (one ``lstat`` each says both).

        For a command holding the game's lock, which has already looked at
        everything but the inside of the growing folders
        (:func:`~pbem.referee.lock.locked` calls :meth:`refuse_symlinks`):
        what is left to look at is the files it opens or writes in them.
        """
        present = []
        for path in paths:
            try:
                mode = os.lstat(path).st_mode
            except (OSError, ValueError):  # what os.path.lexists takes for absent
                continue
            if _special(mode):
                refuse_link(path)
            present.append(path)
        return present

    def latest_turn(self) -> int | None:
        """The number of the latest turn file, or ``None`` when there is none.

        Found by probing names, in O(log N): ``turns/`` holds turns 0 to N
        without a gap (each step writes the next number; ``verify`` names a
        missing one), so N is the turn whose successor is absent. A link
        counts as present (whoever reads it refuses it). The names probed are
        strings (a dozen at move 40), not paths.
        """
        folder = os.fspath(self.turns)

        def exists(number: int) -> bool:
            return os.path.lexists(f"{folder}/{number:0{TURN_DIGITS}d}.json")

        if not exists(0):
            return None
        present, absent = 0, 1
        while exists(absent):
            present, absent = absent, absent * 2
        while absent - present > 1:
            middle = (present + absent) // 2
            if exists(middle):
                present = middle
            else:
                absent = middle
        return present

    def has_turns(self) -> bool:
        """Whether turn 0 is written (a game that waits for joins has none until the deal)."""
        return os.path.lexists(self.turn(0))

    def turn_numbers(self) -> list[int]:
        """The numbers of the turn files present, in order (a listing: for ``verify`` and ``log``)."""
        if not self.turns.is_dir():
            return []
        return sorted(int(m.group(1)) for p in self.turns.iterdir() if (m := _TURN_FILE.match(p.name)))

    def move_files(self) -> list[tuple[int, str, Path]]:
        """``(turn, player, path)`` of every move file present, in turn order."""
        return _numbered_files(self.moves)

    def timeout_files(self) -> list[tuple[int, str, Path]]:
        """``(turn, player, path)`` of every timeout record present, in turn order."""
        return _numbered_files(self.timeouts)

    def seat_files(self) -> list[tuple[int, str, Path]]:
        """``(turn, player, path)`` of every seat record present, in turn order."""
        return _numbered_files(self.seats)

    def step_records(self, turn: int, player: str) -> tuple[Path, Path, Path]:
        """The files of ``player`` that may produce turn ``turn``: their move file, a timeout record
        and a seat record (the kinds :meth:`step_files` lists)."""
        return self.move(turn, player), self.timeout(turn, player), self.seat(turn, player)

    def step_files(self) -> list[tuple[int, str, Path]]:
        """Every file that produced a turn: move files, timeout records and seat records, in turn order."""
        return sorted([*self.move_files(), *self.timeout_files(), *self.seat_files()])

    def join_files(self) -> dict[tuple[str, str], Path]:
        """``(player, round) -> path`` of every join file present."""
        if not self.joins.is_dir():
            return {}
        return {(m.group(1), m.group(2)): p for p in sorted(self.joins.iterdir()) if (m := re.match(_JOIN_FILE, p.name))}


def _special(mode: int) -> bool:
    """Whether an ``lstat`` mode is a link or a special file (FIFO, socket, device): not a file or folder."""
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def refuse_link(link: Path | None) -> None:
    """Raise :class:`GameDirError` for a symbolic link, or another file that is not a regular file,
    found in a game directory (nothing for ``None``)."""
    if link is not None and not link.is_symlink():
        raise GameDirError(
            f"{link}: not a regular file (a FIFO, socket or device); a game directory holds only files "
            "and folders, and reading one blocks for ever: remove it",
            path=link,
        )
    if link is not None:
        raise GameDirError(
            f"{link}: a symbolic link (to {os.readlink(link)}); a game directory holds none, "
            "and pbem neither reads nor writes through one: remove it",
            path=link,
        )


#: how a file of a game directory is opened for reading: never through a symbolic link
_READ = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def read_file(path: Path) -> bytes:
    """The bytes of a file of a game directory, refusing a symbolic link, a special file or a folder
    (:class:`GameDirError`); ``FileNotFoundError`` when there is none.

    The file is looked at before it is opened, so that a special file is never opened (opening some
    devices does something), and opened without following a link, so that one put in its place
    meanwhile is refused too. It is read with :func:`os.read` rather than through :func:`open`'s
    buffered file object, which took about twice as long for a turn file (``verify`` reads every file).
    """
    status = os.lstat(path)
    if stat.S_ISDIR(status.st_mode):
        raise GameDirError(f"{path}: a folder where a file belongs; remove it", path=path)
    if _special(status.st_mode):
        refuse_link(path)
    try:
        fd = os.open(path, _READ)
    except OSError as error:
        if error.errno == errno.ELOOP:  # a link put there since it was looked at
            refuse_link(path)
        raise
    try:
        # a regular file's read stops short only at its end: one call reads one that has not grown since
        size = status.st_size + 1
        data = os.read(fd, size)
        if len(data) < size:
            return data
        chunks = [data]
        while data:
            data = os.read(fd, 1 << 20)
            chunks.append(data)
        return b"".join(chunks)
    finally:
        os.close(fd)

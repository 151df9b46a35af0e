"""The game branch: the referee's commits of its own game directories, and nothing else.

The referee alone writes the game branch. Each commit's tree holds every
served game at its ``path``, built from the referee's own game directory
(:func:`game_tree`: its files byte for byte, ``head.json`` included; not
``.lock`` or a write in progress) with plumbing (``hash-object
--no-filters``, ``mktree``), so that nothing of git's configuration or a
player's changes a byte. The commit is made with ``commit-tree`` on the
referee's previous commit (``refs/pbem/branch`` in its repository), dated by
the referee's clock, and pushed as a fast-forward.

Whatever else the remote's game branch holds (someone pushed there, where
the host should let only the referee push) is never read as the game: the
referee's next commit takes that commit as a second parent, so that the push
stays a fast-forward and the evidence stays in the history, and puts back
the tree as the referee wrote it (:func:`is_foreign`).

A referee without its game directory (a new machine, a runner whose cache
was emptied) can take it from the game branch (:func:`adopt`): from its own
last commit if its repository has one, else from the remote's tip, which it
then trusts as it finds it (trust on first use, said in the report); the
files are checked by ``pbem verify`` before they are put in place.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from pbem.durable import TEMP_PREFIX, atomic_write
from pbem.git.errors import GitConfigError
from pbem.git.plumbing import EXECUTABLE, REGULAR, TREE, Git, hash_files, make_tree
from pbem.referee.errors import GameDirError

#: the referee's own last commit of the game branch, in its repository
BRANCH = "refs/pbem/branch"
#: a name the game branch holds for a game's file: not hidden, nothing that is not printable
_NAME = re.compile(r"[^./\x00-\x1f\x7f][^/\x00-\x1f\x7f]*")
#: what a game directory holds at its top (``pbem.referee.layout``): all :func:`adopt` takes
_GAME_FILES = frozenset({"game.toml", "head.json", "pending.json", "reveal.json"})
_GAME_FOLDERS = frozenset({"turns", "moves", "timeouts", "seats", "views", "rejected", "joins", "cards"})
#: the most files :func:`adopt` takes from a commit (a game of thousands of turns has a few thousand)
ADOPT_MAX_FILES = 200_000


def game_tree(git: Git, directory: Path) -> str:
    """The tree of the referee's game directory ``directory``: every file, byte for byte.

    Left out: what is not the game (the lock and temporary files at the
    top, anything named with a dot first). Anything that is neither a file
    nor a folder is refused: the referee writes none, and a game directory
    holding one is damaged (:class:`~pbem.referee.errors.GameDirError`).
    """
    files: list[tuple[tuple[str, ...], Path]] = []
    pending: list[tuple[tuple[str, ...], str]] = [((), os.fspath(directory))]
    while pending:
        parts, folder = pending.pop()
        with os.scandir(folder) as listing:
            for entry in listing:
                if entry.name.startswith(".") or entry.name.startswith(TEMP_PREFIX):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    pending.append(((*parts, entry.name), entry.path))
                elif not entry.is_file(follow_symlinks=False):
                    raise GameDirError(f"{entry.path}: neither a plain file nor a folder; the referee's game directory "
                                   "holds none: look at who put it there")
                elif not _NAME.fullmatch(entry.name):
                    raise GameDirError(f"{entry.path}: a name with a control character, which pbem never writes: look "
                                   "at who put it there")
                else:
                    files.append(((*parts, entry.name), Path(entry.path)))
    ids = hash_files(git, [path for _, path in files])
    return nested_tree(git, [(parts, REGULAR, "blob", value) for (parts, _), value in zip(files, ids, strict=True)])


def nested_tree(git: Git, entries: Iterable[tuple[tuple[str, ...], str, str, str]]) -> str:
    """A tree of ``(path parts, mode, type, id)`` entries at any depth, its folders made as needed."""
    top = _Folder()
    for parts, mode, kind, value in entries:
        folder = top
        for part in parts[:-1]:
            folder = folder.folders.setdefault(part, _Folder())
        folder.files[parts[-1]] = (mode, kind, value)

    def build(folder: _Folder) -> str:
        rows = [(mode, kind, value, name) for name, (mode, kind, value) in folder.files.items()]
        rows += [(TREE, "tree", build(inner), name) for name, inner in folder.folders.items()]
        return make_tree(git, sorted(rows, key=lambda row: row[3]))

    return build(top)


class _Folder:
    """A folder of a tree being built: its files ``name -> (mode, type, id)`` and its folders."""

    def __init__(self) -> None:
        self.files: dict[str, tuple[str, str, str]] = {}
        self.folders: dict[str, _Folder] = {}


def branch_tree(git: Git, games: dict[str, str]) -> str:
    """The tree of a commit of the game branch: each game's tree (``path -> tree``) at its path."""
    return nested_tree(git, [(tuple(path.split("/")), TREE, "tree", tree) for path, tree in games.items()])


def subtree(git: Git, commit: str, path: str) -> str | None:
    """The tree at ``path`` in ``commit`` (``None`` when there is none)."""
    value = git.rev(f"{commit}:{path}")
    if value is None or git.run("cat-file", "-t", value).lines() != ["tree"]:
        return None
    return value


def commit_tree(git: Git, tree: str, parents: list[str], message: str, committer: tuple[str, str],
                when: datetime) -> str:
    """A new commit of ``tree`` on ``parents``, by the referee, at ``when``."""
    stamp = f"{int(when.timestamp())} +0000"
    name, address = committer
    env = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": address, "GIT_AUTHOR_DATE": stamp,
           "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": address, "GIT_COMMITTER_DATE": stamp}
    args = ["commit-tree", tree]
    for parent in parents:
        args += ["-p", parent]
    return git.run(*args, "-F", "-", input=message.encode("utf-8"), env=env).lines()[0]


def is_foreign(git: Git, remote_tip: str | None, mine: str | None) -> bool:
    """Whether the remote's game branch holds a commit the referee did not write (one its own last commit
    does not contain)."""
    if remote_tip is None or remote_tip == mine:
        return False
    return mine is None or not git.is_ancestor(remote_tip, mine)


def push(git: Git, remote: str, commit: str, branch_ref: str) -> None:
    """Push ``commit`` to the game branch (a fast-forward; :class:`~pbem.git.errors.GitRemoteError` if refused)."""
    git.run("push", "--quiet", "--porcelain", "--no-verify", "--end-of-options", remote, f"{commit}:{branch_ref}",
            remote=True)


def adopt(git: Git, commit: str, path: str, directory: Path) -> int:
    """Make ``directory`` (absent or empty) the game that ``commit`` holds at ``path``; the number of files.

    Only regular files with names pbem writes are taken (anything else is
    left out); the result must pass ``pbem verify`` before it is put in place,
    in one rename (:class:`GitConfigError` otherwise, and ``directory`` is left as
    it was).
    """
    from pbem.referee.errors import VerificationFailed
    from pbem.referee.verify import verify

    tree = subtree(git, commit, path)
    if tree is None:
        raise GitConfigError(f"commit {commit[:12]} of the game branch holds no game at {path!r}")
    out = git.run("ls-tree", "-r", "-z", "--full-tree", "--end-of-options", tree).out
    wanted: list[tuple[str, str]] = []
    for record in out.split(b"\0"):
        if not record:
            continue
        meta, _, raw = record.partition(b"\t")
        mode, kind, value = meta.decode("ascii").split(" ")
        name = raw.decode("utf-8", "replace")
        parts = name.split("/")
        kept = parts[0] in _GAME_FILES if len(parts) == 1 else parts[0] in _GAME_FOLDERS
        if kind == "blob" and mode in (REGULAR, EXECUTABLE) and kept and all(_NAME.fullmatch(p) for p in parts):
            wanted.append((name, value))
    if len(wanted) > ADOPT_MAX_FILES:
        raise GitConfigError(f"commit {commit[:12]} holds {len(wanted):,} files at {path!r}: more than a game has")
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{directory.name}.adopting-", dir=directory.parent))
    try:
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            contents = git.blobs([value for _, value in chunk])
            for name, value in chunk:
                atomic_write(staging / name, contents[value], sync=False)
        try:
            verify(staging)
        except VerificationFailed as error:
            raise GitConfigError(f"the game at {path!r} in commit {commit[:12]} does not verify: {error}") from None
        if directory.exists():
            directory.rmdir()  # empty, or this raises: a directory holding anything is never replaced
        staging.rename(directory)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return len(wanted)


def tree_of(git: Git, commit: str) -> str:
    return git.run("rev-parse", f"{commit}^{{tree}}").lines()[0]

"""A player sends files to their inbox: one commit on their inbox ref of the shared repository.

``pbem git send move.json`` (in the player's clone of the shared repository)
commits the files, each at the top of the commit's tree under its own name,
on top of the inbox's current tip (fetched first; for the inbox's first
commit, on what the clone follows, the game branch), and pushes it to
``refs/heads/inbox/PLAYER`` (the player the files name), as a fast-forward:
nothing the referee has not read yet is overwritten. The commit changes only
those files, which is what the referee reads of it. It is plumbing only
(``hash-object``, ``mktree``, ``commit-tree``, ``push``): the clone's work
tree, index and branches are left as they are, so a player keeps following
the game branch with ``git pull``.

The referee reads what each new commit of an inbox adds or changes (every
commit, not only the tip), so a player may send several times before the
referee's next run. A file the inbox holds already, byte for byte and under
the same name, is no change: nothing is pushed (a copy under another name
is, and the referee answers it). The same can be done with plain git; the
commit need only be a descendant of the inbox's tip, or its first commit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pbem.crypto.canonical import parse_json_strict
from pbem.crypto.errors import CryptoError
from pbem.git.errors import GitConfigError, GitRemoteError
from pbem.git.inbox import FILE_MAX_BYTES
from pbem.git.plumbing import REGULAR, Git, make_tree, tree_entries
from pbem.referee.errors import UsageError
from pbem.referee.gamefile import PLAYER_NAME

#: the name a file keeps in the inbox: what ``pbem move`` and ``pbem join`` write, nothing a shell reads
_FILE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,127}")
#: where the clone keeps the inbox's tip it sent on
SENT = "refs/pbem/sent"


@dataclass(frozen=True)
class Sent:
    """What :func:`send` pushed: the inbox ref, the commit, and the names of the files.

    ``commit`` is ``None`` when the inbox held these very files already (git records no change, and the
    referee has read them, or reads them at its next run): nothing was pushed.
    """

    ref: str
    commit: str | None
    names: list[str]


def inbox_ref(text: str) -> str:
    """``inbox/alice`` or ``refs/heads/inbox/alice``: the full ref."""
    return text if text.startswith("refs/") else f"refs/heads/{text}"


def send(clone: Path, files: list[Path], remote: str = "origin", inbox: str | None = None) -> Sent:
    """Commit ``files`` on the inbox of the player they name (or ``inbox``) and push it to ``remote``."""
    git = Git(work_tree=clone)
    if git.run("rev-parse", "--git-dir", ok=(0, 128)).code != 0:
        raise GitConfigError(f"{clone}: not a git clone of the shared repository (run this in your clone, or "
                             "give --dir)")
    player, contents = _read(files)
    ref = inbox_ref(inbox) if inbox is not None else f"refs/heads/inbox/{player}"
    if git.run("check-ref-format", ref, ok=(0, 1)).code != 0:
        raise UsageError(f"--inbox {inbox!r}: not a ref name")
    blobs = [(name, git.run("hash-object", "-w", "--no-filters", "--stdin", input=data).lines()[0])
             for name, data in contents]
    names = [name for name, _ in contents]
    for attempt in range(2):
        # on the inbox's tip; a first commit on what the clone follows (the game branch), so that the inbox
        # shares its history (a host opens a pull request only between branches that do)
        parent = _tip(git, remote, ref) or git.rev("HEAD")
        if parent is not None and _holds(git, parent, blobs):
            return Sent(ref=ref, commit=None, names=names)
        tree = _with_files(git, parent, blobs)
        args = ["commit-tree", tree, *(["-p", parent] if parent else []), "-m",
                f"{player}: {', '.join(names)}"]
        commit = git.run(*args, env=_identity(git, player)).lines()[0]
        try:
            git.run("push", "--quiet", "--porcelain", "--no-verify", "--end-of-options", remote, f"{commit}:{ref}",
                    remote=True)
        except GitRemoteError:
            if attempt == 0 and _tip(git, remote, ref) != parent:
                continue  # sent from another clone meanwhile: once more, on the new tip
            raise
        return Sent(ref=ref, commit=commit, names=names)
    raise AssertionError("unreachable")  # pragma: no cover


def _read(files: list[Path]) -> tuple[str, list[tuple[str, bytes]]]:
    """The player the files name, and each file's name and bytes (move, join and consent files only)."""
    players: set[str] = set()
    contents: list[tuple[str, bytes]] = []
    for path in files:
        try:
            data = path.read_bytes()
        except OSError as error:
            raise UsageError(f"{path}: cannot be read: {error.strerror or error}") from None
        try:
            doc = parse_json_strict(data, max_bytes=FILE_MAX_BYTES)
        except CryptoError as error:
            raise UsageError(f"{path}: not a move, join or consent file ({error})") from None
        kind = doc.get("format") if isinstance(doc, dict) else None
        player = doc.get("player") if isinstance(doc, dict) else None
        if not isinstance(kind, str) or not kind.startswith(("pbem-move/", "pbem-join/", "pbem-undo-consent/")):
            raise UsageError(f"{path}: not a move, join or consent file (pbem move, pbem join and pbem undo "
                             "consent write them)")
        if not isinstance(player, str) or not PLAYER_NAME.fullmatch(player):
            raise UsageError(f"{path}: names no player")
        if not _FILE_NAME.fullmatch(path.name):
            raise UsageError(f"{path}: give the file a plain name (letters, digits, . _ -), as pbem move writes")
        if path.name in (name for name, _ in contents):
            raise UsageError(f"{path}: two files named {path.name}")
        players.add(player)
        contents.append((path.name, data))
    if len(players) != 1:
        raise UsageError(f"the files name {len(players)} players ({', '.join(sorted(players))}); send each "
                         "player's files on their own (or give --inbox)")
    return players.pop(), contents


def _tip(git: Git, remote: str, ref: str) -> str | None:
    """The inbox's tip on ``remote`` (fetched into the clone), or ``None`` when it has none yet."""
    listing = git.run("ls-remote", "--end-of-options", remote, ref, remote=True).lines()
    tips = [line.split("\t")[0] for line in listing if line.endswith(f"\t{ref}")]
    if not tips:
        return None
    git.run("fetch", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules", "--quiet", "--end-of-options",
            remote, f"+{ref}:{SENT}", remote=True)
    return git.rev(SENT)


def _with_files(git: Git, base: str | None, blobs: list[tuple[str, str]]) -> str:
    """The tree of ``base`` (or an empty one) with the files ``blobs`` at its top, in place of any of their names."""
    names = {name for name, _ in blobs}
    kept = [(mode, kind, value, name.decode("utf-8", "surrogateescape"))
            for mode, kind, value, name in (tree_entries(git, f"{base}^{{tree}}") if base is not None else [])
            if name.decode("utf-8", "surrogateescape") not in names]
    return make_tree(git, [*kept, *((REGULAR, "blob", value, name) for name, value in blobs)])


def _holds(git: Git, commit: str, blobs: list[tuple[str, str]]) -> bool:
    """Whether ``commit``'s tree holds every ``(name, blob)`` of ``blobs`` as it is."""
    return all(git.rev(f"{commit}:{name}") == value for name, value in blobs)


def _identity(git: Git, player: str) -> dict[str, str]:
    """Who the commit says wrote it: the clone's own ``user.name`` and ``user.email``, else the player."""
    env: dict[str, str] = {}
    if git.run("config", "--get", "user.name", ok=(0, 1)).code != 0:
        env.update(GIT_AUTHOR_NAME=player, GIT_COMMITTER_NAME=player)
    if git.run("config", "--get", "user.email", ok=(0, 1)).code != 0:
        env.update(GIT_AUTHOR_EMAIL=f"{player}@pbem.invalid", GIT_COMMITTER_EMAIL=f"{player}@pbem.invalid")
    return env

"""The players' inboxes: the refs of the shared repository where players push, read strictly as data.

Each ref that matches one of the configuration's inbox patterns
(``refs/heads/inbox/*``: ``inbox/alice``, ``inbox/bob``; or
``refs/pull/*/head``: one per pull request) is one inbox. A run:

1. lists the remote's refs (``git ls-remote``) and fetches, into the
   referee's own repository, the game branch (``refs/pbem/remote``) and every
   inbox that changed (``refs/pbem/in/N/NAME``), nothing else;
2. for each inbox, takes the commits that are new since the referee last
   read it (``refs/pbem/read/N/NAME``), oldest first, leaving out every
   commit of the game branch (a player may commit on top of it);
3. for each commit, reads the files it adds or changes against its first
   parent (``git diff-tree``): a regular file (mode 100644 or 100755) of
   at most :data:`FILE_MAX_BYTES` is read with ``git cat-file``; a
   symbolic link, a submodule, a larger file, a file past
   :data:`MAX_FILES` of one commit is not read, and the answer says why.

Nothing is checked out: no attribute, filter, hook, link or file name of a
player's is followed, and a name is only ever printed (made safe to print:
:func:`~pbem.git.plumbing.display`). Where a file goes is decided by what it
says (its ``game_id``, its signature), never by its name or its inbox: the
inbox is only where the referee's answer says it found it.

Bounds, so that no push makes a run long or large: at most
:data:`MAX_INBOXES` inboxes, :data:`MAX_COMMITS` new commits of one inbox
per run (the older ones first; the rest are passed over, and the answer
says so) and :data:`MAX_FILES` files of one commit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pbem.git.plumbing import EXECUTABLE, LINK, REGULAR, SUBMODULE, Git, display

if TYPE_CHECKING:  # pragma: no cover
    from pbem.git.config import GitConfig

#: a file larger than this is not read (a move file is at most 1 MiB)
FILE_MAX_BYTES = 1 << 20
#: the most inboxes one run reads
MAX_INBOXES = 256
#: the most new commits of one inbox one run reads
MAX_COMMITS = 64
#: the most files of one commit that are read
MAX_FILES = 16
#: the ref of the game branch as the remote has it, in the referee's repository
REMOTE_BRANCH = "refs/pbem/remote"


@dataclass(frozen=True)
class Inbox:
    """One ref of the shared repository where players push (``refs/heads/inbox/alice``)."""

    #: which of the configuration's patterns it matched, and what its ``*`` stands for
    pattern: int
    name: str
    ref: str

    @property
    def local(self) -> str:
        """Its fetched copy in the referee's repository."""
        return f"refs/pbem/in/{self.pattern}/{self.name}"

    @property
    def read(self) -> str:
        """The latest of its commits the referee has read."""
        return f"refs/pbem/read/{self.pattern}/{self.name}"

    @property
    def label(self) -> str:
        """How an answer names it: ``inbox/alice``, ``pull/12/head``."""
        return self.ref.removeprefix("refs/heads/").removeprefix("refs/")


@dataclass(frozen=True)
class Pushed:
    """One file a commit of an inbox added or changed: its bytes, or why they were not read."""

    inbox: Inbox
    commit: str
    #: its path in the commit, safe to print
    path: str
    data: bytes | None = None
    problem: str | None = None

    @property
    def where(self) -> str:
        return f"{self.inbox.label} {self.commit[:7]} {self.path}"


@dataclass
class Fetched:
    """What the remote holds now: the game branch's tip (``None``: no such branch yet) and the inboxes."""

    branch: str | None
    inboxes: list[Inbox] = field(default_factory=list)
    #: what was passed over (inboxes past the bound), to say in the answer
    notes: list[str] = field(default_factory=list)


def fetch(git: Git, config: GitConfig) -> Fetched:
    """Fetch the game branch and every inbox that changed into the referee's repository (see the module docstring)."""
    assert config.remote is not None
    listing = git.run("ls-remote", "--end-of-options", config.remote, remote=True).lines()
    remote: dict[str, str] = {}
    for line in listing:
        value, _, ref = line.partition("\t")
        remote[ref] = value
    inboxes: list[Inbox] = []
    for ref in sorted(remote):
        for index, pattern in enumerate(config.inboxes):
            name = pattern.name_of(ref)
            if name is not None:
                inboxes.append(Inbox(index, name, ref))
                break
    fetched = Fetched(branch=None)
    if len(inboxes) > MAX_INBOXES:
        fetched.notes.append(f"{len(inboxes) - MAX_INBOXES} inboxes past the first {MAX_INBOXES} were not read "
                             f"(the first passed over: {inboxes[MAX_INBOXES].label})")
        inboxes = inboxes[:MAX_INBOXES]
    local = git.refs("refs/pbem/")
    wanted = [(config.branch_ref, REMOTE_BRANCH)] if config.branch_ref in remote else []
    wanted += [(inbox.ref, inbox.local) for inbox in inboxes]
    specs = [f"+{source}:{target}" for source, target in wanted if local.get(target) != remote[source]]
    if specs:
        git.run("fetch", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules", "--no-auto-gc", "--quiet",
                "--stdin", "--end-of-options", config.remote, input="".join(f"{s}\n" for s in specs).encode(),
                remote=True)
    # what the remote no longer holds goes from the referee's copy too (what was read stays read)
    keep = {target for _source, target in wanted}
    for ref in local:
        if (ref == REMOTE_BRANCH or ref.startswith("refs/pbem/in/")) and ref not in keep:
            git.update_ref(ref, None)
    fetched.branch = git.rev(REMOTE_BRANCH) if config.branch_ref in remote else None
    fetched.inboxes = inboxes
    return fetched


def new_commits(git: Git, inbox: Inbox, exclude: list[str]) -> tuple[list[tuple[str, str | None]], int]:
    """The commits of ``inbox`` not read yet, oldest first, as ``(commit, first parent)``; and how many more
    than :data:`MAX_COMMITS` there were (passed over).

    ``exclude``: refs whose commits are not the players' (the game branch).
    """
    tip = git.rev(inbox.local)
    if tip is None:
        return [], 0
    nots = [f"^{ref}" for ref in [inbox.read, *exclude] if git.rev(ref) is not None]
    lines = git.run("rev-list", "--reverse", "--topo-order", "--parents", tip, *nots, "--").lines()
    commits = []
    for line in lines[:MAX_COMMITS]:
        ids = line.split()
        commits.append((ids[0], ids[1] if len(ids) > 1 else None))
    return commits, max(len(lines) - MAX_COMMITS, 0)


def pushed_files(git: Git, inbox: Inbox, commit: str, parent: str | None) -> list[Pushed]:
    """The files ``commit`` adds or changes against ``parent`` (every file, for a first commit), read or not."""
    against = [parent, commit] if parent is not None else ["--root", commit]
    out = git.run("diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", "--raw", *against).out
    fields = out.split(b"\0")
    changed: list[tuple[str, str, bytes]] = []
    at = 0
    while at + 1 < len(fields):
        meta, name = fields[at], fields[at + 1]
        at += 2
        if not meta.startswith(b":"):
            continue
        _old_mode, new_mode, _old_id, new_id, status = meta[1:].decode("ascii").split(" ")
        if status[:1] in ("A", "M", "T"):
            changed.append((new_mode, new_id, name))
    found: list[Pushed] = []
    readable: list[tuple[str, str]] = []
    for count, (mode, value, name) in enumerate(changed):
        path = display(name)
        if count >= MAX_FILES:
            found.append(Pushed(inbox, commit, path, problem=f"not read: a commit is read for its first {MAX_FILES} "
                                                              "files only"))
        elif mode == LINK:
            found.append(Pushed(inbox, commit, path, problem="not read: a symbolic link (pbem follows none)"))
        elif mode == SUBMODULE:
            found.append(Pushed(inbox, commit, path, problem="not read: a submodule"))
        elif mode not in (REGULAR, EXECUTABLE):
            found.append(Pushed(inbox, commit, path, problem=f"not read: not a file (mode {mode})"))
        else:
            readable.append((value, path))
    sizes = git.sizes([value for value, _ in readable])
    small = [value for value, _ in readable if sizes[value][0] == "blob" and sizes[value][1] <= FILE_MAX_BYTES]
    contents = git.blobs(small)
    for value, path in readable:
        kind, size = sizes[value]
        if value in contents:
            found.append(Pushed(inbox, commit, path, data=contents[value]))
        elif kind != "blob":
            found.append(Pushed(inbox, commit, path, problem=f"not read: not a file ({kind})"))
        else:
            found.append(Pushed(inbox, commit, path, problem=f"not read: {size:,} bytes, and a move file is at "
                                                              f"most {FILE_MAX_BYTES:,}"))
    return sorted(found, key=lambda pushed: pushed.path)

"""Running git: what a player wrote is read as data, and nothing of theirs is run or followed.

Every call goes through :class:`Git`, which

* runs ``git`` with an environment of its own: none of the caller's
  ``GIT_DIR``, ``GIT_WORK_TREE``, ``GIT_INDEX_FILE`` (or any other variable
  that would point git at another repository), no terminal prompt (a remote
  asking for a password fails rather than waiting for ever), a fixed
  locale;
* turns hooks off (``core.hooksPath=/dev/null``), the file system monitor
  too, checks every object a fetch brings (``transfer.fsckObjects``), and
  never lets garbage collection run in the background (a process left
  behind);
* uses only plumbing on what players pushed: objects are listed with
  ``rev-list``, ``diff-tree`` and ``ls-tree`` and read with ``cat-file``,
  never checked out, so no attribute, filter, hook, link, submodule or file
  name of theirs is followed;
* bounds every network command by a timeout, after which its whole process
  group is stopped.

A failure of git on a repository of this machine is a
:class:`GitRepositoryError`; one of the remote, a :class:`GitRemoteError`;
git missing, a :class:`GitConfigError`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from pbem.git.errors import GitConfigError, GitRemoteError, GitRepositoryError

#: seconds a fetch or a push may take before it is stopped
REMOTE_TIMEOUT = 300.0
#: seconds any other git command may take
LOCAL_TIMEOUT = 120.0
#: the variables of the caller's environment that git may see: how to reach and log in to the remote,
#: and where the user's own configuration is; every other ``GIT_*`` variable is dropped
_KEPT = frozenset({"GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSH_VARIANT", "GIT_ASKPASS", "GIT_CONFIG_GLOBAL",
                   "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_SYSTEM", "GIT_EXEC_PATH", "GIT_HTTP_USER_AGENT",
                   "GIT_SSL_CAINFO", "GIT_SSL_NO_VERIFY", "GIT_PROXY_COMMAND"})
_SAFE_CONFIG = ("-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "transfer.fsckObjects=true",
                "-c", "gc.autoDetach=false", "-c", "core.quotePath=false", "-c", "advice.detachedHead=false")
#: the mode and type of a file in a tree, as git writes them
REGULAR = "100644"
EXECUTABLE = "100755"
LINK = "120000"
SUBMODULE = "160000"
TREE = "040000"


class Done(NamedTuple):
    """A git command that ran: its exit code and output."""

    code: int
    out: bytes
    err: bytes

    def text(self) -> str:
        return self.out.decode("utf-8", "replace")

    def lines(self) -> list[str]:
        return [line for line in self.text().splitlines() if line]


def git_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment git runs with: the caller's, without what would point git elsewhere, plus ``extra``."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("GIT_") or name in _KEPT}
    env.update(GIT_TERMINAL_PROMPT="0", LC_ALL="C", LANGUAGE="C")
    env.update(extra or {})
    return env


class Git:
    """git on one repository: ``git_dir`` (a bare repository, or a clone's ``.git``), or the clone at ``work_tree``."""

    def __init__(self, git_dir: Path | None = None, work_tree: Path | None = None) -> None:
        self.git_dir = git_dir
        self.work_tree = work_tree

    def _command(self, args: Sequence[str]) -> list[str]:
        where: list[str] = []
        if self.git_dir is not None:
            where += [f"--git-dir={self.git_dir}"]
        if self.work_tree is not None:
            where += ["-C", str(self.work_tree)]
        return ["git", *where, *_SAFE_CONFIG, *args]

    def run(self, *args: str, input: bytes | None = None, env: dict[str, str] | None = None,
            ok: Iterable[int] = (0,), remote: bool = False) -> Done:
        """Run ``git ARGS``; a code outside ``ok`` raises (:class:`GitRemoteError` for a ``remote`` command).

        ``input`` goes to its standard input; ``env`` is added to its environment.
        """
        command = self._command(args)
        timeout = REMOTE_TIMEOUT if remote else LOCAL_TIMEOUT
        try:
            process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       env=git_environment(env), start_new_session=True)
        except FileNotFoundError:
            raise GitConfigError("git is not installed (no `git` command on PATH)") from None
        try:
            out, err = process.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired:
            _stop(process)
            error = GitRemoteError if remote else GitRepositoryError
            raise error(f"`git {' '.join(args[:2])}` took longer than {timeout:g} s and was stopped") from None
        done = Done(process.returncode, out, err)
        if done.code not in tuple(ok):
            said = err.decode("utf-8", "replace").strip() or out.decode("utf-8", "replace").strip()
            error = GitRemoteError if remote else GitRepositoryError
            raise error(f"`git {' '.join(args[:2])}` failed (exit {done.code}): {said[-600:] or 'no message'}")
        return done

    def ok(self, *args: str) -> bool:
        """Whether ``git ARGS`` exits 0 (1 meaning no; any other code is an error)."""
        return self.run(*args, ok=(0, 1)).code == 0

    def rev(self, name: str) -> str | None:
        """The object id ``name`` (a ref, ``COMMIT:path``...) stands for, or ``None`` when there is none."""
        done = self.run("rev-parse", "--verify", "--quiet", "--end-of-options", name, ok=(0, 1, 128))
        return done.lines()[0] if done.code == 0 and done.lines() else None

    def update_ref(self, ref: str, value: str | None) -> None:
        """Set ``ref`` to ``value`` (``None``: delete it)."""
        if value is None:
            self.run("update-ref", "-d", ref)
        else:
            self.run("update-ref", ref, value)

    def refs(self, prefix: str) -> dict[str, str]:
        """Every ref under ``prefix`` and the object it names."""
        found = {}
        for line in self.run("for-each-ref", "--format=%(objectname) %(refname)", prefix).lines():
            value, _, ref = line.partition(" ")
            found[ref] = value
        return found

    def is_ancestor(self, older: str, newer: str) -> bool:
        return self.ok("merge-base", "--is-ancestor", older, newer)

    def blobs(self, ids: Sequence[str]) -> dict[str, bytes]:
        """The contents of the blobs ``ids`` (each checked to be a blob), read in one ``cat-file --batch``."""
        if not ids:
            return {}
        out = self.run("cat-file", "--batch", input="".join(f"{i}\n" for i in ids).encode()).out
        found: dict[str, bytes] = {}
        at = 0
        for wanted in ids:
            end = out.index(b"\n", at)
            header = out[at:end].decode("ascii", "replace").split()
            if len(header) != 3 or header[0] != wanted or header[1] != "blob":
                raise GitRepositoryError(f"{wanted}: not a blob of this repository ({' '.join(header)})")
            size = int(header[2])
            found[wanted] = out[end + 1:end + 1 + size]
            at = end + 1 + size + 1
        return found

    def sizes(self, ids: Sequence[str]) -> dict[str, tuple[str, int]]:
        """The type and size of each object of ``ids`` (``("missing", 0)`` for one this repository lacks)."""
        if not ids:
            return {}
        done = self.run("cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)",
                        input="".join(f"{i}\n" for i in ids).encode())
        found: dict[str, tuple[str, int]] = {}
        for wanted, line in zip(ids, done.lines(), strict=True):
            parts = line.split()
            found[wanted] = (parts[1], int(parts[2])) if len(parts) == 3 else ("missing", 0)
        return found


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a command that took too long, and whatever it started (ssh), and reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.communicate()


def tree_entries(git: Git, tree: str) -> list[tuple[str, str, str, bytes]]:
    """``(mode, type, id, name)`` of every entry of ``tree`` (one level; names as bytes, never as paths)."""
    out = git.run("ls-tree", "-z", "--full-tree", "--end-of-options", tree).out
    entries = []
    for record in out.split(b"\0"):
        if not record:
            continue
        meta, _, name = record.partition(b"\t")
        mode, kind, value = meta.decode("ascii").split(" ")
        entries.append((mode, kind, value, name))
    return entries


def make_tree(git: Git, entries: Iterable[tuple[str, str, str, str]]) -> str:
    """The id of a new tree of ``(mode, type, id, name)`` entries (written with ``mktree``)."""
    data = b"".join(f"{mode} {kind} {value}\t".encode("ascii") + name.encode("utf-8", "surrogateescape") + b"\0"
                    for mode, kind, value, name in entries)
    return git.run("mktree", "-z", input=data).lines()[0]


def hash_files(git: Git, paths: Sequence[Path]) -> list[str]:
    """Write the files ``paths`` (the referee's own) into the repository as blobs, byte for byte; their ids.

    One ``hash-object --stdin-paths`` for them all (their paths are the
    referee's and hold no line break: :func:`pbem.git.branch.game_tree`).
    """
    if not paths:
        return []
    listing = "".join(f"{path}\n" for path in paths).encode("utf-8")
    ids = git.run("hash-object", "-w", "--no-filters", "--stdin-paths", input=listing).lines()
    if len(ids) != len(paths):
        raise GitRepositoryError(f"`git hash-object` wrote {len(ids)} blobs for {len(paths)} files")
    return ids


def display(name: bytes, limit: int = 120) -> str:
    """A path or name a player chose, safe to print on one line: no control character, at most ``limit`` long."""
    text = name.decode("utf-8", "replace")
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= limit else text[:limit - 1] + "…"

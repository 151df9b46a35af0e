"""The git configuration file (TOML): the shared repository, the branches, the referee's key, the games.

A referee's file (``pbem git serve``)::

    remote = "git@git.example.org:friends/table.git"   # the shared repository (a URL, or a path)
    branch = "game"                   # the game branch: the referee alone writes it
    inboxes = ["refs/heads/inbox/*"]  # where players push their files (each matching ref is one inbox)
    key = "referee.key"               # the referee's private key file (mode 0600)
    state = "git-state"               # the referee's own repository, anchors and lock
    committer = "pbem referee <referee@example.org>"   # who the referee's commits say wrote them

    mail = "referee-mail.toml"        # optional: mail each player when a decision of theirs opens

    [[games]]
    dir = "games/first"               # the referee's own game directory, where no player writes
    path = "game"                     # where the game lies in the game branch

``inboxes`` are ref patterns with one ``*``: ``refs/heads/inbox/*`` (each
player pushes to ``inbox/NAME``, which the host lets only them write), or
``refs/pull/*/head`` (players open pull requests from their forks, as on
GitHub). The game branch may not be one of them. ``mail`` names a mail
configuration (docs/mail.md) whose ``address``, ``[smtp]`` and the
``players`` of each game's entry the turn notices use
(:mod:`pbem.git.notices`). Relative paths (and a
``remote`` that is a path) are relative to the configuration file's folder;
a ``remote`` with ``://`` or of the form ``host:path`` is a URL, given to git
as it is. Unknown keys are refused by name, so a typo is not silently ignored.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.config_files import ConfigReader, read_document
from pbem.git.errors import GitConfigError

DEFAULT_BRANCH = "game"
DEFAULT_INBOXES = ("refs/heads/inbox/*",)
DEFAULT_PATH = "game"
DEFAULT_COMMITTER = "pbem referee <referee@pbem.invalid>"
#: one component of a branch, a ref pattern or a path in the game branch: no dot first (no ``.git``,
#: ``..``, hidden file), nothing a shell or git would read specially
_COMPONENT = r"[A-Za-z0-9_][A-Za-z0-9._-]*"
_BRANCH = re.compile(rf"{_COMPONENT}(/{_COMPONENT})*")
_PATH = _BRANCH
_PATTERN_PART = r"[A-Za-z0-9_.*-]+"
_COMMITTER = re.compile(r"([^<>\n]+?) <([^<>\s@]+@[^<>\s@]+)>")
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://|^[^/:]+:")


@dataclass(frozen=True)
class GitGame:
    """One game the referee serves: its own game directory and where the game branch holds it."""

    dir: Path
    path: str


@dataclass(frozen=True)
class InboxPattern:
    """A ref pattern with one ``*``: every ref of the shared repository that matches it is one inbox."""

    pattern: str

    @property
    def prefix(self) -> str:
        return self.pattern.split("*")[0]

    @property
    def suffix(self) -> str:
        return self.pattern.split("*")[1]

    def name_of(self, ref: str) -> str | None:
        """What ``*`` stands for in ``ref`` (``None`` when ``ref`` does not match)."""
        if len(ref) > len(self.prefix) + len(self.suffix) and ref.startswith(self.prefix) and ref.endswith(self.suffix):
            return ref[len(self.prefix):len(ref) - len(self.suffix)]
        return None

    def ref(self, name: str) -> str:
        return f"{self.prefix}{name}{self.suffix}"


@dataclass(frozen=True)
class GitConfig:
    """A parsed git configuration file; :meth:`require` names what a command needs."""

    path: Path
    remote: str | None = None
    branch: str = DEFAULT_BRANCH
    inboxes: tuple[InboxPattern, ...] = tuple(InboxPattern(p) for p in DEFAULT_INBOXES)
    key: Path | None = None
    state: Path | None = None
    committer: tuple[str, str] = ("pbem referee", "referee@pbem.invalid")
    games: tuple[GitGame, ...] = ()
    #: a mail configuration (docs/mail.md) to mail each player their turn from (:mod:`pbem.git.notices`)
    mail: Path | None = None

    @property
    def branch_ref(self) -> str:
        return f"refs/heads/{self.branch}"

    @classmethod
    def read(cls, path: Path) -> GitConfig:
        return cls.from_doc(read_document(path, GitConfigError, "git configuration"), path)

    @classmethod
    def from_doc(cls, doc: dict[str, Any], path: Path) -> GitConfig:
        reader = _Reader(path)
        reader.keys(doc, "", {"remote", "branch", "inboxes", "key", "state", "committer", "games", "mail"})
        branch = reader.text(doc, "branch") or DEFAULT_BRANCH
        if not _BRANCH.fullmatch(branch) or branch.endswith(".lock") or ".." in branch:
            raise reader.fail("branch", f"{branch!r} is not a plain branch name (letters, digits, . _ - and /)")
        inboxes = tuple(reader.inbox(value, index) for index, value in enumerate(reader.strings(doc, "inboxes")))
        inboxes = inboxes or tuple(InboxPattern(p) for p in DEFAULT_INBOXES)
        for inbox in inboxes:
            if inbox.name_of(f"refs/heads/{branch}") is not None:
                raise reader.fail("inboxes", f"{inbox.pattern!r} matches the game branch {branch!r}: players would "
                                             "write the branch only the referee writes")
        games = tuple(reader.game(table, index) for index, table in enumerate(reader.tables(doc, "games")))
        paths = sorted(game.path for game in games)
        for first, second in itertools.pairwise(paths):
            if second == first or second.startswith(first + "/"):
                raise reader.fail("games", f"two games lie at {first!r} and {second!r} in the game branch")
        return cls(path=path, remote=reader.remote(doc), branch=branch, inboxes=inboxes, key=reader.path(doc, "key"),
                   state=reader.path(doc, "state"), committer=reader.committer(doc), games=games,
                   mail=reader.path(doc, "mail"))

    def require(self, *names: str) -> None:
        """Refuse, naming the keys, a configuration that lacks what a command needs."""
        missing = [name for name in names if not getattr(self, name)]
        if missing:
            raise GitConfigError(f"{self.path}: this command needs {', '.join(missing)} in the configuration")


class _Reader(ConfigReader):
    error = GitConfigError

    def strings(self, table: dict[str, Any], key: str) -> list[str]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(key, "expected a list of strings")
        return value

    def tables(self, table: dict[str, Any], key: str) -> list[dict[str, Any]]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(key, "expected [[games]] tables")
        return value

    def remote(self, doc: dict[str, Any]) -> str | None:
        value = self.text(doc, "remote")
        if value is None:
            return None
        if value.startswith("-"):
            raise self.fail("remote", f"{value!r} is not a repository (it would be read as an option of git)")
        if _URL.match(value):
            return value
        return str((self.base / Path(value).expanduser()).resolve())

    def inbox(self, value: str, index: int) -> InboxPattern:
        parts = value.split("/")
        if (value.count("*") != 1 or len(parts) < 3 or parts[0] != "refs" or ".." in value
                or not all(re.fullmatch(_PATTERN_PART, part) and not part.startswith(".") for part in parts)):
            raise self.fail(f"inboxes[{index}]", f"{value!r} is not a ref pattern with one '*' "
                                                 "(refs/heads/inbox/*, refs/pull/*/head)")
        return InboxPattern(value)

    def committer(self, doc: dict[str, Any]) -> tuple[str, str]:
        value = self.text(doc, "committer") or DEFAULT_COMMITTER
        found = _COMMITTER.fullmatch(value)
        if found is None:
            raise self.fail("committer", f"{value!r} is not 'Name <address>'")
        return found.group(1), found.group(2)

    def game(self, table: dict[str, Any], index: int) -> GitGame:
        where = f"games[{index}]"
        self.keys(table, where, {"dir", "path"})
        directory = self.path(table, "dir", f"{where}.")
        if directory is None:
            raise self.fail(f"{where}.dir", "missing")
        place = self.text(table, "path", f"{where}.") or DEFAULT_PATH
        if not _PATH.fullmatch(place) or ".." in place:
            raise self.fail(f"{where}.path", f"{place!r} is not a plain relative path (letters, digits, . _ - and /)")
        return GitGame(dir=directory, path=place)

"""A git host on this machine for the play-by-git tests: a bare repository whose hooks give the permissions
a host would, people with clones of it, and the referee's loop as a real process.

The host (:class:`Host`) is a bare repository ``table.git`` with a
``pre-receive`` hook that refuses, for the whole push, any ref the pusher
may not write: the referee alone writes the game branch, each player only
their own inbox (``refs/heads/inbox/NAME``, which they may create, update,
rewrite and delete). The hook knows who pushes from ``PBEM_PUSHER``, which
each person's environment sets and which a push to a local repository hands
on to the server's hooks, as a host knows the account of a push.
:meth:`Host.open_game_branch` makes the host a misconfigured one, where
anyone may push the game branch too.

Each person (:class:`Person`) has their own home, clone and pbem state; a
player's clone is fed only by ``git clone``, ``git pull`` and ``git fetch``
of the host. The referee (:class:`Referee`) keeps its game directory, key
and state directory outside any clone, and runs ``pbem git serve`` as a
process of its own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from helpers_referee import TEST_SEED, make_keys
from helpers_trust import TESTS

from pbem.crypto.keys import PrivateKey
from pbem.referee import make_move, new_game, read_view

#: the game branch of the tests' configuration
BRANCH = "game"

PRE_RECEIVE = """#!/bin/sh
# The host's permissions: the referee alone writes the game branch, each player only their own inbox.
who="$PBEM_PUSHER"
refused=0
while read old new ref; do
    case "$ref" in
        refs/heads/game)
            [ "$who" = referee ] || [ -e pbem-open-game-branch ] || {
                echo "host: $who may not write $ref" >&2; refused=1; } ;;
        refs/heads/inbox/*)
            [ -n "$who" ] && [ "$who" != referee ] && [ "$ref" = "refs/heads/inbox/$who" ] || {
                echo "host: $who may not write $ref" >&2; refused=1; } ;;
        *)
            echo "host: $who may not write $ref" >&2; refused=1 ;;
    esac
done
exit $refused
"""


def environment(home: Path, who: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of one person: their own home (no user git configuration), name, pbem state; the
    toy game on pbem's path; ``PBEM_PUSHER`` for the host's hooks."""
    home.mkdir(parents=True, exist_ok=True)
    env = {name: value for name, value in os.environ.items() if not name.startswith("GIT_")}
    env.update(HOME=str(home), GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME=who, GIT_AUTHOR_EMAIL=f"{who}@pbem.test",
               GIT_COMMITTER_NAME=who, GIT_COMMITTER_EMAIL=f"{who}@pbem.test", PBEM_PUSHER=who,
               PBEM_STATE_DIR=str(home / "pbem-state"), PBEM_GAMES="toygame",
               PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
               PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    env.update(extra or {})
    return env


def run(command: list[str], env: dict[str, str], cwd: Path, code: int | None = 0,
        input: bytes | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True,
                          input=input.decode() if input is not None else None, timeout=300)
    if code is not None:
        assert done.returncode == code, (command, done.returncode, done.stdout, done.stderr)
    return done


@dataclass
class Host:
    """The shared repository, with the permissions a host gives."""

    repo: Path

    @classmethod
    def make(cls, where: Path) -> Host:
        repo = where / "table.git"
        run(["git", "init", "-q", "--bare", "--initial-branch=main", str(repo)], environment(where / "home-host", "host"),
            where)
        hook = repo / "hooks" / "pre-receive"
        hook.write_text(PRE_RECEIVE)
        hook.chmod(0o755)
        return cls(repo)

    def open_game_branch(self) -> None:
        """Misconfigure the host: anyone may push the game branch."""
        (self.repo / "pbem-open-game-branch").touch()

    def tip(self, ref: str = f"refs/heads/{BRANCH}") -> str | None:
        done = subprocess.run(["git", "--git-dir", str(self.repo), "rev-parse", "--verify", "--quiet", ref],
                              capture_output=True, text=True)
        return done.stdout.strip() or None

    def objects(self) -> bytes:
        """Every object the host holds, uncompressed (to look for what must never reach it)."""
        listed = subprocess.run(["git", "--git-dir", str(self.repo), "cat-file", "--batch-all-objects",
                                 "--batch", "--unordered"], capture_output=True, check=True)
        return listed.stdout


@dataclass
class Person:
    """Someone with a home and a clone of the host."""

    name: str
    root: Path
    host: Host
    env: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.env = environment(self.root / f"home-{self.name}", self.name)

    @property
    def clone(self) -> Path:
        return self.root / self.name

    @property
    def game(self) -> Path:
        return self.clone / "game"

    def git(self, *args: str, code: int | None = 0, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        return run(["git", *args], self.env, cwd or self.clone, code)

    def pbem(self, *args: object, code: int | None = 0) -> subprocess.CompletedProcess[str]:
        return run([sys.executable, "-m", "pbem", *map(str, args)], self.env, self.clone, code)

    def clone_table(self) -> None:
        run(["git", "clone", "-q", "-b", BRANCH, str(self.host.repo), str(self.clone)], self.env, self.root)

    def pull(self) -> None:
        self.git("pull", "-q", "--ff-only")


@dataclass
class Referee:
    """The referee's machine: its key, its own game directory and state directory, its configuration."""

    root: Path
    host: Host
    key: Path
    env: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.env = environment(self.home / "home", "referee")

    @property
    def home(self) -> Path:
        return self.root / "referee"

    @property
    def game(self) -> Path:
        return self.home / "games" / "first"

    @property
    def state(self) -> Path:
        return self.home / "git-state"

    @property
    def config(self) -> Path:
        return self.home / "referee.toml"

    def write_config(self, extra: str = "") -> None:
        self.config.write_text(
            f'remote = "{self.host.repo}"\nbranch = "{BRANCH}"\nkey = "{self.key}"\nstate = "git-state"\n'
            f'committer = "pbem referee <referee@pbem.test>"\n{extra}\n'
            '[[games]]\ndir = "games/first"\npath = "game"\n')

    def serve(self, code: int | None = 0, *extra: str) -> subprocess.CompletedProcess[str]:
        """One run of the referee's loop, as a process of its own."""
        return run([sys.executable, "-m", "pbem", "git", "serve", "--once", "--config", str(self.config), *extra],
                   self.env, self.home, code)

    def answer(self) -> str:
        """The commit message of the referee's latest commit on the host."""
        return subprocess.run(["git", "--git-dir", str(self.host.repo), "log", "-1", "--format=%B", BRANCH],
                              capture_output=True, text=True, check=True).stdout


def push_files(person: Person, ref: str, files: dict[str, bytes | tuple[str, str]], on: str | None = None,
               force: bool = False, code: int = 0) -> subprocess.CompletedProcess[str]:
    """Push, with plain git, a commit whose tree holds ``files`` (``path -> bytes``, or ``path -> ("link",
    TARGET)`` for a symbolic link) on ``on`` (a commit the clone has, or ``None``: a first commit) to ``ref``."""
    entries = {}
    for path, content in files.items():
        if isinstance(content, tuple):
            data, mode = content[1].encode(), "120000"
        else:
            data, mode = content, "100644"
        blob = run(["git", "hash-object", "-w", "--stdin"], person.env, person.clone, input=data).stdout.strip()
        entries[path] = (mode, blob)
    tree = _tree(person, entries)
    commit = run(["git", "commit-tree", tree, *(["-p", on] if on else []), "-m", f"{person.name} pushes"],
                 person.env, person.clone).stdout.strip()
    return person.git("push", "-q", *(["-f"] if force else []), "origin", f"{commit}:{ref}", code=code)


def _tree(person: Person, entries: dict[str, tuple[str, str]]) -> str:
    """A tree of ``path -> (mode, blob)`` at any depth."""
    here: dict[str, tuple[str, str]] = {}
    below: dict[str, dict[str, tuple[str, str]]] = {}
    for path, entry in entries.items():
        first, _, rest = path.partition("/")
        if rest:
            below.setdefault(first, {})[rest] = entry
        else:
            here[first] = entry
    lines = [f"{mode} blob {blob}\t{name}" for name, (mode, blob) in here.items()]
    lines += [f"040000 tree {_tree(person, inner)}\t{name}" for name, inner in below.items()]
    return run(["git", "mktree", "-z"], person.env, person.clone, input="".join(f"{line}\0" for line in lines).encode()).stdout.strip()


def branch_files(host: Host, ref: str = f"refs/heads/{BRANCH}") -> dict[str, tuple[str, bytes]]:
    """Every entry of ``ref``'s tree on the host: ``path -> (mode, bytes)``."""
    listing = subprocess.run(["git", "--git-dir", str(host.repo), "ls-tree", "-r", "-z", ref], capture_output=True,
                             check=True).stdout
    found = {}
    for record in filter(None, listing.split(b"\0")):
        meta, _, path = record.partition(b"\t")
        mode, _kind, blob = meta.decode().split()
        data = subprocess.run(["git", "--git-dir", str(host.repo), "cat-file", "blob", blob], capture_output=True,
                              check=True).stdout
        found[path.decode()] = (mode, data)
    return found


# --- the table: a game played through the host ----------------------------------------------


@dataclass
class GitTable:
    """A High Card game played through a git host: the host, the referee, alice and bob (cloned)."""

    host: Host
    referee: Referee
    players: dict[str, Person]
    keys: dict[str, PrivateKey]
    key_files: dict[str, Path]

    @property
    def alice(self) -> Person:
        return self.players["alice"]

    @property
    def bob(self) -> Person:
        return self.players["bob"]


def set_table(tmp_path: Path, seed: bytes | None = TEST_SEED, **setup: object) -> GitTable:
    """The game set up by the referee in its own directory, published by a first run of its loop, and
    cloned by both players."""
    if shutil.which("git") is None:
        pytest.fail("the play-by-git tests need git (.ci/run installs it)")
    keys, files = make_keys(tmp_path / "keys", ["referee", "alice", "bob"])
    host = Host.make(tmp_path)
    referee = Referee(tmp_path, host, files["referee"])
    new_game(referee.game, "highcard", [(p, keys[p].public) for p in ("alice", "bob")], keys["referee"], seed=seed,
             **setup)  # type: ignore[arg-type]
    referee.write_config()
    referee.serve()
    players = {name: Person(name, tmp_path, host) for name in ("alice", "bob")}
    for person in players.values():
        person.clone_table()
    return GitTable(host, referee, players, keys, files)



def move(table: GitTable, person: Person, *choices: str) -> bytes:
    """A move of ``person`` answering the latest turn of their clone (``pbem move`` in the library)."""
    key = table.keys[person.name]
    return make_move(read_view(person.game, person.name, key), key, list(choices))


def send(table: GitTable, person: Person, data: bytes, name: str = "move.json",
         extra: dict[str, bytes | tuple[str, str]] | None = None) -> None:
    """Push ``data`` as ``name`` (and the ``extra`` files) to the person's inbox, with plain git, on its current tip."""
    ref = f"refs/heads/inbox/{person.name}"
    person.git("fetch", "-q", "origin", f"+{ref}:refs/remotes/origin/inbox-{person.name}", code=None)
    tip = person.git("rev-parse", "--verify", "--quiet", f"refs/remotes/origin/inbox-{person.name}", code=None)
    push_files(person, ref, {name: data, **(extra or {})}, on=tip.stdout.strip() or None)


def first_choice(table: GitTable, person: Person) -> str:
    view = read_view(person.game, person.name, table.keys[person.name])
    assert view.decision is not None, f"{person.name} is not awaited"
    return view.decision.options[0].id

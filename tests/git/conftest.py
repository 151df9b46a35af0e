"""The play-by-git tests' table: a host with its permissions, the referee's machine, and two players."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers_git import Host, Person, Referee
from helpers_referee import TEST_SEED, make_keys

from pbem.crypto.keys import PrivateKey
from pbem.referee import new_game


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


@pytest.fixture
def table(tmp_path: Path) -> GitTable:
    return set_table(tmp_path)

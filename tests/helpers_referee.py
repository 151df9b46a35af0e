"""Helpers for the referee and CLI tests: keys, games, snapshots, schema walks."""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import toygame

from pbem.crypto import age
from pbem.crypto.canonical import parse_json_strict
from pbem.crypto.keys import PrivateKey, generate, load_private_key, write_keypair
from pbem.crypto.seal import open_sealed
from pbem.engine import register
from pbem.referee import formats, make_move, new_game, read_view, sealing
from pbem.referee.layout import GameDir

register(toygame.GAME)

TEST_SEED = bytes.fromhex("00112233445566778899aabbccddeeff" "ffeeddccbbaa99887766554433221100")


@dataclass
class Table:
    """A toy game in progress: its directory and everybody's keys."""

    dir: Path
    keys: dict[str, PrivateKey]
    key_files: dict[str, Path]

    @property
    def referee(self) -> PrivateKey:
        return self.keys["referee"]

    def move(self, player: str, *choices: str, orders: dict[str, Any] | None = None) -> bytes:
        view = read_view(self.dir, player, self.keys[player])
        return make_move(view, self.keys[player], list(choices), standing_orders=orders)

    def view(self, player: str):
        return read_view(self.dir, player, self.keys[player])


def make_keys(where: Path, names: list[str]) -> tuple[dict[str, PrivateKey], dict[str, Path]]:
    where.mkdir(parents=True, exist_ok=True)
    keys, files = {}, {}
    for name in names:
        key_path, _ = write_keypair(generate(name), where)
        keys[name] = load_private_key(key_path, name=name)
        files[name] = key_path
    return keys, files


def make_table(tmp: Path, players: tuple[str, ...] = ("alice", "bob"), seed: bytes | None = TEST_SEED,
               scenario: str | None = None, keys=None, game_name: str = "highcard", **setup: Any) -> Table:
    """A toy game (``game_name``: High Card or a registered variant of it) in ``tmp/game``; ``setup`` goes to
    :func:`new_game` (``deadlines``, ``remind``, ``now``...)."""
    if keys is None:
        keys, files = make_keys(tmp / "keys", ["referee", *players])
    else:
        keys, files = keys
    game = tmp / "game"
    new_game(game, game_name, [(p, keys[p].public) for p in players], keys["referee"], scenario=scenario, seed=seed,
             **setup)
    return Table(dir=game, keys=keys, key_files=files)


def snapshot(directory: Path, skip: tuple[str, ...] = ("rejected",)) -> dict[str, bytes]:
    """Every file's bytes, except under the top-level folders in ``skip`` (and the lock)."""
    found = {}
    for path in sorted(directory.rglob("*")):
        rel = path.relative_to(directory)
        if path.is_file() and rel.parts[0] not in skip and rel.name != ".lock":
            found[str(rel)] = path.read_bytes()
    return found


def validate_directory(directory: Path, keys: dict[str, PrivateKey] | None = None) -> int:
    """Validate every file of a game directory against its schema; return how many were checked.

    With ``keys``, also open and validate every sealed section: each player's
    with their key, the referee's and every move's sealed choices with the
    game identity (derived from the published test seed).
    """
    gamedir = GameDir.at(directory)
    checked = 0
    doc = tomllib.loads(gamedir.game_toml.read_text())
    assert formats.format_problem(doc, formats.GAME) is None, formats.format_problem(doc, formats.GAME)
    checked += 1
    seed = bytes.fromhex(doc["rng"]["seed"]) if "seed" in doc["rng"] else None
    expected = {"turns": formats.TURN, "moves": formats.MOVE, "rejected": formats.REJECTION,
                "joins": formats.JOIN, "pending.json": formats.PENDING, "reveal.json": formats.REVEAL,
                "timeouts": formats.TIMEOUT, "seats": formats.SEAT}
    for path in sorted(directory.rglob("*.json")):
        rel = path.relative_to(directory)
        fmt = formats.VIEW if rel.parts[0] == "views" else expected[rel.parts[0]]
        data = parse_json_strict(path.read_bytes(), max_bytes=64 << 20)
        problem = formats.format_problem(data, fmt)
        assert problem is None, f"{rel}: {problem}"
        checked += 1
        if keys is None:
            continue
        if fmt == formats.TURN:
            for section, text in data["sealed"].items():
                if section == "referee":
                    opened = sealing.open_with_key(text, keys["referee"], str(rel), compressed=True)
                    assert formats.format_problem(opened, formats.REFEREE) is None
                    if seed is not None:
                        assert sealing.open_with_seed(text, seed, compressed=True) == opened
                else:
                    opened = open_sealed(text, keys[section])
                    problem = formats.format_problem(opened, formats.PLAYER_VIEW)
                    assert problem is None, problem
                checked += 1
        if fmt == formats.MOVE and seed is not None:
            payload = sealing.open_with_seed(data["sealed_choices"], seed)
            assert formats.format_problem(payload, formats.CHOICES) is None
            checked += 1
    for path in sorted(gamedir.views.rglob("latest.age")):
        assert path.read_bytes().startswith(b"-----BEGIN AGE ENCRYPTED FILE-----")
        if keys is not None:
            player = path.parent.name
            plaintext = age.decrypt(path.read_bytes(), [keys[player]])
            assert json.loads(plaintext)["format"] == formats.PLAYER_VIEW
        checked += 1
    return checked


def holds_open(pid: int, path: Path) -> bool:
    """Whether process ``pid`` has ``path`` open (Linux /proc): a referee waiting on the lock."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except FileNotFoundError:
        return False
    for fd in fds:
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == str(path):
                return True
        except OSError:
            continue
    return False

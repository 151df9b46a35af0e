"""A command imports what it uses, which is most of what it costs.

``pbem status`` and ``view`` read a game whose current turn the referee
signed: they import neither the JSON Schema library (the turn's signature
vouches for the turn, its sections and, by its hash, for ``game.toml``) nor
the modules of commands they do not run (``verify``, ``demo``, ``mail``), nor pydantic.
``move`` checks the move it writes, and ``submit`` the move it was sent,
against their schemas, without the JSON Schema library too when the move is
valid (:mod:`pbem.schema_subset`); only a refusal's message needs it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers_referee import TEST_SEED, Table, make_keys, make_table

from pbem.engine.registry import GAMES, SCREENS, find_game, find_screen, game_names
from pbem.referee import new_game, status

TESTS = Path(__file__).resolve().parents[1]
#: runs pbem with the arguments given, then prints the modules it imported, and as ``dataclass:MODULE.NAME``
#: every dataclass that a module of pbem's defines among them: from an exit handler, since pbem ends the
#: process once its exit handlers have run (:func:`pbem.__main__._exit_now`)
RUNNER = (
    "import atexit, runpy, sys\n"
    "def report():\n"
    "    print('\\n'.join(sorted(sys.modules)), file=sys.stderr)\n"
    "    for name, module in sorted(sys.modules.items()):\n"
    "        if name.startswith('pbem'):\n"
    "            for value in list(vars(module).values()):\n"
    "                if (isinstance(value, type) and value.__module__ == name\n"
    "                        and '__dataclass_fields__' in vars(value)):\n"
    "                    print(f'dataclass:{name}.{value.__qualname__}', file=sys.stderr)\n"
    "atexit.register(report)\n"
    "sys.argv = ['pbem', *sys.argv[1:]]\n"
    "runpy.run_module('pbem', run_name='__main__')\n"
)
#: modules of other commands, and the schema library; pydantic, which typer converts values with, is
#: never needed for pbem's plain values (pbem.cli.values); nor secrets, with random, for a temporary
#: file's name (os.urandom gives it)
NOT_NEEDED = ("jsonschema", "referencing", "pbem.referee.verify", "pbem.referee.replay", "pbem.referee.demo",
              "pbem.mail.serve", "pbem.mail.config", "pbem.bots.random_bot", "pbem.cli.mail", "pydantic", "secrets")
#: Python's hashes and HMAC: ``hashlib`` loads ``_hashlib``, a second copy of OpenSSL's libcrypto beside the one
#: cryptography's bindings carry, which every command loads anyway (:mod:`pbem.digests`)
HASHLIB = ("hashlib", "hmac", "_hashlib")


def run(tmp_path: Path, *args: object, games: str = "toygame") -> subprocess.CompletedProcess[str]:
    """pbem run with ``args``: what it printed, and the modules it imported last on its standard error."""
    env = {**os.environ, "PBEM_GAMES": games,
           "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", RUNNER, *map(str, args)], env=env, cwd=tmp_path,
                          capture_output=True, text=True)


def imported(tmp_path: Path, *args: object, games: str = "toygame") -> set[str]:
    return set(run(tmp_path, *args, games=games).stderr.split())


@pytest.mark.parametrize("command", ["status", "view"])
def test_reading_commands_import_no_schema_library_and_no_other_command(tmp_path: Path, command: str) -> None:
    table = make_table(tmp_path)
    args = {"status": ["status", table.dir],
            "view": ["view", table.dir, "--as", "alice", "--key", table.key_files["alice"],
                     "--state-dir", tmp_path / "state"]}[command]
    modules = imported(tmp_path, *args)
    assert "pbem.referee.records" in modules  # it did read the game
    assert not [name for name in NOT_NEEDED if name in modules]


def test_status_imports_neither_the_game_protocol_nor_ciphers_nor_openssls_backend(tmp_path: Path) -> None:
    """``pbem status`` reads no rules and opens nothing sealed: not even the game protocol's classes are
    needed, nor cryptography's ciphers; the keys of ``game.toml`` are checked for small order without an
    X25519 exchange, whose first use loads cryptography's OpenSSL backend (a game of the plug-in toy
    game, which the status does not need either)."""
    table = make_table(tmp_path)
    modules = imported(tmp_path, "status", table.dir, games="")
    assert "pbem.referee.records" in modules  # it did read the game
    assert not [name for name in (*NOT_NEEDED, "pbem.engine.protocol", "cryptography.hazmat.backends.openssl",
                                  "cryptography.hazmat.primitives.ciphers") if name in modules]


@pytest.mark.parametrize("command", ["move", "submit"])
def test_move_and_submit_of_a_valid_move_import_no_schema_library_and_no_other_command(tmp_path: Path, command: str) -> None:
    table = make_table(tmp_path)
    (tmp_path / "move.json").write_bytes(table.move("alice", table.view("alice").decision.options[0].id))
    args = {"move": ["move", table.dir, "--as", "alice", "--key", table.key_files["alice"], "--choose", "1",
                     "--out", tmp_path / "again.json"],
            "submit": ["submit", table.dir, tmp_path / "move.json", "--referee-key", table.key_files["referee"]]}
    modules = imported(tmp_path, *args[command])
    assert "pbem.referee.records" in modules and "pbem.schema_subset" in modules
    assert not [name for name in NOT_NEEDED if name in modules]


@pytest.mark.parametrize("command", ["view", "move", "submit"])
def test_commands_that_open_or_seal_do_not_load_openssls_backend_module(tmp_path: Path, command: str) -> None:
    """X25519 keys are built on cryptography's bindings, not through the classmethods that import its whole
    OpenSSL backend module (its ciphers, EC and DH modules) only to ask whether FIPS mode forbids X25519:
    that import was the largest single piece of these commands' own start-up. The FIPS question is still
    asked (``pbem.crypto.x25519``)."""
    table = make_table(tmp_path)
    (tmp_path / "move.json").write_bytes(table.move("alice", table.view("alice").decision.options[0].id))
    args = {"view": ["view", table.dir, "--as", "alice", "--key", table.key_files["alice"],
                     "--state-dir", tmp_path / "state"],
            "move": ["move", table.dir, "--as", "alice", "--key", table.key_files["alice"], "--choose", "1",
                     "--out", tmp_path / "again.json"],
            "submit": ["submit", table.dir, tmp_path / "move.json", "--referee-key", table.key_files["referee"]]}
    modules = imported(tmp_path, *args[command])
    assert "pbem.referee.records" in modules  # it did read the game
    assert "cryptography.hazmat.backends.openssl.backend" not in modules
    assert "cryptography.hazmat.primitives.ciphers" not in modules  # ChaCha20-Poly1305 from the bindings


def rules_modules(game: str) -> set[str]:
    """The modules of a game with a screen module that its rules import beyond the screen's, and the turn
    machine: what reading a view, or a card, needs none of (the typed state, the effects, the phases)."""
    probe = ("import importlib, sys\n"
             f"importlib.import_module({SCREENS[game]!r})\n"
             "before = set(sys.modules)\n"
             f"importlib.import_module({GAMES[game]!r}).GAME\n"
             "print('\\n'.join(sorted(set(sys.modules) - before)))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return {name for name in done.stdout.split()
            if name.startswith(f"{GAMES[game]}.") or name in ("pbem.engine.machine", "pbem.engine.kit")}


def a_card(game: str) -> str:
    """The printed name of a card of the game's standard card data."""
    screen = find_screen(game)
    cards = screen.cards(screen.load_scenario(screen.scenarios()[0]))
    return str(next(iter(cards.values()))["name"])


@pytest.mark.parametrize("game", sorted(SCREENS))
@pytest.mark.parametrize("command", ["view", "card"])
def test_view_and_card_of_a_game_with_a_screen_module_import_none_of_its_rules(tmp_path: Path, game: str,
                                                                                command: str) -> None:
    """``pbem view`` (with ``--cards``) and ``pbem card --dir`` draw a real game's screen from its screen module
    (the scenario's card data as set up, its options, the rendering), not from the rules: the turn machine,
    the state and the effects are the referee's to run, not the reader's to import."""
    from pbem.crypto.keys import generate, write_keypair
    from pbem.referee import new_game

    keys = {name: generate(name) for name in ("referee", "ann", "bob")}
    files = {name: write_keypair(key, tmp_path / "keys")[0] for name, key in keys.items()}
    directory = tmp_path / "game"
    new_game(directory, game, [(p, keys[p].public) for p in ("ann", "bob")], keys["referee"], seed=bytes(32))
    args = {"view": ["view", directory, "--as", "ann", "--key", files["ann"], "--cards",
                     "--state-dir", tmp_path / "state"],
            "card": ["card", a_card(game).lower(), "--dir", directory]}[command]
    done = run(tmp_path, *args, games="")
    assert done.returncode == 0, done.stderr[-2000:]
    assert ("Cards on this screen:" if command == "view" else a_card(game)) in done.stdout  # it drew the screen
    modules = set(done.stderr.split())
    rules = rules_modules(game)
    assert "pbem.engine.machine" in rules  # the rules are on the turn machine, which the screen does not need
    assert not [name for name in (*rules, *HASHLIB) if name in modules]


#: what one referee step on a move of a dealt game without deadlines does not use: the joins (before the
#: deal only), the deadlines (a game with deadlines only), pickle (the static members are copied with
#: marshal), the player's side (the members that bind sealed choices to their move are in formats)
NOT_IN_A_STEP = ("pbem.referee.joins", "pbem.referee.deadlines", "pickle", "pbem.referee.player")


@pytest.mark.parametrize("game", game_names())
def test_submit_of_a_move_imports_no_joins_no_deadlines_nor_pickle_and_builds_no_dataclass(tmp_path: Path,
                                                                                            game: str) -> None:
    """``pbem submit`` of an ordinary move (the game dealt, without deadlines) imports what its step uses
    only: not the joins, the deadlines, pickle, nor the player's side; and none of pbem's classes on its path is a dataclass,
    each of which Python 3.11 builds by compiling its methods, about a millisecond each."""
    seated = ["alice", "bob", "cyd", "dee"][:min(4, find_game(game).max_players)]
    keys, files = make_keys(tmp_path / "keys", ["referee", *seated])
    new_game(tmp_path / "game", game, [(p, keys[p].public) for p in seated], keys["referee"], seed=TEST_SEED)
    table = Table(dir=tmp_path / "game", keys=keys, key_files=files)
    player = status(table.dir).awaiting[0]["player"]
    (tmp_path / "move.json").write_bytes(table.move(player, table.view(player).decision.options[0].id))
    modules = imported(tmp_path, "submit", table.dir, tmp_path / "move.json", "--referee-key", files["referee"],
                       games="" if game in GAMES else type(find_game(game)).__module__.partition(".")[0])
    assert status(table.dir).turn == 1  # it made the step
    assert not [name for name in (*NOT_NEEDED, *NOT_IN_A_STEP, *HASHLIB) if name in modules]
    assert not [name for name in modules if name.startswith("dataclass:")]


@pytest.mark.parametrize("command", ["status", "view", "move", "submit"])
def test_commands_that_read_a_game_import_no_hashlib_nor_hmac(tmp_path: Path, command: str) -> None:
    """``pbem status``, ``view``, ``move`` and ``submit`` hash and authenticate with cryptography's primitives
    (:mod:`pbem.digests`), not with ``hashlib`` and ``hmac``, whose ``_hashlib`` loads a second copy of
    OpenSSL's libcrypto: about 3 ms of each command's start-up that the import floor does not pay."""
    table = make_table(tmp_path)
    (tmp_path / "move.json").write_bytes(table.move("alice", table.view("alice").decision.options[0].id))
    args = {"status": ["status", table.dir],
            "view": ["view", table.dir, "--as", "alice", "--key", table.key_files["alice"],
                     "--state-dir", tmp_path / "state"],
            "move": ["move", table.dir, "--as", "alice", "--key", table.key_files["alice"], "--choose", "1",
                     "--out", tmp_path / "again.json"],
            "submit": ["submit", table.dir, tmp_path / "move.json", "--referee-key", table.key_files["referee"]]}
    done = run(tmp_path, *args[command])
    assert done.returncode == 0, done.stderr[-2000:]
    modules = set(done.stderr.split())
    assert "pbem.referee.records" in modules  # it did read the game
    assert not [name for name in HASHLIB if name in modules]
    if command == "submit":
        assert status(table.dir).turn == 1  # it made the step

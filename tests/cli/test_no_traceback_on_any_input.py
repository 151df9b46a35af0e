"""No traceback on any input to any command: a clear message and a documented exit code, nothing changed.

Every command of ``pbem`` (and of ``pbem mail``) is run with arguments drawn from pools of values for
each of its parameters, hostile ones among them: files that are empty, binary, nested beyond any reader,
of another format, directories where a file is asked for and files where a directory is, keys of the
wrong kind or mode, configurations that are not TOML, names and addresses of any characters (bytes a
terminal decodes as lone surrogates too), numbers, times and durations past the calendar. Around them, a
world of real inputs: a toy game in progress, one waiting for its joins and one finished, keys, a mail
configuration, move files, a hostile mail.

For each run: the command ended with an exit code of the documented table, printed no traceback, did not
end on :class:`~pbem.referee.errors.InternalError` (the command line's last line of defence: an input
pbem does not check), and, unless it succeeded, changed no file (the rejection notices a refusal writes
and the mail loop's own record aside).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from helpers_referee import make_table, snapshot
from helpers_trust import finished_table, joining_table, play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pbem.cli.exits import EXIT_CODES
from pbem.cli.main import app
from pbem.mail.compose import message_bytes
from pbem.mail.player import file_mail
from pbem.referee import status
from pbem.referee.errors import InternalError

runner = CliRunner()
#: a byte a terminal's command line cannot decode: Python gives it as a lone surrogate
UNDECODABLE = b"\xff".decode("utf-8", "surrogateescape")


def write(path: Path, data: bytes | str, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    path.chmod(mode)


def build_world(root: Path) -> None:
    """The inputs every run starts from (copied for each run): games, keys, files, configurations."""
    table = make_table(root / "play")
    play(table, steps=3)
    shutil.move(str(root / "play" / "game"), root / "game")
    shutil.move(str(root / "play" / "keys"), root / "keys")
    joining = joining_table(root / "join")
    shutil.move(str(joining.dir), root / "joining")
    over = finished_table(root / "over")
    shutil.move(str(over.dir), root / "over-game")
    for folder in ("play", "join", "over"):
        shutil.rmtree(root / folder, ignore_errors=True)
    from helpers_referee import Table

    from pbem.crypto.keys import load_private_key

    keys = {name: load_private_key(root / "keys" / f"{name}.key", name=name) for name in ("referee", "alice", "bob")}
    live = Table(dir=root / "game", keys=keys, key_files={})
    awaited = [a["player"] for a in status(live.dir).awaiting]
    for player in ("alice", "bob"):  # the awaited player's move answers the turn; the other's is refused
        other = "alice" if player == "bob" else "bob"
        write(root / f"move-{player}.json", live.move(player if player in awaited else other, "1"))
    files = root / "files"
    write(files / "empty.json", b"")
    write(files / "junk.bin", bytes(range(256)) * 8)
    write(files / "deep.json", b'{"a":' + b"[" * 100_000)
    write(files / "duplicate.json", b'{"format": "pbem-move/1", "format": "pbem-move/1"}')
    write(files / "other.json", b'{"format": "pbem-move/9", "game_id": "0123456789abcdef"}')
    write(files / "float.json", b'{"format": "pbem-move/1", "turn": 1e400}')
    write(files / "big-int.json", b'{"format": "pbem-move/1", "turn": ' + b"9" * 5000 + b"}")
    write(files / "surrogate.json", b'{"format": "pbem-move/1", "player": "\\ud800"}')
    write(files / "garbage.toml", b"[[[not toml")
    write(files / "deep.toml", b"a = " + b"[" * 5000)
    write(files / "cards.toml", b"cards = [1, 2, 'x']")
    write(files / "unknown-keys.toml", b'address = "a@b.test"\nnope = 1\n')
    write(files / "not-a-key.key", b"-----BEGIN PBEM KEY-----\nAAAA\n", 0o600)
    write(files / "open.key", (root / "keys" / "alice.key").read_bytes(), 0o644)  # readable by others
    write(files / "turn.json", (root / "game" / "turns" / "000000.json").read_bytes())
    write(files / "game.toml", (root / "game" / "game.toml").read_bytes())
    write(files / "long-line.eml", b"From: a@b.test\r\nSubject: x\r\n\r\n" + b"y" * 200_000)
    deep = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n' for i in range(3000))
    write(files / "deep.eml", ("From: a@b.test\r\nMIME-Version: 1.0\r\n" + deep).encode())
    write(files / "lone-bracket.eml", b"From: a@b.test\r\nMessage-ID: <\r\nSubject: x\r\n\r\nhi\r\n")
    mailed = file_mail((root / "move-alice.json").read_bytes(), "move.json", "referee@pbem.test", "alice@pbem.test")
    write(files / "move.eml", message_bytes(mailed))
    (files / "a-folder").mkdir()
    (files / "game-like").mkdir()
    write(files / "game-like" / "game.toml", b'format = "pbem-game/1"\n')
    os.symlink("loop", files / "loop")
    maildir = root / "Maildir"
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True)
    write(maildir / "new" / "1.hostile", (files / "deep.eml").read_bytes())
    write(maildir / "new" / "2.hostile", (files / "lone-bracket.eml").read_bytes())
    write(root / "smtp-password", b"secret\n", 0o600)
    write(root / "referee.toml", '''address = "referee@pbem.test"
key = "keys/referee.key"
state = "mail-state"
[mailbox]
kind = "maildir"
path = "Maildir"
[smtp]
host = "127.0.0.1"
port = 9
security = "none"
user = "referee"
password_file = "smtp-password"
[[games]]
dir = "game"
players = { alice = "alice@pbem.test", bob = "bob@pbem.test" }
''')
    write(root / "player.toml", '''address = "alice@pbem.test"
referee = "referee@pbem.test"
[smtp]
host = "127.0.0.1"
port = 9
security = "none"
''')


DIRS = ["game", "joining", "over-game", "files/a-folder", "files/game-like", "nowhere", "files/junk.bin", "files/loop",
        "", "-", f"game{UNDECODABLE}", "new-game"]
KEYS = ["keys/referee.key", "keys/alice.key", "keys/bob.key", "keys/alice.pub", "files/not-a-key.key",
        "files/open.key", "files/empty.json", "files/a-folder", "nowhere.key", f"{UNDECODABLE}.key"]
PUBLIC_KEYS = ["keys/alice.pub", "keys/bob.pub", "keys/referee.pub", "keys/alice.key", "files/junk.bin", "nowhere.pub"]
FILES = ["move-alice.json", "move-bob.json", "files/empty.json", "files/junk.bin", "files/deep.json",
         "files/duplicate.json", "files/other.json", "files/float.json", "files/big-int.json", "files/surrogate.json",
         "files/turn.json", "files/game.toml", "files/garbage.toml", "files/deep.eml", "files/long-line.eml",
         "files/lone-bracket.eml", "files/move.eml", "files/a-folder", "files/loop", "nowhere.json"]
CONFIGS = ["referee.toml", "player.toml", "files/garbage.toml", "files/deep.toml", "files/unknown-keys.toml",
           "files/a-folder", "nowhere.toml", "files/junk.bin"]
NAMES = ["alice", "bob", "carol", "referee", "", "-", "a" * 300, UNDECODABLE, "Alice", "\x1b[2J", "../alice"]
TIMES = ["2025-03-01T12:00:00Z", "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "2025-13-01T00:00:00Z", "x",
         "2025-03-01T12:00:00", "2025-03-01T12:00:00+25:00", ""]
DURATIONS = ["48h", "9999999d", "3650d", "0s", "play=1h", "draw=off", "nope=1h", "h", "", "1.5h", "-1h"]
INTS = ["0", "1", "2", "-1", "999999999999", "x", "1e3", "", UNDECODABLE]
FLOATS = ["0", "0.5", "-1", "nan", "inf", "1e309", "x", ""]
ADDRESSES = ["referee@pbem.test", "alice@pbem.test", "not an address", "", "a@b@c", f"{UNDECODABLE}@x.test",
             "a" * 500 + "@x.test"]

#: the values of each parameter, by its name; a parameter not named here takes STRINGS
POOLS: dict[str, list[str]] = {
    "directory": DIRS, "into": DIRS, "out": [*DIRS, "out/new.json", "files/junk.bin"], "state_dir": DIRS,
    "key": [*KEYS, *PUBLIC_KEYS], "referee_key": KEYS, "cards": ["files/cards.toml", "files/garbage.toml", "nowhere"],
    "config": CONFIGS, "move_files": FILES, "files": FILES,
    "player": NAMES + ["alice=keys/alice.pub", "bob=keys/bob.pub", "carol=keys/junk", "=", "alice=",
                       "referee=keys/referee.pub", "alice=files/junk.bin"],
    "seat": NAMES, "game": ["highcard", "nightfall", "nope", "", UNDECODABLE],
    "scenario": ["standard", "long", "nope", ""], "seed": ["ab" * 32, "zz" * 32, "", "ab" * 31],
    "option": ["rounds=2", "rounds=-1", "rounds=x", "nope=1", "=", "rounds"],
    "deadline": DURATIONS, "remind": DURATIONS, "now": TIMES, "turn": INTS, "players": INTS,
    "wait": FLOATS, "choose": ["1", "2", "99", "-1", "", "pass", "draw", "card-1"],
    "auto_pass": ["play=always", "draw=off", "x=y", "=", "play", "play=sometimes"],
    "mail": ADDRESSES, "sender": ADDRESSES, "to": ADDRESSES, "address": ADDRESSES,
    "name": NAMES + ["High", "x" * 2000, "1"],
}
STRINGS = NAMES
#: the pools of one command's parameters where they differ: ``demo`` given what it can use plays a whole
#: game, which is no hostile input (and takes a while): a seat count it cannot use, always
COMMAND_POOLS: dict[tuple[str, ...], dict[str, list[str]]] = {
    ("demo",): {"game": ["highcard", "nope", "", UNDECODABLE], "players": ["0", "9", "-1", "x", ""]},
}
#: always given, although optional
ALWAYS: dict[tuple[str, ...], set[str]] = {("demo",): {"game", "players"}}
#: never given: ``--poll`` runs until it is stopped
NEVER: dict[tuple[str, ...], set[str]] = {("mail", "serve"): {"poll"}, ("git", "serve"): {"poll"}}


def commands() -> list[tuple[str, ...]]:
    import typer.main
    from typer._click import Context

    group = typer.main.get_command(app)
    ctx = Context(group)
    found: list[tuple[str, ...]] = []
    for name in group.list_commands(ctx):  # type: ignore[attr-defined]
        command = group.get_command(ctx, name)  # type: ignore[attr-defined]
        if hasattr(command, "list_commands"):
            found += [(name, sub) for sub in command.list_commands(ctx)]
        else:
            found.append((name,))
    return found


def command_of(path: tuple[str, ...]) -> Any:
    import typer.main
    from typer._click import Context

    command: Any = typer.main.get_command(app)
    for name in path:
        command = command.get_command(Context(command), name)
    return command


@st.composite
def arguments(draw: st.DrawFn, path: tuple[str, ...]) -> list[str]:
    """A command line for ``path``: each required parameter, and some of the others, from their pools."""
    command = command_of(path)
    positional: list[str] = []
    options: list[str] = []
    for param in command.params:
        if param.name in NEVER.get(path, set()) or param.name == "help":
            continue
        if not param.required and param.name not in ALWAYS.get(path, set()) and not draw(st.booleans()):
            continue
        flag = getattr(param, "is_flag", False)
        if flag:
            options.append(param.opts[0])
            continue
        pool = COMMAND_POOLS.get(path, {}).get(param.name) or POOLS.get(param.name, STRINGS)
        many = getattr(param, "multiple", False) or param.nargs == -1
        values = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3)) if many else [draw(st.sampled_from(pool))]
        if param.param_type_name == "argument":
            positional += values
        else:
            for value in values:
                options += [param.opts[0], value]
    return [*path, *positional, *options]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("world")
    build_world(root)
    return root


@contextmanager
def fresh_copy(world: Path) -> Iterator[Path]:
    """A copy of the world, as the working directory (a command's default output lands in it)."""
    with tempfile.TemporaryDirectory(prefix="pbem-fuzz-") as scratch:
        copy = Path(scratch) / "w"
        shutil.copytree(world, copy, symlinks=True)
        here = os.getcwd()
        os.chdir(copy)
        try:
            yield copy
        finally:
            os.chdir(here)


def files_of(root: Path) -> dict[str, bytes]:
    """Every file but the rejection notices a refusal writes, the locks, and the mail loop's own record."""
    found = snapshot(root, skip=("mail-state",))
    return {name: data for name, data in found.items() if "/rejected/" not in f"/{name}" and not name.endswith(".lock")}


def check(args: list[str], world: Path) -> None:
    with fresh_copy(world) as copy:
        before = files_of(copy)
        result = runner.invoke(app, args, env={"PBEM_NOW": "2025-03-01T12:00:00Z"})
        after = files_of(copy)
    shown = f"pbem {' '.join(map(repr, args))}: exit {result.exit_code}\n{result.output}"
    assert result.exception is None or isinstance(result.exception, SystemExit), (shown, result.exception)
    assert result.exit_code in EXIT_CODES, shown
    assert "Traceback" not in result.output, shown
    assert result.exit_code != InternalError.exit_code, shown
    if result.exit_code != 0:
        assert after == before, (shown, sorted(set(after) ^ set(before))
                                 or [k for k in after if after[k] != before.get(k)])


@pytest.mark.parametrize("path", commands(), ids=" ".join)
@settings(max_examples=10, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_every_command_given_hostile_input_exits_with_a_documented_code_no_traceback_and_changes_nothing(
        path: tuple[str, ...], data: st.DataObject, world: Path) -> None:
    check(data.draw(arguments(path)), world)


# --- a player's commands on files the referee signed, whatever they hold ---------------------------------

#: the values a member of a signed document is given: of every JSON type, and strings of other members' forms
ODD_VALUES: list[Any] = [None, 0, -1, 2**53 - 1, -(2**53 - 1), True, "", "x", "alice", "referee", "sha256:" + "0" * 64,
                         [], [1], ["alice"], {}, {"player": "alice"}, {"alice": 1}, "\u202e\x1b[2J", "a" * 5000]


def members(doc: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every member's path in ``doc`` (keys of objects, indexes of arrays)."""
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield (*path, key)
            yield from members(value, (*path, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            yield (*path, index)
            yield from members(value, (*path, index))


@st.composite
def changed(draw: st.DrawFn, doc: dict[str, Any], skip: tuple[str, ...]) -> dict[str, Any]:
    """``doc`` with one member removed or given another value (a member added, now and then)."""
    import copy

    doc = copy.deepcopy(doc)
    paths = [p for p in members(doc) if p[0] not in skip]
    path = draw(st.sampled_from(paths))
    parent: Any = doc
    for step in path[:-1]:
        parent = parent[step]
    how = draw(st.sampled_from(["remove", "replace", "replace", "add"]))
    if how == "remove" and isinstance(parent, dict):
        del parent[path[-1]]
    elif how == "add" and isinstance(parent, dict):
        parent[draw(st.sampled_from(["extra", "alice", "referee", "carol"]))] = draw(st.sampled_from(ODD_VALUES))
    else:
        parent[path[-1]] = draw(st.sampled_from(ODD_VALUES))
    return doc


PLAYER_COMMANDS: list[list[str]] = [
    ["view", "game", "--as", "alice", "--key", "keys/alice.key"],
    ["view", "game", "--as", "alice", "--key", "keys/alice.key", "--json"],
    ["view", "game", "--as", "alice", "--key", "keys/alice.key", "--cards"],
    ["move", "game", "--as", "alice", "--key", "keys/alice.key", "--choose", "1"],
    ["move", "game", "--as", "bob", "--key", "keys/bob.key", "--choose", "1", "--auto-pass", "draw=always"],
    ["status", "game"], ["status", "game", "--json"], ["log", "game"], ["verify", "game"], ["verify", "game", "--json"],
    ["card", "1", "--dir", "game"], ["mail", "unpack", "game/turns/{turn}", "game/game.toml", "--into", "copy"],
]


def resign_latest_turn(copy: Path, change: Any, section: bool) -> str:
    """Rewrite the latest turn of ``copy/game`` with ``change`` made to it (or to alice's sealed section),
    signed by the game's referee key as the referee signs: a file of the referee whose form is not one
    pbem writes. Returns the turn file's name."""
    import json

    from pbem.crypto.keys import load_private_key
    from pbem.crypto.seal import open_sealed, seal
    from pbem.crypto.signing import sign_document
    from pbem.referee.storage import dump_json

    latest = max((copy / "game" / "turns").glob("*.json"))
    doc = json.loads(latest.read_text())
    doc.pop("signature")
    if section:
        alice = load_private_key(copy / "keys" / "alice.key", name="alice")
        doc["sealed"]["alice"] = seal(change(open_sealed(doc["sealed"]["alice"], alice)), [alice.public])
    else:
        doc = change(doc)
    referee = load_private_key(copy / "keys" / "referee.key", name="referee")
    latest.write_bytes(dump_json(sign_document(doc, referee)))
    return latest.name


@pytest.mark.parametrize("section", [False, True], ids=["turn", "alice's section"])
@settings(max_examples=40, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_players_commands_on_an_odd_turn_the_referee_signed_exit_with_a_documented_code_and_change_nothing(
        section: bool, data: st.DataObject, world: Path) -> None:
    import json

    from pbem.crypto.keys import load_private_key
    from pbem.crypto.seal import open_sealed

    latest = max((world / "game" / "turns").glob("*.json"))
    doc = json.loads(latest.read_text())
    if section:
        doc = open_sealed(doc["sealed"]["alice"], load_private_key(world / "keys" / "alice.key", name="alice"))
    odd = data.draw(changed(doc, skip=("signature",)))
    command = data.draw(st.sampled_from(PLAYER_COMMANDS))
    with fresh_copy(world) as copy:
        name = resign_latest_turn(copy, lambda _doc: odd, section)
        args = [arg.replace("{turn}", name) for arg in command]
        before = files_of(copy)
        result = runner.invoke(app, args)
        after = files_of(copy)
    shown = f"pbem {' '.join(args)} on a turn whose {'section' if section else 'file'} is {odd!r:.300}: " \
            f"exit {result.exit_code}\n{result.output}"
    assert result.exception is None or isinstance(result.exception, SystemExit), (shown, result.exception)
    assert result.exit_code in EXIT_CODES and result.exit_code != InternalError.exit_code, shown
    assert "Traceback" not in result.output, shown
    if result.exit_code != 0:
        assert after == before, shown

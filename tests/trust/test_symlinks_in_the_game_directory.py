"""The referee never follows a symbolic link in a game directory.

The git flow lets players push symbolic links: ``rejected/`` or ``views/bob``
pointing elsewhere on the referee's machine would have the referee write
there, and a turn file linked to a private file would have it read that.
Every step (and ``status``, ``view``, ``log``, ``verify``) refuses a game
directory holding a symbolic link anywhere, with a clear error, writing
nothing. Temporary files get random names and are opened with ``O_EXCL |
O_NOFOLLOW``, so a link planted where one will be written is never written
through either.
"""

from __future__ import annotations

import os
import shutil
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest
from helpers_referee import make_table, snapshot
from helpers_trust import joining_table, record_reads
from typer.testing import CliRunner

import pbem.durable as durable
from pbem.cli.main import app
from pbem.durable import atomic_write
from pbem.referee import public_log, read_view, reveal, status, submit, verify
from pbem.referee.errors import GameDirError, VerificationFailed
from pbem.referee.joins import make_join


def outside_files(where: Path) -> dict[str, bytes]:
    return {str(p.relative_to(where)): p.read_bytes() for p in sorted(where.rglob("*")) if p.is_file()}


def test_a_temporary_file_planted_as_a_symlink_is_never_written_through(tmp_path: Path) -> None:
    """The old temporary name was ``.tmp-NAME.PID``: predictable, opened with O_TRUNC, following links."""
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    target = tmp_path / "dir" / "latest.json"
    target.parent.mkdir()
    (target.parent / f".tmp-latest.json.{os.getpid()}").symlink_to(victim)
    atomic_write(target, b"new")
    assert target.read_bytes() == b"new" and victim.read_bytes() == b"precious"


def test_a_temporary_file_is_opened_exclusively_and_never_through_a_link(tmp_path: Path, monkeypatch) -> None:
    """Even a link planted at the very random name drawn is refused, not written through."""
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    target = tmp_path / "latest.json"
    monkeypatch.setattr(durable, "temporary_name", lambda path: f".tmp-{path.name}.guessed")
    (tmp_path / ".tmp-latest.json.guessed").symlink_to(victim)
    with pytest.raises(FileExistsError):
        atomic_write(target, b"new")
    assert victim.read_bytes() == b"precious" and not target.exists()


def test_two_writes_of_one_file_use_different_temporary_names(tmp_path: Path, monkeypatch) -> None:
    names: list[str] = []
    real_open = os.open

    def recording_open(path: str, *args: Any, **kwargs: Any) -> int:
        names.append(Path(path).name)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(durable.os, "open", recording_open)
    atomic_write(tmp_path / "f", b"1", sync_dir=False)
    atomic_write(tmp_path / "f", b"2", sync_dir=False)
    assert len(set(names)) == 2 and all(n.startswith(".tmp-f.") for n in names)


def _link_dir(path: Path, outside: Path) -> None:
    """Replace the directory ``path`` by a link to ``outside`` holding the same files."""
    if path.exists():
        shutil.copytree(path, outside)
        shutil.rmtree(path)
    else:
        outside.mkdir(parents=True)
    path.symlink_to(outside, target_is_directory=True)


#: where a hostile player puts a link: (path in the game directory, kind)
LINKS = [("rejected", "dir"), ("views/bob", "dir"), ("moves", "dir"), ("turns/000001.json", "file"),
         (".lock", "file"), ("notes.txt", "file")]


@pytest.mark.parametrize("where,kind", LINKS)
def test_a_step_refuses_a_game_directory_holding_a_symlink_and_writes_nothing(tmp_path: Path, where: str,
                                                                             kind: str) -> None:
    table = make_table(tmp_path)
    good = table.move("alice", table.view("alice").decision.options[0].id)
    outside = tmp_path / "outside"
    link = table.dir / where
    if kind == "dir":
        _link_dir(link, outside)
    else:
        outside.mkdir()
        link.unlink(missing_ok=True)
        link.symlink_to(outside / "target")  # dangling: a write through it would create the target
    before, seen_outside = snapshot(table.dir, skip=()), outside_files(outside)
    for data in (good, b"not json"):
        with pytest.raises(GameDirError, match="symbolic link"):
            submit(table.dir, data, table.referee)
    assert snapshot(table.dir, skip=()) == before and outside_files(outside) == seen_outside
    assert not (outside / "target").exists()
    with pytest.raises(GameDirError, match="symbolic link"):
        reveal(table.dir, table.referee, force=True)
    assert outside_files(outside) == seen_outside


def test_a_join_step_refuses_a_symlinked_joins_folder(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    data = make_join(table.dir, "alice", table.keys["alice"])
    _link_dir(table.dir / "joins", tmp_path / "outside")
    with pytest.raises(GameDirError, match="symbolic link"):
        submit(table.dir, data, table.referee)
    assert outside_files(tmp_path / "outside") == {}


def test_reading_commands_refuse_a_turn_file_linked_elsewhere(tmp_path: Path) -> None:
    """A turn file linked to a private file of whoever runs ``pbem status``/``view``/``log`` is never read."""
    table = make_table(tmp_path)
    secret = tmp_path / "id_ed25519"
    secret.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    turn0 = table.dir / "turns" / "000000.json"
    (tmp_path / "copy.json").write_bytes(turn0.read_bytes())
    (table.dir / "turns" / "000001.json").symlink_to(secret)
    for read in (lambda: status(table.dir), lambda: list(public_log(table.dir)),
                 lambda: read_view(table.dir, "alice", table.keys["alice"])):
        with pytest.raises(GameDirError, match=r"000001.json: a symbolic link"):
            read()


def test_verify_flags_a_symlink_anywhere_in_the_game_directory(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    verify(table.dir)
    (table.dir / "views" / "alice" / "old.json").symlink_to(tmp_path)
    with pytest.raises(VerificationFailed, match="symbolic link") as failed:
        verify(table.dir)
    assert failed.value.path == str(table.dir / "views" / "alice" / "old.json")
    result = CliRunner().invoke(app, ["verify", str(table.dir)])
    assert result.exit_code == 5 and "symbolic link" in result.output


# --- the folders of a game with deadlines: timeouts/ and seats/ ------------------------------------


def deadline_table(tmp_path: Path):
    from datetime import datetime

    return make_table(tmp_path, deadlines=["1h"], now=datetime(2025, 3, 1, 12, 0, tzinfo=UTC))


def test_tick_and_takeover_refuse_a_link_where_they_would_write_their_record(tmp_path: Path) -> None:
    """The next turn's timeout record and seat record are looked at by name before anything is written."""
    from datetime import datetime

    from pbem.crypto.keys import generate
    from pbem.referee.takeover import take_over
    from pbem.referee.tick import tick

    table = deadline_table(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    for folder, name, step in (
        ("timeouts", "000001-alice.json", lambda: tick(table.dir, table.referee, now=datetime(2025, 3, 2, tzinfo=UTC))),
        ("seats", "000001-bob.json", lambda: take_over(table.dir, "bob", generate("bob").public, table.referee)),
    ):
        (table.dir / folder).mkdir()
        link = table.dir / folder / name
        link.symlink_to(outside / "target")  # dangling: a write through it would create the target
        before = snapshot(table.dir, skip=())
        with pytest.raises(GameDirError, match=f"{name}: a symbolic link"):
            step()
        assert snapshot(table.dir, skip=()) == before and not (outside / "target").exists()
        link.unlink()


def test_a_link_in_place_of_an_old_timeout_record_is_never_read_through(tmp_path: Path, monkeypatch) -> None:
    """A stale move's refusal looks for the timeout that answered its decision by name: a link there is
    not read (the message then does not name the timeout); verify names the link."""
    from datetime import datetime, timedelta

    from pbem.referee.errors import StaleMove
    from pbem.referee.tick import tick

    t0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
    table = deadline_table(tmp_path)
    late = table.move("bob", table.view("bob").decision.options[0].id)
    submit(table.dir, table.move("alice", table.view("alice").decision.options[0].id), table.referee, now=t0)
    tick(table.dir, table.referee, now=t0 + timedelta(hours=2))
    record = table.dir / "timeouts" / "000002-bob.json"
    victim = tmp_path / "victim.json"
    victim.write_bytes(record.read_bytes())
    record.unlink()
    record.symlink_to(victim)
    with monkeypatch.context() as watching:
        read = record_reads(watching)
        with pytest.raises(StaleMove) as refused:
            submit(table.dir, late, table.referee, now=t0 + timedelta(hours=3))
    assert victim.resolve() not in read and "timed out" not in refused.value.message
    with pytest.raises(VerificationFailed, match="symbolic link"):
        verify(table.dir)


@pytest.mark.parametrize("where", ["game.toml", "views/alice/latest.age", "turns/000001.json"])
def test_a_fifo_where_a_command_reads_stops_it_instead_of_hanging(tmp_path: Path, where: str) -> None:
    """A player who can write the game directory (a shared folder) makes a FIFO where pbem reads: opening
    it would block every command for ever (and a step would hold the lock). Like a link, a file that is
    not a regular file stops the command first (exit 3, named), before anything is read."""
    from pbem.referee.layout import GameDir

    table = make_table(tmp_path)
    path = table.dir / where
    if path.exists():
        path.unlink()
    os.mkfifo(path)
    gamedir = GameDir.at(table.dir)
    with pytest.raises(GameDirError, match="not a regular file"):
        gamedir.refuse_symlinks(gamedir.turn(1))  # inside turns/, the names a step opens are looked at
    result = CliRunner().invoke(app, ["status", str(table.dir)])
    assert result.exit_code == 3 and "not a regular file" in result.output, result.output
    result = CliRunner().invoke(app, ["verify", str(table.dir)])
    assert result.exit_code == 5 and "not a regular file" in result.output, result.output


@pytest.mark.parametrize("where", ["game.toml", "turns/000000.json"])
def test_a_folder_where_a_command_reads_a_file_is_a_damaged_directory(tmp_path: Path, where: str) -> None:
    """A folder pushed where pbem reads a file (the git flow lets players push folders) is named as
    what it is, exit 3, not a traceback of the operating system's error."""
    table = make_table(tmp_path)
    path = table.dir / where
    path.unlink()
    path.mkdir()
    result = CliRunner().invoke(app, ["status", str(table.dir)])
    assert result.exit_code == 3 and "a folder where a file belongs" in result.output, result.output


def test_a_link_put_in_place_of_a_file_after_it_was_looked_at_is_not_read_through(tmp_path: Path,
                                                                                   monkeypatch) -> None:
    """Between looking at a file and opening it, another process may put a link there: it is refused."""
    import pbem.referee.layout as layout

    secret = tmp_path / "secret"
    secret.write_bytes(b"the referee's private key")
    regular = tmp_path / "regular"
    regular.write_bytes(b"{}")
    path = tmp_path / "000001.json"
    path.symlink_to(secret)
    looked_at = os.lstat(regular)  # what the look found, before the link was put there
    monkeypatch.setattr(layout.os, "lstat", lambda where: looked_at if Path(where) == path else os.stat(where))
    with pytest.raises(GameDirError, match="symbolic link"):
        layout.read_file(path)


def test_a_file_that_grew_after_it_was_looked_at_is_read_whole(tmp_path: Path, monkeypatch) -> None:
    import pbem.referee.layout as layout

    path = tmp_path / "000001.json"
    path.write_bytes(b"x")
    looked_at = os.lstat(path)  # one byte
    data = bytes(range(256)) * 5000  # past one read of the size looked at, and past a chunk of the rest
    path.write_bytes(data)
    monkeypatch.setattr(layout.os, "lstat", lambda where: looked_at)
    assert layout.read_file(path) == data

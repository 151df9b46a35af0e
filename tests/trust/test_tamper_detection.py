"""Tampering with any byte of the archive is detected by ``verify``, which names the file.

A finished toy game with every kind of file (game.toml, pending.json, join
files, turns, moves, views, a rejection notice, reveal.json); in each file,
one byte at a time is flipped at sampled positions (the first, the last, a
layout byte and random ones), and ``verify --replay`` must fail naming that
file. ``--games N`` samples N positions per file instead of 6.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_trust import finished_table, flip

from pbem.engine import Rng
from pbem.referee import submit, verify
from pbem.referee.errors import Refusal, VerificationFailed
from pbem.referee.reveal import reveal


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    table = finished_table(tmp_path_factory.mktemp("tamper"))
    with pytest.raises(Refusal):
        submit(table.dir, b"not a move", table.referee)  # leaves a signed notice in rejected/
    reveal(table.dir, table.referee)
    assert verify(table.dir, replay=True).replayed
    return table.dir


def archive_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.rglob("*") if p.is_file() and p.name != ".lock")


def positions(data: bytes, count: int, rng: Rng) -> list[int]:
    chosen = {0, len(data) - 1}
    layout = [i for i, b in enumerate(data) if b in b" \n"]
    if layout:
        chosen.add(rng.choice(layout))
    while len(chosen) < min(count, len(data)):
        chosen.add(rng.randbelow(len(data)))
    return sorted(chosen)


def test_the_archive_holds_every_kind_of_file(archive: Path) -> None:
    tops = {p.relative_to(archive).parts[0] for p in archive_files(archive)}
    assert tops == {"game.toml", "pending.json", "joins", "turns", "moves", "views", "rejected", "reveal.json"}


def test_one_changed_byte_anywhere_is_detected_and_the_file_named(archive: Path, game_count) -> None:
    rng = Rng.from_seed("tamper")
    checked = 0
    for path in archive_files(archive):
        data = path.read_bytes()
        for position in positions(data, game_count(6), rng):
            flip(path, position)
            try:
                with pytest.raises(VerificationFailed) as caught:
                    verify(archive, replay=True)
                assert caught.value.path == str(path), (
                    f"flipping byte {position} of {path.relative_to(archive)} was blamed on {caught.value.path}"
                )
            finally:
                path.write_bytes(data)
            checked += 1
    assert checked > 100
    assert verify(archive, replay=True).replayed  # every flip was undone


def test_a_removed_move_file_is_named(archive: Path) -> None:
    path = sorted((archive / "moves").iterdir())[3]
    data = path.read_bytes()
    path.unlink()
    try:
        with pytest.raises(VerificationFailed, match="missing") as caught:
            verify(archive)
        assert caught.value.path == str(path)
    finally:
        path.write_bytes(data)

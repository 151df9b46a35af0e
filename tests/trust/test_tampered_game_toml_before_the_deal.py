"""A ``game.toml`` changed while the game waits for joins is never dealt on.

``pending.json`` is signed by the referee and names the hash of the
``game.toml`` it was written for. A seat key swapped in ``game.toml`` before
the joins (say, to seat an impostor as bob) changes that hash: the referee
refuses to take a join or to deal, with a clear error, and writes nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_referee import make_keys, snapshot
from helpers_trust import join, joining_table

from pbem.referee import submit
from pbem.referee.errors import GameDirError
from pbem.referee.gamefile import GameFile


def swap_seat_key(table, player: str, tmp: Path) -> None:
    """Rewrite ``game.toml`` as a hostile editor would: ``player``'s seat gets an impostor's key."""
    keys, _ = make_keys(tmp / "impostor", [player])
    gamefile = GameFile.read(table.dir / "game.toml")
    players = tuple((name, keys[player].public if name == player else key) for name, key in gamefile.players)
    (table.dir / "game.toml").write_bytes(gamefile.replace(players=players).to_toml())
    table.keys[player] = keys[player]


def test_a_join_to_a_game_toml_changed_since_the_pending_seed_is_refused(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    swap_seat_key(table, "bob", tmp_path)
    before = snapshot(table.dir, skip=())
    for player in ("alice", "bob"):
        with pytest.raises(GameDirError, match=r"pending.json.*game.toml"):
            submit(table.dir, join(table, player), table.referee)
    assert snapshot(table.dir, skip=()) == before


def test_join_files_pushed_next_to_a_changed_game_toml_are_not_dealt_on(tmp_path: Path) -> None:
    """The git flow: players push game.toml with a swapped key and every join file; the referee's next run must not deal."""
    table = joining_table(tmp_path)
    swap_seat_key(table, "alice", tmp_path)
    for player in ("alice", "bob"):
        commit = join(table, player)
        (table.dir / "joins" / f"{player}.commit.json").write_bytes(commit)
    for player in ("alice", "bob"):
        (table.dir / "joins" / f"{player}.reveal.json").write_bytes(join(table, player))
    before = snapshot(table.dir, skip=())
    with pytest.raises(GameDirError, match=r"pending.json.*game.toml"):
        submit(table.dir, (table.dir / "joins" / "bob.reveal.json").read_bytes(), table.referee)
    assert snapshot(table.dir, skip=()) == before
    assert not (table.dir / "turns" / "000000.json").exists()

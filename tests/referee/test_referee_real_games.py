"""A short game of every registered game, through the real files (keys, sealed views, signed moves)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_referee import make_keys, validate_directory

from pbem.bots import RandomBot
from pbem.engine import Rng, find_game, game_names
from pbem.referee import make_move, new_game, read_view, status, submit, verify

STEPS = 30


@pytest.mark.parametrize("name", game_names())
def test_a_real_game_plays_through_the_files(name: str, tmp_path: Path) -> None:
    game = find_game(name)
    seats = ["alice", "bob", "carol", "dave"][: max(game.min_players, 2)]
    keys, _ = make_keys(tmp_path / "keys", ["referee", *seats])
    new_game(tmp_path / "game", name, [(p, keys[p].public) for p in seats], keys["referee"], seed=b"\x07" * 32)
    bots = {p: RandomBot(Rng.from_seed(f"real-{p}")) for p in seats}
    for _ in range(STEPS):
        now = status(tmp_path / "game")
        if now.over:
            break
        player = now.awaiting[0]["player"]
        view = read_view(tmp_path / "game", player, keys[player])
        assert view.decision is not None
        choice = bots[player].choose(view.private, view.decision)
        submit(tmp_path / "game", make_move(view, keys[player], [choice]), keys["referee"])
    assert verify(tmp_path / "game").turns >= 2
    validate_directory(tmp_path / "game", keys)
